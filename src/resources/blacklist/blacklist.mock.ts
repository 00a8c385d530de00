/** Story data and MSW handlers for the blacklist screen (stories only; the app never imports this). */
import { http, type HttpHandler } from 'msw';
import { BlacklistSource, type BlacklistEntry } from '@/generated/schemas';
import { fail, listPageOf, ok, xlsxReply, type Calls } from '@/stories/mockApi';
import { answering } from '@/stories/pageRows';
import { sendClients } from '@/stories/sendApi';

const [youpin, haoyigou] = sendClients.map((c) => ({ clientid: c.clientid, clientName: c.name }));
/** an unsubscribe reply's entry (the server's own) */
const replied = { source: BlacklistSource.Unsubscribe, remark: '', createdBy: '' };
/** an entry the agent added itself */
const manual = (remark: string) => ({ source: BlacklistSource.Manual, remark, createdBy: 'a10001' });

export const blacklistRows: BlacklistEntry[] = [
  { rownum: 1, id: 31, ...haoyigou, phone: '13912345678', ...replied, createDate: '2026-11-27 18:42:10' },
  {
    rownum: 2,
    id: 30,
    ...haoyigou,
    phone: '13800138000',
    ...manual('客户电话投诉，要求不再发送'),
    createDate: '2026-11-25 09:15:33',
  },
  { rownum: 3, id: 28, ...youpin, phone: '18600186000', ...replied, createDate: '2026-11-20 21:03:51' },
  {
    rownum: 4,
    id: 27,
    clientid: 'a10001',
    clientName: '上海云讯科技有限公司',
    phone: '17712345678',
    ...manual('员工号码'),
    createDate: '2026-11-02 10:00:00',
  },
];

export interface BlacklistApiOptions {
  rows?: BlacklistEntry[];
  calls?: Calls;
}

export function blacklistApi(opts: BlacklistApiOptions = {}): HttpHandler[] {
  let rows = [...(opts.rows ?? blacklistRows)];
  const { post } = answering(opts.calls);
  return [
    http.post('/api/send/getclients', () => ok(sendClients)),
    post('/blacklist/list', 'list', (f) => {
      let list = rows;
      if (f.phone) list = list.filter((r) => r.phone.startsWith(f.phone));
      if (f.source) list = list.filter((r) => String(r.source) === f.source);
      if (f.clientid) list = list.filter((r) => r.clientid === f.clientid);
      return listPageOf(
        list.map((r, i) => ({ ...r, rownum: i + 1 })),
        f,
      );
    }),
    post('/blacklist/add', 'add', (f) => {
      const phones = (f.phones as string).split(/[^0-9]+/).filter((p) => /^1\d{10}$/.test(p));
      rows = [
        ...phones.map((phone, i) => ({
          rownum: 0,
          id: 100 + i,
          clientid: f.clientid ?? 'a10001',
          clientName: '',
          phone,
          ...manual(f.remark ?? ''),
          createDate: '2026-11-28 10:00:00',
        })),
        ...rows,
      ];
      return ok(
        { added: phones.length, existing: 0, invalid: 0 },
        `已加入黑名单：新增 ${phones.length} 个，已存在 0 个，无效 0 个`,
      );
    }),
    post('/blacklist/delete', 'delete', (f) => {
      rows = rows.filter((r) => String(r.id) !== f.id);
      return ok(undefined, '删除成功');
    }),
    post('/blacklist/export', 'export', () => xlsxReply('黑名单.xlsx')),
  ];
}

export const exportNoData = http.post('/api/blacklist/export', () => fail(500, '当前条件没有数据，无法导出'));
export const addNoValid = http.post('/api/blacklist/add', () => fail(400, '没有有效的手机号码'));
