// ESLint: typescript-eslint's recommended rules and the React hooks rules, over the console,
// the server, the shared code, scripts, tests and benchmarks. `npm run lint` (part of `npm test`).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { defineConfig, globalIgnores } from 'eslint/config';

export default defineConfig([
  globalIgnores(['dist/', 'storybook-static/', 'src/generated/', 'common/generated/', 'public/mockServiceWorker.js', 'data/', 'test-results/', 'playwright-report/', '.e2e-data*/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      // `any` is allowed where a schema-driven value has no static type (RJSF, ajv, raw bodies)
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', '.storybook/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
  },
]);
