/**
 * The operators' sessions (issue 39, docs/api-operator.md): the same `sid` cookie as the accounts'
 * sessions (session.ts), but its SHA-256 is looked up in `operator_sessions`, a table no account
 * route reads. So an operator's cookie never resolves as an account on an account route (登录超时
 * there), and an account's never as an operator on an operator route. One browser holds one kind
 * at a time: an operator login ends the browser's account session first. Sliding idle expiry as
 * the accounts' (config.sessionIdleMs); no remember-me for operators.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { Operator } from '../db/types';
import { rebindCsrf } from './csrf';
import { randomToken, sha256hex } from '../lib/crypto';
import { addMs } from '../lib/time';
import { errors } from './errors';
import { OperatorStatus } from '../../common/generated/schemas';

/** the cookie both kinds of session use (session.ts SESSION_COOKIE) */
const SID = 'sid';
/** refresh the sliding expiry at most this often */
const TOUCH_EVERY_MS = 60_000;
/** operators.status of an operator who may log in */
export const OPERATOR_ACTIVE = OperatorStatus.Active;

export interface OperatorSession {
  sessionId: string;
  operator: Operator;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** undefined: not resolved yet; null: no operator session */
    operatorSession?: OperatorSession | null;
  }
}

export class OperatorSessions {
  constructor(private readonly ctx: AppContext) {}

  /** The operator session of this request, else null (cached per request). */
  async resolve(req: FastifyRequest): Promise<OperatorSession | null> {
    if (req.operatorSession !== undefined) return req.operatorSession;
    const token = req.cookies[SID];
    let found: OperatorSession | null = null;
    if (token) {
      const now = this.ctx.now();
      const row = await this.ctx.db
        .selectFrom('operator_sessions as s')
        .innerJoin('operators as o', 'o.id', 's.operator_id')
        .selectAll('o')
        .select(['s.id as session_id', 's.last_seen_at as session_last_seen'])
        .where('s.id', '=', sha256hex(token))
        .where('s.expires_at', '>', now)
        .where('o.status', '=', OPERATOR_ACTIVE)
        .executeTakeFirst();
      if (row) {
        const { session_id, session_last_seen, ...operator } = row;
        found = { sessionId: session_id, operator };
        if (now.getTime() - new Date(session_last_seen).getTime() > TOUCH_EVERY_MS) {
          await this.ctx.db
            .updateTable('operator_sessions')
            .set({ last_seen_at: now, expires_at: addMs(now, this.ctx.config.sessionIdleMs) })
            .where('id', '=', session_id)
            .execute();
        }
      }
    }
    req.operatorSession = found;
    return found;
  }

  /** Opens an operator session for this browser (the caller ended its account session first). */
  async open(req: FastifyRequest, reply: FastifyReply, operator: Operator): Promise<void> {
    const now = this.ctx.now();
    const token = randomToken();
    const id = sha256hex(token);
    await this.ctx.db
      .insertInto('operator_sessions')
      .values({
        id,
        operator_id: operator.id,
        created_at: now,
        last_seen_at: now,
        expires_at: addMs(now, this.ctx.config.sessionIdleMs),
        ip: req.ip.slice(0, 64),
        user_agent: String(req.headers['user-agent'] ?? '').slice(0, 256),
      })
      .execute();
    reply.setCookie(SID, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: this.ctx.config.secureCookies });
    rebindCsrf(req, token);
    req.operatorSession = { sessionId: id, operator };
  }

  /** Ends this browser's operator session, if it holds one (the cookie is cleared by the caller's logout). */
  async revokeCurrent(req: FastifyRequest): Promise<boolean> {
    const token = req.cookies[SID];
    if (!token) return false;
    const r = await this.ctx.db.deleteFrom('operator_sessions').where('id', '=', sha256hex(token)).executeTakeFirst();
    req.operatorSession = null;
    return Number(r.numDeletedRows) > 0;
  }

  /** Ends every session of an operator (disabled, password changed). */
  async revokeAll(operatorId: number): Promise<void> {
    await this.ctx.db.deleteFrom('operator_sessions').where('operator_id', '=', operatorId).execute();
  }
}

/** The operator a route of access 'operator' runs for (server/http/route.ts). */
export function operatorOf(req: FastifyRequest): Operator {
  if (!req.operatorSession) throw errors.timeout();
  return req.operatorSession.operator;
}
