/**
 * The per-minute series of the operators' 监控 screen (docs/api-metrics.md "Per-minute series";
 * table metric_minutes, migration 0047), shared by every process over one database and costing
 * nothing per message:
 *
 * - accepted / delivered / failed: added by report_fold() (every process folds the report deltas
 *   about once a second), from the figures the report triggers already compute;
 * - every ~10 s (`flush`, config.monitorFlushMs) each process adds the growth of its own counters
 *   since its last write: submitted per channel (the dispatcher's channel counters), delivered /
 *   failed per carrier and per channel (Dispatcher.finals), refused submits per door, code and
 *   reason (the doors' stats) and refused sends of the HTTP API and the console (server/http/
 *   refusals.ts, counted where those answers are made): one upsert adding to the minute's rows. A
 *   write that fails is not lost: the next one adds the same growth;
 * - the gauges are written as sampled: door sessions per protocol by each process (its own rows,
 *   source = its id; the series add the processes up), waiting and unconfirmed messages (database
 *   figures, DbGauges) by the first process to flush in a minute.
 *
 * `minute` is the database's clock (date_trunc('minute', now())): the processes' rows meet in the
 * same minutes whatever their hosts' clocks. `series` reads the last hour or day, with today's
 * budgets computed from what the server keeps anyway (credit alarms: alarmStatsOf, as `npm run cli
 * -- alarm-stats`; verification codes: codeBudgetOf); `purge` drops rows older than
 * config.monitorKeepDays (8).
 */
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import { formatDateTime } from '../../lib/time';
import { AccessProtocol, type Carrier, type MonitorSeries } from '../../../common/generated/schemas';
import monitorEntity from '../../../schemas/entities/monitor-series.json';
import { OPENAPI_ERRORS } from '../openapi';
import { alarmStatsOf } from '../bills';
import { codeBudgetOf } from '../verification';
import type { RefusalCounts } from '../../http/refusals';
import type { DbGauges } from './db-gauges';
import { boundSessions, type DispatcherView, type DoorEntry } from './running';

export type MonitorRange = MonitorSeries['range'];

/** the rows' names (metric_minutes.name) */
export const SERIES = {
  /** report_fold(): messages accepted, delivered, failed (label '') */
  accepted: 'accepted',
  delivered: 'delivered',
  failed: 'failed',
  /** per channel (label: its name, '' the default link) */
  submitted: 'submitted',
  channelDelivered: 'channel_delivered',
  channelFailed: 'channel_failed',
  /** per carrier (label: enums/carrier code) */
  carrierDelivered: 'carrier_delivered',
  carrierFailed: 'carrier_failed',
  /** refused submits of the doors, refused sends of the HTTP API and the console (label: `${protocol} ${code} ${reason}`) */
  refused: 'refused',
  /** gauges: label '' (database figures), protocol (sessions, per process) */
  waiting: 'waiting',
  unconfirmed: 'unconfirmed',
  sessions: 'sessions',
} as const;

const MINUTES: Record<MonitorRange, number> = { hour: 60, day: 1440 };

const PROTOCOLS = new Set<string>(Object.values(AccessProtocol));
/** a protocol of enums/access-protocol.json (a row another version wrote with one this one does not know is left out) */
const isProtocol = (p: string): p is AccessProtocol => PROTOCOLS.has(p);

export interface MonitorSources {
  dispatcher: () => DispatcherView | null;
  doors: () => DoorEntry[];
  gauges: DbGauges;
  /** the HTTP API's and the console's refused sends in this process (server/http/refusals.ts) */
  refusals?: RefusalCounts;
}

/** the Chinese words of the doors' reasons and of the console's kinds (entities/monitor-series.json x-reasons) */
const REASONS: { door: Record<string, string>; console: Record<string, string> } = monitorEntity['x-reasons'];

/** A counter reading: name, label, its value since the source started. */
type Reading = [name: string, label: string, value: number];

const keyOf = (name: string, label: string) => `${name}\u0000${label}`;

/** success ÷ (success + fail) × 100, two decimals; null without outcomes */
const rateOf = (ok: number, fail: number) => (ok + fail > 0 ? Math.round((ok / (ok + fail)) * 10_000) / 100 : null);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

export class MonitorService {
  /** this process in its own gauge rows (metric_minutes.source) */
  readonly source = `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`.slice(0, 100);
  /** the counters as last written, by name and label */
  private last = new Map<string, number>();
  /** the dispatcher those of its readings were taken from (another one starts from 0) */
  private lastDispatcher: DispatcherView | null = null;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly src: MonitorSources,
  ) {}

  /** The counters of this process now (cumulative since each source started). */
  private readings(): { flows: Reading[]; sessions: Reading[] } {
    const flows: Reading[] = [];
    const d = this.src.dispatcher();
    if (d) {
      for (const c of d.channelCounters()) flows.push([SERIES.submitted, c.name, c.counters.submitted]);
      const byChannel = new Map<string, [number, number]>();
      const byCarrier = new Map<number, [number, number]>();
      for (const f of d.finals.values()) {
        const ch = byChannel.get(f.channel) ?? [0, 0];
        ch[0] += f.delivered;
        ch[1] += f.failed;
        byChannel.set(f.channel, ch);
        const ca = byCarrier.get(f.carrier) ?? [0, 0];
        ca[0] += f.delivered;
        ca[1] += f.failed;
        byCarrier.set(f.carrier, ca);
      }
      for (const [label, [ok, fail]] of byChannel)
        flows.push([SERIES.channelDelivered, label, ok], [SERIES.channelFailed, label, fail]);
      for (const [carrier, [ok, fail]] of byCarrier)
        flows.push([SERIES.carrierDelivered, String(carrier), ok], [SERIES.carrierFailed, String(carrier), fail]);
    }
    for (const [label, count] of this.src.refusals?.entries() ?? []) flows.push([SERIES.refused, label, count]);
    const sessions: Reading[] = [];
    for (const e of this.src.doors()) {
      if (!e.door || e.door.port <= 0) continue;
      for (const [key, r] of Object.entries(e.door.stats.refused))
        flows.push([SERIES.refused, `${e.protocol} ${key}`, r.count]);
      sessions.push([SERIES.sessions, e.protocol, boundSessions(e.door)]);
    }
    return { flows, sessions };
  }

  /** Writes this process's share of the current minute (see the file's comment); one flush at a time. */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => (this.flushing = null));
    return this.flushing;
  }

  private async write(): Promise<void> {
    const { flows, sessions } = this.readings();
    const d = this.src.dispatcher();
    if (d !== this.lastDispatcher) {
      // a new dispatcher's counters start at 0: its readings are growth from 0
      for (const name of [
        SERIES.submitted,
        SERIES.channelDelivered,
        SERIES.channelFailed,
        SERIES.carrierDelivered,
        SERIES.carrierFailed,
      ])
        for (const k of [...this.last.keys()]) if (k.startsWith(`${name}\u0000`)) this.last.delete(k);
      this.lastDispatcher = d;
    }
    const grown: Reading[] = [];
    for (const [name, label, value] of flows) {
      const prev = this.last.get(keyOf(name, label)) ?? 0;
      // a counter below its last reading started again (a channel removed and added back)
      const delta = value >= prev ? value - prev : value;
      if (delta > 0) grown.push([name, label, delta]);
    }
    if (grown.length) await this.upsert(grown, '', 'add');
    for (const [name, label, value] of flows) this.last.set(keyOf(name, label), value);
    if (sessions.length) await this.upsert(sessions, this.source, 'set');
    await this.sampleDatabase();
  }

  /** rows of the current minute: `add` to the value there, or `set` it */
  private async upsert(rows: Reading[], source: string, how: 'add' | 'set'): Promise<void> {
    // in key order: two processes adding to the same rows never wait for each other in a cycle
    const sorted = [...rows].sort((a, b) =>
      a[0] === b[0] ? (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) : a[0] < b[0] ? -1 : 1,
    );
    const value = how === 'add' ? sql`m.value + excluded.value` : sql`excluded.value`;
    await sql`
      insert into metric_minutes as m (minute, name, label, source, value)
      select date_trunc('minute', now()), u.name, u.label, ${source}, u.value
      from unnest(${sorted.map((r) => r[0])}::text[], ${sorted.map((r) => r[1])}::text[], ${sorted.map((r) => r[2])}::float8[]) with ordinality as u(name, label, value, n)
      order by u.n
      on conflict (minute, name, label, source) do update set value = ${value}`.execute(this.ctx.db);
  }

  /** the database's gauges of this minute, unless a process wrote them already */
  private async sampleDatabase(): Promise<void> {
    const r = await sql<{ done: boolean }>`
      select exists (select 1 from metric_minutes where minute = date_trunc('minute', now()) and name = ${SERIES.waiting} and label = '' and source = '') as done`.execute(
      this.ctx.db,
    );
    if (r.rows[0]?.done) return;
    const g = await this.src.gauges.read();
    await this.upsert(
      [
        [SERIES.unconfirmed, '', g.unconfirmed],
        [SERIES.waiting, '', g.waiting],
      ],
      '',
      'set',
    );
  }

  /**
   * The last hour's or day's minutes (the current one last), every process together: the 监控
   * screen's data (schemas/entities/monitor-series.json).
   */
  async series(range: MonitorRange): Promise<MonitorSeries> {
    const n = MINUTES[range];
    const r = await sql<{ last: Date }>`select date_trunc('minute', now()) as last`.execute(this.ctx.db);
    const last = new Date(r.rows[0].last).getTime();
    const first = last - (n - 1) * 60_000;
    const rows = await sql<{ minute: Date; name: string; label: string; value: number }>`
      select minute, name, label, sum(value)::float8 as value from metric_minutes
      where minute >= ${new Date(first).toISOString()}::timestamptz and minute <= ${new Date(last).toISOString()}::timestamptz
      group by minute, name, label`.execute(this.ctx.db);

    const zeros = () => new Array<number>(n).fill(0);
    const gaps = () => new Array<number | null>(n).fill(null);
    /** per name, per label: the values by minute */
    const by = new Map<string, Map<string, number[]>>();
    const sampled = new Map<string, boolean[]>();
    for (const row of rows.rows) {
      const i = Math.round((new Date(row.minute).getTime() - first) / 60_000);
      if (i < 0 || i >= n) continue;
      let labels = by.get(row.name);
      if (!labels) by.set(row.name, (labels = new Map()));
      let values = labels.get(row.label);
      if (!values) labels.set(row.label, (values = zeros()));
      values[i] += Number(row.value);
      let seen = sampled.get(row.name);
      if (!seen) sampled.set(row.name, (seen = new Array<boolean>(n).fill(false)));
      seen[i] = true;
    }
    const labelsOf = (name: string) => [...(by.get(name)?.keys() ?? [])];
    const values = (name: string, label = '') => by.get(name)?.get(label) ?? zeros();
    const total = (name: string) => {
      const out = zeros();
      for (const v of by.get(name)?.values() ?? []) for (let i = 0; i < n; i++) out[i] += v[i];
      return out;
    };
    /** a gauge: null where no process sampled it */
    const gauge = (name: string, label = '') => {
      const seen = sampled.get(name);
      const v = values(name, label);
      const out = gaps();
      if (seen) for (let i = 0; i < n; i++) if (seen[i]) out[i] = v[i];
      return out;
    };
    const rates = (ok: number[], fail: number[]) => ok.map((x, i) => rateOf(x, fail[i]));

    const submitted = total(SERIES.submitted);
    const carrierOk = total(SERIES.carrierDelivered);
    const carrierFail = total(SERIES.carrierFailed);
    const carriers = [...new Set([...labelsOf(SERIES.carrierDelivered), ...labelsOf(SERIES.carrierFailed)])]
      // the labels are the dispatcher's carrier codes (enums/carrier)
      .map((c) => Number(c) as Carrier)
      .sort((a, b) => a - b)
      .map((carrier) => {
        const ok = values(SERIES.carrierDelivered, String(carrier));
        const fail = values(SERIES.carrierFailed, String(carrier));
        return {
          carrier,
          delivered: ok,
          failed: fail,
          rate: rates(ok, fail),
          deliveryRate: rateOf(sum(ok), sum(fail)),
        };
      });
    const channels = [
      ...new Set([
        ...labelsOf(SERIES.submitted),
        ...labelsOf(SERIES.channelDelivered),
        ...labelsOf(SERIES.channelFailed),
      ]),
    ]
      .sort()
      .map((channel) => {
        const ok = values(SERIES.channelDelivered, channel);
        const fail = values(SERIES.channelFailed, channel);
        return {
          channel,
          submitted: values(SERIES.submitted, channel),
          delivered: ok,
          failed: fail,
          rate: rates(ok, fail),
          deliveryRate: rateOf(sum(ok), sum(fail)),
        };
      });
    const refusals = labelsOf(SERIES.refused)
      .sort()
      .flatMap((label) => {
        const [protocol, code = '', reason = ''] = label.split(' ');
        if (!isProtocol(protocol)) return [];
        const counts = values(SERIES.refused, label);
        return [{ protocol, code, reason, label: this.reasonLabel(protocol, reason), counts, total: sum(counts) }];
      });
    const sessions = labelsOf(SERIES.sessions)
      .filter(isProtocol)
      .sort()
      .map((protocol) => ({ protocol, counts: gauge(SERIES.sessions, protocol) }));
    const accepted = values(SERIES.accepted);
    const delivered = values(SERIES.delivered);
    const failed = values(SERIES.failed);
    return {
      range,
      start: formatDateTime(new Date(first)),
      end: formatDateTime(new Date(last)),
      stepSeconds: 60,
      minutes: Array.from({ length: n }, (_, i) => formatDateTime(new Date(first + i * 60_000)).slice(0, 16)),
      accepted,
      submitted,
      delivered,
      failed,
      waiting: gauge(SERIES.waiting),
      unconfirmed: gauge(SERIES.unconfirmed),
      totals: {
        accepted: sum(accepted),
        submitted: sum(submitted),
        delivered: sum(delivered),
        failed: sum(failed),
        deliveryRate: rateOf(sum(carrierOk), sum(carrierFail)),
      },
      carriers,
      channels,
      refusals,
      sessions,
      budgets: await this.budgets(),
    };
  }

  /** a refusal's reason in words: the doors' and the console's kinds from the entity, the HTTP API's error message, a console message named by its module */
  private reasonLabel(protocol: AccessProtocol, reason: string): string {
    if (protocol === AccessProtocol.Http)
      return (OPENAPI_ERRORS as Record<string, { msg: string } | undefined>)[reason]?.msg ?? reason;
    if (protocol === AccessProtocol.Console)
      return this.src.refusals?.messageOf(reason) ?? REASONS.console[reason] ?? reason;
    return REASONS.door[reason] ?? reason;
  }

  /** Today's credit-alarm and verification-code figures against their budgets (read now, from what the server keeps). */
  async budgets(): Promise<MonitorSeries['budgets']> {
    const { db, config } = this.ctx;
    const now = this.ctx.now();
    const [alarms, codes] = await Promise.all([
      alarmStatsOf(db, now, config.alarmSmsDaily),
      codeBudgetOf(db, now, config),
    ]);
    return {
      alarms: {
        day: alarms.day,
        budget: alarms.budget,
        sms: alarms.sms,
        left: alarms.left,
        alarmsSent: alarms.alarmsSent,
        skippedCooldown: alarms.skipped.cooldown ?? 0,
        skippedBudget: alarms.skipped.budget ?? 0,
        skippedNoPhone: alarms.skipped['no-phone'] ?? 0,
        pending: alarms.pending,
      },
      codes,
    };
  }

  /** Drops the rows older than `keepDays` (config.monitorKeepDays); how many. */
  async purge(keepDays = this.ctx.config.monitorKeepDays): Promise<number> {
    const r = await sql`delete from metric_minutes where minute < now() - ${keepDays} * interval '1 day'`.execute(
      this.ctx.db,
    );
    return Number(r.numAffectedRows ?? 0);
  }
}
