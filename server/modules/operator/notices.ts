/**
 * 内容: the platform's notices (issue 39, docs/api-operator.md "Content"), what `npm run cli --
 * notice-publish / notices / notice-delete` do: the list, publishing (the HTML cleaned by the
 * notices' own allow-list, publishNotice) and deleting, each audited. Agents and sub-accounts read
 * them on their home page and 公告 list as before.
 */
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import { ApiError, errors } from '../../http/errors';
import { listPage, pagingOf } from '../../http/paging';
import type { CurrentPaging } from '../../http/contract';
import { formatDateTime } from '../../lib/time';
import type { NoticePublishForm, OperatorNotice } from '../../../common/generated/schemas';
import { noticeText, publishNotice } from '../notice';
import { audit, type Actor } from './audit';
import { MESSAGES } from '../../../common/schema/messages';
import { messageOf } from '../../lib/error-code';

export const NOTICE_MESSAGES = { published: '发布成功', deleted: MESSAGES.deleted } as const;

const excerpt = (html: string) => {
  const t = noticeText(html);
  return [...t].length > 60 ? `${[...t].slice(0, 60).join('')}…` : t;
};

export class OperatorNoticeService {
  constructor(private readonly ctx: AppContext) {}

  async list(f: CurrentPaging) {
    const paging = pagingOf(f);
    const [rows, n] = await Promise.all([
      this.ctx.db
        .selectFrom('notices')
        .select(['id', 'notice_name', 'notice_content', 'is_top', 'release_time'])
        .orderBy('is_top', 'desc')
        .orderBy('release_time', 'desc')
        .orderBy('id', 'desc')
        .limit(paging.size)
        .offset(paging.offset)
        .execute(),
      this.ctx.db
        .selectFrom('notices')
        .select(sql<string>`count(*)`.as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    const list: OperatorNotice[] = rows.map((r) => ({
      id: r.id,
      name: r.notice_name,
      top: r.is_top === 1,
      releaseTime: formatDateTime(r.release_time),
      excerpt: excerpt(r.notice_content),
    }));
    return listPage(list, Number(n.n), paging);
  }

  async publish(who: Actor, f: NoticePublishForm): Promise<string> {
    const now = this.ctx.now();
    await this.ctx.db.transaction().execute(async (trx) => {
      let r;
      try {
        r = await publishNotice(trx, { name: f.name, html: f.html, top: f.top === true }, now);
      } catch (e) {
        // publishNotice's own refusals (empty after cleaning, a title too long)
        throw new ApiError(400, messageOf(e));
      }
      await audit(trx, who, {
        action: 'notice.publish',
        target: 'notices',
        targetId: r.id,
        after: { name: r.notice_name, top: r.is_top === 1 },
        at: now,
      });
    });
    return NOTICE_MESSAGES.published;
  }

  async remove(who: Actor, id: number): Promise<string> {
    const now = this.ctx.now();
    await this.ctx.db.transaction().execute(async (trx) => {
      const r = await trx
        .deleteFrom('notices')
        .where('id', '=', id)
        .returning(['id', 'notice_name'])
        .executeTakeFirst();
      if (!r) throw errors.notFound('公告');
      await audit(trx, who, {
        action: 'notice.delete',
        target: 'notices',
        targetId: r.id,
        before: { name: r.notice_name },
        at: now,
      });
    });
    return NOTICE_MESSAGES.deleted;
  }
}
