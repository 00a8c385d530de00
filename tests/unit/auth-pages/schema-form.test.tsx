import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';

afterEach(cleanup);
import userEvent from '@testing-library/user-event';
import { Button } from 'antd';
import { AppProviders } from '@/providers/AppProviders';
import { SchemaForm, validateBySchema } from '@/components/SchemaForm';
import { schemas } from '@/schema';

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
    expect(screen.getByLabelText('帐户名')).toBeInTheDocument();
    expect(screen.getByLabelText('密码')).toBeInTheDocument();
    await submit();
    expect(await screen.findByText('请输入帐户名')).toBeInTheDocument();
    expect(screen.getByText('请输入密码')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('takes its messages from the schema: a changed message shows with no code change', async () => {
    const copy = structuredClone(schemas.inline('forms/login'));
    copy.errorMessage.required.username = '帐户名不能为空哦';
    copy.properties.username.errorMessage.pattern = '这不是邮箱';
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
    renderForm('forms/login', { fields: ['username', 'password'], serverErrors: [{ field: 'username', message: '用户不存在' }] });
    expect(await screen.findByText('用户不存在')).toBeInTheDocument();
  });

  it('validates outside a form with the same messages', () => {
    expect(validateBySchema('forms/send-code', {})).toEqual([{ field: 'mobile', message: '请输入手机号' }]);
    expect(validateBySchema('forms/send-code', { mobile: '13a' })).toEqual([{ field: 'mobile', message: '请输入正确的手机号' }]);
    expect(validateBySchema('forms/send-code', { mobile: '13800138000', countryCode: '86' })).toEqual([]);
  });
});
