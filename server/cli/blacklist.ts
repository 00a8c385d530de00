/**
 * The platform's blacklist (docs/api-blacklist.md): numbers no account's marketing SMS goes to.
 * `blacklist [号码前缀]`, `blacklist-add <号码,...> [备注]`, `blacklist-remove <号码,...>`.
 */
import { formatDateTime } from '../lib/time';
import { platformAdd, platformList, platformRemove } from '../modules/blacklist';
import { defineCommands, table, UsageError } from './registry';

export const blacklistCommands = defineCommands(
  {
    name: 'blacklist',
    usage: 'blacklist [号码前缀]',
    description: '列出平台黑名单（最近 200 个；营销短信不发送到这些号码）',
    async run({ db, out }, [prefix]) {
      const rows = await platformList(db, prefix ?? '');
      out(
        table([
          ['编号', '号码', '备注', '添加人', '加入时间'],
          ...rows.map((r) => [String(r.id), r.phone, r.remark, r.created_by, formatDateTime(r.created_at)]),
        ]).join('\n'),
      );
      out(`共 ${rows.length} 个号码`);
    },
  },
  {
    name: 'blacklist-add',
    usage: 'blacklist-add <号码,号码,...> [备注]',
    description: '把号码加入平台黑名单（所有账户的营销短信都不再发送）',
    async run({ db, out, now }, [phones, ...remark]) {
      if (!phones) throw new UsageError('缺少号码');
      const r = await platformAdd(db, now(), phones, remark.join(' ').trim());
      out(`平台黑名单：新增 ${r.added} 个，已存在 ${r.existing} 个，无效 ${r.invalid} 个`);
    },
  },
  {
    name: 'blacklist-remove',
    usage: 'blacklist-remove <号码,号码,...>',
    description: '把号码移出平台黑名单',
    async run({ db, out }, [phones]) {
      if (!phones) throw new UsageError('缺少号码');
      const r = await platformRemove(db, phones);
      out(`已移出平台黑名单 ${r.removed} 个号码`);
    },
  },
);
