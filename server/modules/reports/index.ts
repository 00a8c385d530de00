/**
 * 报表 and the dashboard: consumption reports (total / daily, xlsx export), today's figures, the
 * week chart and the remaining pools (routes.ts, service.ts; docs/api-reports.md). Uses the records
 * module's helpers (filters, the attachment header).
 */
import { defineModule, moduleTimer } from '../module';
import { reportsRoutes } from './routes';
import { ReportsService } from './service';

export {
  ReportsService,
  businessDay,
  poolHeaderData,
  EXPIRING_DAYS,
  LOW_BALANCE_DEFAULT,
  lowBalanceOf,
} from './service';

declare module '../../context' {
  interface Services {
    reports: ReportsService;
  }
}

export default defineModule({ name: 'reports', dependencies: ['records'] }, async (app, ctx) => {
  const reports = (app.services.reports = new ReportsService(ctx));
  await app.register(reportsRoutes(ctx, reports));
  // every process folds the writers' report deltas (migration 0041); one fold runs at a time
  moduleTimer(app, ctx.options.reportFoldEveryMs, () => reports.fold(), 'report fold');
});
