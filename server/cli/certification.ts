/** Certification review: list submissions, approve, reject with a reason. */
import { formatDateTime } from '../lib/time';
import { reviewCertification, ReviewError } from '../modules/account';
import { CommandError, defineCommands, enumLabel, table, UsageError } from './registry';
import { AuthStatus, OauthStatus } from '../../common/generated/schemas';

export const certificationCommands = defineCommands(
  {
    name: 'cert-list',
    usage: 'cert-list [pending]',
    description: '列出资质认证提交（pending：只列待审核的）',
    async run({ db, out, schemas }, args) {
      const pendingOnly = args[0] === 'pending';
      if (args[0] && !pendingOnly) throw new UsageError(`未知参数 ${args[0]}`);
      let q = db
        .selectFrom('certifications as c')
        .innerJoin('accounts as a', 'a.id', 'c.account_id')
        .select([
          'a.clientid',
          'a.user_type',
          'c.cert_type',
          'c.id_type',
          'c.company',
          'c.id_nbr',
          'c.img_url',
          'c.state',
          'c.remark',
          'c.submitted_at',
          'c.reviewed_at',
        ])
        .orderBy('c.id', 'desc');
      if (pendingOnly)
        q = q.where('c.state', '=', AuthStatus.Pending).where('a.oauth_status', '=', OauthStatus.Pending);
      const rows = await q.execute();
      out(
        table([
          [
            '账户',
            '类型',
            '认证类型',
            '证件类型',
            '公司/姓名',
            '证件号码',
            '图片',
            '状态',
            '提交时间',
            '审核时间',
            '驳回原因',
          ],
          ...rows.map((r) => [
            r.clientid,
            enumLabel(schemas, 'user-type', r.user_type),
            enumLabel(schemas, 'cert-type', r.cert_type),
            enumLabel(schemas, 'id-type', r.id_type),
            r.company,
            r.id_nbr,
            String(r.img_url.split('|').length),
            enumLabel(schemas, 'oauth-status', r.state),
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
