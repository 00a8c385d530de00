/**
 * 发送任务与发送记录: the read side of sending — tasks, timed tasks, send records (and their
 * exports), uplink (docs/api-records.md).
 */
import { defineModule } from '../module';
import { recordsRoutes } from './routes';
import { RecordsService } from './service';

export * from './service';
export * from './filters';

declare module '../../context' {
  interface Services {
    records: RecordsService;
  }
}

export default defineModule({ name: 'records', dependencies: ['clients', 'send'] }, async (app, ctx) => {
  const records = (app.services.records = new RecordsService(ctx, app.services.clients, app.services.send));
  await app.register(recordsRoutes(ctx, records));
});
