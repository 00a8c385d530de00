/** Sign review commands: the back office's approve / reject, and a listing. */
import { ApiError } from '../http/errors';
import { formatDateTime } from '../lib/time';
import { reviewSign } from '../modules/sign/service';
import { CommandError, defineCommands, enumLabel, table, UsageError } from './registry';
import { SignState } from '../../common/generated/schemas';

function idOf(v: string | undefined): number {
  if (!v) throw new UsageError('缺少签名编号');
  const id = Number(v);
  if (!Number.isInteger(id) || id <= 0) throw new UsageError(`签名编号不正确: ${v}`);
  return id;
}

async function review(db: Parameters<typeof reviewSign>[0], now: Date, id: number, approve: boolean, cause?: string) {
  try {
    return await reviewSign(db, now, id, approve, cause);
  } catch (e) {
    if (e instanceof ApiError) throw new CommandError(e.code === 404 ? `签名 ${id} 不存在` : e.message);
    throw e;
  }
}

export const signCommands = defineCommands(
  {
    name: 'sign-approve',
    usage: 'sign-approve <id>',
    description: '审核通过一个签名',
    async run({ db, out, now }, [id]) {
      const s = await review(db, now(), idOf(id), true);
      out(`签名 ${id}（${s.clientid}【${s.sign}】）已审核通过`);
    },
  },
  {
    name: 'sign-reject',
    usage: 'sign-reject <id> <reason>',
    description: '驳回一个签名（原因会显示给用户）',
    async run({ db, out, now }, [id, ...reason]) {
      const n = idOf(id);
      const cause = reason.join(' ').trim();
      if (!cause) throw new UsageError('缺少驳回原因');
      const s = await review(db, now(), n, false, cause);
      out(`签名 ${id}（${s.clientid}【${s.sign}】）已驳回：${cause}`);
    },
  },
  {
    name: 'signs',
    usage: 'signs [clientid]',
    description: '列出签名（可按账户筛选），待审核的在前',
    async run({ db, out, schemas }, [clientid]) {
      let q = db
        .selectFrom('signs')
        .select(['id', 'clientid', 'sign', 'state', 'cause', 'remarks', 'creator_name', 'create_time'])
        .orderBy((eb) => eb.case().when('state', '=', SignState.Pending).then(0).else(1).end())
        .orderBy('create_time', 'desc')
        .limit(500);
      if (clientid) q = q.where('clientid', '=', clientid);
      const rows = await q.execute();
      out(
        table([
          ['编号', '账户', '签名', '状态', '驳回原因', '备注', '创建人', '创建时间'],
          ...rows.map((r) => [
            String(r.id),
            r.clientid,
            r.sign,
            enumLabel(schemas, 'sign-state', r.state),
            r.cause || '-',
            r.remarks || '-',
            r.creator_name,
            formatDateTime(r.create_time),
          ]),
        ]).join('\n'),
      );
      out(`共 ${rows.length} 个签名`);
    },
  },
);
