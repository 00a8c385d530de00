/**
 * 号码: the carrier check of the send page and the province / city lists (routes.ts), answered
 * from the segment table (common/sms/segments.ts). No service, no dependencies.
 */
import { defineModule } from '../module';
import { numbersRoutes } from './routes';

export { checkOperators, type OperatorCheck } from './routes';

export default defineModule({ name: 'numbers' }, async (app, ctx) => {
  await app.register(numbersRoutes(ctx));
});
