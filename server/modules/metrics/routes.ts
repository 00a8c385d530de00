/**
 * GET /healthz, GET /readyz and GET /metrics at the root (not under /api; docs/api-metrics.md), on
 * the main HTTP port, and the same three on METRICS_PORT's own small listener (listener.ts). Each is
 * a declared route (server/http/route.ts: access 'public' — /metrics checks its own rule, access.ts,
 * before anything else); they are left out of the OpenAPI document (it lists /api only), so the
 * route fuzz (tests/server/fuzz-lib.ts) does not call them: tests/server/metrics.test.ts does.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { route } from '../../http/route';
import { ACCESS_REFUSED, metricsAccess } from './access';
import type { HealthService } from './health';

const TAG = '运维';

/** What the three routes answer, wherever they are served. */
export interface Endpoints {
  health: HealthService;
  /** the Prometheus text of this process (null: METRICS=0) */
  scrape: (() => Promise<{ type: string; text: string }>) | null;
  token: string;
}

/** an answer of the three routes; `bearer`: a 401 that asks for the token (WWW-Authenticate) */
export type Answer = { status: number; type: string; body: string; bearer?: boolean };

const json = (status: number, body: unknown): Answer => ({
  status,
  type: 'application/json; charset=utf-8',
  body: JSON.stringify(body),
});

export async function healthzAnswer(): Promise<Answer> {
  return json(200, { status: 'ok' });
}

export async function readyzAnswer(e: Endpoints): Promise<Answer> {
  const r = await e.health.readiness();
  return r.ready
    ? json(200, { status: 'ready', checks: r.checks })
    : json(503, { status: 'unready', reason: r.reason, checks: r.checks });
}

/** /metrics for a request with these headers from this peer (`ownPort`: on METRICS_PORT) */
export async function metricsAnswer(
  e: Endpoints,
  headers: Parameters<typeof metricsAccess>[0],
  peer: string | undefined,
  ownPort: boolean,
): Promise<Answer> {
  if (!e.scrape) return json(404, { code: 404, msg: '接口不存在' });
  const access = metricsAccess(headers, peer, e.token, ownPort);
  if (access !== 'ok')
    return { ...json(ACCESS_REFUSED[access].status, ACCESS_REFUSED[access].body), bearer: access === 'unauthorized' };
  const { type, text } = await e.scrape();
  return { status: 200, type, body: text };
}

/**
 * The routes on the app's root. `/metrics` is always a route here (never the console's SPA
 * fallback): with METRICS_PORT (`metricsHere` false) or METRICS=0 it answers 404.
 */
export function healthRoutes(root: FastifyInstance, e: Endpoints, metricsHere: boolean) {
  const send = (reply: FastifyReply, a: Answer) =>
    reply.status(a.status).header('cache-control', 'no-store').type(a.type).send(a.body);
  root.get(
    '/healthz',
    route({ tag: TAG, summary: '存活检查（进程在应答，不查数据库）', access: 'public' }),
    async (_req, reply) => send(reply, await healthzAnswer()),
  );
  root.get(
    '/readyz',
    route({ tag: TAG, summary: '就绪检查（数据库、迁移、发送进程、接入端）', access: 'public' }),
    async (_req, reply) => send(reply, await readyzAnswer(e)),
  );
  const here: Endpoints = metricsHere ? e : { ...e, scrape: null };
  root.get(
    '/metrics',
    route({
      tag: TAG,
      summary: 'Prometheus 指标（METRICS_TOKEN 或仅本机）',
      access: 'public',
      description: 'docs/api-metrics.md',
    }),
    async (req, reply) => {
      // the socket's peer, never req.ip (X-Forwarded-For under TRUST_PROXY)
      const a = await metricsAnswer(here, req.headers, req.socket.remoteAddress, false);
      if (a.bearer) reply.header('www-authenticate', 'Bearer');
      return send(reply, a);
    },
  );
}
