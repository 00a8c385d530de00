/**
 * useSendForm (src/custom-pages/send): the send pages' state and checks. The fields' rules and
 * messages come from the form schemas (compiled forms/send*.json through validateForm), the page's
 * own problems win on their field, a scheduled send gets common/send's time rule for its kind, the
 * first message is the first field in the page's order; setting a field clears its error; the
 * 3 s submit lock; reset keeps what it is told to.
 */
import type { ReactNode } from 'react';
import { act, renderHook } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import intlForm from '@/generated/forms/send-international';
import variableForm from '@/generated/forms/send-variable';
import { SendTimeType } from '@/generated/schemas';
import { businessNow } from '@/lib/businessTime';
import { checkForm, useSendForm, type SendTimeValues } from '@/custom-pages/send/useSendForm';
import { validateForm } from '@/components/SchemaForm/validation';
import sendForm from '@/generated/forms/send';
import intlSchema from '../../../schemas/forms/send-international.json';
import variableSchema from '../../../schemas/forms/send-variable.json';
import { SEND_TIME_MESSAGES } from '../../../common/send';

const wrapper = ({ children }: { children: ReactNode }) => (
  <MemoryRouter>
    <App>{children}</App>
  </MemoryRouter>
);

interface V extends SendTimeValues {
  clientId?: string;
  sign: string;
}
const FIELDS = ['clientId', 'smstype', 'sign', 'content', 'mobile', 'sendtime'] as const;
type K = (typeof FIELDS)[number];
const blank = (): V => ({ sign: '', sendType: SendTimeType.Immediate, sendtime: businessNow().add(30, 'minute') });

const intl = (timeKind: 'international' | 'ordinary' = 'international') =>
  renderHook(
    () =>
      useSendForm<V, K>({
        form: intlForm,
        initial: blank,
        fields: FIELDS,
        shownAs: { importFilePath: 'mobile' },
        timeKind,
      }),
    { wrapper },
  );

describe('validate: the form schema’s rules and messages', () => {
  it('empty international form: the schema’s required messages, the first in the page’s order', () => {
    const { result } = intl();
    let first: string | null = null;
    act(() => void (first = result.current.validate({ sign: '' })));
    expect(first).toBe(intlSchema.errorMessage.required.clientId);
    expect(result.current.errors).toEqual({
      clientId: '请选择子账号',
      smstype: '短信类型不能为空',
      content: '短信内容不能为空',
    });
    expect(result.current.item('smstype')).toEqual({ validateStatus: 'error', help: '短信类型不能为空' });
    expect(result.current.item('sign')).toEqual({});
  });

  it('x-trim and pattern: a one-character sign (after trimming) is refused, an empty one is allowed', () => {
    const { result } = intl();
    const base = { clientId: 'b20001', smstype: 0, content: 'hello', fileType: 0, mobile: '14155552671' };
    act(() => void result.current.validate({ ...base, sign: ' A ' }));
    expect(result.current.errors).toEqual({ sign: '签名长度为2-12之间' });
    let first: string | null = 'x';
    act(() => void (first = result.current.validate({ ...base, sign: '' })));
    expect(first).toBeNull();
    expect(result.current.errors).toEqual({});
  });

  it('the page’s own problems win on their field; schema fields shown on a page field (shownAs)', () => {
    const { result } = intl();
    const base = { clientId: 'b20001', smstype: 0, content: 'hello', sign: '', fileType: 1 };
    act(() => void result.current.validate({ ...base, importFilePath: 'x'.repeat(201) }));
    expect(result.current.errors.mobile).toBe(intlSchema.properties.importFilePath.errorMessage);
    act(() => void result.current.validate({ ...base, content: '' }, { content: 'page says', mobile: false }));
    expect(result.current.errors).toEqual({ content: 'page says' });
  });

  it('a variable form: the template is required with its own message', () => {
    const { result } = renderHook(
      () =>
        useSendForm<V, 'templateId' | 'sign' | 'sendtime'>({
          form: variableForm,
          initial: blank,
          fields: ['templateId', 'sign', 'sendtime'],
          timeKind: 'variable',
        }),
      { wrapper },
    );
    let first: string | null = null;
    act(
      () => void (first = result.current.validate({ clientId: 'b20001', smstype: 0, sign: '优品生活', fileType: 1 })),
    );
    expect(first).toBe(variableSchema.properties.templateId.errorMessage);
  });
});

describe('checkForm: the compiled validators, as validateForm checks them', () => {
  it('same errors as validateForm for the three send forms', () => {
    const samples: Record<string, unknown>[] = [
      {},
      { clientId: 'b20001', smstype: 0, sign: ' A ', content: '  ', mobile: '1a', fileType: 0 },
      {
        clientId: 'b20001',
        smstype: 0,
        sign: '优品生活',
        content: 'x'.repeat(501),
        importFilePath: 'p',
        fileType: 1,
        templateId: 0,
      },
      {
        clientId: null,
        smstype: undefined,
        sign: '优品生活',
        content: '您好',
        mobile: '13800138000',
        templateId: 3001,
      },
    ];
    for (const form of [sendForm, variableForm, intlForm])
      for (const values of samples) expect(checkForm(form, values)).toEqual(validateForm(form, values).errors);
  });
});

describe('the time of a scheduled send (common/send)', () => {
  const ok = { clientId: 'b20001', smstype: 0, content: 'hello', sign: '', fileType: 0, mobile: '1' };
  it('international: within 24 hours; ordinary: until the end of next year', () => {
    for (const [kind, expected] of [
      ['international', SEND_TIME_MESSAGES.tooLateDay],
      ['ordinary', null],
    ] as const) {
      const { result } = intl(kind);
      act(() => result.current.patch({ sendType: SendTimeType.Scheduled, sendtime: businessNow().add(2, 'day') }));
      expect(result.current.scheduled).toBe(true);
      expect(result.current.sendtimeText).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      let first: string | null = 'x';
      act(() => void (first = result.current.validate(ok)));
      expect(first).toBe(expected);
    }
  });
  it('too early, and only when scheduled', () => {
    const { result } = intl();
    act(() => result.current.patch({ sendtime: businessNow().add(1, 'minute') }));
    let first: string | null = 'x';
    act(() => void (first = result.current.validate(ok)));
    expect(first).toBeNull();
    act(() => result.current.set('sendType', SendTimeType.Scheduled));
    act(() => void (first = result.current.validate(ok)));
    expect(first).toBe(SEND_TIME_MESSAGES.tooEarly);
    expect(result.current.errors.sendtime).toBe(SEND_TIME_MESSAGES.tooEarly);
  });
});

describe('state', () => {
  it('setting a field clears its error; clear and fail', () => {
    const { result } = intl();
    act(() => void result.current.validate({}));
    expect(result.current.errors.clientId).toBeDefined();
    act(() => result.current.set('clientId', 'b20001'));
    expect(result.current.values.clientId).toBe('b20001');
    expect(result.current.errors.clientId).toBeUndefined();
    expect(result.current.errors.smstype).toBeDefined();
    act(() => result.current.clear('smstype', 'content'));
    expect(result.current.errors).toEqual({});
    act(() => result.current.fail('mobile', 'no numbers'));
    expect(result.current.errors).toEqual({ mobile: 'no numbers' });
  });
  it('reset keeps the fields it is told to', () => {
    const { result } = intl();
    act(() => result.current.patch({ clientId: 'b20001', sign: '优品' }));
    act(() => result.current.reset('clientId'));
    expect(result.current.values).toMatchObject({ clientId: 'b20001', sign: '' });
  });
  it('the submit lock: a second submit within 3 s is refused', () => {
    const { result } = intl();
    expect(result.current.submitLocked()).toBe(false);
    expect(result.current.submitLocked()).toBe(true);
  });
  it('prepare: the charge figures open the confirmation; a refusal leaves it closed', async () => {
    const { result } = intl();
    await act(() => result.current.prepare(async () => ({ chargeMode: 0, chargeNum: 4, submitTotal: 4 })));
    expect(result.current.charge).toMatchObject({ chargeNum: 4 });
    expect(result.current.preparing).toBe(false);
    act(() => result.current.setCharge(null));
    await act(() => result.current.prepare(() => Promise.reject(new Error('refused'))));
    expect(result.current.charge).toBeNull();
  });
});
