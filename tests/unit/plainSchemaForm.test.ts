/**
 * <PlainSchemaForm>'s check (SchemaForm/check.ts: the compiled validator without RJSF, for /login)
 * gives the messages RJSF's compiled validator gives (checkCompiled), field for field.
 */
import { describe, expect, it } from 'vitest';
import { checkPlain } from '@/components/SchemaForm/check';
import { checkCompiled } from '@/components/SchemaForm/compiled';
import loginForm from '@/generated/forms/login';
import passwordCodeForm from '@/generated/forms/password-code';
import templateForm from '@/generated/forms/template';

describe('checkPlain', () => {
  it('answers as checkCompiled does', () => {
    const cases = [
      [loginForm, {}],
      [loginForm, { username: 'bad@mail' }],
      [loginForm, { username: 'agent1', password: 'x'.repeat(200) }],
      [loginForm, { username: 'agent1', password: 'abc', remember: true }],
      [passwordCodeForm, {}],
      [passwordCodeForm, { mobile: '123' }],
      [templateForm, { smsType: 1, content: '' }],
      [templateForm, {}],
    ] as const;
    for (const [form, values] of cases)
      expect(checkPlain(form, { ...values }), `${form.key} ${JSON.stringify(values)}`).toEqual(
        checkCompiled(form, { ...values }),
      );
    expect(checkPlain(loginForm, {})).toEqual([
      { field: 'username', message: '请输入帐户名' },
      { field: 'password', message: '请输入密码' },
    ]);
  });
});
