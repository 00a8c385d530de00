/**
 * 客户HTTP接口: the customers' signed JSON API under /openapi/v1 (docs/api-openapi.md), outside the
 * console's cookie API. Sends go through the send module's interface acceptance
 * (send/interface.ts, the one acceptance of interface sends); reports and uplink of accounts in pull mode are queued by triggers
 * (migration 0029) and pulled here. Its purge (expired nonces, idempotency keys, pull rows) runs
 * in every process.
 */
import type { FastifyPluginAsync } from 'fastify';
import { defineModule, moduleTimer } from '../module';
import { InterfaceSend } from '../send';
import { ApiAuth } from './auth';
import { openApiRoutes } from './routes';
import { OpenApiService } from './service';

export {
  deriveApiSecret,
  signRequest,
  canonicalString,
  DEMO_INTERFACE_PASSWORD,
  HEADERS as OPENAPI_HEADERS,
} from './signing';
export { OPENAPI_PREFIX, isOpenApiPath, openApiNotFound } from './routes';
export { OPENAPI_ERRORS } from './errors';

declare module '../../context' {
  interface Services {
    openapi: OpenApiService;
    /**
     * The /openapi/v1 routes as a plugin of their own (own error handler, raw JSON body, no CSRF):
     * server/app.ts registers it on the app itself under OPENAPI_PREFIX (a plugin registered from a
     * module would land under /api).
     */
    openapiRoutes: FastifyPluginAsync;
  }
}

export default defineModule({ name: 'openapi', dependencies: ['send'] }, async (app, ctx) => {
  const send = app.services.send;
  const svc = (app.services.openapi = new OpenApiService(ctx, new InterfaceSend(ctx, send)));
  const auth = new ApiAuth(ctx);
  app.services.openapiRoutes = openApiRoutes(ctx, svc, auth, (a) => send.payerOf(a));
  moduleTimer(app, ctx.options.purgeEveryMs, () => svc.purge(), 'openapi purge');
});
