/**
 * Retention: uplinks and pushed outbox rows leave the database past their keeping time
 * (service.ts; docs/api-records.md "Retention"). The purge runs on every API process's purge timer;
 * one process at a time does the work.
 */
import { defineModule, moduleTimer } from '../module';
import { RetentionService } from './service';

export { RetentionService, uplinksKeptSince } from './service';
export { AHEAD, keptSince, MO_BEHIND } from './partitions';

declare module '../../context' {
  interface Services {
    retention: RetentionService;
  }
}

export default defineModule({ name: 'retention' }, async (app, ctx) => {
  const retention = (app.services.retention = new RetentionService(ctx));
  // at start too (not awaited: a process starts, and says it is not ready, while its database does
  // not answer): the coming months' partitions of both tables, made ahead (migrations 0052 and 0055
  // made two months' already)
  moduleTimer(app, ctx.options.purgeEveryMs, () => retention.purge(), 'retention purge', 0);
});
