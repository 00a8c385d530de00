/**
 * Issue 27 item 5: the counts of typed numbers agree everywhere. The console counts the box with
 * common/sms/numbers checkNumbers; the server's charge preview (/send/chargeInfo submitTotal,
 * chargeNum), the error-number export (/send/importRrrorPhones) and the accepted task (submit_total,
 * err_num, repeat_num and its messages) must say the same figures for the same text.
 */
import { describe, expect, it } from 'vitest';
import { backends, useServer, type Client } from './harness';
import { as, messages, task, templateId } from './send-helpers';
import { checkNumbers, confirmNumbers } from '../../common/sms/numbers';

const CODE_TPL = '您的好易购登录验证码为';
const content = '您的好易购登录验证码为123456，5分钟内有效，请勿告诉他人。';
// five numbers typed: one repeated, 12345 invalid
const TYPED = '13800138000\n18600186000\n13800138000\n12345\n18900189000';

describe.each(backends)('send counts (%s)', (backend) => {
  const t = useServer(backend);
  let client1: Client;
  let tpl: number;
  const base = () => ({ sign: '好易购', smstype: 4, templateId: tpl, content });

  it('logs in', async () => {
    client1 = await as(t.server, 'client1');
    tpl = await templateId(t.server, CODE_TPL);
  });

  it('the console counts 5 = 3 valid + 1 invalid + 1 repeat', () => {
    expect(checkNumbers(TYPED)).toMatchObject({ total: 5, valid: 3, invalid: 1, repeat: 1, invalidNumbers: ['12345'] });
  });

  it('the charge preview of the typed text and of the confirmed box both say 3', async () => {
    const c = checkNumbers(TYPED);
    for (const mobile of [TYPED, confirmNumbers(TYPED).join(','), c.unique.join(',')]) {
      const r = await client1.post('/api/send/chargeInfo', { ...base(), mobile });
      expect(r.body.code, r.body.msg).toBe(0);
      expect(r.body.data).toMatchObject({ submitTotal: c.valid, chargeNum: c.valid * r.body.data.smsNum });
    }
  });

  it('the export lists exactly the invalid numbers the console lists', async () => {
    const r = await client1.post('/api/send/importRrrorPhones', { phones: TYPED });
    expect(r.status).toBe(200);
    expect(String(r.raw.body).trim().split(/\r?\n/)).toEqual(checkNumbers(TYPED).invalidNumbers);
  });

  it('the accepted task has the same figures and one message per valid number', async () => {
    t.server.clock.advance(3100);
    const r = await client1.post('/api/send/sending', { ...base(), mobile: TYPED });
    expect(r.body.code, r.body.msg).toBe(0);
    const c = checkNumbers(TYPED);
    expect(r.body.data).toMatchObject({ submitTotal: c.valid, chargeNum: c.valid });
    const tk = await task(t.server, r.body.data.taskId);
    expect(tk).toMatchObject({ submit_total: c.valid, err_num: c.invalid, repeat_num: c.repeat });
    expect(tk.submit_total + tk.err_num + tk.repeat_num).toBe(c.total);
    expect((await messages(t.server, r.body.data.taskId)).map((m) => m.phone)).toEqual(c.unique);
  });
});
