/**
 * CSRF protection: a token bound to the browser's session, echoed in a header.
 *
 * - Every request carries a binding: the session cookie (`sid`) when there is one, else a
 *   pre-session cookie (`psid`, random, httpOnly, set on the first answer) for the anonymous calls
 *   (login, registration, password recovery).
 * - The token is HMAC-SHA256(server secret, binding), handed to the console in the readable
 *   `XSRF-TOKEN` cookie; axios echoes it in `X-XSRF-TOKEN`.
 * - EVERY request with a method other than GET/HEAD/OPTIONS must carry the header with the token of
 *   its own binding, whatever its path (no raw-URL test that an encoded path could dodge). The
 *   cookie is not trusted: a token planted in a cookie (and echoed) is refused unless the server
 *   made it for this very session.
 * - A route that browsers never call and that authenticates by its own header (the operator
 *   channel) opts out with route config `{ csrf: false }`.
 * - When the session changes (login, logout, remember-me renewal) the session code calls
 *   `rebindCsrf`, so the next answer already carries the token of the new binding.
 *
 * The secret: config.csrfSecret (env CSRF_SECRET; set the same value on every instance behind a
 * load balancer), else a random one kept in `${dataDir}/csrf-secret` (survives restarts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { randomToken, safeEqual, sha256hex } from '../lib/crypto';
import { errors } from './errors';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
export const PRESESSION_COOKIE = 'psid';
/** the session cookie (same name as session.ts's SESSION_COOKIE; kept here to avoid an import cycle) */
const SID_COOKIE = 'sid';
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyRequest {
    /** the binding this request's answer hands out a token for (changes with login/logout) */
    csrfBinding?: string;
    /** the pre-session cookie this answer sets (the browser had none) */
    newPreSession?: string;
  }
}

/** The secret from the config, else the one kept in the data folder (made on first use). */
export function loadCsrfSecret(configured: string, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'csrf-secret');
  try {
    const s = fs.readFileSync(file, 'utf8').trim();
    if (s.length >= 32) return s;
  } catch {
    // none yet
  }
  const s = randomBytes(32).toString('base64url');
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, s, { mode: 0o600, flag: 'wx' });
    return s;
  } catch {
    // another process made it first
    return fs.readFileSync(file, 'utf8').trim();
  }
}

const TOKENS_MAX = 50_000;

/**
 * The token of a binding under `secret` (HMAC-SHA256), remembered by binding (at most TOKENS_MAX,
 * then forgotten at once): every request of a session checks and hands out the same one.
 */
function tokenMaker(secret: string): (binding: string) => string {
  const tokens = new Map<string, string>();
  return (binding) => {
    let t = tokens.get(binding);
    if (t === undefined) {
      t = createHmac('sha256', secret).update(binding).digest('base64url');
      if (tokens.size >= TOKENS_MAX) tokens.clear();
      tokens.set(binding, t);
    }
    return t;
  };
}

const sessionBinding = (sid: string) => `s:${sha256hex(sid)}`;
const preSessionBinding = (psid: string) => `p:${psid}`;

/** The binding of a request as its cookies stand. */
function bindingOf(req: FastifyRequest): string | undefined {
  const sid = req.cookies[SID_COOKIE];
  if (sid) return sessionBinding(sid);
  const psid = req.cookies[PRESESSION_COOKIE];
  return psid ? preSessionBinding(psid) : undefined;
}

/**
 * The session of this browser changed: `sid` is its new session cookie, or null when the session
 * ended (the pre-session cookie takes over). The answer carries the matching XSRF-TOKEN.
 */
export function rebindCsrf(req: FastifyRequest, sid: string | null): void {
  if (sid) req.csrfBinding = sessionBinding(sid);
  else req.csrfBinding = preSessionBinding(req.cookies[PRESESSION_COOKIE] ?? req.newPreSession ?? '');
}

export function installCsrf(app: FastifyInstance, opts: { secure: boolean; secret: string }) {
  const cookieOpts = { path: '/', sameSite: 'lax' as const, secure: opts.secure };
  const tokenFor = tokenMaker(opts.secret);

  app.addHook('onRequest', async (req, reply) => {
    if (!req.cookies[PRESESSION_COOKIE]) {
      const psid = randomToken(24);
      req.newPreSession = psid;
      reply.setCookie(PRESESSION_COOKIE, psid, { ...cookieOpts, httpOnly: true });
    }
    const binding = bindingOf(req);
    req.csrfBinding = binding ?? preSessionBinding(req.newPreSession ?? '');
    // a route that no browser calls (it has its own header token, e.g. the operator channel) opts out with config.csrf = false
    if (SAFE.has(req.method) || (req.routeOptions.config as { csrf?: boolean } | undefined)?.csrf === false) return;
    const header = req.headers[XSRF_HEADER];
    if (!binding || typeof header !== 'string' || !safeEqual(header, tokenFor(binding))) throw errors.csrf();
  });

  // hand out the token of the binding the answer leaves the browser with (only when it changed)
  app.addHook('onSend', async (req, reply, payload) => {
    if (!req.csrfBinding) return payload;
    const token = tokenFor(req.csrfBinding);
    if (req.cookies[XSRF_COOKIE] !== token) reply.setCookie(XSRF_COOKIE, token, { ...cookieOpts, httpOnly: false });
    return payload;
  });
}
