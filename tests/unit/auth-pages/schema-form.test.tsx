import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';

afterEach(cleanup);
import userEvent from '@testing-library/user-event';
import { Button } from 'antd';
import { AppProviders } from '@/providers/AppProviders';
import { checkCompiled, SchemaForm, type CompiledForm } from '@/components/SchemaForm';
import { validateForm } from '@/components/SchemaForm/validation';

const errorsOf = (schema: Parameters<typeof validateForm>[0], data: Record<string, unknown>) =>
  validateForm(schema, data).errors;
import { schemas } from '@/schema';
import { displaySchema } from '../../../common/schema/display';
import loginForm from '@/generated/forms/login';

const submit = () => userEvent.click(screen.getByRole('button', { name: /提\s*交/ }));

function renderForm(schema: string | object, props: Partial<Parameters<typeof SchemaForm>[0]> = {}) {
  const onSubmit = vi.fn();
  render(
    <AppProviders>
      <SchemaForm schema={schema as any} onSubmit={onSubmit} {...props}>
        <Button htmlType="submit">提交</Button>
      </SchemaForm>
    </AppProviders>,
  );
  return onSubmit;
}

describe('SchemaForm', () => {
  it('labels fields with the schema titles and shows the spec messages inline', async () => {
    const onSubmit = renderForm('forms/login', { fields: ['username', 'password'] });
    expect(await screen.findByLabelText('帐户名')).toBeInTheDocument();
    expect(screen.getByLabelText('密码')).toBeInTheDocument();
    await submit();
    expect(await screen.findByText('请输入帐户名')).toBeInTheDocument();
    expect(screen.getByText('请输入密码')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('takes its messages from the schema: a changed message shows with no code change', async () => {
    const copy = structuredClone(schemas.inline('forms/login'));
    (copy.errorMessage as { required: Record<string, string> }).required.username = '帐户名不能为空哦';
    (copy.properties?.username?.errorMessage as Record<string, string>).pattern = '这不是邮箱';
    renderForm(copy, { fields: ['username', 'password'] });
    await submit();
    expect(await screen.findByText('帐户名不能为空哦')).toBeInTheDocument();
    expect(screen.queryByText('请输入帐户名')).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('帐户名'), 'a@b');
    expect(await screen.findByText('这不是邮箱')).toBeInTheDocument();
  });

  it('trims x-trim fields before validating and submitting', async () => {
    const onSubmit = renderForm('forms/login', { fields: ['username', 'password'] });
    await userEvent.type(screen.getByLabelText('帐户名'), '   ');
    await userEvent.type(screen.getByLabelText('密码'), 'secret');
    await submit();
    expect(await screen.findByText('请输入帐户名')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('帐户名'), ' alice ');
    await submit();
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0][0]).toMatchObject({ username: 'alice', password: 'secret' });
  });

  it('shows one message per field, in rule order, and the $data confirmation rule', async () => {
    renderForm('forms/password-reset', { fields: ['password', 'confirmPassword'] });
    await userEvent.type(screen.getByLabelText('新密码'), 'abc');
    await userEvent.type(screen.getByLabelText('确认密码'), 'abd');
    await submit();
    expect(await screen.findByText('密码的长度必须是8-16位！')).toBeInTheDocument();
    expect(screen.queryByText('密码不能全为字母')).not.toBeInTheDocument();
    expect(screen.getByText('两次密码不一致')).toBeInTheDocument();
  });

  it('shows server field errors on their fields', async () => {
    renderForm('forms/login', {
      fields: ['username', 'password'],
      serverErrors: [{ field: 'username', message: '用户不存在' }],
    });
    expect(await screen.findByText('用户不存在')).toBeInTheDocument();
  });

  it('validates outside a form with the same messages', () => {
    expect(errorsOf('forms/send-code', {})).toEqual([{ field: 'mobile', message: '请输入手机号' }]);
    expect(errorsOf('forms/send-code', { mobile: '13a' })).toEqual([
      { field: 'mobile', message: '请输入正确的手机号' },
    ]);
    expect(errorsOf('forms/send-code', { mobile: '13800138000', countryCode: '86' })).toEqual([]);
  });

  it('renders a form compiled at build time with the same labels, rules and messages', async () => {
    const onSubmit = renderForm(loginForm, { fields: ['username', 'password'] });
    expect(screen.getByLabelText('帐户名')).toBeInTheDocument();
    await submit();
    expect(await screen.findByText('请输入帐户名')).toBeInTheDocument();
    expect(screen.getByText('请输入密码')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('帐户名'), ' a@b ');
    expect(await screen.findByText('邮箱格式不正确')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('帐户名'));
    await userEvent.type(screen.getByLabelText('帐户名'), ' alice ');
    await userEvent.type(screen.getByLabelText('密码'), 'secret');
    await submit();
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0][0]).toMatchObject({ username: 'alice', password: 'secret' });
  });
});

describe('compiled forms', () => {
  const modules = import.meta.glob<CompiledForm>('../../../src/generated/forms/*.js', {
    eager: true,
    import: 'default',
  });
  const forms = Object.values(modules);

  it('exist for every form schema', () => {
    const keys = Object.keys(schemas.schemas).filter((k) => k.startsWith('forms/'));
    expect(forms.map((f) => f.key).sort()).toEqual(keys.sort());
  });

  /** payloads that break rules of every kind: missing fields, wrong types, bad lengths and patterns, a confirmation that differs */
  function payloads(form: CompiledForm): Record<string, unknown>[] {
    const props = Object.keys(form.schema.properties ?? {});
    const filled = (v: (name: string) => unknown) => Object.fromEntries(props.map((p) => [p, v(p)]));
    return [
      {},
      filled(() => ''),
      filled(() => 'x'),
      filled(() => 'x'.repeat(600)),
      filled(() => 12),
      filled((p) =>
        /mail/i.test(p)
          ? 'a@b.cn'
          : /mobile|phone/i.test(p)
            ? '13800138000'
            : /password/i.test(p)
              ? 'abc12345'
              : 'ok-value',
      ),
      filled((p) => (/confirm/i.test(p) ? 'abc12346' : /password/i.test(p) ? 'abc12345' : '1')),
      { ...filled(() => '1'), sendType: 2, countryCode: '86', email: '138x' },
    ];
  }

  it('answer exactly as the run-time validator does, message for message', () => {
    for (const form of forms) {
      for (const data of payloads(form)) {
        expect(checkCompiled(form, data), `${form.key} ${JSON.stringify(data).slice(0, 80)}`).toEqual(
          errorsOf(displayed(form.key), data),
        );
      }
    }
  });
});

/** the run-time equivalent of a compiled form's schema */
const displayed = (key: string) => displaySchema(schemas.inline(key));
