/**
 * Notices (公告): the operator publishes them (CLI), every logged-in account reads them.
 * Content is stored sanitized (./sanitize.ts); a notice whose release time is still ahead is
 * not shown yet.
 */
import { escapeLike } from '../../db/filters';
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import type { Db } from '../../db';
import { errors } from '../../http/errors';
import { dataPage, type Paging } from '../../http/paging';
import { formatDateTime } from '../../lib/time';
import { noticeText, sanitizeNoticeHtml } from './sanitize';
import type { Notice, YesNo } from '../../../common/generated/schemas';
import { MESSAGES } from '../../../common/schema/messages';

/** schemas/entities/notice.json, every property present */
export type NoticeRow = Required<Notice>;

export const NOTICE_NOT_FOUND = MESSAGES.noticeNotFound;
export const HOME_NOTICE_COUNT = 10;
export const NOTICE_NAME_MAX = 100;

function toRow(r: {
  id: number;
  notice_name: string;
  notice_content: string;
  is_top: YesNo;
  release_time: Date;
}): NoticeRow {
  const t = formatDateTime(r.release_time);
  return {
    id: r.id,
    noticeName: r.notice_name,
    noticeContent: r.notice_content,
    isTop: r.is_top,
    releaseTime: t,
    releaseTimeToStr: t,
  };
}

export interface PublishNotice {
  name: string;
  html: string;
  top?: boolean;
  releaseTime?: Date;
}

/** Inserts one notice, content sanitized. Shared by the CLI and the seed. */
export async function publishNotice(db: Db, n: PublishNotice, now = new Date()) {
  const name = n.name.trim();
  if (!name) throw new Error('公告标题不能为空');
  if ([...name].length > NOTICE_NAME_MAX) throw new Error(`公告标题不能超过${NOTICE_NAME_MAX}个字符`);
  const content = sanitizeNoticeHtml(n.html);
  if (!noticeText(content) && !/<img\b/i.test(content)) throw new Error('公告内容不能为空');
  return db
    .insertInto('notices')
    .values({
      notice_name: name,
      notice_content: content,
      is_top: n.top ? 1 : 0,
      release_time: n.releaseTime ?? now,
      create_time: now,
    })
    .returning(['id', 'notice_name', 'notice_content', 'is_top', 'release_time'])
    .executeTakeFirstOrThrow();
}

export class NoticeService {
  constructor(private readonly ctx: AppContext) {}

  private visible() {
    return this.ctx.db.selectFrom('notices').where('release_time', '<=', this.ctx.now());
  }

  /** POST /agent/noticePage: top notices first, then newest; `searchContent` matches the title or the text. */
  async page(searchContent: string, paging: Paging) {
    let q = this.visible();
    const term = searchContent.trim();
    if (term) {
      const like = `%${escapeLike(term.toLowerCase())}%`;
      q = q.where((eb) =>
        eb.or([
          eb(sql`lower(notice_name)`, 'like', like),
          eb(sql`lower(regexp_replace(notice_content, '<[^>]*>', '', 'g'))`, 'like', like),
        ]),
      );
    }
    const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await q
      .select(['id', 'notice_name', 'notice_content', 'is_top', 'release_time'])
      .orderBy('is_top', 'desc')
      .orderBy('release_time', 'desc')
      .orderBy('id', 'desc')
      .limit(paging.size)
      .offset(paging.offset)
      .execute();
    return dataPage(rows.map(toRow), Number(n), paging);
  }

  /** GET /agent/notice: the newest notices for the home view. */
  async latest(limit = HOME_NOTICE_COUNT): Promise<NoticeRow[]> {
    const rows = await this.visible()
      .select(['id', 'notice_name', 'notice_content', 'is_top', 'release_time'])
      .orderBy('release_time', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toRow);
  }

  /** GET /agent/notice/detail */
  async detail(noticeId: unknown): Promise<NoticeRow> {
    const id = Number(noticeId);
    if (!Number.isInteger(id) || id <= 0 || id > 2_147_483_647) throw errors.notFound('公告');
    const row = await this.visible()
      .select(['id', 'notice_name', 'notice_content', 'is_top', 'release_time'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw errors.notFound('公告');
    return toRow(row);
  }
}
