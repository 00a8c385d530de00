/**
 * A process's pipeline: the SMSC link (SMPP_URL, or an embedded simulator on a loopback port when
 * it is empty), a started Dispatcher with the push hooks, and a Pusher. Used by server/main.ts (embedded default) and
 * server/worker.ts (`npm run worker`). Rules: docs/api-dispatch.md "Processes".
 */
import { sql, type Transaction } from 'kysely';
import type { AppContext } from '../../context';
import type { Database } from '../../db/types';
import { enqueueMo, enqueueReports } from '../push/outbox';
import { enqueueSmppMo, enqueueSmppReceipts } from '../smpp-server';
import { Pusher } from '../push/pusher';
import { createSmscLink, type SmscLinkHandle } from '../smsc/client';
import { describeSmsc, parseSmppUrl, simulatorSettingsFromEnv } from '../smsc/config';
import { startSimulator, type Simulator, type SimulatorSettings } from '../smsc/simulator';
import { Dispatcher, type DispatchHooks, type DispatcherOptions } from './dispatcher';
import type { StoredMo } from './mo';
import type { AppliedReport } from './sql';
import { NeedReport } from '../../../common/generated/schemas';

export interface Pipeline {
  dispatcher: Dispatcher;
  /** sends the delivery reports and uplinks queued in push_outbox */
  pusher: Pusher | null;
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
  /** the embedded simulator's settings (default: SMSC_SIM_* from the environment) */
  simulator?: Partial<SimulatorSettings>;
  /** run a Pusher in this process (default true) */
  push?: boolean;
}

/**
 * The push hooks (server/modules/push): delivery reports of messages that reached a final state,
 * uplinks stored, queued in the transaction that records them (only for accounts with needreport /
 * needmo and a URL: enqueue* checks). `wake` nudges the process's pusher.
 */
export function pushHooks(wake: () => void = () => {}): Required<DispatchHooks> {
  return {
    async reports(trx: Transaction<Database>, rows: AppliedReport[]) {
      // needreport 2: receipts for the account's SMPP receiver session (issue 24, docs/api-smpp.md)
      await enqueueSmppReceipts(trx, rows, new Date());
      const accounts = [...new Set(rows.map((r) => r.account_id))];
      const wanted = await trx.selectFrom('accounts').select('id').where('id', 'in', accounts).where('needreport', '=', NeedReport.SimplePush).where('deliveryurl', '<>', '').execute();
      if (!wanted.length) return;
      const ids = new Set(wanted.map((a) => a.id));
      const mine = await trx
        .selectFrom('sms_messages')
        .select(['id', 'task_id', 'account_id', 'phone', 'state', 'error_code', 'report', 'done_at', 'pieces'])
        .where(sql<boolean>`id = any(${rows.filter((r) => ids.has(r.account_id)).map((r) => r.id)}::int[])`)
        .orderBy('id')
        .execute();
      const tasks = await trx.selectFrom('sms_tasks').select(['id', 'uid']).where('id', 'in', [...new Set(mine.map((r) => r.task_id))]).execute();
      const uid = new Map(tasks.map((t) => [t.id, t.uid]));
      const n = await enqueueReports(
        trx,
        mine.map((r) => ({
          accountId: r.account_id,
          messageId: r.id,
          taskId: uid.get(r.task_id) ?? '',
          phone: r.phone,
          state: r.state,
          errorcode: r.error_code,
          report: r.report,
          doneAt: r.done_at ?? new Date(),
          pieces: r.pieces,
        })),
      );
      if (n) wake();
    },
    async mo(trx: Transaction<Database>, rows: StoredMo[]) {
      // needmo 1 of an SMPP pass-through account (needreport 2): uplinks for its receiver session (docs/api-smpp.md "Uplink")
      await enqueueSmppMo(trx, rows, new Date());
      const n = await enqueueMo(
        trx,
        rows.map((m) => ({ accountId: m.account_id, moId: m.id, phone: m.phone, content: m.content, dest: m.dest, receivedAt: m.received_at })),
      );
      if (n) wake();
    },
  };
}

function int(env: NodeJS.ProcessEnv, name: string, min: number, max: number): number | undefined {
  const v = env[name];
  if (v === undefined || v.trim() === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}`);
  return n;
}

/** DISPATCH_BATCH, DISPATCH_LANES, DISPATCH_LEASE_MS, DISPATCH_MARK_MS, SMS_SOURCE_PREFIX, WORKER_ID */
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
  const mark = int(env, 'DISPATCH_MARK_MS', 0, 600_000);
  if (mark !== undefined) o.markSubmittedMs = mark;
  if (env.WORKER_ID) o.workerId = env.WORKER_ID.slice(0, 100);
  return o;
}

export async function startPipeline(ctx: AppContext, opts: PipelineOptions = {}): Promise<Pipeline> {
  let simulator: Simulator | null = null;
  let url = opts.smppUrl?.trim() || '';
  if (!url) {
    simulator = await startSimulator(opts.simulator ?? (simulatorSettingsFromEnv(process.env)));
    // our own simulator takes (and counts submits by) the ref TLV; a configured SMSC gets none unless asked
    url = `${simulator.url}?ref_tlv=${simulator.settings.refTlv}`;
  }
  const cfg = parseSmppUrl(url);
  const link = createSmscLink(cfg, ctx.log);
  const pusher = opts.push === false ? null : new Pusher({ db: ctx.db, log: ctx.log, now: ctx.now, resolveHost: ctx.resolveHost });
  pusher?.start();
  const dispatcher = new Dispatcher(ctx, link, {
    ...opts.dispatcher,
    hooks: { ...pushHooks(() => pusher?.wake()), ...opts.dispatcher?.hooks },
  }).start();
  let stopped = false;
  return {
    dispatcher,
    pusher,
    link,
    simulator,
    smsc: `${describeSmsc(cfg)}${simulator ? ' (embedded simulator)' : ''}`,
    async stop() {
      if (stopped) return;
      stopped = true;
      await dispatcher.stop();
      await pusher?.stop();
      await link.close();
      await simulator?.close();
    },
  };
}
