/**
 * POST /content/content/test [forms/content-test]: the sensitive-content check. The answer is
 * keyed by number: `{"200":"ok"}` when clean, else `{"500":"begin,end","501":…}`, one key per
 * offending range (UTF-16 offsets into the submitted content, end exclusive, merged, in order).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { ok } from '../../http/reply';
import { validateForm } from '../../http/validation';
import type { SessionService } from '../auth/session';
import { contentTestAnswer } from './sensitive-words';

export function contentRoutes(ctx: AppContext, sessions: SessionService): FastifyPluginAsync {
  return async (app) => {
    app.post('/content/content/test', { preHandler: sessions.requireSession() }, async (req) => {
      const { content } = validateForm<{ content: string }>(ctx.schemas, 'forms/content-test', req.body);
      const ranges = ctx.words.find(content);
      return ok(contentTestAnswer(ranges), ranges.length ? '检测到敏感内容' : '未检测到敏感词');
    });
  };
}
