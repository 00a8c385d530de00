import fs from 'node:fs';
import { defineConfig, type PlaywrightTestConfig } from '@playwright/test';

/**
 * End-to-end tests in Debian's Chromium against the real server, started as `npm start` starts it
 * (the built console and /api on one origin), on a fresh data directory.
 *
 * The spec files are split between E2E_SERVERS projects (2 by default; 1: one server, as before)
 * that run at once, one worker each, each against a server of its own: its own port, data
 * directory, SMPP carrier simulator and customers' listeners. A test reads its project's server
 * with e2eServer() (tests/e2e/server.ts). Every spec file belongs to exactly one project.
 */
const PORT = Number(process.env.E2E_PORT ?? 4173);
const DATA_DIR = process.env.E2E_DATA_DIR ?? '.e2e-data';
const SERVERS = Math.max(1, Number(process.env.E2E_SERVERS ?? 2));
const TEST_DIR = 'tests/e2e';

/** One project's server (tests/e2e/server.ts hands it to the tests). */
export interface E2EServer {
  port: number;
  dataDir: string;
  /**
   * The embedded SMPP carrier simulator's port (credentials smsp / smsp): a channel added in 通道
   * can point at it (tests/e2e/operator-channels.spec.ts). Derived from the server's port, so runs
   * on different ports do not collide.
   */
  simPort: number;
  /** the customers' SMPP and CMPP listeners (the interface info and the help documents show them) */
  smppPort: number;
  cmppPort: number;
}

/**
 * The i-th server: the first on E2E_PORT with E2E_DATA_DIR and `npm start`'s listener ports (SMPP
 * 2775, CMPP 7890, SMGP 8890, SGIP 8801), the others on the following ports, `-2`, `-3` data
 * directories and listener ports derived from their own port.
 */
function server(i: number): E2EServer & { smgpPort: number; sgipPort: number } {
  const port = PORT + i;
  const simBase = process.env.E2E_SIM_PORT ? Number(process.env.E2E_SIM_PORT) : PORT + 2000;
  return {
    port,
    dataDir: i === 0 ? DATA_DIR : `${DATA_DIR}-${i + 1}`,
    simPort: simBase + i,
    smppPort: i === 0 ? 2775 : port + 3000,
    cmppPort: i === 0 ? 7890 : port + 4000,
    smgpPort: i === 0 ? 8890 : port + 5000,
    sgipPort: i === 0 ? 8801 : port + 6000,
  };
}

/**
 * Each spec file's time in seconds, measured in one run with one worker (CI=true, this two-core
 * machine, 2026-12-07, busy with other work: 25 min in all): the split below balances the projects by it. A spec file not listed counts
 * as DEFAULT_SECONDS until it is measured and added.
 */
const SECONDS: Record<string, number> = {
  'auth.spec.ts': 65,
  'blacklist.spec.ts': 18,
  'certification.spec.ts': 12,
  'every-screen.spec.ts': 174,
  'interface-settings.spec.ts': 16,
  'invoice.spec.ts': 106,
  'list-columns.spec.ts': 108,
  'lists.spec.ts': 97,
  'network-blip.spec.ts': 22,
  'notices-content.spec.ts': 66,
  'operator-channels.spec.ts': 108,
  'operator-content.spec.ts': 50,
  'operator-customers.spec.ts': 99,
  'operator-review.spec.ts': 116,
  'own-bill.spec.ts': 54,
  'pay.spec.ts': 26,
  'purchase.spec.ts': 53,
  'reports.spec.ts': 85,
  'send-ux.spec.ts': 20,
  'sending.spec.ts': 62,
  'signs.spec.ts': 27,
  'subaccounts.spec.ts': 18,
  'templates.spec.ts': 51,
  'upload.spec.ts': 34,
  'variable-international.spec.ts': 38,
};
const DEFAULT_SECONDS = 30;

/**
 * The spec files of each project: the longest first, each to the project with the least time so
 * far (ties: the lower index). A stable split: it depends only on the file names and SECONDS.
 */
function split(n: number): string[][] {
  const files = fs
    .readdirSync(TEST_DIR)
    .filter((f) => f.endsWith('.spec.ts'))
    .sort();
  const cost = (f: string) => SECONDS[f] ?? DEFAULT_SECONDS;
  const byCost = [...files].sort((a, b) => cost(b) - cost(a) || a.localeCompare(b));
  const parts = Array.from({ length: n }, () => ({ files: [] as string[], seconds: 0 }));
  for (const f of byCost) {
    const part = parts.reduce((min, p) => (p.seconds < min.seconds ? p : min));
    part.files.push(f);
    part.seconds += cost(f);
  }
  return parts.map((p) => p.files.sort());
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const projects: PlaywrightTestConfig['projects'] = split(SERVERS).map((files, i) => {
  const s = server(i);
  return {
    name: `e2e-${i + 1}`,
    testMatch: files.map((f) => new RegExp(`[\\\\/]${escape(f)}$`)),
    // one test at a time against a server: the tests share its data
    workers: 1,
    metadata: { server: s },
    use: { baseURL: `http://127.0.0.1:${s.port}` },
  };
});

const webServer: PlaywrightTestConfig['webServer'] = Array.from({ length: SERVERS }, (_, i) => {
  const s = server(i);
  return {
    name: `server-${i + 1}`,
    command: `rm -rf ${s.dataDir} && node --import tsx server/main.ts`,
    url: `http://127.0.0.1:${s.port}/api/login/timeout`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: {
      PORT: String(s.port),
      HOST: '127.0.0.1',
      DATA_DIR: s.dataDir,
      NODE_ENV: 'production',
      // the sandbox payment provider (tests/e2e/pay.spec.ts) and the address its QR link names
      PAY_SANDBOX: '1',
      PAY_PUBLIC_URL: `http://127.0.0.1:${s.port}/api`,
      // the embedded SMPP carrier simulator: every message gets a receipt within 0.3 s (seeded mix of
      // delivered / failed), and every recipient replies (the uplink page of tests/e2e/sending.spec.ts)
      SMSC_SIM_SEED: '7',
      SMSC_SIM_NO_RECEIPT: '0',
      SMSC_SIM_LATENCY_MS: '50-300',
      SMSC_SIM_MO_RATIO: '1',
      SMSC_SIM_MO_DELAY_MS: '200',
      SMSC_SIM_PORT: String(s.simPort),
      // the customers' listeners: two servers must not ask for the same ports
      SMPP_SERVER_PORT: String(s.smppPort),
      CMPP_SERVER_PORT: String(s.cmppPort),
      SMGP_SERVER_PORT: String(s.smgpPort),
      SGIP_SERVER_PORT: String(s.sgipPort),
    },
    stdout: 'ignore',
    stderr: 'pipe',
  };
});

export default defineConfig({
  testDir: TEST_DIR,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  // one worker per project (each project's own limit is one), so the projects run at once
  workers: SERVERS,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  outputDir: 'test-results/e2e',
  use: {
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
  projects,
  webServer,
});
