/**
 * Timed tasks: `fireDueTimedTasks` releases the timed tasks whose send time has come (contract:
 * /work/notes/contract-sending.md "Timed tasks"). STUB written by the dispatch work so that the
 * dispatcher can call it every second; the send work replaces the body.
 */
import type { AppContext } from '../../context';

/** Releases up to `limit` due timed tasks; returns how many it released. */
export async function fireDueTimedTasks(ctx: AppContext, limit: number): Promise<number> {
  void ctx;
  void limit;
  return 0;
}
