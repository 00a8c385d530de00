import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import fs from 'node:fs';
import path from 'node:path';
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import { playwright } from '@vitest/browser-playwright';
import { lateDeps } from './.storybook/late-deps';
import { generate } from './scripts/generate';

// src/generated and common/generated are not committed: every test run (any project, any file)
// starts from files generated from the schemas/ of this checkout.
await generate();

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

const alias = {
  '@': path.resolve(import.meta.dirname, 'src'),
  'markdown-to-jsx/react': path.resolve(import.meta.dirname, 'src/lib/plain-markdown.tsx'),
};

// node_modules may be a symlink (git worktrees share one install): let the browser-mode dev
// server serve files from its real location too.
const nodeModules = fs.realpathSync(path.resolve(import.meta.dirname, 'node_modules'));

export default defineConfig({
  plugins: [react()],
  resolve: { alias },
  optimizeDeps: { include: lateDeps },
  server: { fs: { allow: [import.meta.dirname, nodeModules] } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts', 'tests/schema/**/*.test.ts'],
          globalSetup: ['tests/server/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // two files at once on two cores: more would make the tests that measure time (throttling,
          // failover, liveness) depend on the machine's load
          maxWorkers: 2,
          // one module graph per worker rather than per file: the server's modules are imported and
          // its schemas compiled once (ServerSchemas.shared), not 106 times; ten files measured 99 →
          // 67 s, 158 → 101 s of CPU. The server builds many apps per process by design (every
          // test does); a file that mocks a module (vi.mock) must be its only importer
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['tests/unit/**/*.test.{ts,tsx}', 'src/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/unit/setup.ts'],
          testTimeout: 30_000,
          // one jsdom and one module graph per worker rather than per file: 345 s → about 130 s; the
          // setup file resets what tests share (DOM, mocks, storage) after each test
          isolate: false,
          // Refine's router binding through vite too, so it and the app share one react-router
          // (externalised, Node loaded a second copy and <Authenticated> found no router)
          server: { deps: { inline: ['@refinedev/react-router'] } },
        },
      },
      {
        extends: true,
        plugins: [storybookTest({ configDir: path.join(import.meta.dirname, '.storybook') })],
        test: {
          name: 'storybook',
          // the story files of a worker one after another in one page (as the unit project's
          // jsdom), not each in a fresh iframe that imports the app and the setup again: on this
          // machine, a load of 10-17 from other work, 1,884 → 944 s for the 647 stories (the test
          // processes' CPU 337 → 117 s). Each story starts as a fresh page, as the stories of one file
          // always have (withApp: its own router, query client, session notes; MSW: its own handlers)
          isolate: false,
          // browser timing on a loaded two-core CI machine: a story that fails is run once more
          // (as Playwright's end-to-end tests are); a real failure fails twice
          retry: process.env.CI ? 1 : 0,
          testTimeout: 60_000,
          // two story files at once, each in its own page (vitest's default is cores − 1, one here):
          // 582 s → 416 s for the 633 stories on this two-core machine
          maxWorkers: 2,
          browser: {
            enabled: true,
            headless: true,
            // a browser far from Asia/Shanghai (and with daylight saving): the console's business
            // days and times must be Shanghai's whatever the browser's zone (src/lib/businessTime.ts)
            provider: playwright({
              launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS },
              // reduced motion: antd without animations (src/providers/BaseProviders.tsx), so a play
              // function does not wait for a dialog or a menu to finish moving
              contextOptions: { timezoneId: 'America/New_York', reducedMotion: 'reduce' },
            }),
            instances: [{ browser: 'chromium' }],
          },
          setupFiles: ['.storybook/vitest.setup.ts'],
        },
      },
    ],
  },
});
