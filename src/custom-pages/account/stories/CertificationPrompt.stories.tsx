import type { Meta, StoryObj } from '@storybook/react-vite';
import { Button } from 'antd';
import { Route, Routes, useLocation } from 'react-router';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { T, body, withApp } from '@/stories/withApp';
import { useCertificationPrompt } from '../CertificationPrompt';
import { accountApi, certCertified, certNone } from './accountMocks';

/** A screen guarding an action (e.g. 购买) with the prompt. */
function Guarded() {
  const { requireCertified, prompt, isLoading } = useCertificationPrompt();
  const location = useLocation();
  return (
    <div style={{ padding: 24 }}>
      <span data-testid="where">{location.pathname}</span>
      {!isLoading && <span data-testid="ready" />}
      <Button onClick={() => requireCertified(() => document.body.setAttribute('data-bought', '1'))}>购买</Button>
      {prompt}
    </div>
  );
}

function Screen() {
  return (
    <Routes>
      <Route path="*" element={<Guarded />} />
    </Routes>
  );
}

const meta = {
  title: 'Account/CertificationPrompt',
  component: Screen,
  decorators: [withApp],
  parameters: { app: { path: '/sms/purchase/1' }, msw: { handlers: accountApi({ cert: certNone }) } },
} satisfies Meta<typeof Screen>;
export default meta;
type Story = StoryObj<typeof meta>;

export const AskAndGo: Story = {
  name: '未认证：提示并前往资质认证（是）',
  play: async ({ canvas: c }) => {
    await c.findByTestId('ready', {}, T);
    await userEvent.click(c.getByRole('button', { name: /购\s*买/ }));
    const dialog = await body().findByRole('dialog', {}, T);
    await expect(dialog).toHaveTextContent('您尚未通过系统认证，是否前往资质认证？');
    await userEvent.click(within(dialog).getByRole('button', { name: '是' }));
    await waitFor(() => expect(c.getByTestId('where')).toHaveTextContent('/account/info/base/auth'), T);
  },
};

export const AskAndStay: Story = {
  name: '未认证：否 关闭提示',
  play: async ({ canvas: c }) => {
    await c.findByTestId('ready', {}, T);
    await userEvent.click(c.getByRole('button', { name: /购\s*买/ }));
    const dialog = await body().findByRole('dialog', {}, T);
    await userEvent.click(within(dialog).getByRole('button', { name: '否' }));
    await waitFor(() => expect(body().queryByRole('dialog')).not.toBeInTheDocument(), T);
    await expect(c.getByTestId('where')).toHaveTextContent('/sms/purchase/1');
  },
};

export const CertifiedGoesOn: Story = {
  name: '已认证：直接执行',
  parameters: { msw: { handlers: accountApi({ cert: certCertified }) } },
  play: async ({ canvas: c }) => {
    document.body.removeAttribute('data-bought');
    await c.findByTestId('ready', {}, T);
    await userEvent.click(c.getByRole('button', { name: /购\s*买/ }));
    await expect(document.body.getAttribute('data-bought')).toBe('1');
    await expect(c.queryByText('您尚未通过系统认证，是否前往资质认证？')).not.toBeInTheDocument();
  },
};
