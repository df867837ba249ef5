/// <reference types="vitest/config" />
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

// The gateway serves the built app and the API from one origin; in `npm run dev`
// Vite proxies /api to a locally running gateway so the browser still sees one origin.
const gateway = process.env.GATEWAY_URL ?? 'http://localhost:8080';

/** Writes /precache-manifest.json: every file of this build, for public/sw.js to cache. */
function precacheManifest(): Plugin {
  return {
    name: 'santa-precache-manifest',
    apply: 'build',
    generateBundle(_options, bundle) {
      const files = Object.keys(bundle)
        .filter((f) => f.startsWith('assets/'))
        .map((f) => `/${f}`)
        .sort();
      this.emitFile({ type: 'asset', fileName: 'precache-manifest.json', source: JSON.stringify(files, null, 1) });
    },
  };
}

export default defineConfig({
  plugins: [react(), precacheManifest()],
  server: {
    proxy: { '/api': { target: gateway, changeOrigin: false } },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Libraries change far less often than our code: chunks of their own stay cached
        // across releases. Firebase is left to the default splitting so the sign-in screen's
        // extra SDK code is downloaded only by that screen.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'router', test: /node_modules[\\/](react-router|cookie|set-cookie-parser)[\\/]/ },
            { name: 'redux', test: /node_modules[\\/](@reduxjs|redux|redux-thunk|react-redux|immer|reselect|use-sync-external-store)[\\/]/ },
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    restoreMocks: true,
  },
});
