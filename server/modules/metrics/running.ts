/**
 * What runs in this process besides the app's own modules, as the metrics and the readiness see
 * it: the dispatcher (started after the app by server/main.ts, server/worker.ts or a benchmark,
 * through startPipeline: `watchDispatcher`) and the customers' doors (the smpp-server module's
 * services). Read at scrape time, never copied: the counters are the objects' own.
 */
import type { AppConfig } from '../../config';
import type { AppContext, Services } from '../../context';

/** A dispatcher's counters as the metrics read them (server/modules/dispatch/dispatcher.ts `Dispatcher`). */
export interface DispatcherView {
  readonly workerId: string;
  readonly isRunning: boolean;
  readonly stats: {
    claimed: number;
    accepted: number;
    rejected: number;
    retried: number;
    unconfirmed: number;
    receiptsStored: number;
    receiptsApplied: number;
    expanded: number;
    mo: number;
    recovered: number;
    marked: number;
    matchedUnconfirmed: number;
    errors: number;
  };
  channelCounters(): {
    name: string;
    bound: boolean;
    counters: {
      submitted: number;
      accepted: number;
      refused: number;
      retried: number;
      unconfirmed: number;
      receipts: number;
      latencyMsSum: number;
      latencyCount: number;
    };
  }[];
  /** final outcomes by carrier and channel (Dispatcher.finals) */
  readonly finals: ReadonlyMap<string, { carrier: number; channel: string; delivered: number; failed: number }>;
}

/** A customer door's counters as the metrics read them (server/modules/smpp-server `DoorListener`). */
export interface DoorView {
  /** the port listened on (0 until it listens) */
  readonly port: number;
  readonly stats: { accepted: number; refused: Record<string, { count: number }> };
  readonly core: { readonly sessions: Iterable<{ accountId: number | null }> };
  connectionCount(): number;
}

/** The doors' protocols, as the metrics label them. */
export const PROTOCOLS = ['smpp', 'cmpp', 'smgp', 'sgip'] as const;
export type Protocol = (typeof PROTOCOLS)[number];

export interface DoorEntry {
  protocol: Protocol;
  /** configured to listen in this process (its port setting is not 0) */
  configured: boolean;
  door: DoorView | null;
}

/** The doors of this process: configured or not, listening or not. */
export function doorsOf(services: Services, config: AppConfig): DoorEntry[] {
  return [
    { protocol: 'smpp', configured: config.smppServerPort !== 0, door: services.smppServer ?? null },
    { protocol: 'cmpp', configured: config.cmppServerPort !== 0, door: services.cmppServer ?? null },
    { protocol: 'smgp', configured: config.smgpServerPort !== 0, door: services.smgpServer ?? null },
    { protocol: 'sgip', configured: config.sgipServerPort !== 0, door: services.sgipServer ?? null },
  ];
}

/** Bound sessions (logged in) of a door in this process. */
export function boundSessions(door: DoorView): number {
  let n = 0;
  for (const s of door.core.sessions) if (s.accountId !== null) n++;
  return n;
}

export interface Running {
  /** the dispatcher of this process, once started */
  dispatcher: DispatcherView | null;
  /** this process runs a dispatcher (DISPATCH, npm run worker): not ready until it runs */
  dispatcherExpected: boolean;
}

const running = new WeakMap<AppContext, Running>();

/** What runs beside the app of `ctx`. */
export function runningOf(ctx: AppContext): Running {
  let r = running.get(ctx);
  if (!r) running.set(ctx, (r = { dispatcher: null, dispatcherExpected: false }));
  return r;
}

/**
 * The process will run a dispatcher for this app (server/main.ts with DISPATCH, server/worker.ts):
 * /readyz says not ready until one is watched and running.
 */
export function expectDispatcher(ctx: AppContext): void {
  runningOf(ctx).dispatcherExpected = true;
}

/** The dispatcher started for this app (startPipeline; a benchmark's own): its counters are served and flushed. */
export function watchDispatcher(ctx: AppContext, dispatcher: DispatcherView): void {
  const r = runningOf(ctx);
  r.dispatcher = dispatcher;
  r.dispatcherExpected = true;
}
