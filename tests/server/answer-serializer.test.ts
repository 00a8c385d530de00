/**
 * Answers through their route's response schema (installSerializer, server/http/validation.ts):
 * a successful answer is written by fast-json-stringify from the schema; with `exact` (every test
 * server) an answer the schema would change is an error naming the route and the paths; errors and
 * routes without a schema are written as they are; an object schema naming no properties is written
 * whole; without `exact` a serializer that throws falls back to JSON.stringify.
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { installSerializer } from '../../server/http/validation';

const ROW = {
  type: 'object',
  required: ['code', 'msg'],
  properties: {
    code: { type: 'integer' },
    msg: { type: 'string' },
    data: {
      type: 'object',
      required: ['amount'],
      properties: { amount: { type: 'string' }, count: { type: 'integer' }, extra: { type: 'object' } },
    },
  },
};

async function appWith(exact: boolean, answer: unknown) {
  const app = Fastify();
  installSerializer(app, { exact });
  app.setErrorHandler((err, _req, reply) =>
    reply.status(500).send({ code: 500, msg: err instanceof Error ? err.message : String(err) }),
  );
  app.get('/x', { schema: { response: { 200: ROW } } }, async () => answer);
  app.get('/plain', async () => answer);
  await app.ready();
  return app;
}

describe('answers serialised from their response schema', () => {
  it('writes a matching answer, a free-form object whole and money strings as strings', async () => {
    const answer = {
      code: 0,
      msg: 'ok',
      data: { amount: '12.50', count: 3, extra: { any: [1, 'two'], deep: { x: null } } },
    };
    for (const exact of [true, false]) {
      const app = await appWith(exact, answer);
      const r = await app.inject({ url: '/x' });
      expect(r.statusCode).toBe(200);
      expect(r.json()).toEqual(answer);
      await app.close();
    }
  });

  it('exact: a field the schema forgot or a value of another type fails, naming the route and paths', async () => {
    const app = await appWith(true, { code: 0, msg: 'ok', data: { amount: 12.5, count: '3', forgotten: 1 } });
    const r = await app.inject({ url: '/x' });
    expect(r.statusCode).toBe(500);
    expect(r.json().msg).toBe(
      'answer of GET /x: its response schema changes it when serialised at /data/amount, /data/count, /data/forgotten',
    );
    await app.close();
  });

  it('errors, answers of other codes and routes without a schema are written as they are', async () => {
    const error = { code: 400, msg: '参数错误', data: { errors: [{ field: 'amount', message: '参数错误' }] } };
    const app = await appWith(true, error);
    expect((await app.inject({ url: '/x' })).json()).toEqual(error);
    expect((await app.inject({ url: '/plain' })).json()).toEqual(error);
    await app.close();
  });

  it('without exact, a serializer that throws (a required field missing) falls back to JSON.stringify', async () => {
    const answer = { code: 0, msg: 'ok', data: { count: 1 } };
    const app = await appWith(false, answer);
    const r = await app.inject({ url: '/x' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual(answer);
    await app.close();
  });
});
