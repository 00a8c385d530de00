/**
 * Throughput of the SMPP link (server/modules/smsc/client.ts) against the carrier simulator
 * (simulator.ts), no database: messages/s from the first submit to the last submit_sm_resp, and
 * to the last receipt handed to the handler (every message delivered, receipts after 0-20 ms).
 *
 *   tsx bench/smpp.ts [--n=100000] [--window=200] [--connections=1] [--batch=1000] [--sim-process]
 *
 * Default 30,000 messages (BENCH_FULL=1: 100,000). --sim-process runs the simulator in its own
 * process (npm run smsc-sim) instead of this one, as a real SMSC would be.
 * Target: submit → receipt ≥ 5,000 messages/s (the end-to-end target of issue 10 needs at least that).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { createSmscLink } from '../server/modules/smsc/client';
import { parseSmppUrl } from '../server/modules/smsc/config';
import { startSimulator, type Simulator } from '../server/modules/smsc/simulator';
import type { SubmitRequest } from '../server/modules/smsc/types';

const arg = (name: string, dflt: number) => {
  const a = process.argv.find((x) => x.startsWith(`--${name}=`));
  return a ? Number(a.split('=')[1]) : dflt;
};
const N = arg('n', process.env.BENCH_FULL ? 100_000 : 30_000);
const WINDOW = arg('window', 200);
const CONNECTIONS = arg('connections', 1);
const BATCH = arg('batch', 1000);
const SIM_PROCESS = process.argv.includes('--sim-process');
const TARGET = 5000;

let sim: Simulator | null = null;
let child: ChildProcess | null = null;
let url: string;
if (SIM_PROCESS) {
  child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, '../server/modules/smsc/sim-main.ts')],
    {
      env: {
        ...process.env,
        SMSC_SIM_PORT: '0',
        SMSC_SIM_DELIVERED: '1',
        SMSC_SIM_FAILED: '0',
        SMSC_SIM_NO_RECEIPT: '0',
        SMSC_SIM_MO_RATIO: '0',
        SMSC_SIM_LATENCY_MS: '0-20',
        SMSC_SIM_SEED: '1',
        SMSC_SIM_COUNTS_FILE: path.join(process.env.TMPDIR ?? '/tmp', `smpp-bench-${process.pid}.json`),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  url = await new Promise<string>((resolve, reject) => {
    const rl = readline.createInterface({ input: child!.stdout! });
    rl.on('line', (line) => {
      try {
        const m = JSON.parse(line);
        if (m.event === 'listening') resolve(m.url);
      } catch {
        // not ours
      }
    });
    child!.once('exit', () => reject(new Error('simulator exited')));
  });
} else {
  sim = await startSimulator({
    delivered: 1,
    failed: 0,
    noReceipt: 0,
    moRatio: 0,
    latencyMinMs: 0,
    latencyMaxMs: 20,
    seed: 1,
    keepRecent: 0,
  });
  url = sim.url;
}

const link = createSmscLink(
  parseSmppUrl(`${url}?ref_tlv=0x1401&window=${WINDOW}&connections=${CONNECTIONS}&source=10690001`),
);
let receipts = 0;
let lastReceiptAt = 0;
let allReceipts!: () => void;
const receiptsDone = new Promise<void>((r) => (allReceipts = r));
link.onReceipts(async (r) => {
  receipts += r.length;
  lastReceiptAt = performance.now();
  if (receipts >= N) allReceipts();
});
await link.waitReady(10_000);
await new Promise((r) => setTimeout(r, 200)); // every connection bound

const texts = ['【云讯通】您的验证码是123456，5分钟内有效。', '【云讯通】尊敬的客户，您本月账单已出，请登录查看。'];
const requests: SubmitRequest[] = Array.from({ length: N }, (_, i) => ({
  ref: i + 1,
  to: `138${String(i).padStart(8, '0')}`,
  from: '',
  text: texts[i % 2],
}));

const cpu0 = process.cpuUsage();
const t0 = performance.now();
let accepted = 0;
let other = 0;
// a few batches in flight at once, as dispatch workers would
const inFlight = new Set<Promise<void>>();
for (let i = 0; i < N; i += BATCH) {
  const p: Promise<void> = link
    .submit(requests.slice(i, i + BATCH))
    .then((res) => {
      for (const r of res) {
        if (r.status === 'accepted') accepted++;
        else other++;
      }
    })
    .finally(() => inFlight.delete(p));
  inFlight.add(p);
  if (inFlight.size >= 4) await Promise.race(inFlight);
}
await Promise.all(inFlight);
const tResp = performance.now() - t0;
let waitTimer: NodeJS.Timeout | undefined;
await Promise.race([receiptsDone, new Promise((r) => (waitTimer = setTimeout(r, 60_000)))]);
clearTimeout(waitTimer);
const tReceipt = lastReceiptAt - t0;
const cpu = process.cpuUsage(cpu0);

const perSec = (ms: number) => Math.round((N / ms) * 1000);
console.log(
  `SMPP link + simulator (${SIM_PROCESS ? 'simulator in its own process' : 'same process'}), ${N.toLocaleString('en')} messages, window ${WINDOW} × ${CONNECTIONS} connection(s), batches of ${BATCH}`,
);
console.log(
  `  submit → submit_sm_resp: ${perSec(tResp).toLocaleString('en')} msg/s (${(tResp / 1000).toFixed(2)} s; accepted ${accepted}, other ${other})`,
);
console.log(
  `  submit → receipt:        ${perSec(tReceipt).toLocaleString('en')} msg/s (${(tReceipt / 1000).toFixed(2)} s; receipts ${receipts})`,
);
const cpuUs = (cpu.user + cpu.system) / N;
console.log(
  `  CPU of this process: ${cpuUs.toFixed(0)} µs per message (${SIM_PROCESS ? 'link only' : 'link + simulator'}; one free core would do ${Math.round(1e6 / cpuUs).toLocaleString('en')} msg/s), ${((cpu.user + cpu.system) / 1000 / (tReceipt / 1000) / 10).toFixed(0)} % of one core during the run`,
);
if (sim) {
  const c = sim.counts();
  console.log(
    `  simulator: received ${c.received}, duplicates ${c.duplicates.length}, receipts sent ${c.receiptsSent}`,
  );
}
await link.close();
await sim?.close();
if (child) {
  child.kill('SIGTERM');
  await new Promise((r) => child!.once('exit', r));
}
const [load1] = os.loadavg();
if (load1 > os.cpus().length)
  console.log(
    `  note: machine busy (load ${load1.toFixed(1)} on ${os.cpus().length} cores): the msg/s figures are contention-bound; CPU per message is the comparable figure`,
  );
const ok = receipts >= N && accepted === N && perSec(tReceipt) >= TARGET;
console.log(
  ok
    ? `  target ≥ ${TARGET.toLocaleString('en')}/s submit → receipt: met`
    : `  target ≥ ${TARGET.toLocaleString('en')}/s submit → receipt: MISSED`,
);
process.exitCode = ok ? 0 : 1;
