/**
 * The app's own metrics registry (prom-client, one per app: tests build many apps in one process,
 * so never the library's global registry) and the one figure that must be taken per request: each
 * answer's time by method, route pattern and status code (`sms_http_request_duration_seconds`).
 * buildApp installs it before any route, so that every route (the console, /api, /openapi/v1, the
 * root's /metrics, /healthz, /readyz) is timed; the metrics module (server/modules/metrics) adds
 * its collectors to the registry and serves both. Off with METRICS=0 (`config.metrics`).
 *
 * The route label is the route's pattern as declared (`/api/sign/list`, `/openapi/v1/sms/*`), never
 * the URL a client sent: an unknown path is `(unmatched)`, so a scan of random paths cannot grow
 * the label set.
 *
 * The per-request (and per-statement) histograms are `TextHistogram`s rather than prom-client's: an
 * observation is a map lookup by a key and a bucket count, with no label object hashed, and a
 * series' label text is escaped once, so the family is rendered by concatenation: with ~200 routes ×
 * codes it is most of a scrape's lines, and prom-client's histogram builds an object per bucket and
 * formats its labels again per line (bench/metrics.ts).
 */
import type { FastifyInstance } from 'fastify';
import { Registry } from 'prom-client';

declare module 'fastify' {
  interface FastifyInstance {
    /** the app's metrics registry (null with METRICS=0); server/modules/metrics serves it */
    metricsRegistry: Registry | null;
    /** the HTTP answers' timings (null with METRICS=0), rendered beside the registry */
    httpTimings: TextHistogram | null;
  }
}

/** seconds: the session check's target (5 ms), the lists' (50 / 100 ms), up to an export's seconds */
export const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5];

/** the route label of a request no route took (the not-found handler, the console's SPA fallback) */
export const UNMATCHED_ROUTE = '(unmatched)';

/** A label value as the Prometheus text format writes it (backslash, double quote and newline escaped). */
const escapeValue = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/** `a="x",b="y"` */
export function labelText(labels: Record<string, string>): string {
  return Object.entries(labels)
    .map(([k, v]) => `${k}="${escapeValue(v)}"`)
    .join(',');
}

interface Series {
  /** its lines up to the value: one per bucket (`name_bucket{…,le="0.005"} `), then _sum and _count */
  heads: string[];
  /** observations per bucket (not cumulative); the last one is +Inf */
  counts: Float64Array;
  sum: number;
  count: number;
}

/**
 * A Prometheus histogram kept by hand and rendered as text (same format as prom-client's): series
 * by a key the caller builds; `labels` is called once per new series.
 */
export class TextHistogram {
  private readonly series = new Map<string, Series>();
  private readonly les: string[];

  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: readonly number[],
  ) {
    this.les = [...buckets.map((b) => String(b)), '+Inf'];
  }

  observe(key: string, labels: () => Record<string, string>, value: number): void {
    let s = this.series.get(key);
    if (!s)
      this.series.set(
        key,
        (s = { heads: this.heads(labelText(labels())), counts: new Float64Array(this.les.length), sum: 0, count: 0 }),
      );
    const b = this.buckets;
    let i = 0;
    while (i < b.length && value > b[i]) i++;
    s.counts[i]++;
    s.sum += value;
    s.count++;
  }

  /** a series' lines up to their values, made once (a scrape only appends the numbers) */
  private heads(labels: string): string[] {
    const sep = labels ? ',' : '';
    const own = labels ? `{${labels}}` : '';
    return [
      ...this.les.map((le) => `${this.name}_bucket{${labels}${sep}le="${le}"} `),
      `${this.name}_sum${own} `,
      `${this.name}_count${own} `,
    ];
  }

  /** the family in the Prometheus text format (HELP and TYPE lines, then every series) */
  render(): string {
    let out = `# HELP ${this.name} ${this.help}\n# TYPE ${this.name} histogram\n`;
    const n = this.les.length;
    for (const s of this.series.values()) {
      let cumulative = 0;
      for (let i = 0; i < n; i++) {
        cumulative += s.counts[i];
        out += `${s.heads[i]}${cumulative}\n`;
      }
      out += `${s.heads[n]}${s.sum}\n${s.heads[n + 1]}${s.count}\n`;
    }
    return out;
  }
}

/** Decorates `app.metricsRegistry` and `app.httpTimings` (null when off) and times every answer. */
export function installHttpMetrics(app: FastifyInstance, enabled: boolean): void {
  if (!enabled) {
    app.decorate('metricsRegistry', null);
    app.decorate('httpTimings', null);
    return;
  }
  app.decorate('metricsRegistry', new Registry());
  const timings = new TextHistogram(
    'sms_http_request_duration_seconds',
    'HTTP answers of this process by method, route pattern and status code, and their time in seconds (from the request to the last byte handed to the socket)',
    HTTP_BUCKETS,
  );
  app.decorate('httpTimings', timings);
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? UNMATCHED_ROUTE;
    const code = reply.statusCode;
    timings.observe(
      `${req.method} ${code} ${route}`,
      () => ({ method: req.method, route, code: String(code) }),
      reply.elapsedTime / 1000,
    );
    done();
  });
}
