/** Send review commands: `send approve <任务编号>`, `send reject <任务编号> [原因]`, `send pending`. */
import { formatDateTime } from '../lib/time';
import { reviewTask, ReviewError } from '../modules/send';
import { CommandError, defineCommands, table, UsageError } from './registry';
import { TaskStatus } from '../../common/generated/schemas';

const uidArg = (v: string | undefined) => {
  if (!v) throw new UsageError('缺少任务编号');
  if (!/^[A-Za-z0-9]{1,40}$/.test(v)) throw new UsageError(`任务编号不正确: ${v}`);
  return v;
};

export const sendCommands = defineCommands({
  name: 'send',
  usage: 'send approve|reject|pending [任务编号] [原因]',
  description: '短信发送审核：approve 通过、reject 驳回（退还费用）、pending 列出待审核任务',
  async run({ db, out, now }, [action, uid, ...reason]) {
    if (action === 'pending') {
      const rows = await db
        .selectFrom('sms_tasks as t')
        .innerJoin('accounts as a', 'a.id', 't.account_id')
        .select(['t.uid', 'a.clientid', 't.content', 't.audit_num', 't.created_at'])
        .where('t.audit_num', '>', 0)
        .where('t.status', '<>', TaskStatus.Cancelled)
        .orderBy('t.id')
        .limit(200)
        .execute();
      const cut = (s: string) => ([...s].length > 30 ? `${[...s].slice(0, 30).join('')}…` : s);
      out(
        table([
          ['任务编号', '账户', '待审核', '内容', '提交时间'],
          ...rows.map((r) => [r.uid, r.clientid, String(r.audit_num), cut(r.content), formatDateTime(r.created_at)]),
        ]).join('\n'),
      );
      out(`共 ${rows.length} 个待审核任务`);
      return;
    }
    if (action !== 'approve' && action !== 'reject')
      throw new UsageError('用法: send approve <任务编号> | send reject <任务编号> [原因] | send pending');
    const id = uidArg(uid);
    try {
      const r = await reviewTask({ db, now }, id, action, reason.join(' ').trim());
      out(
        action === 'approve'
          ? `任务 ${id} 审核通过：${r.messages} 条短信进入发送队列`
          : `任务 ${id} 审核不通过：${r.messages} 条短信已驳回，费用已退还`,
      );
    } catch (e) {
      if (e instanceof ReviewError) throw new CommandError(e.message);
      throw e;
    }
  },
});
