/**
 * At most `config.parsesPerAccount` file parses of one account at a time in this process (a 48 MB
 * workbook takes ~19 s of CPU: an account may not start many and take the cores from everyone):
 * a route with `with: parseSlot(ctx)` takes a slot before its handler and gives it back when its
 * answer is sent (whatever the answer); beyond the limit it answers 文件正在解析中… at once.
 * Each API process counts its own (several processes allow that many each).
 */
import type { FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { AppContext } from '../context';
import { ApiError } from './errors';
import { accountIdOf } from './session';
import { MESSAGES } from '../../common/schema/messages';

const running = new WeakMap<AppContext, Map<number, number>>();
const HELD = Symbol('parseSlot');

function slotsOf(ctx: AppContext): Map<number, number> {
  let m = running.get(ctx);
  if (!m) running.set(ctx, (m = new Map()));
  return m;
}

/** Takes a slot of the account; false when its parses are at the limit. */
export function takeParseSlot(ctx: AppContext, accountId: number): boolean {
  const m = slotsOf(ctx);
  const n = m.get(accountId) ?? 0;
  if (n >= ctx.config.parsesPerAccount) return false;
  m.set(accountId, n + 1);
  return true;
}

export function releaseParseSlot(ctx: AppContext, accountId: number) {
  const m = slotsOf(ctx);
  const n = (m.get(accountId) ?? 1) - 1;
  if (n > 0) m.set(accountId, n);
  else m.delete(accountId);
}

/** Route options: the handler runs within one of the account's parse slots. */
export function parseSlot(ctx: AppContext): RouteShorthandOptions {
  return {
    preHandler: async (req: FastifyRequest) => {
      const id = accountIdOf(req);
      if (!takeParseSlot(ctx, id)) throw new ApiError(429, MESSAGES.parseBusy);
      (req as unknown as Record<symbol, number>)[HELD] = id;
    },
    onResponse: async (req: FastifyRequest, _reply: FastifyReply) => {
      const id = (req as unknown as Record<symbol, number | undefined>)[HELD];
      if (id !== undefined) releaseParseSlot(ctx, id);
    },
  };
}
