import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { Space } from 'antd';
import { EnumTag } from './EnumTag';
import { enumOptions } from '@/schema';

const meta: Meta<typeof EnumTag> = {
  title: 'Components/EnumTag',
  component: EnumTag,
  parameters: { layout: 'padded' },
};
export default meta;
type Story = StoryObj<typeof EnumTag>;

export const SendRecordStatuses: Story = {
  render: () => (
    <Space wrap>
      {enumOptions('send-record-status').map((o) => (
        <EnumTag key={o.value} enumName="send-record-status" value={o.value} />
      ))}
    </Space>
  ),
  play: async ({ canvas: c }) => {
    await expect(c.getByText('未发送')).toBeInTheDocument();
    await expect(c.getByText('网关接收拦截')).toBeInTheDocument();
  },
};

export const FrozenAccount: Story = {
  args: { enumName: 'account-status', value: 5 },
  play: async ({ canvasElement }) => {
    const tag = within(canvasElement).getByText('冻结');
    await expect(tag.className).toMatch(/red/);
  },
};

export const UnknownValueUsesServerLabel: Story = {
  args: { enumName: 'sign-state', value: 99, fallback: '服务器状态' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('服务器状态')).toBeInTheDocument();
  },
};

/**
 * Issue 41 item 5: 待认证 is a review in progress, not a failure: the processing colour (blue), as
 * schemas/enums/oauth-status.json declares it; only 认证不通过 is red.
 */
export const CertificationStates: Story = {
  render: () => (
    <Space wrap>
      {enumOptions('oauth-status').map((o) => (
        <EnumTag key={o.value} enumName="oauth-status" value={o.value} />
      ))}
    </Space>
  ),
  play: async ({ canvas: c }) => {
    await expect(c.getByText('待认证').className).toMatch(/ant-tag-processing/);
    await expect(c.getByText('待认证').className).not.toMatch(/red/);
    await expect(c.getByText('已认证').className).toMatch(/green/);
    await expect(c.getByText('认证不通过').className).toMatch(/red/);
  },
};
