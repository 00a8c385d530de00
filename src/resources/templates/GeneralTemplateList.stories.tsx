import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import { T, withApp } from '@/stories/withApp';
import { listStates } from '@/stories/listStates';
import { consoleApi, subAccount, msw, type Calls } from '@/stories/mockApi';
import { GeneralTemplateList } from './GeneralTemplateList';
import { templateApi } from './templates.mock';
import { generalTemplates } from './data';

const calls: Calls = {};

const meta = {
  title: 'Templates/GeneralTemplateList',
  component: GeneralTemplateList,
  decorators: [withApp],
  parameters: { layout: 'padded', ...msw(...templateApi({ calls }), ...consoleApi()) },
} satisfies Meta<typeof GeneralTemplateList>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Agent: Story = {
  name: '代理商',
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('您的验证码为{code}，5分钟内有效，请勿泄露给他人。', {}, T)).toBeInTheDocument();
    for (const label of ['模板属性', '模板类型', '模板内容'])
      await expect(c.getAllByText(label).length).toBeGreaterThan(0);
    await expect(c.queryByText('子账户')).toBeNull();
    await expect(c.queryByRole('button', { name: '编辑' })).toBeNull();
    await expect(c.getAllByText('会员营销').length).toBeGreaterThan(0);
  },
};

export const FilterByAttribute: Story = {
  name: '按模板属性查询',
  play: async ({ canvas: c }) => {
    await c.findByText('您的验证码为{code}，5分钟内有效，请勿泄露给他人。', {}, T);
    await userEvent.click(c.getByLabelText('模板属性'));
    await userEvent.click(await screen.findByTitle('会员营销'));
    await userEvent.click(c.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(calls.commonlist?.at(-1)?.smsType).toBe('11'), T);
    await waitFor(() => expect(c.queryByText('您的验证码为{code}，5分钟内有效，请勿泄露给他人。')).toBeNull(), T);
  },
};

export const SubAccount: Story = {
  name: '子账户',
  parameters: msw(...templateApi(), ...consoleApi({ user: subAccount })),
  play: async ({ canvasElement }) => {
    await expect(
      await within(canvasElement).findByText('新店开业，凭此短信到店消费享8.8折优惠，回T退订。', {}, T),
    ).toBeInTheDocument();
  },
};

const states = listStates(generalTemplates, [...templateApi(), ...consoleApi()]);
export const Loading: Story = states.loading;
export const LoadError: Story = states.error;
export const Empty: Story = states.empty;
