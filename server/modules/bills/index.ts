/**
 * 财务管理 of an agent: own bill and its export, balance figures, credit history, the credit alarm
 * and its delivery timer (every `ctx.options.alarmEveryMs`) (routes.ts, service.ts).
 */
import { defineModule, moduleTimer } from '../module';
import { billsRoutes } from './routes';
import { BillsService } from './service';

export {
  BillsService,
  alarmStatsOf,
  alarmPhones,
  ALARM_MSG,
  ALARM_SKIPPED,
  ALARM_MAX_PHONES,
  BILL_EXPORT_MAX,
} from './service';

declare module '../../context' {
  interface Services {
    bills: BillsService;
  }
}

export default defineModule({ name: 'bills' }, async (app, ctx) => {
  const bills = (app.services.bills = new BillsService(ctx));
  await app.register(billsRoutes(ctx, bills));
  // send the recorded credit-alarm crossings
  moduleTimer(app, ctx.options.alarmEveryMs, () => bills.deliverAlarms(), 'credit alarm delivery');
});
