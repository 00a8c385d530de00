/**
 * Metrics and health (issue 39; docs/api-metrics.md): GET /metrics (Prometheus text, prom-client:
 * this app's registry from server/http/metrics.ts with the collectors of collectors.ts, and the
 * process's default metrics), GET /healthz and GET /readyz at the root, METRICS_PORT's own
 * listener, and the per-minute series of the operators' 监控 screen (`MonitorService`: each
 * process flushes its share every ~10 s; `series` is what the screen reads: the operators' route,
 * declared by the operator area, calls it). Reads the doors (smpp-server module) and the
 * dispatcher the process started (`watchDispatcher`, from startPipeline) at scrape time.
 */
import { defineModule, moduleTimer, routesOutsideApi } from '../module';
import { processRegistry } from './process';
import { registerCollectors } from './collectors';
import { DbGauges } from './db-gauges';
import { HealthService } from './health';
import { startMetricsListener, type MetricsListener } from './listener';
import { MonitorService } from './monitor';
import { healthRoutes, type Endpoints } from './routes';
import { doorsOf, runningOf } from './running';

export { MonitorService, SERIES, type MonitorRange } from './monitor';
export { HealthService, READY_DB_TIMEOUT_MS, type Readiness } from './health';
export { expectDispatcher, watchDispatcher, runningOf, type DispatcherView, type DoorView } from './running';
export { metricsAccess, isLoopback } from './access';
export { DbGauges, COUNT_MAX } from './db-gauges';
export { processRegistry } from './process';

declare module '../../context' {
  interface Services {
    /** the per-minute series of the 监控 screen (series, flush, purge) */
    monitor: MonitorService;
    /** /readyz's checks */
    health: HealthService;
    /** METRICS_PORT's listener once the app is ready (null: none) */
    metricsListener: MetricsListener | null;
  }
}

export default defineModule({ name: 'metrics', dependencies: ['smpp-server'] }, async (app, ctx) => {
  const config = ctx.config;
  const doors = () => doorsOf(app.services, config);
  const running = runningOf(ctx);
  const gauges = new DbGauges(ctx.db);
  const monitor = (app.services.monitor = new MonitorService(ctx, {
    dispatcher: () => running.dispatcher,
    doors,
    gauges,
    refusals: app.refusals,
  }));
  const health = (app.services.health = new HealthService(ctx, { doors, running }));
  app.services.metricsListener = null;

  // METRICS=0: no registry (server/http/metrics.ts), nothing collected, /metrics 404
  const registry = app.metricsRegistry;
  let scrape: Endpoints['scrape'] = null;
  const http = app.httpTimings;
  if (registry) {
    const collectors = registerCollectors(registry, { db: ctx.db, doors, running, gauges });
    app.addHook('onClose', async () => collectors.close());
    scrape = async () => {
      const [own, proc] = await Promise.all([registry.metrics(), processRegistry().metrics()]);
      return { type: registry.contentType, text: own + (http?.render() ?? '') + collectors.render() + proc };
    };
  }
  const endpoints: Endpoints = { health, scrape, token: config.metricsToken };
  // /metrics on the main port unless it has a port of its own
  routesOutsideApi(app, (root) => healthRoutes(root, endpoints, !config.metricsPort));

  if (config.metricsPort) {
    app.addHook('onReady', async () => {
      const l = (app.services.metricsListener = await startMetricsListener(
        endpoints,
        config.metricsHost,
        config.metricsPort,
        (err) => ctx.log.warn({ err }, 'metrics listener error'),
      ));
      ctx.log.info(`metrics listening on ${config.metricsHost}:${l.port}`);
    });
    app.addHook('onClose', async () => app.services.metricsListener?.close());
  }

  if (registry) {
    moduleTimer(app, config.monitorFlushMs, () => monitor.flush(), 'per-minute series flush');
    // what is counted since the last flush is written when the app closes (its pipeline stopped first)
    app.addHook('onClose', async () =>
      monitor.flush().catch((err: unknown) => ctx.log.debug({ err }, 'last per-minute series flush failed')),
    );
  }
  moduleTimer(app, ctx.options.purgeEveryMs, () => monitor.purge(), 'purge of old per-minute series');
});
