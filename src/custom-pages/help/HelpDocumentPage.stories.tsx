import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { http } from 'msw';
import { T, withApp } from '@/stories/withApp';
import { branding, consoleApi, fail, ok, subAccount, msw } from '@/stories/mockApi';
import HelpDocumentPage from './HelpDocumentPage';

const all = { guide: 1, https: 1, cmpp: 1, sgip: 1, smgp: 1, smpp: 1, template: 1, httpDemo: 1, faq: 1 };
/** systemInfoShow with only `docs` shown (1), the others off (0) */
const only = (...docs: (keyof typeof all)[]) =>
  Object.fromEntries(Object.keys(all).map((d) => [d, docs.includes(d as keyof typeof all) ? 1 : 0]));
const loginInfo = (systemInfoShow: Record<string, number>) =>
  http.get('/api/loginInfo', () => ok({ ...branding, systemInfoShow }));

const meta = {
  title: 'Help/HelpDocumentPage',
  component: HelpDocumentPage,
  decorators: [withApp],
  parameters: { layout: 'padded', app: { path: '/help/document' } },
} satisfies Meta<typeof HelpDocumentPage>;
export default meta;
type Story = StoryObj<typeof meta>;

export const AgentAllDocuments: Story = {
  name: '代理商：全部文档',
  parameters: msw(loginInfo(all), ...consoleApi()),
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('HTTP接口文档', {}, T)).toBeInTheDocument();
    for (const t of [
      'HTTP接口示例代码',
      'CMPP接口文档',
      'SMPP接口文档',
      'SGIP接口文档',
      'SMGP接口文档',
      '模板短信接口文档',
      '常见问题文档',
    ]) {
      await expect(c.getByText(t)).toBeInTheDocument();
    }
    await expect(c.getByRole('link', { name: 'HTTP接口文档' }).getAttribute('href')).toBe('/api/help/httpsdoc');
    await expect(c.getByRole('link', { name: '常见问题文档' }).getAttribute('href')).toBe('/api/help/faqdoc');
  },
};

/** Issue 41 item 7: the user guide (how to send, read the reports, buy packages) comes first, for every account. */
export const UserGuide: Story = {
  name: '用户使用手册（平台自带，排在首位）',
  parameters: msw(loginInfo(only('guide', 'https')), ...consoleApi({ user: subAccount })),
  play: async ({ canvas: c, canvasElement }) => {
    const guide = await c.findByTestId('help-doc-guide', {}, T);
    await expect(canvasElement.querySelector('.ant-list-item')).toBe(guide);
    await expect(within(guide).getByRole('link', { name: '用户使用手册' })).toHaveAttribute(
      'href',
      '/api/help/userguide',
    );
    await expect(guide).toHaveTextContent('发送任务、发送记录与报表的查看，购买短信套餐与充值');
  },
};

export const SubAccountNoFaq: Story = {
  name: '子账户：无常见问题文档',
  parameters: msw(loginInfo(all), ...consoleApi({ user: subAccount })),
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('HTTP接口文档', {}, T)).toBeInTheDocument();
    await expect(c.getByText('CMPP接口文档')).toBeInTheDocument();
    await waitFor(() => expect(c.queryByText('常见问题文档')).toBeNull());
  },
};

export const OnlyGeneratedHttpDocument: Story = {
  name: '仅 HTTP 接口文档（CMPP、SMPP 接口未开通，未放置文件）',
  parameters: msw(loginInfo(only('https')), ...consoleApi()),
  play: async ({ canvas: c, canvasElement }) => {
    await expect(await c.findByText('HTTP接口文档', {}, T)).toBeInTheDocument();
    await expect(canvasElement.querySelectorAll('.ant-list-item')).toHaveLength(1);
    await expect(c.queryByText('CMPP接口文档')).toBeNull();
  },
};

export const DoorDocuments: Story = {
  name: 'CMPP、SMPP 接口开通：生成的接口文档',
  parameters: msw(loginInfo(only('https', 'cmpp', 'smpp')), ...consoleApi({ user: subAccount })),
  play: async ({ canvas: c, canvasElement }) => {
    await expect(await c.findByText('CMPP接口文档', {}, T)).toBeInTheDocument();
    await expect(canvasElement.querySelectorAll('.ant-list-item')).toHaveLength(3);
    for (const [title, href] of [
      ['CMPP接口文档', '/api/help/cmppdoc'],
      ['SMPP接口文档', '/api/help/smppdoc'],
    ]) {
      const link = c.getByRole('link', { name: title });
      await expect(link.getAttribute('href')).toBe(href);
      await expect(link.hasAttribute('download')).toBe(true);
    }
    await expect(c.getByTestId('help-doc-cmpp').textContent).toContain('含您的登录名与端口');
    await expect(c.queryByText('SGIP接口文档')).toBeNull();
  },
};

export const NoDocuments: Story = {
  name: '无文档',
  parameters: msw(loginInfo({}), ...consoleApi()),
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByText('暂无可下载的文档', {}, T)).toBeInTheDocument();
  },
};

export const Failed: Story = {
  name: '加载失败',
  parameters: msw(
    http.get('/api/loginInfo', () => fail(500, '域名未绑定代理商，请联系运营人员处理')),
    ...consoleApi(),
  ),
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByText('文档列表加载失败，请稍后重试', {}, T)).toBeInTheDocument();
  },
};

export const CustomerHttpApi: Story = {
  name: '客户 HTTP API 接入说明（OpenAPI 文档、签名、curl 示例）',
  parameters: msw(loginInfo(all), ...consoleApi({ user: subAccount })),
  play: async ({ canvas: c }) => {
    await expect(await c.findByText(/客户 HTTP API 接入/, {}, T)).toBeInTheDocument();
    // the customer API's own OpenAPI document, not the console's cookie API
    await expect(c.getByRole('link', { name: /OpenAPI 接口描述/ }).getAttribute('href')).toBe(
      '/openapi/v1/openapi.json',
    );
    await expect(c.getByText('x-sms-signature')).toBeInTheDocument();
    // filled in with the signed-in account's clientid
    await waitFor(
      () => expect(c.getByTestId('openapi-curl').textContent).toContain(`CLIENTID=${subAccount.clientid}`),
      T,
    );
    const curl = c.getByTestId('openapi-curl').textContent ?? '';
    await expect(curl).toContain('/openapi/v1/sms/send');
    await expect(curl).toContain('openssl dgst -sha256 -hmac');
    // the protocol said is the address's own (the story runs on http://): never HTTPS beside http://
    const guide = c.getByTestId('openapi-guide').textContent ?? '';
    await expect(guide).toContain(
      `通过 ${window.location.protocol === 'https:' ? 'HTTPS' : 'HTTP'} 调用 ${window.location.origin}/openapi/v1`,
    );
  },
};

export const CustomerHttpApiWhenListFails: Story = {
  name: '文档列表加载失败时仍显示客户 HTTP API 接入说明',
  parameters: msw(
    http.get('/api/loginInfo', () => fail(500, '域名未绑定代理商，请联系运营人员处理')),
    ...consoleApi(),
  ),
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('文档列表加载失败，请稍后重试', {}, T)).toBeInTheDocument();
    await expect(c.getByTestId('openapi-guide')).toBeInTheDocument();
  },
};
