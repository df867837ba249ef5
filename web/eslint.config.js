// ESLint (flat config): typescript-eslint, the React hooks rules, and the import boundaries of
// bulletproof-react's layout (README 'Layout'): shared code -> features -> app, never sideways.
import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const FEATURES = ['account', 'auth', 'families', 'giving', 'home', 'lists', 'live', 'notification-settings', 'photo', 'product-lookup', 'push', 'wishlist'];

/**
 * import/no-restricted-paths zones. Paths are relative to this file.
 * - a feature imports no other feature (the app composes them: app/routes, app/shell,
 *   app/FeatureBridges);
 * - shared code (components/, lib/) imports no feature and nothing of app/;
 * - a feature takes from app/ only the store hooks and types, the one createApi and the
 *   shell's notices (toasts, the Santa overlay).
 */
export const boundaryZones = [
  ...FEATURES.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`],
    message: 'A feature must not import another feature; compose them in src/app/.',
  })),
  {
    target: ['./src/components', './src/lib'],
    from: ['./src/features', './src/app'],
    message: 'Shared code (components/, lib/) must not import features or the app.',
  },
  {
    target: './src/features',
    from: './src/app',
    except: ['./hooks.ts', './store.ts', './api.ts', './shell/notices.ts'],
    message: 'Features take from app/ only hooks, store types, the api and shell/notices.',
  },
];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'public/sw.js', 'e2e/support/gapi-shim.js', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, import: importPlugin },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } },
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // These three are the React Compiler's checks; we do not compile with it, and the app reads
      // refs and randomness on purpose (the camera controller, the snow) and sets state from
      // browser facts in effects.
      'react-hooks/set-state-in-effect': 'off',
      'react-hooks/refs': 'off',
      'react-hooks/purity': 'off',
      'import/no-restricted-paths': ['error', { zones: boundaryZones }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'src/test/**'],
    languageOptions: { globals: { ...globals.browser, ...globals.node, ...globals.vitest } },
    // Tests capture a hook's result in an outer variable to call it after rendering.
    rules: { 'react-hooks/globals': 'off' },
  },
  {
    files: ['scripts/**/*.{js,mjs}', 'e2e/**/*.{ts,js}', '*.config.{ts,js}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    // Playwright fixtures call `use(...)`, which is not React's `use`.
    files: ['e2e/**/*.ts'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
);
