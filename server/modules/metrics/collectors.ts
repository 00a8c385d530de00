/**
 * The collectors of an app's registry (docs/api-metrics.md "Metrics"): every family but the
 * statement histogram reads, at scrape time, counters the process keeps anyway (the doors' `stats`
 * and sessions, the dispatcher's `stats`, channel counters and `finals`, the pg pool), so collecting
 * costs nothing between scrapes. A family whose source does not run in this process (no dispatcher
 * in an API-only process, a door that is off) has no sample.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Db } from '../../db';
import { observeStatements, poolStats } from '../../db';
import { TextHistogram } from '../../http/metrics';
import { COUNT_MAX, type DbGauges } from './db-gauges';
import { boundSessions, type DoorEntry, type Running } from './running';

/** seconds: a prepared lookup (~0.1 ms) to a report's aggregate (seconds) */
export const STATEMENT_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

/** the label of the default link (SMPP_URL, the embedded simulator): its channel name is '' */
export const DEFAULT_CHANNEL_LABEL = '(default)';
export const channelLabel = (name: string) => name || DEFAULT_CHANNEL_LABEL;

type Sample<L extends string> = [Partial<Record<L, string>>, number];

/** A counter family whose samples are read at scrape time (`read`), not incremented as things happen. */
function readCounter<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
  read: () => Iterable<Sample<L>>,
) {
  return new Counter<L>({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      // a family without labels would otherwise show 0 where its source does not run
      if (!labelNames.length) this.remove();
      for (const [labels, v] of read()) this.inc(labels, Math.max(0, v));
    },
  });
}

/** A gauge family read at scrape time (possibly from the database). */
function readGauge<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
  read: () => Iterable<Sample<L>> | Promise<Iterable<Sample<L>>>,
) {
  return new Gauge<L>({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      const samples = await read();
      this.reset();
      if (!labelNames.length) this.remove();
      for (const [labels, v] of samples) this.set(labels, v);
    },
  });
}

/** how long a scrape waits for the database's figures before it answers without them */
export const DB_FIGURES_WAIT_MS = 1000;

/** the database's figures, or null when they fail or take longer than DB_FIGURES_WAIT_MS (the scrape still answers: an outage is when it matters) */
async function figures(gauges: DbGauges) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), DB_FIGURES_WAIT_MS);
  });
  try {
    return await Promise.race([gauges.read().catch(() => null), late]);
  } finally {
    clearTimeout(timer);
  }
}

export interface CollectorSources {
  db: Db;
  doors: () => DoorEntry[];
  running: Running;
  gauges: DbGauges;
}

export interface Collectors {
  /** the families kept by hand (the statement histogram), as Prometheus text */
  render(): string;
  /** undoes what outlives the app (the statement observer on a handle that may serve another app) */
  close(): void;
}

const NO_LABELS = () => ({});

/** Registers the app's families on `registry` (and keeps the statement histogram, rendered by `render`). */
export function registerCollectors(registry: Registry, src: CollectorSources): Collectors {
  // ---- database: every statement observed (a map lookup and a bucket count), the rest read at scrape time
  const statements = new TextHistogram(
    'sms_db_statement_duration_seconds',
    "Statements of this process's database handle (its transactions' too) and their time in seconds, as Kysely times them",
    STATEMENT_BUCKETS,
  );
  let statementErrors = 0;
  const unobserve = observeStatements(src.db, (ms, failed) => {
    statements.observe('', NO_LABELS, ms / 1000);
    if (failed) statementErrors++;
  });
  readCounter(
    registry,
    'sms_db_statement_errors_total',
    'Statements that failed (any error, a statement timeout included)',
    [],
    () => [[{}, statementErrors]],
  );
  readGauge(
    registry,
    'sms_db_pool_connections',
    "The PostgreSQL pool's connections: max (DB_POOL_SIZE), total open, idle; none on the embedded PGlite",
    ['state'],
    () => {
      const p = poolStats(src.db);
      return p
        ? [
            [{ state: 'max' }, p.max],
            [{ state: 'total' }, p.total],
            [{ state: 'idle' }, p.idle],
          ]
        : [];
    },
  );
  readGauge(registry, 'sms_db_pool_waiting', 'Queries waiting for a free pool connection (PostgreSQL)', [], () => {
    const p = poolStats(src.db);
    return p ? [[{}, p.waiting]] : [];
  });

  // ---- the customers' doors
  const listening = () => src.doors().filter((d) => d.door && d.door.port > 0);
  readGauge(
    registry,
    'sms_door_sessions',
    'Bound (logged-in) sessions of the doors in this process, by protocol',
    ['protocol'],
    () => listening().map((d): Sample<'protocol'> => [{ protocol: d.protocol }, boundSessions(d.door!)]),
  );
  readGauge(
    registry,
    'sms_door_connections',
    'Open connections of the doors in this process, by protocol',
    ['protocol'],
    () => listening().map((d): Sample<'protocol'> => [{ protocol: d.protocol }, d.door!.connectionCount()]),
  );
  readCounter(
    registry,
    'sms_door_submits_total',
    'Submits the doors of this process answered, by protocol and result (accepted, refused)',
    ['protocol', 'result'],
    () =>
      listening().flatMap((d): Sample<'protocol' | 'result'>[] => {
        const refused = Object.values(d.door!.stats.refused).reduce((n, r) => n + r.count, 0);
        return [
          [{ protocol: d.protocol, result: 'accepted' }, d.door!.stats.accepted],
          [{ protocol: d.protocol, result: 'refused' }, refused],
        ];
      }),
  );
  readCounter(
    registry,
    'sms_door_refusals_total',
    "Refused submits by protocol, the status code the protocol answered and the door's reason",
    ['protocol', 'code', 'reason'],
    () =>
      listening().flatMap((d) =>
        Object.entries(d.door!.stats.refused).map(([key, r]): Sample<'protocol' | 'code' | 'reason'> => {
          const [code, reason = ''] = key.split(' ');
          return [{ protocol: d.protocol, code, reason }, r.count];
        }),
      ),
  );

  // ---- the dispatcher
  const dispatcher = () => src.running.dispatcher;
  readGauge(
    registry,
    'sms_dispatch_running',
    'A dispatcher runs in this process (1), is expected but does not run (0); no sample when the process runs none',
    [],
    () => {
      const d = dispatcher();
      if (!d && !src.running.dispatcherExpected) return [];
      return [[{}, d?.isRunning ? 1 : 0]];
    },
  );
  readCounter(registry, 'sms_dispatch_claimed_total', 'Messages this dispatcher claimed from the queue', [], () => {
    const d = dispatcher();
    return d ? [[{}, d.stats.claimed]] : [];
  });
  readCounter(
    registry,
    'sms_dispatch_outcomes_total',
    'Submit outcomes this dispatcher recorded: accepted (a message id), rejected (refused by the carrier or no channel), retried (queued again), unconfirmed (written, no answer)',
    ['outcome'],
    () => {
      const d = dispatcher();
      if (!d) return [];
      const s = d.stats;
      return [
        [{ outcome: 'accepted' }, s.accepted],
        [{ outcome: 'rejected' }, s.rejected],
        [{ outcome: 'retried' }, s.retried],
        [{ outcome: 'unconfirmed' }, s.unconfirmed],
      ];
    },
  );
  readCounter(
    registry,
    'sms_dispatch_receipts_total',
    'Receipts: applied to their message, or stored to wait for it',
    ['result'],
    () => {
      const d = dispatcher();
      return d
        ? [
            [{ result: 'applied' }, d.stats.receiptsApplied],
            [{ result: 'stored' }, d.stats.receiptsStored],
          ]
        : [];
    },
  );
  readCounter(
    registry,
    'sms_dispatch_events_total',
    "The dispatcher's other counters: expanded (chunk rows written as messages), mo (uplinks stored), recovered (expired leases), marked (1 提交成功 written late), matched_unconfirmed (receipts matched by number), errors",
    ['event'],
    () => {
      const d = dispatcher();
      if (!d) return [];
      const s = d.stats;
      return [
        [{ event: 'expanded' }, s.expanded],
        [{ event: 'mo' }, s.mo],
        [{ event: 'recovered' }, s.recovered],
        [{ event: 'marked' }, s.marked],
        [{ event: 'matched_unconfirmed' }, s.matchedUnconfirmed],
        [{ event: 'errors' }, s.errors],
      ];
    },
  );
  readCounter(
    registry,
    'sms_dispatch_finals_total',
    'Final outcomes this dispatcher recorded, by carrier (enums/carrier) and channel: delivered (明确成功) or failed (提交失败, 明确失败)',
    ['carrier', 'channel', 'result'],
    () => {
      const d = dispatcher();
      if (!d) return [];
      return [...d.finals.values()].flatMap((f): Sample<'carrier' | 'channel' | 'result'>[] => [
        [{ carrier: String(f.carrier), channel: channelLabel(f.channel), result: 'delivered' }, f.delivered],
        [{ carrier: String(f.carrier), channel: channelLabel(f.channel), result: 'failed' }, f.failed],
      ]);
    },
  );
  readGauge(
    registry,
    'sms_dispatch_queue_depth',
    `Messages accepted and not yet claimed (queued tasks, messages to retry, chunk rows not yet written), counted up to ${COUNT_MAX} each: read in processes that run a dispatcher`,
    [],
    async () => {
      const f = dispatcher() ? await figures(src.gauges) : null;
      return f ? [[{}, f.waiting]] : [];
    },
  );
  readGauge(
    registry,
    'sms_dispatch_inflight',
    `Messages submitted and waiting for their final receipt, up to ${COUNT_MAX}: read in processes that run a dispatcher`,
    [],
    async () => {
      const f = dispatcher() ? await figures(src.gauges) : null;
      return f ? [[{}, f.unconfirmed]] : [];
    },
  );

  // ---- channels (this process's counters since its dispatcher started)
  const channels = () => dispatcher()?.channelCounters() ?? [];
  readGauge(registry, 'sms_channel_bound', "A channel's link is bound (1) or not (0)", ['channel'], () =>
    channels().map((c): Sample<'channel'> => [{ channel: channelLabel(c.name) }, c.bound ? 1 : 0]),
  );
  readCounter(
    registry,
    'sms_channel_messages_total',
    'Per channel: submitted (written to the carrier), accepted, refused, retried, unconfirmed, receipts',
    ['channel', 'outcome'],
    () =>
      channels().flatMap((c) =>
        (['submitted', 'accepted', 'refused', 'retried', 'unconfirmed', 'receipts'] as const).map(
          (o): Sample<'channel' | 'outcome'> => [{ channel: channelLabel(c.name), outcome: o }, c.counters[o]],
        ),
      ),
  );
  readCounter(
    registry,
    'sms_channel_submit_seconds_total',
    'Per channel: time from handing a slice to the link to its last answer, summed (seconds)',
    ['channel'],
    () => channels().map((c): Sample<'channel'> => [{ channel: channelLabel(c.name) }, c.counters.latencyMsSum / 1000]),
  );
  readCounter(
    registry,
    'sms_channel_submit_slices_total',
    'Per channel: slices handed to the link (the count of sms_channel_submit_seconds_total)',
    ['channel'],
    () => channels().map((c): Sample<'channel'> => [{ channel: channelLabel(c.name) }, c.counters.latencyCount]),
  );
  return { render: () => statements.render(), close: unobserve };
}
