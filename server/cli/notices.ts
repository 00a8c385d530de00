/**
 * Notice commands: publish (content from an HTML file or stdin, sanitized), list, delete.
 *
 *   npm run cli -- notice-publish "春节放假通知" notice.html --top
 *   echo '<p>…</p>' | npm run cli -- notice-publish "春节放假通知" -
 *
 * The file (or stdin) is read where the CLI runs (`prepare`), so publishing works the same
 * when the command is handed to a running server.
 */
import fs from 'node:fs';
import { formatDateTime } from '../lib/time';
import { noticeText } from '../modules/notice/sanitize';
import { publishNotice } from '../modules/notice/service';
import { CommandError, defineCommands, table, UsageError } from './registry';

/** argument that carries the HTML itself once `prepare` has read the file */
const INLINE = '--html=';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(typeof c === 'string' ? Buffer.from(c) : c);
  return Buffer.concat(chunks).toString('utf8');
}

function readSource(src: string): string {
  try {
    return fs.readFileSync(src, 'utf8');
  } catch (e) {
    throw new CommandError(`无法读取文件 ${src}: ${(e as Error).message}`);
  }
}

export const noticeCommands = defineCommands(
  {
    name: 'notice-publish',
    usage: 'notice-publish <标题> <file.html|-> [--top]',
    description: '发布公告（内容为 HTML 文件或标准输入，保存前净化）',
    async prepare(args) {
      const top = args.includes('--top');
      const [title, src, ...rest] = args.filter((a) => a !== '--top');
      if (src === undefined || src.startsWith(INLINE)) return args;
      const html = src === '-' ? await readStdin() : readSource(src);
      return [title, `${INLINE}${html}`, ...rest, ...(top ? ['--top'] : [])];
    },
    async run({ db, out, now }, args) {
      const top = args.includes('--top');
      const [title, src] = args.filter((a) => a !== '--top');
      if (!title || !src) throw new UsageError('缺少标题或内容文件');
      const html = src.startsWith(INLINE) ? src.slice(INLINE.length) : src === '-' ? '' : readSource(src);
      try {
        const r = await publishNotice(db, { name: title, html, top }, now());
        out(`已发布公告 ${r.id}：${r.notice_name}${r.is_top ? '（置顶）' : ''}，${formatDateTime(r.release_time)}`);
      } catch (e) {
        throw new CommandError((e as Error).message);
      }
    },
  },
  {
    name: 'notices',
    usage: 'notices',
    description: '列出公告（置顶在前，最新在前）',
    async run({ db, out }) {
      const rows = await db
        .selectFrom('notices')
        .select(['id', 'notice_name', 'notice_content', 'is_top', 'release_time'])
        .orderBy('is_top', 'desc')
        .orderBy('release_time', 'desc')
        .orderBy('id', 'desc')
        .execute();
      const cut = (s: string, n: number) => ([...s].length > n ? `${[...s].slice(0, n).join('')}…` : s);
      out(
        table([
          ['编号', '置顶', '发布时间', '标题', '内容'],
          ...rows.map((r) => [
            String(r.id),
            r.is_top ? '是' : '否',
            formatDateTime(r.release_time),
            r.notice_name,
            cut(noticeText(r.notice_content), 30),
          ]),
        ]).join('\n'),
      );
      out(`共 ${rows.length} 条`);
    },
  },
  {
    name: 'notice-delete',
    usage: 'notice-delete <编号>',
    description: '删除公告',
    async run({ db, out }, args) {
      const id = Number(args[0]);
      if (!args[0] || !Number.isInteger(id) || id <= 0 || id > 2_147_483_647) throw new UsageError('请给出公告编号');
      const r = await db.deleteFrom('notices').where('id', '=', id).returning(['id', 'notice_name']).executeTakeFirst();
      if (!r) throw new CommandError('公告不存在');
      out(`已删除公告 ${r.id}：${r.notice_name}`);
    },
  },
);
