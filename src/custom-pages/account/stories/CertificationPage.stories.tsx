import type { Meta, StoryObj } from '@storybook/react-vite';
import { Route, Routes } from 'react-router';
import { http } from 'msw';
import { expect, spyOn, userEvent, waitFor, within } from 'storybook/test';
import { T, body, withApp } from '@/stories/withApp';
import { fail } from '@/stories/mockApi';
import CertificationPage, { ReCertificationPage } from '../CertificationPage';
import { pathOf } from '@/stories/pageRows';
import { PNG, accountApi, certCertified, certNone, certPending, certRejected, subUser } from './accountMocks';
import { eventually, shows } from '@/stories/play';

const posted: Record<string, Record<string, string>[]> = {};
const AUTH = pathOf('account_info_auth');
const RE = pathOf('account_info_auth_re');
/** the form opened at 企业认证 */
const ENTERPRISE = pathOf('account_info_auth', '?type=2');

function Screen() {
  return (
    <Routes>
      <Route path={AUTH} element={<CertificationPage />} />
      <Route path={RE} element={<ReCertificationPage />} />
    </Routes>
  );
}

const meta = {
  title: 'Account/CertificationPage',
  component: Screen,
  decorators: [withApp],
  parameters: { app: { path: AUTH }, msw: { handlers: accountApi({ cert: certNone, posted }) } },
} satisfies Meta<typeof Screen>;
export default meta;
type Story = StoryObj<typeof meta>;

/** a tiny real PNG */
const pngFile = (name = 'licence.png') => new File([PNG], name, { type: 'image/png' });

async function acceptAgreements(c: ReturnType<typeof within>) {
  for (const box of c.getAllByRole('checkbox')) {
    await userEvent.click(box);
    await userEvent.click(await body().findByRole('button', { name: '已阅读并同意' }, T));
    await eventually(() => expect(box).toBeChecked());
    // the dialog gone (it gives the focus back to the checkbox when its animation ends)
    await eventually(() => expect(body().queryByRole('dialog')).toBeNull());
  }
}

export const NotCertifiedForm: Story = {
  name: '未认证：个人认证表单',
  play: async ({ canvas: c }) => {
    await expect(await c.findByTestId('certification-form', {}, T)).toBeInTheDocument();
    await expect(c.getByText('您还未进行资质认证，认证通过后才能发送短信')).toBeInTheDocument();
    // the radio and select widgets load on first use
    await expect(await c.findByRole('radio', { name: '个人认证' }, T)).toBeChecked();
    await expect(c.getByLabelText('姓名')).toBeInTheDocument();
    await expect(await c.findByText('个人身份证', {}, T)).toBeInTheDocument();
    await expect(c.getByRole('button', { name: '提交认证' })).toBeDisabled();
  },
};

export const EnterpriseForm: Story = {
  name: '未认证：企业认证（证件类型 三证合一/四证合一/组织机构证）',
  parameters: { app: { path: ENTERPRISE } },
  play: async ({ canvas: c }) => {
    await expect(await c.findByRole('radio', { name: '企业认证' }, T)).toBeChecked();
    await expect(c.getByLabelText('公司名称')).toBeInTheDocument();
    await expect(c.getByText('公司名称须与营业执照上的名称一致')).toBeInTheDocument();
    await userEvent.click(await c.findByRole('combobox', {}, T));
    const list = await body().findByRole('listbox', {}, T);
    await expect(list).toBeInTheDocument();
    for (const t of ['三证合一', '四证合一', '组织机构证'])
      await expect(body().getAllByText(t).length).toBeGreaterThan(0);
    await expect(body().queryByTitle('个人身份证')).not.toBeInTheDocument();
  },
};

export const ValidationMessages: Story = {
  name: '校验提示（协议、证件号码、公司名称、图片）',
  parameters: { app: { path: ENTERPRISE } },
  play: async ({ canvas: c }) => {
    await c.findByTestId('certification-form', {}, T);
    await acceptAgreements(c);
    const submit = c.getByRole('button', { name: '提交认证' });
    await expect(submit).toBeEnabled();
    await userEvent.click(submit);
    await expect(await c.findByText('公司名称不能为空', {}, T)).toBeInTheDocument();
    await expect(c.getByText('证件号码不能为空')).toBeInTheDocument();
    await expect(c.getByText('请上传至少一张证件图片')).toBeInTheDocument();
  },
};

export const TooLongValues: Story = {
  name: '校验提示（公司名称、证件号码过长）',
  parameters: { app: { path: ENTERPRISE } },
  play: async ({ canvas: c }) => {
    await c.findByTestId('certification-form', {}, T);
    await acceptAgreements(c);
    const company = c.getByLabelText('公司名称');
    const idNbr = c.getByLabelText('证件号码');
    await userEvent.click(company);
    await userEvent.paste('公'.repeat(61));
    await eventually(() => expect(company).toHaveValue('公'.repeat(61)));
    await userEvent.click(idNbr);
    await userEvent.paste('1'.repeat(21));
    await eventually(() => expect(idNbr).toHaveValue('1'.repeat(21)));
    await userEvent.click(c.getByRole('button', { name: '提交认证' }));
    await expect(await c.findByText('公司长度不能大于60个字符', {}, T)).toBeInTheDocument();
    await expect(await c.findByText('证件号码长度不能大于20个字符', {}, T)).toBeInTheDocument();
  },
};

export const SubmitShowsPending: Story = {
  name: '上传图片并提交 → 待认证',
  parameters: {
    app: { path: ENTERPRISE },
    msw: { handlers: accountApi({ cert: certNone, posted, stateful: true }) },
  },
  play: async ({ canvas: c, canvasElement }) => {
    await c.findByTestId('certification-form', {}, T);
    await userEvent.type(c.getByLabelText('公司名称'), '深圳市云讯通信有限公司');
    await userEvent.type(c.getByLabelText('证件号码'), '91440300MA5FXYZ123');
    const input = canvasElement.querySelector('input[type=file]') as HTMLInputElement;
    await userEvent.upload(input, [pngFile('a.png'), pngFile('b.png')]);
    await waitFor(
      () =>
        expect(
          canvasElement.querySelectorAll(
            '.ant-upload-list-item-done, .ant-upload-list-item-container .ant-upload-list-item:not(.ant-upload-list-item-uploading)',
          ).length,
        ).toBe(2),
      T,
    );
    await acceptAgreements(c);
    await userEvent.click(c.getByRole('button', { name: '提交认证' }));
    await shows('提交成功，请等待审核');
    await expect(await c.findByText(/待认证：您的认证资料已提交/, {}, T)).toBeInTheDocument();
    await expect(posted['cer/add']?.at(-1)).toEqual({
      id_type: '6',
      company: '深圳市云讯通信有限公司',
      id_nbr: '91440300MA5FXYZ123',
      imgUrl: 'a10001/upload0001.png|a10001/upload0002.png',
    });
  },
};

export const UploadRefusedByServer: Story = {
  name: '图片上传失败（服务器按内容拒绝）',
  parameters: {
    msw: { handlers: accountApi({ cert: certNone, upload: '图片上传失败：仅支持 gif、jpg、jpeg、png 格式的图片' }) },
  },
  play: async ({ canvas: c, canvasElement }) => {
    await c.findByTestId('certification-form', {}, T);
    await userEvent.upload(canvasElement.querySelector('input[type=file]') as HTMLInputElement, pngFile('fake.png'));
    await shows('图片上传失败：仅支持 gif、jpg、jpeg、png 格式的图片');
    await eventually(() => expect(canvasElement.querySelectorAll('.ant-upload-list-item').length).toBe(0));
  },
};

export const UploadTooLarge: Story = {
  name: '图片上传失败（超过2M，浏览器端拒绝）',
  play: async ({ canvas: c, canvasElement }) => {
    await c.findByTestId('certification-form', {}, T);
    const big = new File([new Uint8Array(2 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' });
    await userEvent.upload(canvasElement.querySelector('input[type=file]') as HTMLInputElement, big);
    await shows('图片上传失败：图片大小不能超过2M');
  },
};

export const Pending: Story = {
  name: '待认证',
  parameters: { msw: { handlers: accountApi({ cert: certPending }) } },
  play: async ({ canvas: c }) => {
    await expect(await c.findByText(/待认证：您的认证资料已提交/, {}, T)).toBeInTheDocument();
    await expect(c.getByText('深圳市云讯通信有限公司')).toBeInTheDocument();
    await expect(c.getByText('三证合一')).toBeInTheDocument();
    await expect(c.getAllByRole('img', { name: /证件图片/ })).toHaveLength(2);
    await expect(c.queryByTestId('certification-form')).not.toBeInTheDocument();
  },
};

export const Certified: Story = {
  name: '已认证',
  parameters: { msw: { handlers: accountApi({ cert: certCertified }) } },
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('已认证：资质认证已通过', {}, T)).toBeInTheDocument();
    await expect(c.getByText('2026-03-02 15:00:00')).toBeInTheDocument();
  },
};

export const Rejected: Story = {
  name: '认证不通过：原因与重新认证表单',
  parameters: { msw: { handlers: accountApi({ cert: certRejected, posted, stateful: true }) } },
  play: async ({ canvas: c, canvasElement }) => {
    const alert = await c.findByTestId('rejected-reason', {}, T);
    await expect(alert).toHaveTextContent('驳回原因：营业执照照片模糊，请重新上传清晰照片');
    await expect(c.getByLabelText('公司名称')).toHaveValue('深圳市云讯通信有限公司');
    await expect(c.getByLabelText('证件号码')).toHaveValue('91440300MA5FXYZ123');
    await expect(canvasElement.querySelectorAll('.ant-upload-list-item')).toHaveLength(2);
    await acceptAgreements(c);
    await userEvent.click(c.getByRole('button', { name: '重新提交认证' }));
    await expect(await c.findByText(/待认证：您的认证资料已提交/, {}, T)).toBeInTheDocument();
    await expect(posted['cer/edit']?.at(-1)?.imgUrl).toBe('a10001/licence0001.png|a10001/licence0002.png');
  },
};

export const ReCertificationRoute: Story = {
  name: '重新认证页（/auth/re）',
  parameters: { app: { path: RE }, msw: { handlers: accountApi({ cert: certRejected }) } },
  play: async ({ canvas: c }) => {
    await expect(await c.findByRole('button', { name: '重新提交认证' }, T)).toBeDisabled();
  },
};

export const ClientView: Story = {
  name: '子账户资质（?clientId=）',
  parameters: { app: { path: `${AUTH}?clientId=b20001` } },
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('账户 b20001 的资质信息', {}, T)).toBeInTheDocument();
    await expect(c.getByText('上海优品电商有限公司')).toBeInTheDocument();
  },
};

export const FetchFailed: Story = {
  name: '获取资质信息失败',
  parameters: { app: { path: `${AUTH}?clientId=x99999` } },
  play: async ({ canvas: c }) => {
    await expect(await c.findByText('获取资质信息失败', {}, T)).toBeInTheDocument();
  },
};

export const SubAccountNotCertified: Story = {
  name: '子账户：未认证表单',
  parameters: {
    msw: { handlers: accountApi({ user: subUser, cert: { ...certNone, clientid: 'b20001', agent_id: 'a10001' } }) },
  },
  play: async ({ canvas: c }) => {
    await expect(await c.findByTestId('certification-form', {}, T)).toBeInTheDocument();
  },
};

export const PreviewFailed: Story = {
  name: '图片预览失败',
  parameters: {
    msw: {
      handlers: accountApi({
        cert: { ...certPending, img_url: 'a10001/gone0001.png|a10001/gone0002.png' },
        extra: [http.get('/api/files/*', () => fail(404, '文件不存在'))],
      }),
    },
  },
  play: async ({ canvas: c }) => {
    await eventually(() => expect(c.getAllByText('图片预览失败')).toHaveLength(2));
  },
};

export const Loading: Story = {
  name: '加载中',
  parameters: { msw: { handlers: accountApi({ cert: certNone, loading: true }) } },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('.ant-skeleton')).toBeTruthy();
  },
};

export const SwitchType: Story = {
  name: '切换认证类型：标签、提示与证件类型随之变化',
  play: async ({ canvas: c }) => {
    await userEvent.click(await c.findByRole('radio', { name: '企业认证' }, T));
    await expect(await c.findByLabelText('公司名称', {}, T)).toHaveAttribute('placeholder', '请输入公司名称');
    await expect(c.getByText('公司名称须与营业执照上的名称一致')).toBeInTheDocument();
    await expect(await c.findByText('三证合一', {}, T)).toBeInTheDocument();
    await userEvent.click(c.getByRole('radio', { name: '个人认证' }));
    await expect(await c.findByLabelText('姓名', {}, T)).toHaveAttribute('placeholder', '请输入证件上的姓名');
    await expect(await c.findByText('个人身份证', {}, T)).toBeInTheDocument();
    await expect(c.queryByText('公司名称须与营业执照上的名称一致')).not.toBeInTheDocument();
  },
};

/** the messages a console spy was called with */
const loggedMessages = (spy: { mock: { calls: unknown[][] } }) =>
  spy.mock.calls.map((args) => args.map(String).join(' '));

/**
 * Issue 41 item 6: a schema select offers the enum's values only (its 请选择 is the empty select's
 * hint, not a choice) and logs nothing: no "The schema default value "null" is not one of the
 * values in the enum" on any form (the select is our own widget, without a fake default).
 */
export const SelectWithoutPlaceholderChoice: Story = {
  name: '证件类型选择：只有枚举值可选，控制台无默认值警告',
  parameters: { app: { path: ENTERPRISE } },
  beforeEach: () => {
    const spy = spyOn(console, 'error');
    return () => spy.mockRestore();
  },
  play: async ({ canvas: c, canvasElement }) => {
    await userEvent.click(await c.findByRole('combobox', {}, T));
    await body().findByRole('listbox', {}, T);
    const options = [...document.querySelectorAll('.ant-select-item-option')].map((o) => o.textContent);
    await expect(options).toEqual(['三证合一', '四证合一', '组织机构证']);
    await userEvent.click(body().getByTitle('四证合一'));
    await eventually(() =>
      expect(canvasElement.querySelector('.ant-select-selection-item')).toHaveTextContent('四证合一'),
    );
    const warned = loggedMessages(console.error as unknown as { mock: { calls: unknown[][] } }).filter((m) =>
      /is not one of the values in the enum/.test(m),
    );
    await expect(warned).toEqual([]);
  },
};
