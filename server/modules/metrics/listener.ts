/**
 * METRICS_PORT's own listener (docs/api-metrics.md "Access"): a plain node:http server on
 * METRICS_HOST (loopback by default) answering GET / HEAD /metrics, /healthz and /readyz, and 404
 * to anything else. The way to scrape processes without an HTTP port (npm run worker, npm run
 * smpp-server) and each of several HTTP_REUSE_PORT processes. Small bounds: a request must arrive
 * within 10 s, at most 32 connections.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { healthzAnswer, metricsAnswer, readyzAnswer, type Answer, type Endpoints } from './routes';

export interface MetricsListener {
  port: number;
  close(): Promise<void>;
}

/** Listens on `port` (-1: any free port, tests) of `host`. */
export async function startMetricsListener(
  e: Endpoints,
  host: string,
  port: number,
  onError: (err: unknown) => void,
): Promise<MetricsListener> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const answer = async (): Promise<Answer> => {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return { status: 405, type: 'text/plain; charset=utf-8', body: 'method not allowed\n' };
      if (path === '/metrics') return metricsAnswer(e, req.headers, req.socket.remoteAddress, true);
      if (path === '/healthz') return healthzAnswer();
      if (path === '/readyz') return readyzAnswer(e);
      return { status: 404, type: 'text/plain; charset=utf-8', body: 'not found\n' };
    };
    answer().then(
      (a) => {
        res.writeHead(a.status, {
          'content-type': a.type,
          'cache-control': 'no-store',
          ...(a.bearer ? { 'www-authenticate': 'Bearer' } : {}),
        });
        res.end(req.method === 'HEAD' ? undefined : a.body);
      },
      (err: unknown) => {
        onError(err);
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('error\n');
      },
    );
  });
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;
  server.maxConnections = 32;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port < 0 ? 0 : port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', onError);
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
