/// <reference types="vitest/config" />
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
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
        .filter((f) => f.startsWith('assets/') && !/\.(gz|br)$/.test(f))
        .map((f) => `/${f}`)
        .sort();
      this.emitFile({ type: 'asset', fileName: 'precache-manifest.json', source: JSON.stringify(files, null, 1) });
    },
  };
}

/**
 * Writes file.gz and file.br beside every compressible file of the build, so the gateway can
 * answer `Accept-Encoding: br, gzip` with a ready file instead of compressing per request.
 */
function precompress(): Plugin {
  const compressible = /\.(js|css|html|svg|json|webmanifest)$/;
  return {
    name: 'santa-precompress',
    apply: 'build',
    writeBundle(options) {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const file = join(dir, name);
          return statSync(file).isDirectory() ? walk(file) : [file];
        });
      for (const file of walk(options.dir ?? 'dist')) {
        if (!compressible.test(file)) continue;
        const bytes = readFileSync(file);
        if (bytes.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), precacheManifest(), precompress()],
  server: {
    proxy: { '/api': { target: gateway, changeOrigin: false } },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: {
      // The precompression step is slow by design (brotli at its best); no timing report for it.
      checks: { bundlerTimings: false },
      output: {
        // Libraries change far less often than our code: chunks of their own stay cached
        // across releases. Firebase is left to the default splitting so the sign-in screen's
        // extra SDK code is downloaded only by that screen.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'router', test: /node_modules[\\/](react-router|cookie|set-cookie-parser)[\\/]/ },
            { name: 'i18n', test: /node_modules[\\/](i18next|react-i18next|i18next-resources-to-backend|html-parse-stringify|void-elements)[\\/]/ },
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
    // The default 5 s is too short for user-event typing when the shared 2-core CI machine is busy.
    testTimeout: 20_000,
  },
});
