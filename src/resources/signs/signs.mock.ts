/** Story data and MSW handlers for the sign screens (stories only; the app never imports this). */
import { http, type HttpHandler } from 'msw';
import { type Sign, SignState } from '@/generated/schemas';
import { fail, listPageOf, ok, xlsxReply, type Calls } from '@/stories/mockApi';
import { answering } from '@/stories/pageRows';
import { rowOf } from '@/stories/rows';
import { sendClients } from '@/stories/sendApi';
import { signs } from './data';

/** a sign (its stateStr from enums/sign-state); youpin and haoyigou: the client it belongs to */
const sign = rowOf<Sign>(signs.entity)({ cause: '' });
const [youpin, haoyigou] = sendClients.map((c) => ({ clientid: c.clientid, clientName: c.name }));

export const signRows: Sign[] = [
  sign({
    ...haoyigou,
    rownum: 1,
    id: 105,
    sign: '苏州好易购',
    userName: 'a10001',
    createDate: '2026-11-20 10:12:45',
    remarks: '验证码短信',
    state: SignState.Pending,
  }),
  sign({
    ...haoyigou,
    rownum: 2,
    id: 104,
    sign: '易购优选',
    userName: 'b20002',
    createDate: '2026-11-10 16:03:11',
    remarks: '新品牌，商标注册中',
    state: SignState.Rejected,
    cause: '签名与企业名称不符，请补充商标注册证或授权书',
  }),
  sign({
    ...youpin,
    rownum: 3,
    id: 103,
    sign: '优品生活',
    userName: 'a10001',
    createDate: '2026-11-01 09:30:00',
    remarks: '会员营销',
    state: SignState.Approved,
  }),
  sign({
    ...haoyigou,
    rownum: 4,
    id: 101,
    sign: '好易购',
    userName: 'b20002',
    createDate: '2026-10-12 14:20:08',
    remarks: '订单及物流通知',
    state: SignState.Approved,
  }),
];

export interface SignApiOptions {
  rows?: Sign[];
  /** record the parameters of each call by path */
  calls?: Calls;
}

export function signApi(opts: SignApiOptions = {}): HttpHandler[] {
  const rows = opts.rows ?? signRows;
  const { post } = answering(opts.calls);
  return [
    http.post('/api/send/getclients', () => ok(sendClients)),
    post('/sign/list', 'list', (f) => {
      let list = rows.filter((r) => (f.state ? String(r.state) === f.state : r.state !== SignState.Deleted));
      if (f.sign) list = list.filter((r) => r.sign.includes(f.sign));
      if (f.clientid) list = list.filter((r) => r.clientid === f.clientid);
      return listPageOf(list, f);
    }),
    post('/sign/add', 'add', () => ok({ id: 200, state: 0 }, '添加成功，请等待审核')),
    post('/sign/update', 'update', () => ok(undefined, '删除成功')),
    post('/sign/export', 'export', () => xlsxReply('签名.xlsx')),
  ];
}

export const exportNoData = http.post('/api/sign/export', () => fail(500, '当前条件没有数据，无法导出'));
export const addDuplicate = http.post('/api/sign/add', () => fail(500, '该账户已存在相同的签名，请勿重复添加'));
export const importResult = (r = { importSuccess: 3, importTotal: 9, importFall: 6 }) =>
  http.post('/api/sign/addsignBatch', () => ok(r, '导入完成'));
export const importRefused = (msg: string) => http.post('/api/sign/addsignBatch', () => fail(400, msg));
