/**
 * An open-loop HTTP load generator (the wrk2 method): `connections` keep-alive connections, requests
 * issued on a fixed schedule at `rate` requests/s spread evenly over time and round-robin over the
 * connections, whatever the answers' speed. A request's latency counts from the moment it was
 * scheduled, so a stalled server is charged for the requests it held up (no coordinated omission).
 * A closed-loop tool (autocannon, wrk) instead keeps every connection busy: its latency is then
 * queueing, connections / throughput, whatever one request costs.
 */
import { Client } from 'undici';

export interface OpenLoopResult {
  rate: number;
  sent: number;
  completed: number;
  errors: number;
  non2xx: number;
  /** milliseconds */
  p50: number;
  p99: number;
  max: number;
  /** achieved completions per second */
  throughput: number;
}

export async function openLoop(opts: {
  origin: string;
  path: string;
  headers?: Record<string, string>;
  /** GET (default) or POST with `body` */
  method?: 'GET' | 'POST';
  body?: string;
  connections: number;
  rate: number;
  durationMs: number;
}): Promise<OpenLoopResult> {
  const method = opts.method ?? 'GET';
  const clients = Array.from(
    { length: opts.connections },
    () => new Client(opts.origin, { pipelining: 1, keepAliveTimeout: 60_000 }),
  );
  const busy = new Array<boolean>(opts.connections).fill(false);
  const waiting: number[][] = clients.map(() => []);
  const latencies = new Float64Array(Math.ceil((opts.rate * opts.durationMs) / 1000) + opts.connections);
  let completed = 0;
  let errors = 0;
  let non2xx = 0;
  let sent = 0;

  const issue = (c: number, scheduledAt: number) => {
    busy[c] = true;
    clients[c]
      .request({ path: opts.path, method, headers: opts.headers, body: opts.body })
      .then(async (res) => {
        await res.body.dump();
        if (res.statusCode < 200 || res.statusCode > 299) non2xx++;
      })
      .catch(() => errors++)
      .finally(() => {
        latencies[completed++] = performance.now() - scheduledAt;
        const next = waiting[c].shift();
        if (next !== undefined) issue(c, next);
        else busy[c] = false;
      });
  };

  // open every connection first, so the measured run does not include TCP handshakes
  await Promise.all(
    clients.map((c) =>
      c.request({ path: opts.path, method, headers: opts.headers, body: opts.body }).then((r) => r.body.dump()),
    ),
  );

  const start = performance.now();
  const interval = 1000 / opts.rate;
  const total = Math.floor((opts.rate * opts.durationMs) / 1000);
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      const due = Math.min(total, Math.floor((now - start) / interval) + 1);
      for (; sent < due; sent++) {
        const c = sent % opts.connections;
        const at = start + sent * interval;
        if (busy[c]) waiting[c].push(at);
        else issue(c, at);
      }
      if (sent < total) setTimeout(tick, 0);
      else resolve();
    };
    tick();
  });
  while (completed < sent) await new Promise((r) => setTimeout(r, 5));
  const elapsed = performance.now() - start;
  await Promise.all(clients.map((c) => c.close()));

  const sorted = latencies.subarray(0, completed).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return {
    rate: opts.rate,
    sent,
    completed,
    errors,
    non2xx,
    p50: at(0.5),
    p99: at(0.99),
    max: sorted[sorted.length - 1],
    throughput: (completed / elapsed) * 1000,
  };
}
