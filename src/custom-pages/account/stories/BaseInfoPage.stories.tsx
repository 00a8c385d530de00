import type { Meta, StoryObj } from '@storybook/react-vite';
import { Route, Routes } from 'react-router';
import { expect, userEvent, within } from 'storybook/test';
import { T, body, withApp } from '@/stories/withApp';
import BaseInfoLayout from '../BaseInfoLayout';
import BaseInfoPage from '../BaseInfoPage';
import CertificationPage from '../CertificationPage';
import { accountApi, certNone, certRejected, subUser } from './accountMocks';

const posted: Record<string, Record<string, string>[]> = {};
const b = (w: string) => new RegExp(w.split('').join('\\s*'));

/** The tabs layout with its two children, as the app routes them. */
function Screen() {
  return (
    <Routes>
      <Route path="/account/info" element={<BaseInfoLayout />}>
        <Route path="base" element={<BaseInfoPage />} />
        <Route path="base/auth" element={<CertificationPage />} />
      </Route>
    </Routes>
  );
}

const meta = {
  title: 'Account/BaseInfoPage',
  component: Screen,
  decorators: [withApp],
  parameters: { app: { path: '/account/info/base' }, msw: { handlers: accountApi({ posted }) } },
} satisfies Meta<typeof Screen>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Loading: Story = {
  name: '加载中',
  parameters: { msw: { handlers: accountApi({ loading: true }) } },
  play: async ({ canvas: c, canvasElement }) => {
    await expect(await c.findByRole('tab', { name: '基本信息' }, T)).toBeInTheDocument();
    await expect(canvasElement.querySelector('.ant-skeleton')).toBeTruthy();
  },
};

export const AgentView: Story = {
  name: '代理商：查看（已认证）',
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('深圳市云讯通信有限公司', {}, T)).toBeInTheDocument();
    for (const label of ['代理商ID', '代理商名称', '地址', '手机号', '智能模板审核回调地址', '账户状态', '认证状态'])
      await expect(c.getByText(label)).toBeInTheDocument();
    await expect(c.getByText('https://yunxun.example/template/callback')).toBeInTheDocument();
    await expect(c.getByText('已认证')).toBeInTheDocument();
    await expect(c.getByRole('tab', { name: '资质认证' })).toBeInTheDocument();
  },
};

export const AgentNotCertified: Story = {
  name: '代理商：未认证（在线认证链接）',
  parameters: { msw: { handlers: accountApi({ cert: certNone }) } },
  play: async ({ canvas: c }) => {
    const state = await c.findByTestId('certification-state', {}, T);
    await expect(within(state).getByText('未认证')).toBeInTheDocument();
    await expect(within(state).getByRole('link', { name: '在线认证' })).toHaveAttribute(
      'href',
      '/account/info/base/auth',
    );
  },
};

export const AgentRejected: Story = {
  name: '代理商：认证不通过（原因与重新认证）',
  parameters: { msw: { handlers: accountApi({ cert: certRejected }) } },
  play: async ({ canvas: c }) => {
    const state = await c.findByTestId('certification-state', {}, T);
    await expect(within(state).getByText('驳回原因：营业执照照片模糊，请重新上传清晰照片')).toBeInTheDocument();
    await expect(within(state).getByRole('link', { name: '重新认证' })).toHaveAttribute(
      'href',
      '/account/info/base/auth/re',
    );
  },
};

export const AgentEditValidation: Story = {
  name: '代理商：修改与校验提示',
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByRole('button', { name: b('修改') }, T));
    const name = c.getByLabelText('代理商名称');
    await userEvent.clear(name);
    await userEvent.click(c.getByRole('button', { name: b('确认') }));
    await expect(await c.findByText('请完善输入内容之后再提交', {}, T)).toBeInTheDocument();
    await userEvent.type(name, '深圳市云讯通信有限公司');
    const mobile = c.getByLabelText('手机号');
    await userEvent.clear(mobile);
    await userEvent.type(mobile, '2380013800');
    await userEvent.click(c.getByRole('button', { name: b('确认') }));
    await expect(await c.findByText('手机号码错误', {}, T)).toBeInTheDocument();
    await userEvent.click(c.getByRole('button', { name: b('取消') }));
    await expect(await c.findByTestId('base-info-view', {}, T)).toBeInTheDocument();
  },
};

export const AgentEditSaved: Story = {
  name: '代理商：确认保存',
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByRole('button', { name: b('修改') }, T));
    const addr = c.getByLabelText('地址');
    await userEvent.clear(addr);
    await userEvent.type(addr, '深圳市福田区深南大道1000号');
    await userEvent.click(c.getByRole('button', { name: b('确认') }));
    await expect(await body().findByText('保存成功', {}, T)).toBeInTheDocument();
    await expect(posted['baseinfo/edit']?.at(-1)).toMatchObject({
      agent_name: '深圳市云讯通信有限公司',
      address: '深圳市福田区深南大道1000号',
      mobile: '13800138000',
    });
    await expect(await c.findByTestId('base-info-view', {}, T)).toBeInTheDocument();
  },
};

export const AgentMobileTaken: Story = {
  name: '代理商：手机号码已存在',
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByRole('button', { name: b('修改') }, T));
    const mobile = c.getByLabelText('手机号');
    await userEvent.clear(mobile);
    await userEvent.type(mobile, '13800138001');
    await userEvent.click(c.getByRole('button', { name: b('确认') }));
    await expect(await body().findByText('手机号码已存在', {}, T)).toBeInTheDocument();
    await expect(c.getByTestId('base-info-form')).toBeInTheDocument();
  },
};

export const EnterpriseView: Story = {
  name: '子账户：企业信息查看',
  parameters: { msw: { handlers: accountApi({ user: subUser }) } },
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('上海优品电商有限公司', {}, T)).toBeInTheDocument();
    for (const label of ['账户名称', '联系人', '所属代理商', '状态报告', '状态报告回调地址', '上行'])
      await expect(c.getByText(label)).toBeInTheDocument();
    await expect(c.getByText('https://youpin.example/sms/report')).toBeInTheDocument();
    await expect(c.queryByText('上行回调地址')).not.toBeInTheDocument();
  },
};

export const EnterpriseEditRules: Story = {
  name: '子账户：修改（邮箱格式、状态报告回调地址、邮箱已存在）',
  parameters: { msw: { handlers: accountApi({ user: subUser, posted }) } },
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByRole('button', { name: b('修改') }, T));
    await expect(c.queryByLabelText('上行回调地址')).not.toBeInTheDocument();
    const email = c.getByLabelText('邮箱');
    await userEvent.clear(email);
    await userEvent.type(email, 'not-an-email');
    await userEvent.click(c.getByRole('button', { name: b('确认') }));
    await expect(await c.findByText('邮箱格式不正确', {}, T)).toBeInTheDocument();
    await userEvent.clear(email);
    await userEvent.type(email, 'taken@example.com');
    const url = c.getByLabelText('状态报告回调地址');
    await userEvent.clear(url);
    await userEvent.click(c.getByRole('button', { name: b('确认') }));
    await expect(await c.findByText('请填写状态报告回调地址', {}, T)).toBeInTheDocument();
    await userEvent.type(url, 'https://youpin.example/r');
    await userEvent.click(c.getByRole('button', { name: b('确认') }));
    await expect(await body().findByText('邮箱已存在', {}, T)).toBeInTheDocument();
  },
};

export const TabToCertification: Story = {
  name: '切换到资质认证标签',
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByRole('tab', { name: '资质认证' }, T));
    await expect(await c.findByTestId('certification-view', {}, T)).toBeInTheDocument();
  },
};
