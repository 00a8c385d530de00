/**
 * Demo sending data, inserted once (idempotent):
 * - product pools (operation_mode 1) of agent1's accounts: client1's pools (验证码, 通知 移动,
 *   an 行业 pool expiring within a week, 营销, a gift pool, 200.00 元 of 国际) and agent1's own (which pay for its
 *   postpaid client3), each written with its purchase / gift movement (sum(movements) = remaining);
 * - client1's history, so the lists are not empty on a fresh start: a completed task whose records
 *   cover every final and in-flight state, an intercepted task, a task rejected in review, one
 *   awaiting review and a timed task waiting for its time; charged from the pools and returned
 *   through the same billing code as real sends (chargePlan, settleRefunds);
 * - a few uplink (sms_mo) rows for client1.
 */
import type { Db } from '../../db';
import { DEMO_POOL_PRICES } from '../../db/migrations/0038_product_pack_size';
import { Money } from '../../lib/money';
import { chargePlan, REFUNDABLE_STATES, settleRefunds, type ChargePlan } from '../billing';
import { insertMessages } from './messages';
import { carrierSlot } from '../dispatch';
import { newTaskUid } from './service';
import { carrierOf } from '../../../common/sms/segments';
import { countPieces } from '../../../common/sms/pieces';
import { ChargeState, TaskStatus, TemplateAuditState } from '../../../common/generated/schemas';

const DAY = 86_400_000;

/** [account, product_type, operator_code, total, due in days, gift, name] */
const POOLS: [string, number, number, number, number, number, string][] = [
  ['client1', 3, 0, 10000, 365, 0, '验证码短信包（全网）'],
  ['client1', 4, 1, 5000, 180, 0, '通知短信包（移动）'],
  ['client1', 0, 0, 20000, 6, 0, '行业短信包（全网）'],
  ['client1', 1, 0, 8000, 365, 0, '营销短信包（全网）'],
  ['client1', 0, 0, 500, 90, 1, '新客户赠送短信（全网）'],
  // an international pool holds money in 分 (billing/billing.ts): 200.00 元 for client1's international sends
  ['client1', 2, 0, 20000, 365, 0, '国际短信余额（200元）'],
  ['agent1', 0, 0, 50000, 365, 0, '行业短信包（全网）'],
  ['agent1', 1, 0, 10000, 365, 0, '营销短信包（全网）'],
];

const PHONES = [
  '13800138101',
  '18600186102',
  '18900189103',
  '13900139104',
  '13000130105',
  '13300133106',
  '15000150107',
  '15600156108',
  '17700177109',
  '13500135110',
  '18200182111',
  '13100131112',
  '18000180113',
  '15800158114',
];

/** message state -> [error_code, report] of the demo records */
const OUTCOME: Record<number, [string, string]> = {
  1: ['', ''],
  3: ['DELIVRD', 'DELIVRD'],
  4: ['0x00000045', '提交失败'],
  6: ['UNDELIV', 'UNDELIV'],
  8: ['TPL_REJECT', '模板审核失败'],
  12: ['BLACK', '网关发送拦截'],
  13: ['FREQ', '频率拦截'],
  14: ['BILLING', '计费失败'],
  15: ['', ''],
  16: ['DELIVRD', 'DELIVRD'],
};

interface DemoTask {
  ago: number;
  sign: string;
  content: string;
  smstype: number;
  status: number;
  sendType: number;
  /** final / current state of each message, in PHONES order */
  states: number[];
  /** timed: send in this many ms */
  sendIn?: number;
}

const DEMO_TASKS: DemoTask[] = [
  {
    ago: 3 * DAY,
    sign: '好易购',
    content: '您的好易购登录验证码为482913，5分钟内有效，请勿告诉他人。',
    smstype: 4,
    status: 3,
    sendType: 0,
    states: [3, 3, 16, 3, 6, 4, 1, 15, 8, 12, 13, 14, 3, 6],
  },
  {
    ago: 2 * DAY,
    sign: '好易购',
    content: '您在好易购购买的蓝牙耳机已发货，快递单号SF1234567890，请留意查收。',
    smstype: 0,
    status: 3,
    sendType: 0,
    states: [3, 3, 3, 6],
  },
  {
    ago: 2 * DAY - 3_600_000,
    sign: '好易购',
    content: '您的好易购登录验证码为105527，5分钟内有效，请勿告诉他人。',
    smstype: 4,
    status: 3,
    sendType: 0,
    states: [11, 11],
  },
  {
    ago: DAY,
    sign: '好易购',
    content: '您在好易购购买的保温杯已发货，快递单号YT9876543210，请留意查收。',
    smstype: 0,
    status: 3,
    sendType: 0,
    states: [9, 9],
  },
  {
    ago: 3_600_000,
    sign: '好易购',
    content: '您在好易购购买的运动鞋已发货，快递单号ZT5566778899，请留意查收。',
    smstype: 0,
    status: 0,
    sendType: 0,
    states: [7, 7, 7],
  },
  {
    ago: 1_800_000,
    sign: '好易购',
    content: '您的好易购登录验证码为660318，5分钟内有效，请勿告诉他人。',
    smstype: 4,
    status: 1,
    sendType: 1,
    states: [0, 0, 0],
    sendIn: 2 * DAY,
  },
];

export async function seedSending(db: Db, now = new Date()): Promise<void> {
  const ids = new Map(
    (
      await db
        .selectFrom('accounts')
        .select(['id', 'clientid'])
        .where('clientid', 'in', ['agent1', 'client1'])
        .execute()
    ).map((r) => [r.clientid, r.id]),
  );
  const client1 = ids.get('client1');
  const agent1 = ids.get('agent1');
  if (!client1 || !agent1) return;
  await db.transaction().execute(async (trx) => {
    const anyPool = await trx
      .selectFrom('product_pools')
      .select('id')
      .where('account_id', 'in', [client1, agent1])
      .limit(1)
      .executeTakeFirst();
    if (anyPool) return;
    for (const [who, type, op, total, dueDays, gift, name] of POOLS) {
      const p = await trx
        .insertInto('product_pools')
        .values({
          account_id: ids.get(who)!,
          product_type: type,
          operator_code: op,
          product_name: name,
          unit_price: gift ? '0' : DEMO_POOL_PRICES[type],
          total,
          remaining: total,
          due_time: new Date(now.getTime() + dueDays * DAY),
          gift,
          order_id: gift ? '' : `DEMO${type}${op}${dueDays}`,
          created_at: new Date(now.getTime() - 30 * DAY),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('pool_movements')
        .values({
          pool_id: p.id,
          pieces: total,
          remaining_after: total,
          kind: gift ? 5 : 3,
          remark: name,
          created_at: new Date(now.getTime() - 30 * DAY),
        })
        .execute();
    }
  });
  const hasTasks = await db
    .selectFrom('sms_tasks')
    .select('id')
    .where('account_id', '=', client1)
    .limit(1)
    .executeTakeFirst();
  if (hasTasks) return;
  const templates = await db
    .selectFrom('templates')
    .select(['id', 'smstype', 'template_type'])
    .where('owner_id', '=', client1)
    .where('state', '=', TemplateAuditState.Approved)
    .orderBy('id')
    .execute();
  const ctx = { now: () => now };
  for (const d of DEMO_TASKS) {
    await db.transaction().execute(async (trx) => {
      const created = new Date(now.getTime() - d.ago);
      const tpl = templates.find((t) => t.smstype === d.smstype);
      const pc = countPieces({ content: d.content, sign: d.sign });
      const phones = PHONES.slice(0, d.states.length);
      const uid = newTaskUid(created);
      const intercepted = d.states.every((s) => s === 11);
      const task = await trx
        .insertInto('sms_tasks')
        .values({
          uid,
          account_id: client1,
          agent_id: agent1,
          creator_id: client1,
          creator_name: 'client1',
          payer_id: client1,
          charge_mode: 1,
          content: pc.text,
          sign: d.sign,
          smstype: d.smstype,
          template_id: tpl?.id ?? null,
          template_type: tpl?.template_type ?? 1,
          submit_total: phones.length,
          pieces_per_msg: pc.pieces,
          status: d.status,
          send_type: d.sendType,
          send_time: d.sendIn ? new Date(now.getTime() + d.sendIn) : created,
          charge_state: ChargeState.Charged,
          created_at: created,
          updated_at: created,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const carriers = Uint8Array.from(phones.map((p) => carrierOf(p)));
      await insertMessages(trx, {
        taskId: task.id,
        accountId: client1,
        phones,
        carriers,
        pieces: pc.pieces,
        prices: { 1: '0', 2: '0', 3: '0' },
        state: 0,
        nextAt: null,
        createdAt: created,
        doneAt: null,
      });
      if (!intercepted) {
        const perCarrier = {
          1: { count: 0, cost: new Money(0) },
          2: { count: 0, cost: new Money(0) },
          3: { count: 0, cost: new Money(0) },
        } as ChargePlan['perCarrier'];
        for (const c of carriers) perCarrier[c as 1 | 2 | 3].count++;
        const r = await chargePlan(
          trx,
          { now: () => created },
          {
            taskId: task.id,
            uid,
            mode: 1,
            accountId: client1,
            payerId: client1,
            smstype: d.smstype,
            piecesPerMsg: pc.pieces,
            perCarrier,
          },
        );
        if (!r.ok) throw new Error(`seedSending: the demo pools cannot pay ${uid}`);
        await trx.updateTable('sms_tasks').set({ charge_num_total: r.chargeNum }).where('id', '=', task.id).execute();
      }
      const rows = await trx
        .selectFrom('sms_messages')
        .select(['id', 'phone', 'carrier'])
        .where('task_id', '=', task.id)
        .orderBy('id')
        .execute();
      const count = {
        success: 0,
        fail: 0,
        unknown: 0,
        intercept: 0,
        audit: 0,
        refundPieces: 0,
        byCarrier: [0, 0, 0, 0, 0],
      };
      for (let i = 0; i < rows.length; i++) {
        const s = d.states[i];
        const [error_code, report] = OUTCOME[s] ?? ['', ''];
        const sentAt = new Date(created.getTime() + 2000 + i * 150);
        const submitted = [1, 3, 6, 15, 16].includes(s);
        const final = s !== 0 && s !== 7 && s !== 1 && s !== 15;
        await trx
          .updateTable('sms_messages')
          .set({
            state: s,
            error_code,
            report: s === 9 ? '内容与报备模板不符' : report,
            msg_id: submitted ? `demo-${task.id}-${i}` : null,
            submitted_at: submitted ? sentAt : null,
            done_at: final ? new Date(sentAt.getTime() + 4000) : null,
          })
          .where('id', '=', rows[i].id)
          .execute();
        if (s === 3 || s === 16) count.success++;
        else if ([4, 6, 8, 9, 14].includes(s)) count.fail++;
        else if (s === 1 || s === 15) count.unknown++;
        else if ([11, 12, 13].includes(s)) count.intercept++;
        else if (s === 7) count.audit++;
        if (!intercepted && (REFUNDABLE_STATES as readonly number[]).includes(s)) {
          count.refundPieces += pc.pieces;
          count.byCarrier[carrierSlot(rows[i].carrier)] += pc.pieces;
        }
      }
      await trx
        .updateTable('sms_tasks')
        .set({
          success_num: count.success,
          fail_num: count.fail,
          unknown_num: count.unknown,
          intercept_num: count.intercept,
          audit_num: count.audit,
          submitted_num: count.success + count.fail + count.unknown,
          refundable_pieces: count.refundPieces,
          refundable_pieces_by_carrier: count.byCarrier,
          finished_at: d.status === TaskStatus.Completed ? new Date(created.getTime() + 60_000) : null,
        })
        .where('id', '=', task.id)
        .execute();
      await settleRefunds(trx, ctx, [task.id]);
    });
  }
  await db
    .insertInto('sms_mo')
    .values([
      {
        account_id: client1,
        phone: '13800138101',
        content: '收到，谢谢',
        dest: '106900001',
        received_at: new Date(now.getTime() - 3 * DAY + 120_000),
      },
      {
        account_id: client1,
        phone: '18600186102',
        content: '请问什么时候发货？',
        dest: '106900001',
        received_at: new Date(now.getTime() - 2 * DAY + 300_000),
      },
      {
        account_id: client1,
        phone: '18900189103',
        content: 'TD',
        dest: '106900001',
        received_at: new Date(now.getTime() - DAY),
      },
    ])
    .execute();
}

/**
 * Removes the demo history (tasks, their messages, uplinks) for tests that count rows from an
 * empty history. Pools and their movements stay (their sums stay exact).
 */
export async function clearSendingDemo(db: Db): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('dispatch_queue').execute();
    await trx.deleteFrom('dispatch_leases').execute();
    await trx.deleteFrom('sms_requeue').execute();
    await trx.deleteFrom('sms_inflight').execute();
    await trx.deleteFrom('sms_message_parts').execute();
    await trx.deleteFrom('sms_task_chunks').execute();
    await trx.deleteFrom('sms_messages').execute();
    await trx.deleteFrom('sms_tasks').execute();
    await trx.deleteFrom('sms_mo').execute();
  });
}
