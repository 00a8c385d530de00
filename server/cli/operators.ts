/**
 * Operators (issue 39, docs/api-operator.md): `operator-add <name> <password> <role> [--totp|--no-totp]`
 * adds one (role 1 审核员, 2 运营, 3 管理员, by number or title; the TOTP second factor is on for a
 * 管理员 unless --no-totp, off for the others unless --totp: its secret and otpauth:// URI are
 * printed once, for the operator's authenticator app); `operators` lists them.
 */
import { ApiError } from '../http/errors';
import { OperatorService } from '../modules/operator';
import { CommandError, defineCommands, enumLabel, table, UsageError } from './registry';
import roleEnum from '../../schemas/enums/operator-role.json';

function roleOf(v: string | undefined): number {
  const hit = roleEnum.oneOf.find(
    (o) => String(o.const) === v || o.title === v || o['x-name'].toLowerCase() === String(v).toLowerCase(),
  );
  if (!hit) throw new UsageError(`角色须为 ${roleEnum.oneOf.map((o) => `${o.const} ${o.title}`).join('、')}`);
  return hit.const;
}

export const operatorCommands = defineCommands(
  {
    name: 'operator-add',
    usage: 'operator-add <name> <password> <role 1|2|3> [--totp|--no-totp]',
    description: '新增运营人员（角色 1 审核员、2 运营、3 管理员；管理员默认开启动态验证码）',
    async run({ db, out, now, config }, args) {
      const flags = args.filter((a) => a.startsWith('--'));
      const [name, password, role, ...rest] = args.filter((a) => !a.startsWith('--'));
      if (!name || !password || !role || rest.length) throw new UsageError('缺少登录名、密码或角色');
      const unknown = flags.find((f) => f !== '--totp' && f !== '--no-totp');
      if (unknown) throw new UsageError(`未知选项: ${unknown}`);
      const totp = flags.includes('--totp') ? true : flags.includes('--no-totp') ? false : undefined;
      try {
        const r = await new OperatorService({ db, now, config }).add(
          { name, password, role: roleOf(role), totp },
          null,
        );
        out(`已新增运营人员 ${r.operator.name}（${roleEnum.oneOf.find((o) => o.const === r.operator.role)?.title}）`);
        if (r.totp) {
          out(`动态验证码密钥（只显示这一次，请添加到身份验证器）：${r.totp.secret}`);
          out(r.totp.uri);
        }
      } catch (e) {
        if (e instanceof ApiError) throw new CommandError(e.message);
        throw e;
      }
    },
  },
  {
    name: 'operators',
    usage: 'operators',
    description: '列出运营人员',
    async run({ db, out, now, config, schemas }) {
      const list = await new OperatorService({ db, now, config }).list();
      out(
        table([
          ['编号', '登录名', '角色', '状态', '动态验证码', '创建时间', '最近登录'],
          ...list.map((o) => [
            String(o.id),
            o.name,
            enumLabel(schemas, 'operator-role', o.role),
            enumLabel(schemas, 'operator-status', o.status),
            o.totpEnabled ? '开启' : '-',
            o.createdAt ?? '',
            o.lastLoginAt || '-',
          ]),
        ]).join('\n'),
      );
      out(`共 ${list.length} 名运营人员`);
    },
  },
);
