/**
 * A process's pipeline: the SMSC link (SMPP_URL, or an embedded simulator on a loopback port when
 * it is empty), a started Dispatcher with the push hooks, and a Pusher. Used by server/main.ts (embedded default) and
 * server/worker.ts (`npm run worker`). Rules: docs/api-dispatch.md "Processes".
 */
import { sql, type Transaction } from 'kysely';
import type { AppContext } from '../../context';
import { ENV_DEFAULTS } from '../../env';
import type { Database } from '../../db/types';
import { enqueueMo, enqueueReports } from '../push';
import { enqueueSmppMo, enqueueSmppReceipts } from '../smpp-server';
import { watchDispatcher } from '../metrics';
import { Pusher } from '../push';
import fs from 'node:fs';
import {
  createSmscLink,
  startSimulator,
  type Simulator,
  type SimulatorSettings,
  type SmscLinkHandle,
  checkChannels,
  ChannelConfigError,
  describeSmsc,
  parseChannel,
  parseChannelTable,
  parseSmppUrl,
  DEFAULT_FAILOVER_MS,
  type ChannelSpec,
} from '../smsc';
import {
  startCmppSimulator,
  startSgipSimulator,
  startSmgpSimulator,
  type CmppSimulator,
  type SgipLinkHandle,
  type SgipSimulator,
  type SmgpSimulator,
  type SmscLink,
} from '../smsc';
import {
  DEFAULT_SOURCE_PREFIX,
  Dispatcher,
  type ChannelRoute,
  type DispatchHooks,
  type DispatcherOptions,
} from './dispatcher';
import type { StoredMo } from './mo';
import type { AppliedReport } from './sql';
import { NeedReport } from '../../../common/generated/schemas';
import { codeOf } from '../../lib/error-code';

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
  /** the embedded CMPP gateway simulator instead (no SMPP_URL, SMSC_SIM_PROTOCOL=cmpp) */
  cmppSimulator: CmppSimulator | null;
  /** the embedded SMGP gateway simulator instead (no SMPP_URL, SMSC_SIM_PROTOCOL=smgp) */
  smgpSimulator: SmgpSimulator | null;
  /** the embedded SGIP gateway simulator instead (no SMPP_URL, SMSC_SIM_PROTOCOL=sgip) */
  sgipSimulator: SgipSimulator | null;
  /** where the link connects to, without the password */
  smsc: string;
  /** reads the channel table again now (it is every `reloadMs` anyway); true when it changed */
  reload(): Promise<boolean>;
  /** graceful: stop claiming, let batches on the wire be recorded, close the link and the simulator */
  stop(): Promise<void>;
}

export interface PipelineOptions {
  /** smpp://system_id:password@host:port?…; empty: start the embedded simulator */
  smppUrl?: string;
  dispatcher?: DispatcherOptions;
  /** the embedded simulator's settings (SMSC_SIM_*: loadConfig().simulator.settings; default: the simulator's own) */
  simulator?: Partial<SimulatorSettings>;
  /**
   * the embedded simulator's protocol: smpp (default), cmpp (a CMPP 3.0 gateway and a cmpp:// link),
   * smgp (an SMGP 3.0 gateway and an smgp:// link) or sgip (an SMG and an sgip:// link whose callback
   * listener it binds back to); SMSC_SIM_PROTOCOL
   */
  simulatorProtocol?: 'smpp' | 'cmpp' | 'smgp' | 'sgip';
  /** run a Pusher in this process (default true) */
  push?: boolean;
  /** the channel table file (JSON; SMPP_CHANNELS); with it or dispatch_channels rows, SMPP_URL is not used */
  channelsFile?: string;
  /** no channel and no SMPP_URL: fail instead of starting the embedded simulator (npm run worker) */
  requireLink?: boolean;
  /** the channel table (file and rows) is read again this often; a change is routed by from the next claim (DISPATCH_CHANNEL_RELOAD_MS; 0: never) */
  reloadMs?: number;
}

/**
 * The channel table: SMPP_CHANNELS' file, then the enabled dispatch_channels rows (`npm run cli --
 * channel add`; a row named like a channel of the file is left out). Empty: the one default link.
 */
export async function loadChannels(
  ctx: Pick<AppContext, 'db' | 'log'>,
  file: string | undefined,
): Promise<{ channels: ChannelSpec[]; failoverMs: number }> {
  let channels: ChannelSpec[] = [];
  let failoverMs = DEFAULT_FAILOVER_MS;
  if (file?.trim()) {
    let text: string;
    try {
      text = fs.readFileSync(file.trim(), 'utf8');
    } catch (e) {
      throw new ChannelConfigError(`cannot read ${file.trim()} (${codeOf(e) ?? 'error'})`);
    }
    ({ channels, failoverMs } = parseChannelTable(text));
  }
  const rows = await ctx.db
    .selectFrom('dispatch_channels')
    .selectAll()
    .where('enabled', '=', true)
    .orderBy('name')
    .execute();
  for (const r of rows) {
    if (channels.some((c) => c.name === r.name)) {
      ctx.log.warn(`channel ${r.name}: defined in SMPP_CHANNELS too, the database row is not used`);
      continue;
    }
    channels.push(
      parseChannel({
        name: r.name,
        url: r.url,
        carriers: r.carriers,
        international: r.international,
        sms_types: r.sms_types,
        priority: r.priority,
        weight: r.weight,
        max_per_second: r.max_per_second,
      }),
    );
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
      // who wants reports, read once: needreport 2 (pass-through: receipts for the account's door
      // sessions, issue 24, docs/api-smpp.md) and needreport 1 with a URL (HTTP pushes). Most
      // console accounts want neither: their batches then cost this one statement
      const accounts = [...new Set(rows.map((r) => r.account_id))];
      const flags = await trx
        .selectFrom('accounts')
        .select(['id', 'needreport', sql<boolean>`deliveryurl <> ''`.as('has_url')])
        .where('id', 'in', accounts)
        .where('needreport', 'in', [NeedReport.PassThrough, NeedReport.SimplePush])
        .execute();
      const passThrough = new Set(flags.filter((a) => a.needreport === NeedReport.PassThrough).map((a) => a.id));
      if (passThrough.size)
        await enqueueSmppReceipts(
          trx,
          rows.filter((r) => passThrough.has(r.account_id)),
          new Date(),
        );
      const ids = new Set(flags.filter((a) => a.needreport === NeedReport.SimplePush && a.has_url).map((a) => a.id));
      if (!ids.size) return;
      const mine = await trx
        .selectFrom('sms_messages')
        .select(['id', 'task_id', 'account_id', 'phone', 'state', 'error_code', 'report', 'done_at', 'pieces'])
        .where(sql<boolean>`id = any(${rows.filter((r) => ids.has(r.account_id)).map((r) => r.id)}::bigint[])`)
        .orderBy('id')
        .execute();
      const tasks = await trx
        .selectFrom('sms_tasks')
        .select(['id', 'uid'])
        .where('id', 'in', [...new Set(mine.map((r) => r.task_id))])
        .execute();
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
        rows.map((m) => ({
          accountId: m.account_id,
          moId: m.id,
          phone: m.phone,
          content: m.content,
          dest: m.dest,
          receivedAt: m.received_at,
        })),
      );
      if (n) wake();
    },
  };
}

/** what makes a channel's link (its URL) and its routing (the rest): a change of the URL means a new link */
function channelKey(c: ChannelSpec) {
  return c.url;
}

export async function startPipeline(ctx: AppContext, opts: PipelineOptions = {}): Promise<Pipeline> {
  const file = opts.channelsFile;
  const table = await loadChannels(ctx, file);
  let simulator: Simulator | null = null;
  let cmppSimulator: CmppSimulator | null = null;
  let smgpSimulator: SmgpSimulator | null = null;
  let sgipSimulator: SgipSimulator | null = null;
  const simProtocol = opts.simulatorProtocol ?? ENV_DEFAULTS.SMSC_SIM_PROTOCOL;
  const configuredUrl = opts.smppUrl?.trim() || '';
  if (table.channels.length && configuredUrl)
    ctx.log.warn(`dispatch: ${table.channels.length} channels configured, SMPP_URL is not used`);
  if (!table.channels.length && !configuredUrl && opts.requireLink)
    throw new Error('dispatch: no SMPP_URL, no SMPP_CHANNELS and no channel rows');

  /** a CMPP link replaces the dispatcher's source prefix with its channel number (src_id) */
  const linkOpts = { sourcePrefix: opts.dispatcher?.sourcePrefix ?? DEFAULT_SOURCE_PREFIX };
  /** the one default link (SMPP_URL, or the embedded simulator), made when the table is empty */
  let fallback: { link: SmscLinkHandle; smsc: string } | null = null;
  const defaultLink = async () => {
    if (fallback) return fallback;
    let url = configuredUrl;
    if (!url && simProtocol === 'cmpp') {
      cmppSimulator ??= await startCmppSimulator(opts.simulator ?? {});
      // Src_Id = the platform's source (prefix + account + extension) as it is: src_id = the prefix
      url = `${cmppSimulator.url}?version=3&src_id=${linkOpts.sourcePrefix}`;
    } else if (!url && simProtocol === 'smgp') {
      smgpSimulator ??= await startSmgpSimulator(opts.simulator ?? {});
      // SrcTermID = the platform's source as it is: src = the prefix
      url = `${smgpSimulator.url}?src=${linkOpts.sourcePrefix}`;
    } else if (!url && simProtocol === 'sgip') {
      sgipSimulator ??= await startSgipSimulator(opts.simulator ?? {});
      // SPNumber = the platform's source as it is; the SMG binds back to a loopback listener on a free port
      const st = sgipSimulator.settings;
      url = `${sgipSimulator.url}?sp_number=${linkOpts.sourcePrefix}&prefix=${linkOpts.sourcePrefix}&callback_port=0&callback_host=127.0.0.1&callback_user=${encodeURIComponent(st.callbackUser)}&callback_password=${encodeURIComponent(st.callbackPassword)}`;
    } else if (!url) {
      simulator ??= await startSimulator(opts.simulator ?? {});
      // our own simulator takes (and counts submits by) the ref TLV; a configured SMSC gets none unless asked
      url = `${simulator.url}?ref_tlv=${simulator.settings.refTlv}`;
    }
    const cfg = parseSmppUrl(url);
    const link = createSmscLink(cfg, ctx.log, linkOpts);
    if (sgipSimulator && !configuredUrl) {
      const port = await (link as SgipLinkHandle).callbackListening();
      if (port) sgipSimulator.bindBackTo(port, '127.0.0.1');
    }
    fallback = {
      link,
      smsc: `${describeSmsc(cfg)}${simulator || cmppSimulator || smgpSimulator || sgipSimulator ? ' (embedded simulator)' : ''}`,
    };
    return fallback;
  };

  /** the named channels' links now in use */
  let named = new Map<string, { key: string; link: SmscLinkHandle; spec: ChannelSpec }>();
  /** the routes of a table: a channel whose URL did not change keeps its link (`into`: the links by name) */
  const routesOf = (specs: ChannelSpec[], into: typeof named): ChannelRoute[] =>
    specs.map((spec) => {
      let cur = named.get(spec.name);
      if (!cur || cur.key !== channelKey(spec))
        cur = { key: channelKey(spec), link: createSmscLink(spec.cfg, ctx.log, linkOpts), spec };
      into.set(spec.name, { ...cur, spec });
      return {
        name: spec.name,
        link: cur.link,
        carriers: spec.carriers,
        international: spec.international,
        smsTypes: spec.smsTypes,
        priority: spec.priority,
        weight: spec.weight,
        maxPerSecond: spec.maxPerSecond,
      };
    });
  const initial: SmscLink | ChannelRoute[] = table.channels.length
    ? routesOf(table.channels, named)
    : (await defaultLink()).link;

  const pusher =
    opts.push === false ? null : new Pusher({ db: ctx.db, log: ctx.log, now: ctx.now, resolveHost: ctx.resolveHost });
  pusher?.start();
  const dispatcher = new Dispatcher(ctx, initial, {
    failoverMs: table.failoverMs,
    ...opts.dispatcher,
    hooks: { ...pushHooks(() => pusher?.wake()), ...opts.dispatcher?.hooks },
  }).start();
  // its counters on /metrics and in the per-minute series; /readyz waits for it (server/modules/metrics)
  watchDispatcher(ctx, dispatcher);

  let current = table.channels;
  let signature = JSON.stringify(current.map(({ cfg: _cfg, ...rest }) => rest));
  /** links no longer routed to, closed once their slices are recorded */
  const closing = new Set<Promise<void>>();
  let reloading: Promise<void> | null = null;

  /**
   * Reads the table again (SMPP_CHANNELS and the dispatch_channels rows) and, when it changed,
   * routes by it from the next claim on: new channels get a link, removed ones (or ones whose URL
   * changed) are closed once their slices are recorded. A table that does not load is logged and
   * the current one kept.
   */
  async function reload(): Promise<boolean> {
    let next: ChannelSpec[];
    try {
      next = (await loadChannels(ctx, file)).channels;
    } catch (err) {
      ctx.log.error({ err }, 'dispatch: the channel table did not load; the current one is kept');
      return false;
    }
    const sig = JSON.stringify(next.map(({ cfg: _cfg, ...rest }) => rest));
    if (sig === signature) return false;
    if (!next.length && !configuredUrl && opts.requireLink) {
      ctx.log.error('dispatch: every channel was removed and there is no SMPP_URL; the current channels are kept');
      return false;
    }
    const byName = new Map<string, { key: string; link: SmscLinkHandle; spec: ChannelSpec }>();
    const table: SmscLink | ChannelRoute[] = next.length ? routesOf(next, byName) : (await defaultLink()).link;
    named = byName;
    const p = dispatcher.setChannels(table).then(async (unused) => {
      // a link routed to again meanwhile (a later change back) stays open
      const inUse = new Set(links().map((l) => l.link));
      const stale = (unused as SmscLinkHandle[]).filter((l) => !inUse.has(l));
      if (fallback && stale.includes(fallback.link)) fallback = null;
      await Promise.all(stale.map((l) => l.close()));
    });
    closing.add(p);
    void p.finally(() => closing.delete(p));
    signature = sig;
    current = next;
    ctx.log.info(
      `dispatch: channel table changed: ${next.length ? next.map((c) => `${c.name} ${describeSmsc(c.cfg)} (priority ${c.priority}, weight ${c.weight})`).join(', ') : 'none (the default link)'}`,
    );
    return true;
  }

  const reloadMs = opts.reloadMs ?? ENV_DEFAULTS.DISPATCH_CHANNEL_RELOAD_MS;
  const timer =
    reloadMs > 0
      ? setInterval(() => {
          if (reloading) return;
          reloading = reload()
            .then(
              () => undefined,
              (err: unknown) => ctx.log.error({ err }, 'dispatch: channel reload failed'),
            )
            .finally(() => (reloading = null));
        }, reloadMs)
      : null;
  timer?.unref();

  let stopped = false;
  const links = () =>
    current.length
      ? current.map((c) => ({ name: c.name, link: named.get(c.name)!.link }))
      : fallback
        ? [{ name: '', link: fallback.link }]
        : [];
  return {
    dispatcher,
    pusher,
    get link() {
      return links()[0]?.link ?? fallback!.link;
    },
    get links() {
      return links();
    },
    get simulator() {
      return simulator;
    },
    get cmppSimulator() {
      return cmppSimulator;
    },
    get smgpSimulator() {
      return smgpSimulator;
    },
    get sgipSimulator() {
      return sgipSimulator;
    },
    get smsc() {
      return current.length
        ? current.map((c) => `${c.name} ${describeSmsc(c.cfg)}`).join(', ')
        : (fallback?.smsc ?? '');
    },
    reload,
    async stop() {
      if (stopped) return;
      stopped = true;
      if (timer) clearInterval(timer);
      await reloading;
      await dispatcher.stop();
      await Promise.all(closing);
      await pusher?.stop();
      await Promise.all(links().map((l) => l.link.close()));
      await simulator?.close();
      await cmppSimulator?.close();
      await smgpSimulator?.close();
      await sgipSimulator?.close();
    },
  };
}
