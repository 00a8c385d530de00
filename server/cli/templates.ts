/** Template review commands: approve, reject, list. */
import { formatDateTime } from '../lib/time';
import { reviewTemplate } from '../modules/template';
import { CommandError, defineCommands, enumLabel, table, UsageError } from './registry';
import { TemplateAuditState } from '../../common/generated/schemas';

const idArg = (v: string | undefined) => {
  if (!v) throw new UsageError('缺少模板ID');
  if (!/^\d{1,9}$/.test(v)) throw new UsageError(`模板ID不正确: ${v}`);
  return Number(v);
};

export const templateCommands = defineCommands(
  {
    name: 'template-approve',
    usage: 'template-approve <模板ID>',
    description: '短信模板审核通过',
    async run({ db, out, now }, [id]) {
      const n = idArg(id);
      if (!(await reviewTemplate(db, n, TemplateAuditState.Approved, '', now())))
        throw new CommandError(`模板 ${n} 不存在（通用模板无需审核）`);
      out(`模板 ${n} 审核通过`);
    },
  },
  {
    name: 'template-reject',
    usage: 'template-reject <模板ID> <原因>',
    description: '短信模板审核不通过（原因显示给客户）',
    async run({ db, out, now }, [id, ...reason]) {
      const n = idArg(id);
      const remark = reason.join(' ').trim();
      if (!remark) throw new UsageError('缺少审核不通过的原因');
      if (!(await reviewTemplate(db, n, TemplateAuditState.Rejected, remark, now())))
        throw new CommandError(`模板 ${n} 不存在（通用模板无需审核）`);
      out(`模板 ${n} 审核不通过：${remark}`);
    },
  },
  {
    name: 'templates',
    usage: 'templates [clientid]',
    description: '列出短信模板（待审核在前；可按子账户筛选，general 列出通用模板）',
    async run({ db, out, schemas }, [clientid]) {
      let q = db
        .selectFrom('templates as t')
        .leftJoin('accounts as o', 'o.id', 't.owner_id')
        .leftJoin('accounts as c', 'c.id', 't.creator_id')
        .select([
          't.id',
          't.state',
          't.sms_type',
          't.template_type',
          't.sign',
          't.content',
          't.remark',
          't.create_time',
          'o.clientid as owner',
          'c.clientid as creator',
        ]);
      if (clientid === 'general') q = q.where('t.owner_id', 'is', null);
      else if (clientid) {
        const acct = await db.selectFrom('accounts').select('id').where('clientid', '=', clientid).executeTakeFirst();
        if (!acct) throw new CommandError(`账户 ${clientid} 不存在`);
        q = q.where('t.owner_id', '=', acct.id);
      }
      const rows = await q.orderBy('t.state').orderBy('t.id', 'desc').execute();
      const cut = (s: string, n: number) => ([...s].length > n ? `${[...s].slice(0, n).join('')}…` : s);
      out(
        table([
          ['ID', '子账户', '创建人', '审核状态', '属性', '类型', '签名', '内容', '原因', '创建时间'],
          ...rows.map((r) => [
            String(r.id),
            r.owner ?? '(通用)',
            r.creator ?? '-',
            enumLabel(schemas, 'template-audit-state', r.state),
            enumLabel(schemas, 'template-category', r.sms_type),
            enumLabel(schemas, 'template-type', r.template_type),
            r.sign,
            cut(r.content, 30),
            r.remark || '-',
            formatDateTime(r.create_time),
          ]),
        ]).join('\n'),
      );
      out(`共 ${rows.length} 个模板`);
    },
  },
);
