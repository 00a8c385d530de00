/**
 * The SMPP carrier simulator on its own: `npm run smsc-sim` (tsx server/modules/smsc/sim-main.ts).
 * Settings from SMSC_SIM_* (docs/configuration.md, read by loadConfig(); SMSC_SIM_PORT default 2775).
 * Prints one JSON line {"event":"listening","url":...,"port":...} on stdout when ready.
 *
 * Control without HTTP (the crash test runs the simulator in its own process):
 * - SIGUSR2: write the counters to SMSC_SIM_COUNTS_FILE (default ./smsc-sim-counts.json)
 * - SIGHUP: drop every SMPP connection (the ESMEs reconnect)
 * - SIGTERM / SIGINT: write the counters, then exit
 * The file: { received, accepted, rejected, throttled, distinctRefs, duplicates: [[ref, n]...],
 * receiptsSent, receiptsPending, moSent, binds, bindFailures, sessions, at, refs? } — `refs`
 * (ref → times received) unless SMSC_SIM_COUNTS_REFS=0. Written atomically (temp file + rename).
 *
 * SMSC_SIM_PROTOCOL=cmpp: the CMPP gateway simulator (cmpp-simulator.ts, default port 7890) with
 * the same control; its counters under the same names (reports as receipts), `refs` keyed by
 * destination number (CMPP carries no ref of ours). SMSC_SIM_PROTOCOL=smgp: the SMGP gateway
 * simulator (smgp-simulator.ts, default port 8890), the same way.
 * SMSC_SIM_PROTOCOL=sgip: the SGIP SMG simulator (sgip-simulator.ts, default port 8801, login
 * sp1 / secret) binding back to 127.0.0.1:8802 (login smg / secret) for reports and uplinks, the
 * same control and counters.
 */
import fs from 'node:fs';
import { configOrExit } from '../../config';
import { startSimulator, type SimulatorSettings } from './simulator';
import { startCmppSimulator } from './cmpp-simulator';
import { startSmgpSimulator } from './smgp-simulator';
import { startSgipSimulator } from './sgip-simulator';
import { messageOf } from '../../lib/error-code';

/** the CMPP (or SMGP) simulator behind the SMPP simulator's control surface */
async function startCmpp(settings: Record<string, unknown>, protocol: 'cmpp' | 'smgp' = 'cmpp') {
  const sim =
    protocol === 'smgp'
      ? await startSmgpSimulator({ ...settings, port: settings.port === 2775 ? 8890 : Number(settings.port ?? 0) })
      : await startCmppSimulator({ ...settings, port: settings.port === 2775 ? 7890 : Number(settings.port ?? 0) });
  return {
    url: sim.url,
    port: sim.port,
    refs: sim.phones,
    counts: () => {
      const c = sim.counts();
      const duplicates = [...sim.phones].filter(([, n]) => n > 1);
      return {
        received: c.received,
        accepted: c.accepted,
        rejected: 0,
        throttled: c.throttled,
        distinctRefs: sim.phones.size,
        duplicates,
        receiptsSent: c.reportsSent,
        receiptsPending: c.reportsPending,
        moSent: c.moSent,
        binds: c.connects,
        bindFailures: c.connectFailures,
        sessions: c.sessions,
      };
    },
    dropConnections: () => sim.dropConnections(),
    close: () => sim.close(),
  };
}

/** the SGIP simulator behind the same control surface */
async function startSgip(settings: Record<string, unknown>) {
  const sim = await startSgipSimulator({
    ...settings,
    port: settings.port === 2775 ? 8801 : Number(settings.port ?? 0),
    callbackPort: 8802,
  });
  return {
    url: sim.url,
    port: sim.port,
    refs: sim.phones,
    counts: () => {
      const c = sim.counts();
      return {
        received: c.received,
        accepted: c.accepted,
        rejected: 0,
        throttled: c.throttled,
        distinctRefs: sim.phones.size,
        duplicates: [...sim.phones].filter(([, n]) => n > 1),
        receiptsSent: c.reportsSent,
        receiptsPending: c.reportsPending,
        moSent: c.moSent,
        binds: c.binds,
        bindFailures: c.bindFailures,
        sessions: c.sessions,
      };
    },
    dropConnections: () => sim.dropConnections(),
    close: () => sim.close(),
  };
}

async function main() {
  const { simulator } = configOrExit();
  const settings: Partial<SimulatorSettings> = { port: 2775, ...simulator.settings };
  const countsFile = simulator.countsFile;
  const withRefs = simulator.countsRefs;
  const sim =
    simulator.protocol === 'cmpp' || simulator.protocol === 'smgp'
      ? await startCmpp(settings, simulator.protocol)
      : simulator.protocol === 'sgip'
        ? await startSgip(settings)
        : await startSimulator(settings);

  const dump = () => {
    const counts: Record<string, unknown> = { ...sim.counts(), at: new Date().toISOString() };
    if (withRefs) counts.refs = Object.fromEntries(sim.refs);
    const tmp = `${countsFile}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(counts));
    fs.renameSync(tmp, countsFile);
  };
  process.on('SIGUSR2', () => {
    try {
      dump();
      console.log(JSON.stringify({ event: 'counts', file: countsFile }));
    } catch (e) {
      console.error(`cannot write ${countsFile}: ${messageOf(e)}`);
    }
  });
  process.on('SIGHUP', () => {
    sim.dropConnections();
    console.log(JSON.stringify({ event: 'dropped' }));
  });
  const stop = async () => {
    try {
      dump();
    } catch (e) {
      console.error(`cannot write ${countsFile}: ${messageOf(e)}`);
    }
    await sim.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
  console.log(JSON.stringify({ event: 'listening', url: sim.url, port: sim.port, countsFile }));
}

void main().catch((e) => {
  console.error(e);
  process.exit(1);
});
