/**
 * The archives of send-record months (RECORDS_ARCHIVE; server/modules/retention/archive.ts):
 * list them, and read one back into a table of its own to query it with SQL.
 */
import fs from 'node:fs';
import { listArchives, restoreArchive } from '../modules/retention/archive';
import { CommandError, defineCommands, table, UsageError } from './registry';

export const archiveCommands = defineCommands(
  {
    name: 'archives',
    usage: 'archives',
    description: '已归档的发送记录月份（保留期满后删除前写入的文件）',
    async run({ db, out }) {
      const rows = await listArchives(db);
      if (!rows.length) {
        out('暂无归档');
        return;
      }
      out(
        table([
          ['分区', '条数', '大小(MB)', '归档时间', '文件', 'SHA-256'],
          ...rows.map((r) => [
            r.partition,
            String(r.rows),
            (r.bytes / 1048576).toFixed(1),
            r.createdAt,
            r.fileExists ? r.file : `${r.file}（文件缺失或大小不符）`,
            r.sha256.slice(0, 16),
          ]),
        ]).join('\n'),
      );
    },
  },
  {
    name: 'archive-restore',
    usage: 'archive-restore <分区> [表名]',
    description: '把一个归档月份读回到单独的表（默认 restored_<分区>），供 SQL 查询',
    async run({ db, out }, [partition, name]) {
      if (!partition) throw new UsageError('缺少分区，例如 sms_messages_202605（见 archives）');
      const entry = await db
        .selectFrom('record_archives')
        .selectAll()
        .where('partition', '=', partition)
        .executeTakeFirst();
      if (!entry) throw new CommandError(`没有分区 ${partition} 的归档（见 archives）`);
      if (!fs.existsSync(entry.file)) throw new CommandError(`归档文件不存在：${entry.file}`);
      const target = name ?? `restored_${partition}`;
      try {
        const r = await restoreArchive(db, entry.file, target, { rows: Number(entry.rows), sha256: entry.sha256 });
        out(`已读回 ${r.rows} 条到表 ${r.table}`);
      } catch (e) {
        throw new CommandError(e instanceof Error ? e.message : String(e));
      }
    },
  },
);
