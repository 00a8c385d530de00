/** Story data and MSW handlers of the 审核 screens (stories only; the app never imports this). */
import { http, HttpResponse, type HttpHandler } from 'msw';
import {
  AuthStatus,
  CertType,
  InvoiceStatus,
  InvoiceType,
  SignState,
  TemplateAuditState,
  TemplateType,
  UserType,
  type ReviewCertification,
  type ReviewInvoice,
  type ReviewSign,
  type ReviewTemplate,
} from '@/generated/schemas';
import { listPageOf, ok, type Calls } from '@/stories/mockApi';
import { answering, refusedOr, type Refusal } from '@/stories/pageRows';
import { positional, rowOf } from '@/stories/rows';

/** a document image: a drawn licence with its title, so a thumbnail and the preview look like one */
const licence = (title: string, colour: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="320" viewBox="0 0 480 320"><rect width="480" height="320" fill="#fdfaf2"/><rect x="12" y="12" width="456" height="296" fill="none" stroke="${colour}" stroke-width="6"/><text x="240" y="80" font-size="34" text-anchor="middle" fill="${colour}" font-family="sans-serif">${title}</text><rect x="48" y="120" width="260" height="14" fill="#d9d9d9"/><rect x="48" y="156" width="300" height="14" fill="#d9d9d9"/><rect x="48" y="192" width="220" height="14" fill="#d9d9d9"/><circle cx="380" cy="220" r="48" fill="none" stroke="#cf1322" stroke-width="5"/></svg>`;
const IMAGES: Record<string, string> = {
  'front.png': licence('营业执照', '#1d39c4'),
  'back.png': licence('营业执照（副本）', '#389e0d'),
  'id.png': licence('居民身份证', '#d46b08'),
};

const files = (...names: string[]) => names.map((n) => `/api/operator/files/2026/11/${n}`);
const certification = rowOf<ReviewCertification>('review-certification')({
  userType: UserType.Agent,
  certType: CertType.Enterprise,
  images: files('front.png', 'back.png'),
  state: AuthStatus.Pending,
  remark: '',
  reviewedAt: '',
  reviewedBy: '',
});
/** who reviewed a row (and when) */
const reviewed = (by: string, at?: string) => ({ reviewedBy: by, ...(at ? { reviewedAt: at } : {}) });
const certified = positional(certification)('id', 'clientid', 'company', 'idNbr', 'submittedAt');
export const certificationRows: ReviewCertification[] = [
  certified(31, 'newagent', '深圳市张伟网络科技有限公司', '91440300MA5G1234XY', '2026-11-24 09:12:03'),
  certified(29, 'b20031', '陈晓明', '110101199003074518', '2026-11-24 10:40:51', {
    userType: UserType.SubAccount,
    certType: CertType.Personal,
    images: files('id.png'),
  }),
  certified(27, 'a10023', '杭州信达网络科技有限公司', '91330106MA2B7K8Q1C', '2026-11-22 15:03:44', {
    images: files('front.png'),
    state: AuthStatus.Rejected,
    remark: '营业执照图片不清晰，请上传原件照片',
    ...reviewed('reviewer1', '2026-11-22 16:20:10'),
  }),
  certified(24, 'a10011', '上海优品电商有限公司', '91310115MA1K4XYZ2P', '2026-11-20 11:15:09', {
    state: AuthStatus.Certified,
    ...reviewed('operator1', '2026-11-20 14:02:37'),
  }),
];

const sign = positional(
  rowOf<ReviewSign>('review-sign')({ clientid: 'b20002', state: SignState.Pending, cause: '', reviewedBy: '' }),
)('id', 'sign', 'remarks', 'createTime', 'clientid');
export const signRows: ReviewSign[] = [
  sign(112, '云讯优选', '会员营销', '2026-11-24 09:30:00', 'client1'),
  sign(113, '晓明花店', '订单通知', '2026-11-24 11:02:18', 'b20031'),
  sign(104, '易购优选', '新品牌，商标注册中', '2026-11-10 16:03:11', undefined, {
    state: SignState.Rejected,
    cause: '签名与企业名称不符，请补充商标注册证或授权书',
    ...reviewed('reviewer1'),
  }),
  sign(101, '好易购', '订单及物流通知', '2026-10-12 14:20:08', undefined, {
    state: SignState.Approved,
    ...reviewed('operator1'),
  }),
];

const template = positional(
  rowOf<ReviewTemplate>('review-template')({
    clientid: 'client1',
    sign: '好易购',
    templateType: TemplateType.Variable,
    state: TemplateAuditState.Pending,
    remark: '',
    reviewedBy: '',
  }),
)('id', 'content', 'createTime', 'templateType');
const { Fixed } = TemplateType;
export const templateRows: ReviewTemplate[] = [
  template(58, '您的订单{1}已发货，快递单号{2}，请注意查收。', '2026-11-24 08:45:10'),
  template(59, '双十二大促，全场满300减50，点击 t.cn/abc 立即抢购，回T退订', '2026-11-24 09:05:33', Fixed),
  template(51, '您的验证码为{1}，5分钟内有效，请勿泄露给他人。', '2026-11-18 10:00:00', undefined, {
    clientid: 'b20031',
    sign: '晓明花店',
    state: TemplateAuditState.Approved,
    ...reviewed('reviewer1'),
  }),
  template(47, '点击领取百万红包 http://bit.ly/xxxx', '2026-11-15 13:22:41', Fixed, {
    clientid: 'b20002',
    sign: '易购优选',
    state: TemplateAuditState.Rejected,
    remark: '含短链接且未标明退订方式',
    ...reviewed('operator1'),
  }),
];

const invoice = positional(
  rowOf<ReviewInvoice>('review-invoice')({
    clientid: 'agent1',
    invoiceType: InvoiceType.ElectronicVatSpecial,
    invoiceHead: '深圳市云讯通信有限公司',
    status: InvoiceStatus.Pending,
    reason: '',
    express: '',
    reviewedBy: '',
  }),
)('id', 'invoiceNo', 'invoiceAmount', 'next', 'createTime');
const { Rejected, Issuing, Mailed, Returned } = InvoiceStatus;
export const invoiceRows: ReviewInvoice[] = [
  invoice(12, 'FP202611240001', '12800.00', [Rejected, Issuing], '2026-11-24 10:05:00'),
  invoice(11, 'FP202611230002', '500.00', [Rejected, Mailed], '2026-11-23 15:40:12', {
    clientid: 'client1',
    invoiceType: InvoiceType.ElectronicNormal,
    status: Issuing,
    invoiceHead: '苏州好易购电子商务有限公司',
    ...reviewed('reviewer1'),
  }),
  invoice(9, 'FP202611200001', '6000.00', [Returned], '2026-11-20 09:12:00', {
    status: Mailed,
    express: '顺丰速运 SF1234567890',
    ...reviewed('operator1'),
  }),
];

const isPending = {
  certifications: (r: ReviewCertification) => r.state === AuthStatus.Pending,
  signs: (r: ReviewSign) => r.state === SignState.Pending,
  templates: (r: ReviewTemplate) => r.state === TemplateAuditState.Pending,
  invoices: (r: ReviewInvoice) => r.status === InvoiceStatus.Pending || r.status === InvoiceStatus.Issuing,
};

export type ReviewKind = keyof typeof isPending;

export interface ReviewApiOptions {
  certifications?: ReviewCertification[];
  signs?: ReviewSign[];
  templates?: ReviewTemplate[];
  invoices?: ReviewInvoice[];
  /** a decision's refusal ({ code, msg }) instead of its success */
  refuse?: Refusal;
  /** the JSON body of each call, by path's last two parts ('signs/decide') */
  calls?: Calls;
}

/** The review lists (pending / clientid / paging as the server reads them), the decisions, the images. */
export function reviewApi(o: ReviewApiOptions = {}): HttpHandler[] {
  const rows = {
    certifications: o.certifications ?? certificationRows,
    signs: o.signs ?? signRows,
    templates: o.templates ?? templateRows,
    invoices: o.invoices ?? invoiceRows,
  };
  const { post } = answering(o.calls);
  const list = (kind: ReviewKind) =>
    post(`/operator/review/${kind}/list`, `${kind}/list`, (f) => {
      const pending = isPending[kind] as (x: unknown) => boolean;
      const all = rows[kind] as { clientid: string }[];
      return listPageOf(
        all.filter((r) => (f.pending === false || pending(r)) && (!f.clientid || r.clientid === f.clientid)),
        f,
      );
    });
  const decide = (kind: ReviewKind, path: string) =>
    post(`/operator/review/${kind}/${path}`, `${kind}/${path}`, (b) =>
      refusedOr(o.refuse, () => ok(null, path === 'status' ? '状态已变更' : b.approve ? '已通过' : '已驳回')),
    );
  return [
    ...(['certifications', 'signs', 'templates', 'invoices'] as const).map(list),
    decide('certifications', 'decide'),
    decide('signs', 'decide'),
    decide('templates', 'decide'),
    decide('invoices', 'status'),
    http.get('/api/operator/files/*', ({ request }) => {
      const name = new URL(request.url).pathname.split('/').pop() ?? '';
      return new HttpResponse(IMAGES[name] ?? IMAGES['front.png'], { headers: { 'content-type': 'image/svg+xml' } });
    }),
  ];
}
