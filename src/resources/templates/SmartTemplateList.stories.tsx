import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within, screen } from 'storybook/test';
import { Route, Routes } from 'react-router';
import { T, withApp } from '@/stories/withApp';
import { listStates } from '@/stories/listStates';
import { pathOf } from '@/stories/pageRows';
import { rowWith } from '@/stories/play';
import { agentPackageMode, consoleApi, subAccount, msw, type Calls } from '@/stories/mockApi';
import { SmartTemplateList, TEMPLATE_NOTICE } from './SmartTemplateList';
import { GeneralTemplateList } from './GeneralTemplateList';
import { TemplateTabs } from './TemplateTabs';
import { smartTemplates, templateApi } from './templates.mock';
import { templates } from './data';
import { YesNo } from '@/generated/schemas';

const calls: Calls = {};

const meta = {
  title: 'Templates/SmartTemplateList',
  component: SmartTemplateList,
  decorators: [withApp],
  parameters: {
    layout: 'padded',
    app: { path: pathOf('template_intelligent') },
    ...msw(...templateApi({ calls }), ...consoleApi({ user: agentPackageMode })),
  },
} satisfies Meta<typeof SmartTemplateList>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Agent: Story = {
  name: '代理商',
  play: async ({ canvas: c }) => {
    await expect(c.getByText(TEMPLATE_NOTICE)).toBeInTheDocument();
    const own = await rowWith(c, '您的登录验证码为{code}，5分钟内有效，请勿泄露。');
    await expect(within(own).getByText('审核通过')).toBeInTheDocument();
    await expect(within(own).getByRole('button', { name: '编辑' })).toBeInTheDocument();
    await expect(within(own).getByRole('button', { name: '删除' })).toBeInTheDocument();
    // agent-only: the sub-account filter and column
    await expect(c.getAllByText('子账户').length).toBeGreaterThanOrEqual(2);
    for (const label of ['模板属性', '审核状态', '模板类型', '创建开始日期', '创建结束日期'])
      await expect(c.getAllByText(label).length).toBeGreaterThan(0);
    await expect(c.getByRole('button', { name: /查\s*询/ })).toBeInTheDocument();
    await expect(c.getByRole('button', { name: /新增模板/ })).toBeInTheDocument();
    await expect(c.getByRole('button', { name: /批量导入/ })).toBeInTheDocument();
  },
};

export const FilterByState: Story = {
  name: '按审核状态查询',
  play: async ({ canvas: c }) => {
    await rowWith(c, '您的登录验证码为{code}，5分钟内有效，请勿泄露。');
    calls.list = [];
    await userEvent.click(c.getByLabelText('审核状态'));
    await userEvent.click(await screen.findByTitle('审核不通过'));
    await userEvent.click(c.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(calls.list?.at(-1)?.state).toBe('3'), T);
    await expect(calls.list.at(-1)!.currentPage).toBe('1');
    await waitFor(() => expect(c.queryByText('您的登录验证码为{code}，5分钟内有效，请勿泄露。')).toBeNull(), T);
  },
};

export const SubAccount: Story = {
  name: '子账户',
  parameters: msw(...templateApi(), ...consoleApi({ user: subAccount })),
  play: async ({ canvas: c }) => {
    await rowWith(c, '您的登录验证码为{code}，5分钟内有效，请勿泄露。');
    await expect(c.queryByText('子账户')).toBeNull();
    await expect(c.getByRole('button', { name: /新增模板/ })).toBeInTheDocument();
  },
};

export const RejectedWithReason: Story = {
  name: '审核不通过（显示原因）',
  play: async ({ canvas: c }) => {
    const row = await rowWith(c, '{name}您好，会员日全场5折起，快来抢购吧！');
    await expect(within(row).getByText('审核不通过')).toBeInTheDocument();
    await expect(within(row).getByTestId('reject-reason')).toHaveTextContent(
      '原因：营销内容缺少退订方式，请补充“回T退订”',
    );
  },
};

export const NotCreatorRows: Story = {
  name: '非创建者的模板没有操作',
  parameters: msw(...templateApi({ smart: smartTemplates.filter((r) => r.isCreateor === YesNo.No) }), ...consoleApi()),
  play: async ({ canvas: c }) => {
    await rowWith(c, '您的订单{orderNo}已送达，感谢您的惠顾。');
    await expect(c.queryByRole('button', { name: '编辑' })).toBeNull();
    await expect(c.queryByRole('button', { name: '删除' })).toBeNull();
  },
};

export const DeleteAsksFirst: Story = {
  name: '删除前确认',
  play: async ({ canvas: c }) => {
    const row = await rowWith(c, '双十二全场满200减30，活动仅限3天，回T退订。');
    calls.del = [];
    await userEvent.click(within(row).getByRole('button', { name: '删除' }));
    await expect(await screen.findByText('确定删除该模板吗？', {}, T)).toBeInTheDocument();
    await expect(calls.del).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.del?.[0]?.templateId).toBe('100011'), T);
    await expect(await screen.findByText('删除成功', {}, T)).toBeInTheDocument();
  },
};

export const EditOpensDialog: Story = {
  name: '编辑打开对话框',
  play: async ({ canvas: c }) => {
    const row = await rowWith(c, '您的登录验证码为{code}，5分钟内有效，请勿泄露。');
    // an add dialog opened and closed first must not leave its values behind
    await userEvent.click(c.getByRole('button', { name: /新增模板/ }));
    await userEvent.click(await screen.findByRole('button', { name: /取\s*消/ }, T));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), T);
    await userEvent.click(within(row).getByRole('button', { name: '编辑' }));
    const dialog = await screen.findByRole('dialog', {}, T);
    await expect(within(dialog).getByText('编辑模板')).toBeInTheDocument();
    // the sign is picked from the account's approved signs (a select showing the template's sign)
    await expect(await within(dialog).findByTitle('优品商城', {}, T)).toBeInTheDocument();
    await expect(within(dialog).getByLabelText('变量模板')).toBeChecked();
  },
};

/** The tab layout at /template/TestReportLayout: 智能模板 and 通用模板. */
export const Tabs: Story = {
  name: '模板标签页',
  parameters: { app: { path: pathOf('template_TestReportLayout') } },
  render: () => (
    <Routes>
      <Route path="/template/TestReportLayout" element={<TemplateTabs />}>
        <Route path="intelligent" element={<SmartTemplateList />} />
        <Route path="intelligent/general" element={<GeneralTemplateList />} />
      </Route>
    </Routes>
  ),
  play: async ({ canvas: c }) => {
    await rowWith(c, '您的登录验证码为{code}，5分钟内有效，请勿泄露。');
    await userEvent.click(c.getByRole('tab', { name: '通用模板' }));
    await expect(await c.findByText('新店开业，凭此短信到店消费享8.8折优惠，回T退订。', {}, T)).toBeInTheDocument();
    await expect(c.queryByText(TEMPLATE_NOTICE)).toBeNull();
  },
};

const states = listStates(templates, [...templateApi(), ...consoleApi()]);
export const Loading: Story = states.loading;
export const LoadError: Story = states.error;
export const Empty: Story = states.empty;
