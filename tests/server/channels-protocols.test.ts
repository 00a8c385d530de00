/**
 * Routing by carrier across protocols (issue 38 "Both"; docs/api-dispatch.md "Channels"): one
 * dispatcher whose channels speak CMPP (移动), SGIP (联通) and SMGP (电信), each against the
 * project's embedded simulator of that protocol, plus a second 移动 channel over SMGP of a lower
 * priority. A task with numbers of all three carriers goes out each number on its carrier's
 * channel, once, and every report comes back over its own protocol; when the CMPP gateway goes away,
 * 移动's traffic fails over to the SMGP channel, and nothing is sent twice or lost.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { Dispatcher } from '../../server/modules/dispatch/dispatcher';
import { enqueueTask } from '../../server/modules/dispatch';
import { createSmscLink } from '../../server/modules/smsc/link';
import { parseChannel } from '../../server/modules/smsc/config';
import {
  startCmppSimulator,
  startSgipSimulator,
  startSmgpSimulator,
  type SgipLinkHandle,
} from '../../server/modules/smsc';
import { LedgerService } from '../../server/modules/ledger/service';
import { insertFixtureTask } from '../../bench/lib/dispatch-fixture';
import { backends, useServer, type TestServer } from './harness';

const PREFIX = '106900';
const SIM = { delivered: 1, failed: 0, noReceipt: 0, latencyMinMs: 5, latencyMaxMs: 20, moRatio: 0 };
const FAST = 'reconnect_min_ms=50&reconnect_max_ms=100&receipt_batch_ms=5&queue_wait_ms=300&timeout_ms=3000';
/** enums/carrier */
const MOBILE = 1;
const UNICOM = 2;
const TELECOM = 3;

const taskRow = (server: TestServer, id: number) =>
  server.handle.db.selectFrom('sms_tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const messages = (server: TestServer, id: number) =>
  server.handle.db.selectFrom('sms_messages').selectAll().where('task_id', '=', id).orderBy('id').execute();

async function accountId(server: TestServer) {
  return (
    await server.handle.db
      .selectFrom('accounts')
      .select('id')
      .where('clientid', '=', 'client1')
      .executeTakeFirstOrThrow()
  ).id;
}

async function waitDelivered(server: TestServer, id: number, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const t = await taskRow(server, id);
    if (t.status === 3 && t.success_num === t.submit_total) return;
    if (Date.now() > deadline)
      throw new Error(
        `task ${id} not delivered: ${JSON.stringify([t.status, t.success_num, t.fail_num, t.unknown_num, t.submit_total])}`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function expectMoneyExact(server: TestServer, taskId: number) {
  const t = await taskRow(server, taskId);
  const r = await sql<{ success: number; fail: number; unknown: number; submitted: number }>`
    select count(*) filter (where state in (3, 16))::int success, count(*) filter (where state in (4, 6, 8, 9, 14))::int fail,
      count(*) filter (where state in (1, 15))::int unknown, count(*) filter (where state not in (0, 7))::int submitted
    from sms_messages where task_id = ${taskId}`.execute(server.handle.db);
  expect({ success: t.success_num, fail: t.fail_num, unknown: t.unknown_num, submitted: t.submitted_num }).toEqual(
    r.rows[0],
  );
  expect(await new LedgerService({ db: server.handle.db, now: () => new Date() }).violations()).toEqual([]);
}

/** a task whose numbers `bases[i] + j` belong to carrier `carriers[i]` (the fixture makes one range: the rest is set here) */
async function mixedTask(server: TestServer, parts: { base: number; count: number; carrier: number }[]) {
  const db = server.handle.db;
  const count = parts.reduce((n, p) => n + p.count, 0);
  // not queued yet: the carriers are set before the dispatcher may claim a message
  const task = await insertFixtureTask(db, {
    accountId: await accountId(server),
    count,
    nextAt: null,
    phoneBase: 10000000000,
  });
  const rows = await messages(server, task.id);
  let i = 0;
  for (const p of parts)
    for (let j = 0; j < p.count; j++, i++)
      await db
        .updateTable('sms_messages')
        .set({ phone: String(p.base + j), carrier: p.carrier })
        .where('id', '=', rows[i].id)
        .execute();
  await enqueueTask(db, task.id, new Date());
  return task;
}

describe.each(backends)('channels of three protocols routed by carrier (%s)', (backend) => {
  const t = useServer(backend, { build: { now: () => new Date() } });

  it('移动 over CMPP, 联通 over SGIP, 电信 over SMGP: each number on its carrier’s channel once, reports back over each; 移动 fails over to SMGP', async () => {
    const { server } = t;
    const cmpp = await startCmppSimulator({ ...SIM, seed: 1 });
    const smgp = await startSmgpSimulator({ ...SIM, seed: 2 });
    const smgp2 = await startSmgpSimulator({ ...SIM, seed: 3 });
    const sgip = await startSgipSimulator({ ...SIM, seed: 4 });
    const st = sgip.settings;
    const specs = [
      parseChannel({
        name: 'cm',
        url: `${cmpp.url}?version=3&src_id=${PREFIX}&${FAST}`,
        carriers: ['移动'],
        priority: 0,
      }),
      parseChannel({
        name: 'cu',
        url: `${sgip.url}?sp_number=${PREFIX}&prefix=${PREFIX}&callback_port=0&callback_host=127.0.0.1&callback_user=${encodeURIComponent(st.callbackUser)}&callback_password=${encodeURIComponent(st.callbackPassword)}&${FAST}`,
        carriers: ['联通'],
      }),
      parseChannel({ name: 'ct', url: `${smgp.url}?src=${PREFIX}&${FAST}`, carriers: ['电信'] }),
      parseChannel({ name: 'cm-smgp', url: `${smgp2.url}?src=${PREFIX}&${FAST}`, carriers: ['移动'], priority: 1 }),
    ];
    const links = specs.map((s) => createSmscLink(s.cfg, undefined, { sourcePrefix: PREFIX }));
    const [lcm, lcu, lct, lcm2] = links;
    const port = await (lcu as SgipLinkHandle).callbackListening();
    sgip.bindBackTo(port!, '127.0.0.1');
    const d = new Dispatcher(
      server.app.ctx,
      specs.map((s, i) => ({ name: s.name, link: links[i], carriers: s.carriers, priority: s.priority })),
      {
        batchSize: 40,
        lanes: 2,
        idleMs: 20,
        maintenanceMs: 100,
        markSubmittedMs: 0,
        channelStatsMs: 0,
        matchUnconfirmedMs: 0,
        failoverMs: 400,
        sourcePrefix: PREFIX,
      },
    );
    let cmppClosed = false;
    try {
      await Promise.all(links.map((l) => l.waitReady(5000)));
      d.start();
      const first = await mixedTask(server, [
        { base: 13900000000, count: 12, carrier: MOBILE },
        { base: 13000000000, count: 12, carrier: UNICOM },
        { base: 13300000000, count: 12, carrier: TELECOM },
      ]);
      await waitDelivered(server, first.id);
      const ms = await messages(server, first.id);
      const expected: Record<number, string> = { [MOBILE]: 'cm', [UNICOM]: 'cu', [TELECOM]: 'ct' };
      for (const m of ms) expect(m.channel, m.phone).toBe(expected[m.carrier]);
      // each number reached its own gateway once, and no other
      const on = (sim: { phones: Map<string, number> }, p: string) => sim.phones.get(p) ?? 0;
      for (const m of ms) {
        const counts = {
          cm: on(cmpp, m.phone),
          cu: on(sgip, m.phone),
          ct: on(smgp, m.phone),
          'cm-smgp': on(smgp2, m.phone),
        };
        expect(counts, m.phone).toEqual({ cm: 0, cu: 0, ct: 0, 'cm-smgp': 0, [expected[m.carrier]]: 1 });
      }
      // the ids each protocol answered with, and the reports matched by them
      for (const m of ms)
        expect(m.msg_id, m.phone).toMatch(
          m.channel === 'cu' ? /^cu:\d+-\d+-\d+$/ : new RegExp(`^${m.channel}:[0-9a-fA-F]+$|^${m.channel}:\\d+$`),
        );
      await expectMoneyExact(server, first.id);

      // the CMPP gateway goes away: after failover_ms 移动 goes out over the SMGP channel
      await cmpp.close();
      cmppClosed = true;
      await new Promise((r) => setTimeout(r, 600));
      const second = await mixedTask(server, [
        { base: 13910000000, count: 10, carrier: MOBILE },
        { base: 13310000000, count: 5, carrier: TELECOM },
      ]);
      await waitDelivered(server, second.id);
      const ms2 = await messages(server, second.id);
      for (const m of ms2) expect(m.channel, m.phone).toBe(m.carrier === MOBILE ? 'cm-smgp' : 'ct');
      for (const m of ms2) expect(on(m.carrier === MOBILE ? smgp2 : smgp, m.phone), m.phone).toBe(1);
      await expectMoneyExact(server, second.id);
    } finally {
      await d.stop();
      await Promise.all([lcm, lcu, lct, lcm2].map((l) => l.close()));
      await Promise.all([cmppClosed ? undefined : cmpp.close(), smgp.close(), smgp2.close(), sgip.close()]);
    }
  }, 120_000);
});
