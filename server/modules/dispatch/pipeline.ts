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
import fs from 'node:fs';
import { checkChannels, ChannelConfigError, describeSmsc, parseChannel, parseChannelTable, parseSmppUrl, simulatorSettingsFromEnv, DEFAULT_FAILOVER_MS, type ChannelSpec } from '../smsc/config';
import { startSimulator, type Simulator, type SimulatorSettings } from '../smsc/simulator';
import { Dispatcher, type ChannelRoute, type DispatchHooks, type DispatcherOptions } from './dispatcher';
import type { StoredMo } from './mo';
import type { AppliedReport } from './sql';
import { NeedReport } from '../../../common/generated/schemas';

export interface Pipeline {
  dispatcher: Dispatcher;
  /** sends the delivery reports and uplinks queued in push_outbox */
  pusher: Pusher | null;
  /** the (first) channel's link */
  link: SmscLinkHandle;
  /** every channel's link ('' = the default link of SMPP_URL / the embedded simulator) */
  links: { name: string; link: SmscLinkHandle }[];
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
  /** the channel table file (JSON; default SMPP_CHANNELS); with it or dispatch_channels rows, SMPP_URL is not used */
  channelsFile?: string;
  /** no channel and no SMPP_URL: fail instead of starting the embedded simulator (npm run worker) */
  requireLink?: boolean;
}

/**
 * The channel table: SMPP_CHANNELS' file, then the enabled dispatch_channels rows (`npm run cli --
 * channel add`; a row named like a channel of the file is left out). Empty: the one default link.
 */
export async function loadChannels(ctx: Pick<AppContext, 'db' | 'log'>, file: string | undefined): Promise<{ channels: ChannelSpec[]; failoverMs: number }> {
  let channels: ChannelSpec[] = [];
  let failoverMs = DEFAULT_FAILOVER_MS;
  if (file?.trim()) {
    let text: string;
    try {
      text = fs.readFileSync(file.trim(), 'utf8');
    } catch (e) {
      throw new ChannelConfigError(`cannot read ${file.trim()} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    ({ channels, failoverMs } = parseChannelTable(text));
  }
  const rows = await ctx.db.selectFrom('dispatch_channels').selectAll().where('enabled', '=', true).orderBy('name').execute();
  for (const r of rows) {
    if (channels.some((c) => c.name === r.name)) {
      ctx.log.warn(`channel ${r.name}: defined in SMPP_CHANNELS too, the database row is not used`);
      continue;
    }
    channels.push(parseChannel({ name: r.name, url: r.url, carriers: r.carriers, international: r.international, sms_types: r.sms_types, priority: r.priority, weight: r.weight, max_per_second: r.max_per_second }));
  }
  checkChannels(channels);
  return { channels, failoverMs };
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

/** DISPATCH_BATCH, DISPATCH_LANES, DISPATCH_LEASE_MS, DISPATCH_MARK_MS, DISPATCH_FAILOVER_MS, DISPATCH_MATCH_UNCONFIRMED_MS, SMS_SOURCE_PREFIX, WORKER_ID */
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
  const match = int(env, 'DISPATCH_MATCH_UNCONFIRMED_MS', 0, 86_400_000);
  if (match !== undefined) o.matchUnconfirmedMs = match;
  const failover = int(env, 'DISPATCH_FAILOVER_MS', 0, 3_600_000);
  if (failover !== undefined) o.failoverMs = failover;
  return o;
}

export async function startPipeline(ctx: AppContext, opts: PipelineOptions = {}): Promise<Pipeline> {
  const table = await loadChannels(ctx, opts.channelsFile ?? process.env.SMPP_CHANNELS);
  let simulator: Simulator | null = null;
  let url = opts.smppUrl?.trim() || '';
  if (table.channels.length) {
    if (url) ctx.log.warn(`dispatch: ${table.channels.length} channels configured, SMPP_URL is not used`);
  } else if (!url) {
    if (opts.requireLink) throw new Error('dispatch: no SMPP_URL, no SMPP_CHANNELS and no channel rows');
    simulator = await startSimulator(opts.simulator ?? (simulatorSettingsFromEnv(process.env)));
    // our own simulator takes (and counts submits by) the ref TLV; a configured SMSC gets none unless asked
    url = `${simulator.url}?ref_tlv=${simulator.settings.refTlv}`;
  }
  const links = table.channels.length
    ? table.channels.map((c) => ({ name: c.name, link: createSmscLink(c.cfg, ctx.log), spec: c }))
    : [{ name: '', link: createSmscLink(parseSmppUrl(url), ctx.log), spec: null }];
  const routes: ChannelRoute[] = links.map(({ name, link, spec }) => ({
    name,
    link,
    ...(spec ? { carriers: spec.carriers, international: spec.international, smsTypes: spec.smsTypes, priority: spec.priority, weight: spec.weight, maxPerSecond: spec.maxPerSecond } : {}),
  }));
  const pusher = opts.push === false ? null : new Pusher({ db: ctx.db, log: ctx.log, now: ctx.now, resolveHost: ctx.resolveHost });
  pusher?.start();
  const dispatcher = new Dispatcher(ctx, table.channels.length ? routes : links[0].link, {
    failoverMs: table.failoverMs,
    ...opts.dispatcher,
    hooks: { ...pushHooks(() => pusher?.wake()), ...opts.dispatcher?.hooks },
  }).start();
  let stopped = false;
  return {
    dispatcher,
    pusher,
    link: links[0].link,
    links: links.map(({ name, link }) => ({ name, link })),
    simulator,
    smsc: table.channels.length
      ? table.channels.map((c) => `${c.name} ${describeSmsc(c.cfg)}`).join(', ')
      : `${describeSmsc(parseSmppUrl(url))}${simulator ? ' (embedded simulator)' : ''}`,
    async stop() {
      if (stopped) return;
      stopped = true;
      await dispatcher.stop();
      await pusher?.stop();
      await Promise.all(links.map((l) => l.link.close()));
      await simulator?.close();
    },
  };
}
