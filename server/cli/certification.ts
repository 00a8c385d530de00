/** Certification review: list submissions, approve, reject with a reason. */
import { formatDateTime } from '../lib/time';
import { reviewCertification, ReviewError, ID_TYPE_LABELS } from '../modules/account/certification';
import { CommandError, defineCommands, table, UsageError } from './registry';
import { CertType, UserType } from '../../common/generated/schemas';

const STATE: Record<number, string> = { 2: '待认证', 3: '已认证', 4: '认证不通过' };

export const certificationCommands = defineCommands(
  {
    name: 'cert-list',
    usage: 'cert-list [pending]',
    description: '列出资质认证提交（pending：只列待审核的）',
    async run({ db, out }, args) {
      const pendingOnly = args[0] === 'pending';
      if (args[0] && !pendingOnly) throw new UsageError(`未知参数 ${args[0]}`);
      let q = db
        .selectFrom('certifications as c')
        .innerJoin('accounts as a', 'a.id', 'c.account_id')
        .select(['a.clientid', 'a.user_type', 'c.cert_type', 'c.id_type', 'c.company', 'c.id_nbr', 'c.img_url', 'c.state', 'c.remark', 'c.submitted_at', 'c.reviewed_at'])
        .orderBy('c.id', 'desc');
      if (pendingOnly) q = q.where('c.state', '=', 2).where('a.oauth_status', '=', 2);
      const rows = await q.execute();
      out(
        table([
          ['账户', '类型', '认证类型', '证件类型', '公司/姓名', '证件号码', '图片', '状态', '提交时间', '审核时间', '驳回原因'],
          ...rows.map((r) => [
            r.clientid,
            r.user_type === UserType.Agent ? '代理商' : '子账户',
            r.cert_type === CertType.Personal ? '个人认证' : '企业认证',
            ID_TYPE_LABELS[r.id_type] ?? String(r.id_type),
            r.company,
            r.id_nbr,
            String(r.img_url.split('|').length),
            STATE[r.state] ?? String(r.state),
            formatDateTime(r.submitted_at),
            formatDateTime(r.reviewed_at) || '-',
            r.remark || '-',
          ]),
        ]).join('\n'),
      );
      out(`共 ${rows.length} 条${pendingOnly ? '待审核' : ''}认证`);
    },
  },
  {
    name: 'cert-approve',
    usage: 'cert-approve <clientid>',
    description: '通过账户的待审核资质认证',
    async run({ db, out, now }, [clientid]) {
      if (!clientid) throw new UsageError('缺少账户');
      try {
        const r = await reviewCertification(db, clientid, { approve: true }, now());
        out(`已通过 ${clientid}（${r.name}）的资质认证`);
      } catch (e) {
        if (e instanceof ReviewError) throw new CommandError(e.message);
        throw e;
      }
    },
  },
  {
    name: 'cert-reject',
    usage: 'cert-reject <clientid> <reason>',
    description: '驳回账户的待审核资质认证，并写明原因（用户可见）',
    async run({ db, out, now }, [clientid, ...reasonWords]) {
      const reason = reasonWords.join(' ').trim();
      if (!clientid || !reason) throw new UsageError('缺少账户或驳回原因');
      if (reason.length > 200) throw new CommandError('驳回原因不能超过200个字符');
      try {
        const r = await reviewCertification(db, clientid, { approve: false, reason }, now());
        out(`已驳回 ${clientid}（${r.name}）的资质认证，原因：${reason}`);
      } catch (e) {
        if (e instanceof ReviewError) throw new CommandError(e.message);
        throw e;
      }
    },
  },
);
