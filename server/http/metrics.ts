/**
 * The app's own metrics registry (prom-client, one per app: tests build many apps in one process,
 * so never the library's global registry) and the one figure that must be taken per request: each
 * answer's time by method, route pattern and status code (`sms_http_request_duration_seconds`).
 * buildApp installs it before any route, so that every route (the console, /api, /openapi/v1, the
 * root's /metrics, /healthz, /readyz) is timed; the metrics module (server/modules/metrics) adds
 * its collectors to the same registry and serves it. Off with METRICS=0 (`config.metrics`).
 *
 * The route label is the route's pattern as declared (`/api/sign/list`, `/openapi/v1/sms/*`), never
 * the URL a client sent: an unknown path is `(unmatched)`, so a scan of random paths cannot grow
 * the label set.
 */
import type { FastifyInstance } from 'fastify';
import { Histogram, Registry } from 'prom-client';

declare module 'fastify' {
  interface FastifyInstance {
    /** the app's metrics registry (null with METRICS=0); server/modules/metrics serves it */
    metricsRegistry: Registry | null;
  }
}

/** seconds: from a cached answer (~1 ms) to an export's (seconds) */
export const HTTP_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

/** the route label of a request no route took (the not-found handler, the console's SPA fallback) */
export const UNMATCHED_ROUTE = '(unmatched)';

type Labels = { method: string; route: string; code: string };

/** Decorates `app.metricsRegistry` (null when off) and times every answer into it. */
export function installHttpMetrics(app: FastifyInstance, enabled: boolean): Registry | null {
  if (!enabled) {
    app.decorate('metricsRegistry', null);
    return null;
  }
  const registry = new Registry();
  app.decorate('metricsRegistry', registry);
  const histogram = new Histogram({
    name: 'sms_http_request_duration_seconds',
    help: 'HTTP answers of this process by method, route pattern and status code, and their time in seconds (from the request to the last byte handed to the socket)',
    labelNames: ['method', 'route', 'code'] as const,
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  // one labels object per (method, route, code): no allocation per request (bounded: routes × methods × codes)
  const labels = new Map<string, Labels>();
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? UNMATCHED_ROUTE;
    const code = reply.statusCode;
    const key = `${req.method} ${code} ${route}`;
    let l = labels.get(key);
    if (!l) labels.set(key, (l = { method: req.method, route, code: String(code) }));
    histogram.observe(l, reply.elapsedTime / 1000);
    done();
  });
  return registry;
}
