/**
 * A process's pipeline: the SMSC link (SMPP_URL, or an embedded simulator on a loopback port when
 * it is empty) and a started Dispatcher. Used by server/main.ts (embedded default) and
 * server/worker.ts (`npm run worker`). Rules: docs/api-dispatch.md "Processes".
 */
import type { AppContext } from '../../context';
import { createSmscLink, type SmscLinkHandle } from '../smsc/client';
import { describeSmsc, parseSmppUrl } from '../smsc/config';
import { startSimulator, type Simulator, type SimulatorSettings } from '../smsc/simulator';
import { Dispatcher, type DispatcherOptions } from './dispatcher';

export interface Pipeline {
  dispatcher: Dispatcher;
  link: SmscLinkHandle;
  /** the embedded simulator (no SMPP_URL) */
  simulator: Simulator | null;
  /** where the link connects to, without the password */
  smsc: string;
  /** graceful: stop claiming, let batches on the wire be recorded, close the link and the simulator */
  stop(): Promise<void>;
}

export interface PipelineOptions {
  /** smpp://system_id:password@host:port?…; empty: start the embedded simulator */
  smppUrl?: string;
  dispatcher?: DispatcherOptions;
  simulator?: Partial<SimulatorSettings>;
}

function int(env: NodeJS.ProcessEnv, name: string, min: number, max: number): number | undefined {
  const v = env[name];
  if (v === undefined || v.trim() === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}`);
  return n;
}

/** DISPATCH_BATCH, DISPATCH_LANES, DISPATCH_LEASE_MS, SMS_SOURCE_PREFIX, WORKER_ID */
export function dispatcherOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): DispatcherOptions {
  const o: DispatcherOptions = {};
  const batch = int(env, 'DISPATCH_BATCH', 1, 20_000);
  if (batch !== undefined) o.batchSize = batch;
  const lanes = int(env, 'DISPATCH_LANES', 1, 16);
  if (lanes !== undefined) o.lanes = lanes;
  const lease = int(env, 'DISPATCH_LEASE_MS', 5_000, 3_600_000);
  if (lease !== undefined) o.leaseMs = lease;
  if (env.SMS_SOURCE_PREFIX !== undefined) {
    if (!/^[0-9]{0,12}$/.test(env.SMS_SOURCE_PREFIX)) throw new Error('SMS_SOURCE_PREFIX must be at most 12 digits');
    o.sourcePrefix = env.SMS_SOURCE_PREFIX;
  }
  if (env.WORKER_ID) o.workerId = env.WORKER_ID.slice(0, 100);
  return o;
}

export async function startPipeline(ctx: AppContext, opts: PipelineOptions = {}): Promise<Pipeline> {
  let simulator: Simulator | null = null;
  let url = opts.smppUrl?.trim() || '';
  if (!url) {
    simulator = await startSimulator(opts.simulator ?? {});
    url = simulator.url;
  }
  const cfg = parseSmppUrl(url);
  const link = createSmscLink(cfg, ctx.log);
  const dispatcher = new Dispatcher(ctx, link, {
    ...opts.dispatcher,
    hooks: {
      // PUSH: wire server/modules/push enqueueReports / enqueueMo here when that module lands
      // (delivery reports to deliveryurl for needreport accounts, uplinks to mourl for needmo).
      ...opts.dispatcher?.hooks,
    },
  }).start();
  let stopped = false;
  return {
    dispatcher,
    link,
    simulator,
    smsc: `${describeSmsc(cfg)}${simulator ? ' (embedded simulator)' : ''}`,
    async stop() {
      if (stopped) return;
      stopped = true;
      await dispatcher.stop();
      await link.close();
      await simulator?.close();
    },
  };
}
