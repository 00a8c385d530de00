/** Story data and MSW handlers for the blacklist screen (stories only; the app never imports this). */
import { http, type HttpHandler } from 'msw';
import { BlacklistSource, type BlacklistEntry } from '@/generated/schemas';
import { fail, ok, type Calls } from '@/stories/mockApi';
import { resourceApi } from '@/stories/resourceApi';
import { sendClients } from '@/stories/sendApi';
import { blacklist } from './data';

const [youpin, haoyigou] = sendClients.map((c) => ({ clientid: c.clientid, clientName: c.name }));
const agent = { clientid: 'a10001', clientName: '上海云讯科技有限公司' };
/** an unsubscribe reply's entry (the server's own), else one the agent added itself with `remark` */
const entry = (remark?: string) =>
  remark === undefined
    ? { source: BlacklistSource.Unsubscribe, remark: '', createdBy: '' }
    : { source: BlacklistSource.Manual, remark, createdBy: 'a10001' };

export const blacklistRows: BlacklistEntry[] = (
  [
    [31, haoyigou, '13912345678', undefined, '2026-11-27 18:42:10'],
    [30, haoyigou, '13800138000', '客户电话投诉，要求不再发送', '2026-11-25 09:15:33'],
    [28, youpin, '18600186000', undefined, '2026-11-20 21:03:51'],
    [27, agent, '17712345678', '员工号码', '2026-11-02 10:00:00'],
  ] as const
).map(([id, c, phone, remark, createDate], i) => ({ rownum: i + 1, id, ...c, phone, ...entry(remark), createDate }));

export interface BlacklistApiOptions {
  rows?: BlacklistEntry[];
  calls?: Calls;
}

export function blacklistApi(opts: BlacklistApiOptions = {}): HttpHandler[] {
  let rows = [...(opts.rows ?? blacklistRows)];
  const add = (f: Record<string, string>) => {
    const phones = f.phones.split(/[^0-9]+/).filter((p) => /^1\d{10}$/.test(p));
    const clientid = f.clientid ?? 'a10001';
    const date = '2026-11-28 10:00:00';
    const added = phones.map((phone, i) => ({
      rownum: 0,
      id: 100 + i,
      clientid,
      clientName: '',
      phone,
      createDate: date,
    }));
    rows = [...added.map((r) => ({ ...r, ...entry(f.remark ?? '') })), ...rows];
    const msg = `已加入黑名单：新增 ${phones.length} 个，已存在 0 个，无效 0 个`;
    return ok({ added: phones.length, existing: 0, invalid: 0 }, msg);
  };
  return [
    http.post('/api/send/getclients', () => ok(sendClients)),
    ...resourceApi(blacklist, {
      rows: () => rows.map((r, i) => ({ ...r, rownum: i + 1 })),
      calls: opts.calls,
      where: (r, f) =>
        (!f.phone || r.phone.startsWith(f.phone)) &&
        (!f.source || String(r.source) === f.source) &&
        (!f.clientid || r.clientid === f.clientid),
      create: add,
      deleteOne: (f) => {
        rows = rows.filter((r) => String(r.id) !== f.id);
        return ok(undefined, '删除成功');
      },
      exportTo: ['/blacklist/export', '黑名单.xlsx'],
    }),
  ];
}

export const exportNoData = http.post('/api/blacklist/export', () => fail(500, '当前条件没有数据，无法导出'));
export const addNoValid = http.post('/api/blacklist/add', () => fail(400, '没有有效的手机号码'));
