/** Shared helpers of the send tests (tests/server/send*.test.ts). */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Client, TestServer } from './harness';
import type { ProductType } from '../../common/generated/schemas';
import { runCommand } from '../../server/cli/operator-channel';

export async function as(server: TestServer, who: string): Promise<Client> {
  const c = await server.client().init();
  const r = await c.login(who);
  if (r.body.code !== 0) throw new Error(`login ${who}: ${JSON.stringify(r.body)}`);
  return c;
}

export const db = (s: TestServer) => s.handle.db;

export async function accountId(s: TestServer, clientid: string): Promise<number> {
  return (await db(s).selectFrom('accounts').select('id').where('clientid', '=', clientid).executeTakeFirstOrThrow())
    .id;
}

export async function balance(s: TestServer, clientid: string): Promise<string> {
  return (
    await db(s).selectFrom('accounts').select('balance').where('clientid', '=', clientid).executeTakeFirstOrThrow()
  ).balance;
}

/** accounts whose balance differs from their ledger sum, or is negative (must be none) */
export async function ledgerViolations(s: TestServer) {
  const r = await sql<{ clientid: string }>`
    select a.clientid from accounts a left join (select account_id, sum(amount) s from ledger group by account_id) l on l.account_id = a.id
    where a.balance <> coalesce(l.s, 0) or a.balance < 0`.execute(db(s));
  return r.rows;
}

/** pools whose movements do not add up to their remaining pieces (must be none) */
export async function poolViolations(s: TestServer) {
  const r = await sql<{ id: number }>`
    select p.id from product_pools p left join (select pool_id, sum(pieces) s from pool_movements group by pool_id) m on m.pool_id = p.id
    where p.remaining <> coalesce(m.s, 0) or p.remaining < 0`.execute(db(s));
  return r.rows;
}

export async function remaining(s: TestServer, clientid: string, productType?: ProductType): Promise<number> {
  let q = db(s)
    .selectFrom('product_pools as p')
    .innerJoin('accounts as a', 'a.id', 'p.account_id')
    .select(sql<string>`coalesce(sum(p.remaining), 0)::text`.as('n'))
    .where('a.clientid', '=', clientid);
  if (productType !== undefined) q = q.where('p.product_type', '=', productType);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

export async function templateId(s: TestServer, content: string): Promise<number> {
  return (
    await db(s)
      .selectFrom('templates')
      .select('id')
      .where('content', 'like', `${content}%`)
      .orderBy('id')
      .executeTakeFirstOrThrow()
  ).id;
}

export async function task(s: TestServer, uid: string) {
  return db(s).selectFrom('sms_tasks').selectAll().where('uid', '=', uid).executeTakeFirstOrThrow();
}

/**
 * When a message became claimable by the dispatchers (dispatch/sql.ts): its requeue time, else the
 * time its task was queued when the task's cursor has not passed it; null: not queued.
 */
export const queuedAt = sql<Date | null>`coalesce(
  (select r.next_at from sms_requeue r where r.message_id = m.id),
  (select q.ready_at from dispatch_queue q where q.task_id = m.task_id and q.queued and m.id > q.next_id and m.state = 0))`;

export async function messages(s: TestServer, uid: string) {
  return db(s)
    .selectFrom('sms_messages as m')
    .innerJoin('sms_tasks as t', 't.id', 'm.task_id')
    .select([
      'm.id',
      'm.phone',
      'm.carrier',
      'm.state',
      queuedAt.as('next_at'),
      'm.price',
      'm.pieces',
      'm.province_id',
      'm.city_id',
    ])
    .where('t.uid', '=', uid)
    .orderBy('m.id')
    .execute();
}

export async function counts(s: TestServer) {
  const n = async (table: 'sms_tasks' | 'sms_messages' | 'ledger' | 'pool_movements') =>
    Number(
      (
        await db(s)
          .selectFrom(table)
          .select(sql<string>`count(*)::text`.as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    tasks: await n('sms_tasks'),
    messages: await n('sms_messages'),
    ledger: await n('ledger'),
    moves: await n('pool_movements'),
  };
}

/** `npm run cli -- <args>` against the test database */
export async function cli(s: TestServer, ...args: string[]) {
  return runCommand({ db: db(s), now: s.clock.now }, args);
}

/** n distinct valid 移动 numbers (1380xxxxxxx) */
export function numbers(n: number, start = 0): string[] {
  return Array.from({ length: n }, (_, i) => `1380${String(start + i).padStart(7, '0')}`);
}

/** multipart/form-data with one file part */
export function multipart(field: string, filename: string, content: Buffer, type = 'application/octet-stream') {
  const boundary = `----smsp${randomBytes(8).toString('hex')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

export async function upload(s: TestServer, c: Client, url: string, filename: string, content: Buffer) {
  const { body, contentType } = multipart('file', filename, content);
  const raw = await s.app.inject({
    method: 'POST',
    url,
    headers: {
      host: 'localhost:8080',
      'content-type': contentType,
      cookie: [...c.jar].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-xsrf-token': c.jar.get('XSRF-TOKEN')!,
    },
    payload: body,
  });
  return raw.json();
}

/** 'YYYY-MM-DD HH:mm:ss' in Asia/Shanghai of an instant */
export function shanghai(d: Date): string {
  return new Date(d.getTime() + 8 * 3600_000).toISOString().replace('T', ' ').slice(0, 19);
}

/**
 * Gives the account an approved sign (every send path sends only with one: sign/approved.ts); the
 * demo seeds client0's 云讯通 / 瓯越鞋业 and client1's 好易购 / 好易购商城. Idempotent.
 */
export async function approveSign(s: TestServer, clientid: string, sign: string): Promise<void> {
  const id = await accountId(s, clientid);
  const has = await db(s)
    .selectFrom('signs')
    .select('id')
    .where('account_id', '=', id)
    .where('sign', '=', sign)
    .where('state', '=', 1)
    .executeTakeFirst();
  if (!has) await db(s).insertInto('signs').values({ account_id: id, clientid, sign, state: 1 }).execute();
}
