/** Account commands: list, unlock, reset a password. */
import { sql } from 'kysely';
import { hashPassword } from '../lib/crypto';
import { liftLoginLocks } from '../modules/auth';
import { storePassword } from '../modules/password/store';
import { formatDateTime } from '../lib/time';
import { effectiveStatus } from '../modules/profile/service';
import { CommandError, defineCommands, enumLabel, table, UsageError } from './registry';

export const accountCommands = defineCommands(
  {
    name: 'accounts',
    usage: 'accounts [search]',
    description: '列出账户（可按账户、名称、邮箱、手机号筛选）',
    async run({ db, out, now, schemas }, args) {
      let q = db
        .selectFrom('accounts as a')
        .leftJoin('accounts as p', 'p.id', 'a.agent_id')
        .select([
          'a.clientid',
          'a.user_type',
          'a.operation_mode',
          'a.name',
          'a.email',
          'a.mobile',
          'a.status',
          'a.locked_until',
          'a.oauth_status',
          'a.create_time',
          'p.clientid as agent',
        ])
        .orderBy('a.id');
      const term = args[0];
      if (term) {
        const like = `%${term.toLowerCase()}%`;
        q = q.where((eb) =>
          eb.or([
            eb(sql`lower(a.clientid)`, 'like', like),
            eb(sql`lower(a.name)`, 'like', like),
            eb(sql`lower(a.email)`, 'like', like),
            eb('a.mobile', 'like', like),
          ]),
        );
      }
      const rows = await q.execute();
      const t = now();
      out(
        table([
          ['账户', '类型', '模式', '所属代理商', '名称', '邮箱', '手机号', '状态', '认证', '创建时间'],
          ...rows.map((r) => [
            r.clientid,
            enumLabel(schemas, 'user-type', r.user_type),
            r.operation_mode,
            r.agent ?? '-',
            r.name,
            r.email,
            r.mobile,
            enumLabel(schemas, 'account-status', effectiveStatus(r, t)),
            enumLabel(schemas, 'oauth-status', r.oauth_status),
            formatDateTime(r.create_time),
          ]),
        ]).join('\n'),
      );
      out(`共 ${rows.length} 个账户`);
    },
  },
  {
    name: 'unlock',
    usage: 'unlock <clientid>',
    description: '解除登录失败造成的锁定（该账户各登录名在所有地址上的锁定）',
    async run({ db, out, schemas }, [clientid]) {
      if (!clientid) throw new UsageError('缺少账户');
      const a = await db
        .selectFrom('accounts')
        .select(['id', 'clientid', 'email', 'mobile'])
        .where('clientid', '=', clientid)
        .executeTakeFirst();
      if (!a) throw new CommandError(`账户 ${clientid} 不存在`);
      // the same as the operators' 解除登录锁定: every name's per-address locks and a lock of status 7
      const r = { clientid: a.clientid, ...(await liftLoginLocks(db, a)) };
      out(`已解锁 ${r.clientid}（状态：${enumLabel(schemas, 'account-status', r.status)}）`);
    },
  },
  {
    name: 'reset-password',
    usage: 'reset-password <clientid> <password>',
    description: '设置新密码（8-16位字母和数字），并结束该账户的所有登录会话',
    async run({ db, out, now }, [clientid, password]) {
      if (!clientid || !password) throw new UsageError('缺少账户或密码');
      if (!/^[A-Za-z0-9]{8,16}$/.test(password) || /^[0-9]+$/.test(password) || /^[A-Za-z]+$/.test(password)) {
        throw new CommandError('密码须为8-16位字母和数字的组合');
      }
      const hash = await hashPassword(password);
      await db.transaction().execute(async (tx) => {
        if (!(await storePassword(tx, { clientid }, hash, now()))) throw new CommandError(`账户 ${clientid} 不存在`);
      });
      out(`已重置 ${clientid} 的密码，原有登录已失效`);
    },
  },
);
