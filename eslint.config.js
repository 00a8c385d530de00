// ESLint: typescript-eslint's recommended rules and the React hooks rules, over the console,
// the server, the shared code, scripts, tests and benchmarks. `npm run lint` (part of `npm test`).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { defineConfig, globalIgnores } from 'eslint/config';

// A field holding a stored code: compared with a numeric literal, it is a raw enum value.
const CODE_FIELD = '/state|status|type|mode|kind/i';
const CODE_MESSAGE =
  'Compare a state / status / type / mode / kind with its generated enum constant (common/generated/schemas, e.g. SignState.Deleted), not a number.';
const ENUM_LITERAL_RULES = ['left', 'right']
  .flatMap((side) => {
    const other = side === 'left' ? 'right' : 'left';
    // x.state, state, and Number(x.state)
    return [`${other}.property.name`, `${other}.name`, `${other}.arguments.0.property.name`].map((field) => ({
      selector: `BinaryExpression[operator=/^[!=]==?$/][${side}.value=type(number)][${field}=${CODE_FIELD}]`,
      message: CODE_MESSAGE,
    }));
  })
  .concat(
    ['discriminant.property.name', 'discriminant.name'].map((field) => ({
      selector: `SwitchStatement[${field}=${CODE_FIELD}] > SwitchCase[test.value=type(number)]`,
      message: CODE_MESSAGE,
    })),
    [
      // Kysely: .where('state', '=', 1), eb.case().when('status', '=', 7)
      {
        selector: `CallExpression[callee.property.name=/^(where|orWhere|having|when)$/][arguments.0.value=${CODE_FIELD}][arguments.2.value=type(number)]`,
        message: CODE_MESSAGE,
      },
      // SQL text: sql`... m.state in (4, 6)` interpolates the constants instead
      {
        selector: 'TemplateElement[value.raw=/(state|status|type|mode|kind)\\s*(=|<>|!=|in|not in)\\s*\\(?\\s*[0-9]/i]',
        message: CODE_MESSAGE,
      },
    ],
  );

export default defineConfig([
  globalIgnores([
    'dist/',
    'storybook-static/',
    'src/generated/',
    'common/generated/',
    'public/mockServiceWorker.js',
    '.storybook/public/mockServiceWorker.js',
    'server/db/generated.ts',
    'data/',
    'test-results/',
    'playwright-report/',
    '.e2e-data*/',
  ]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      // schema-driven values are `unknown` until checked (JsonSchema types the keywords the code reads);
      // tests, stories and benchmarks may still reach into loose fixtures with `any`
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // production code has no `any`
    files: ['server/**/*.ts', 'src/**/*.{ts,tsx}', 'common/**/*.ts', 'scripts/**/*.ts'],
    ignores: ['src/**/*.stories.tsx', 'src/stories/**', 'src/**/*.mock.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'error' },
  },
  {
    // stored codes are compared through the generated enum constants (`SignState.Deleted`), never `4`
    files: ['server/**/*.ts', 'src/**/*.{ts,tsx}', 'common/**/*.ts'],
    // a migration is history: it keeps the codes of its time, spelled out
    ignores: ['server/db/migrations.ts', 'server/db/migrations/**'],
    rules: { 'no-restricted-syntax': ['error', ...ENUM_LITERAL_RULES] },
  },
  {
    // the environment is read once, by loadConfig() (server/config.ts: the variables of
    // schemas/config/env.json, checked and typed); everything else takes the config it is given
    files: ['server/**/*.ts', 'common/**/*.ts'],
    ignores: ['server/config.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message:
            'Read settings from the config (loadConfig() in server/config.ts, described in schemas/config/env.json), not process.env.',
        },
      ],
    },
  },
  {
    // import boundaries: a server module reaches another module only through its index.ts (docs in
    // server/modules/module.ts; tests and benchmarks may reach inner files); console pages never
    // import the whole screen table (src/screens.tsx)
    files: ['server/modules/*/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./[^./][^/]*/',
              message: "import another module through its index.ts ('../<module>'), not its inner files",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/resources/**/*.{ts,tsx}', 'src/custom-pages/**/*.{ts,tsx}', 'src/pages/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(@/screens|(\\.\\./)+screens)(\\.tsx)?$',
              message: "pages read their own folder's declarations, never the whole screen table",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', '.storybook/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
  },
  {
    // type-checked rules (typescript-eslint, with the TypeScript project of each file): a promise is
    // awaited or explicitly `void`, never handed where a void callback is expected, only thenables
    // are awaited, and no type assertion says what the type already says
    files: ['server/**/*.ts', 'common/**/*.ts', 'src/**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
    },
  },
]);
