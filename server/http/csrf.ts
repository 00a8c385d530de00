/**
 * CSRF protection by double submit: the server sets a readable `XSRF-TOKEN` cookie when the
 * browser has none; every state-changing call under /api must echo it in `X-XSRF-TOKEN`
 * (axios does this by itself). A cross-site page can neither read the cookie nor set the header.
 */
import type { FastifyInstance } from 'fastify';
import { randomToken, safeEqual } from '../lib/crypto';
import { errors } from './errors';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function installCsrf(app: FastifyInstance, opts: { secure: boolean }) {
  app.addHook('onRequest', async (req, reply) => {
    const cookie = req.cookies[XSRF_COOKIE];
    if (!cookie) {
      reply.setCookie(XSRF_COOKIE, randomToken(24), { path: '/', sameSite: 'lax', httpOnly: false, secure: opts.secure });
    }
    if (!UNSAFE.has(req.method) || !req.url.startsWith('/api/')) return;
    const header = req.headers[XSRF_HEADER];
    if (!cookie || typeof header !== 'string' || !safeEqual(header, cookie)) throw errors.csrf();
  });
}
