/**
 * The embedded PGlite runs every statement synchronously in the server's own thread. Statements
 * queued by many requests would otherwise run back to back inside one turn of the event loop, and
 * libuv accepts one new connection per turn (libuv 1.45+, "unix: don't accept() connections in a
 * loop"): under 200 busy connections a turn took 100–150 ms, so a connection opened then waited up
 * to the end of the load for its first request to be read (bench/list-load.ts: 0.5–1.5 % of
 * requests past 10 s, every one the first request of a new connection).
 *
 * Here the statements run in slices of SLICE_MS: a statement that would start after the current
 * turn has run statements that long starts in the next turn instead (setImmediate), so between two
 * slices the loop polls, accepting a waiting connection and reading the requests that arrived.
 * The statements keep their order (PGlite's own query lock is first-come first-served) and a
 * transaction keeps the database to itself as before. A turn per statement would cost the lists a
 * third of their throughput (a poll syscall per statement); slices of a few milliseconds keep the
 * batching and still accept a connection every few milliseconds.
 */
import { performance } from 'node:perf_hooks';
import type { PGlite } from '@electric-sql/pglite';

type Exclusive = <T>(fn: () => Promise<T>) => Promise<T>;

// taken at load: a test's fake timers must not hold the database's statements
const immediate = setImmediate;
const nextTurn = () => new Promise<void>((resolve) => immediate(resolve));

/** how long one turn of the event loop may run statements before the next one waits for a poll */
export const SLICE_MS = 5;

export function statementPerTurn(pglite: PGlite): void {
  const target = pglite as unknown as { _runExclusiveQuery?: Exclusive };
  const run = target._runExclusiveQuery?.bind(pglite);
  if (!run) throw new Error('PGlite: _runExclusiveQuery is gone (server/db/pglite-turns.ts follows PGlite 0.5)');
  // when the current slice began (after the last hand-over to the event loop)
  let slice = 0;
  target._runExclusiveQuery = <T>(fn: () => Promise<T>) =>
    run(async () => {
      if (performance.now() - slice > SLICE_MS) {
        await nextTurn();
        slice = performance.now();
      }
      return fn();
    });
}
