/**
 * Send acceptance with the dispatch pipeline (server/modules/dispatch) against an in-memory SMSC:
 * sends accepted through /send/sending, submitted, some rejected and some undelivered; the
 * returns (money by the cent-ceiling rule, pieces to their pools) leave every ledger and pool exact.
 */
import { describe, expect, it } from 'vitest';
import { Dispatcher } from '../../server/modules/dispatch/dispatcher';
import { ceilCent } from '../../server/modules/billing';
import { Money } from '../../server/lib/money';
import { FakeLink } from '../fixtures/fake-smsc';
import { backends, useServer } from './harness';
import { as, balance, ledgerViolations, messages, poolViolations, remaining, task, templateId } from './send-helpers';

const MARKETING_FIXED = '双十一狂欢节，全场商品满300减50，活动仅限3天，回T退订。';
const PHONES = [
  '13800138000',
  '13800138001',
  '13800138002',
  '13800138003',
  '18600186000',
  '18600186001',
  '18600186003',
  '18900189000',
  '18900189002',
  '18900189003',
];

describe.each(backends)('send + dispatch (%s)', (backend) => {
  const t = useServer(backend);

  it('refunds rejected and undelivered messages exactly, money and pieces', async () => {
    const { server } = t;
    const client0 = await as(server, 'client0');
    const client1 = await as(server, 'client1');
    const mkt = await templateId(server, MARKETING_FIXED);
    const code = await templateId(server, '您的好易购登录验证码为');
    await server.handle.db
      .updateTable('accounts')
      .set({ price_type: 1, mobile_price: '0.0410', unicom_price: '0.0433', telecom_price: '0.0457' })
      .where('clientid', '=', 'client0')
      .execute();
    const bal0 = await balance(server, 'client0');
    const pools1 = await remaining(server, 'client1');

    server.clock.advance(3100);
    const a = await client0.post('/api/send/sending', {
      sign: '云讯通',
      smstype: 5,
      templateId: mkt,
      content: MARKETING_FIXED,
      mobile: PHONES.join(','),
    });
    const b = await client1.post('/api/send/sending', {
      sign: '好易购',
      smstype: 4,
      templateId: code,
      content: '您的好易购登录验证码为778899，5分钟内有效，请勿告诉他人。',
      mobile: PHONES.join(','),
    });
    expect([a.body.code, b.body.code]).toEqual([0, 0]);
    // 4 移动 × 0.0410 + 3 联通 × 0.0433 + 3 电信 × 0.0457 = 0.4310 → 0.44
    expect(a.body.data.amount).toBe('0.44');
    expect(await remaining(server, 'client1')).toBe(pools1 - 10);

    const link = new FakeLink((req) => (req.to.endsWith('3') ? 'reject' : 'accept'));
    link.delivered = (ref) => ref % 3 !== 0;
    const d = new Dispatcher(server.app.ctx, link, { maintenanceMs: 0, batchSize: 7 });
    while ((await d.dispatchOnce()) > 0);
    await link.flushReceipts();
    await d.applyOnce();
    expect(link.duplicates()).toEqual([]);

    const ta = await task(server, a.body.data.taskId);
    const ma = await messages(server, a.body.data.taskId);
    expect(ma.every((m) => m.state === 3 || m.state === 4 || m.state === 6)).toBe(true);
    expect(ta.status).toBe(3);
    const kept = ma
      .filter((m) => m.state === 3)
      .reduce((s, m) => s.plus(new Money(m.price).times(m.pieces)), new Money(0));
    // net charge = the cent-ceiling of what the delivered messages cost
    expect(ta.refunded_amount).toBe(new Money('0.44').minus(ceilCent(kept)).toFixed(2));
    expect(await balance(server, 'client0')).toBe(new Money(bal0).minus(ceilCent(kept)).toFixed(2));

    const tb = await task(server, b.body.data.taskId);
    const mb = await messages(server, b.body.data.taskId);
    const failed = mb.filter((m) => m.state !== 3).length;
    expect(failed).toBeGreaterThan(0);
    expect(tb).toMatchObject({ status: 3, refundable_pieces: failed, refunded_pieces: failed });
    expect(await remaining(server, 'client1')).toBe(pools1 - (10 - failed));
    expect(await ledgerViolations(server)).toEqual([]);
    expect(await poolViolations(server)).toEqual([]);
    await d.stop();
  });
});
