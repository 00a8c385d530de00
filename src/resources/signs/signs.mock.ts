/** Story data and MSW handlers for the sign screens (stories only; the app never imports this). */
import { http, type HttpHandler } from 'msw';
import { type Sign, SignState } from '@/generated/schemas';
import { fail, ok, type Calls } from '@/stories/mockApi';
import { resourceApi } from '@/stories/resourceApi';
import { rowOf } from '@/stories/rows';
import { sendClients } from '@/stories/sendApi';
import { signs } from './data';

/** a sign (its stateStr from enums/sign-state) of the client `c` (youpin, haoyigou) */
const sign = rowOf<Sign>(signs.entity)({ cause: '' });
const [youpin, haoyigou] = sendClients.map((c) => ({ clientid: c.clientid, clientName: c.name }));
const { Pending, Rejected, Approved, Deleted } = SignState;

export const signRows: Sign[] = (
  [
    [haoyigou, 105, '苏州好易购', 'a10001', '2026-11-20 10:12:45', '验证码短信', Pending],
    [haoyigou, 104, '易购优选', 'b20002', '2026-11-10 16:03:11', '新品牌，商标注册中', Rejected],
    [youpin, 103, '优品生活', 'a10001', '2026-11-01 09:30:00', '会员营销', Approved],
    [haoyigou, 101, '好易购', 'b20002', '2026-10-12 14:20:08', '订单及物流通知', Approved],
  ] as const
).map(([c, id, s, userName, createDate, remarks, state], i) =>
  sign({ ...c, rownum: i + 1, id, sign: s, userName, createDate, remarks, state }),
);
signRows[1].cause = '签名与企业名称不符，请补充商标注册证或授权书';

export interface SignApiOptions {
  rows?: Sign[];
  /** record the parameters of each call by path */
  calls?: Calls;
}

export const signApi = ({ rows = signRows, calls }: SignApiOptions = {}): HttpHandler[] => [
  http.post('/api/send/getclients', () => ok(sendClients)),
  ...resourceApi(signs, {
    rows,
    calls,
    where: (r, f) =>
      (f.state ? String(r.state) === f.state : r.state !== Deleted) &&
      (!f.sign || r.sign.includes(f.sign)) &&
      (!f.clientid || r.clientid === f.clientid),
    create: () => ok({ id: 200, state: 0 }, '添加成功，请等待审核'),
    deleteOne: () => ok(undefined, '删除成功'),
    exportTo: ['/sign/export', '签名.xlsx'],
  }),
];

export const exportNoData = http.post('/api/sign/export', () => fail(500, '当前条件没有数据，无法导出'));
export const addDuplicate = http.post('/api/sign/add', () => fail(500, '该账户已存在相同的签名，请勿重复添加'));
export const importResult = (r = { importSuccess: 3, importTotal: 9, importFall: 6 }) =>
  http.post('/api/sign/addsignBatch', () => ok(r, '导入完成'));
export const importRefused = (msg: string) => http.post('/api/sign/addsignBatch', () => fail(400, msg));
