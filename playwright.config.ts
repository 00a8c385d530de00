import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests in Debian's Chromium against the real server, started as `npm start` starts it
 * (the built console and /api on one origin), on a fresh data directory.
 */
const PORT = Number(process.env.E2E_PORT ?? 4173);
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? '.e2e-data';
/**
 * The embedded SMPP carrier simulator's port (credentials smsp / smsp): a channel added in 通道 can
 * point at it (tests/e2e/operator-channels.spec.ts). Derived from the server's port, so runs on
 * different ports do not collide.
 */
export const E2E_SIM_PORT = Number(process.env.E2E_SIM_PORT ?? PORT + 2000);

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  outputDir: 'test-results/e2e',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    // the console turns antd's animations off for it (src/providers/BaseProviders.tsx): no waiting
    // for a dialog or a menu to finish moving before it can be clicked
    reducedMotion: 'reduce',
    screenshot: 'only-on-failure',
    // a trace records screenshots and DOM snapshots all through a test: on CI (which keeps no
    // artifacts, and where a failed test runs once more) only the retry records one, so the
    // passing runs do not pay for it
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    },
  },
  webServer: {
    command: `rm -rf ${E2E_DATA_DIR} && node --import tsx server/main.ts`,
    url: `http://127.0.0.1:${PORT}/api/login/timeout`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: E2E_DATA_DIR,
      NODE_ENV: 'production',
      // the sandbox payment provider (tests/e2e/pay.spec.ts) and the address its QR link names
      PAY_SANDBOX: '1',
      PAY_PUBLIC_URL: `http://127.0.0.1:${PORT}/api`,
      // the embedded SMPP carrier simulator: every message gets a receipt within 0.3 s (seeded mix of
      // delivered / failed), and every recipient replies (the uplink page of tests/e2e/sending.spec.ts)
      SMSC_SIM_SEED: '7',
      SMSC_SIM_NO_RECEIPT: '0',
      SMSC_SIM_LATENCY_MS: '50-300',
      SMSC_SIM_MO_RATIO: '1',
      SMSC_SIM_MO_DELAY_MS: '200',
      SMSC_SIM_PORT: String(E2E_SIM_PORT),
    },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
