/**
 * POST /content/content/test [forms/content-test]: the sensitive-content check. The answer is
 * keyed by number: `{"200":"ok"}` when clean, else `{"500":"begin,end","501":…}`, one key per
 * offending range (UTF-16 offsets into the submitted content, end exclusive, merged, in order).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { api, okOf, request } from '../../http/contract';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import { contentTestAnswer } from './sensitive-words';
import { MESSAGES } from '../../../common/schema/messages';

export function contentRoutes(ctx: AppContext): FastifyPluginAsync {
  const answer = okOf(ctx, 'responses/sensitive-ranges');
  return async (plugin) => {
    const app = api(plugin);
    app.post(
      '/content/content/test',
      route({
        tag: '内容检测',
        summary: '敏感内容检测：{"200":"ok"} 或 {"500":"起,止", "501": …}（UTF-16 偏移，止不含）',
        access: 'session',
        body: request(ctx, 'forms/content-test'),
        response: answer,
      }),
      async (req) => {
        const ranges = ctx.words.find(req.body.content);
        return ok(contentTestAnswer(ranges), ranges.length ? '检测到敏感内容' : MESSAGES.noSensitiveWords);
      },
    );
  };
}
