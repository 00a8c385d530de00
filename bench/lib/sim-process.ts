/**
 * The SMPP carrier simulator (server/modules/smsc/simulator.ts) in its own process, so that it
 * does not share the dispatcher's core: `startSimProcess(settings)` forks this file, which starts
 * the simulator and answers `counts` requests over the IPC channel (the refs received more than
 * once among them).
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { SimulatorCounts, SimulatorSettings } from '../../server/modules/smsc/simulator';

export interface SimProcess {
  url: string;
  child: ChildProcess;
  /** the counts, what is pending, and the CPU time the simulator process has used (ms) */
  counts(): Promise<SimulatorCounts & { pending: number; cpuMs: number }>;
  update(changes: Partial<SimulatorSettings>): Promise<void>;
  close(): Promise<void>;
}

type Msg = { id: number; type: 'counts' | 'update' | 'close'; changes?: Partial<SimulatorSettings> };

if (process.send && process.argv[2] === '--child') {
  const { startSimulator } = await import('../../server/modules/smsc/simulator');
  const sim = await startSimulator(JSON.parse(process.argv[3] ?? '{}'));
  process.on('message', async (m: Msg) => {
    if (m.type === 'counts') {
      const cpu = process.cpuUsage();
      process.send!({
        id: m.id,
        value: { ...sim.counts(), pending: sim.pending(), cpuMs: (cpu.user + cpu.system) / 1000 },
      });
    } else if (m.type === 'update') {
      sim.update(m.changes ?? {});
      process.send!({ id: m.id, value: null });
    } else if (m.type === 'close') {
      await sim.close();
      process.send!({ id: m.id, value: null });
      process.exit(0);
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.send({ id: 0, value: sim.url });
}

export async function startSimProcess(settings: Partial<SimulatorSettings>): Promise<SimProcess> {
  const child = fork(import.meta.filename, ['--child', JSON.stringify(settings)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let seq = 0;
  const waiting = new Map<number, (v: unknown) => void>();
  const url = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`simulator process exited (${code})`)));
    waiting.set(0, (v) => resolve(v as string));
    child.on('message', (m: { id: number; value: unknown }) => {
      const w = waiting.get(m.id);
      waiting.delete(m.id);
      w?.(m.value);
    });
  });
  child.removeAllListeners('exit');
  const ask = <T>(type: Msg['type'], changes?: Partial<SimulatorSettings>) =>
    new Promise<T>((resolve) => {
      const id = ++seq;
      waiting.set(id, (v) => resolve(v as T));
      child.send({ id, type, changes });
    });
  return {
    url,
    child,
    counts: () => ask('counts'),
    update: (changes) => ask('update', changes),
    async close() {
      if (child.exitCode !== null || !child.connected) return;
      const exited = new Promise((r) => child.once('exit', r));
      await ask('close');
      await exited;
    },
  };
}
