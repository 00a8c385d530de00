/**
 * 在线充值: pay orders, the providers (sandbox, Alipay, WeChat Pay) and their notifications, the
 * sandbox scan page (routes.ts), the credit of a paid order through the ledger exactly once
 * (service.ts). Depends on the ledger module (the credit is a ledger row).
 */
import { defineModule } from '../module';
import { payRoutes } from './routes';
import { PayService } from './service';
import { PayProviders } from './providers';

export {
  PayService,
  EXPIRED_REMARK,
  PAY_SUBJECT,
  SANDBOX_MARK,
  ONLINE_RECHARGE_KIND,
  type NotifyResult,
} from './service';
export { PayProviders } from './providers';
export { DEFAULT_PAY_CONFIG, payConfigFromEnv, type PayConfig } from './config';

declare module '../../context' {
  interface Services {
    pay: PayService;
  }
}

export default defineModule({ name: 'pay', dependencies: ['ledger'] }, async (app, ctx) => {
  const pay = (app.services.pay = new PayService(
    ctx,
    app.services.ledger,
    new PayProviders(ctx.config.pay, ctx.dataDir),
  ));
  await app.register(payRoutes(ctx, pay));
});
