/**
 * 内容: the sensitive words (issue 39, docs/api-operator.md "Content"). Operators (运营, 管理员) add
 * words in the console (one a line; a file's text imported the same way), remove them and test a
 * text against the whole list. The words live in `sensitive_words`, beside SENSITIVE_WORDS_FILE's,
 * and every process reloads them within seconds (content/words-sync.ts); this process at once.
 */
import { pageOf } from '../../db/page';
import type { AppContext } from '../../context';
import { ApiError, errors } from '../../http/errors';
import { listPage, pagingOf } from '../../http/paging';
import type { CurrentPaging } from '../../http/contract';
import { whereFrom } from '../../db/filters';
import { formatDateTime } from '../../lib/time';
import type { SensitiveWord, SensitiveWordFilter } from '../../../common/generated/schemas';
import { parseWordList, syncWords } from '../content';
import { audit, type Actor } from './audit';
import { MESSAGES } from '../../../common/schema/messages';

/** the most words one add takes */
export const WORDS_ADD_MAX = 10_000;
/** a word's longest (characters) */
const WORD_MAX = 50;

export const WORD_MESSAGES = {
  added: (n: number, known: number) => `已添加 ${n} 个${known ? `，${known} 个已存在` : ''}`,
  none: '没有可添加的敏感词',
  tooMany: `一次至多添加 ${WORDS_ADD_MAX} 个`,
  tooLong: `敏感词不能超过${WORD_MAX}个字符`,
  removed: MESSAGES.deleted,
} as const;

export class WordService {
  constructor(private readonly ctx: AppContext) {}

  async list(f: SensitiveWordFilter & CurrentPaging) {
    const paging = pagingOf(f);
    const base = whereFrom(this.ctx.db.selectFrom('sensitive_words as w'), this.ctx, 'filters/sensitive-word', f);
    const { rows, total } = await pageOf(
      base,
      (q) => q.select(['w.id', 'w.word', 'w.created_by', 'w.created_at']).orderBy('w.id', 'desc'),
      paging,
    );
    const list: SensitiveWord[] = rows.map((r) => ({
      id: r.id,
      word: r.word,
      createdBy: r.created_by,
      createdAt: formatDateTime(r.created_at),
    }));
    return { ...listPage(list, total, paging), fileCount: this.ctx.words.count - Number((await this.count()).n) };
  }

  private count() {
    return this.ctx.db
      .selectFrom('sensitive_words')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
  }

  /** Adds the words of a text (one a line, `#` comments): those new to the list (the file's or the table's). */
  async add(who: Actor, text: string): Promise<string> {
    const lines = text
      .split(/\r?\n/)
      .map((l) => l.replace(/#.*$/, '').trim())
      .filter(Boolean);
    if (lines.length > WORDS_ADD_MAX) throw new ApiError(400, WORD_MESSAGES.tooMany);
    if (lines.some((l) => [...l].length > WORD_MAX)) throw new ApiError(400, WORD_MESSAGES.tooLong);
    // a line that normalises to nothing (only spaces, punctuation) matches nothing: left out
    const words = [...new Set(lines.filter((l) => parseWordList(l).length > 0))];
    if (!words.length) throw new ApiError(400, WORD_MESSAGES.none);
    const fresh = words.filter((w) => !this.ctx.words.inFile(w));
    const now = this.ctx.now();
    const added = await this.ctx.db.transaction().execute(async (trx) => {
      const rows = fresh.length
        ? await trx
            .insertInto('sensitive_words')
            .values(fresh.map((word) => ({ word, created_by: who.name, created_at: now })))
            .onConflict((oc) => oc.column('word').doNothing())
            .returning('word')
            .execute()
        : [];
      if (rows.length)
        await audit(trx, who, {
          action: 'words.add',
          target: 'sensitive_words',
          targetId: '',
          after: { count: rows.length, words: rows.slice(0, 100).map((r) => r.word) },
          at: now,
        });
      return rows.length;
    });
    await syncWords(this.ctx, true);
    return WORD_MESSAGES.added(added, words.length - added);
  }

  async remove(who: Actor, id: number): Promise<string> {
    const now = this.ctx.now();
    await this.ctx.db.transaction().execute(async (trx) => {
      const r = await trx
        .deleteFrom('sensitive_words')
        .where('id', '=', id)
        .returning(['id', 'word'])
        .executeTakeFirst();
      if (!r) throw errors.notFound('敏感词');
      await audit(trx, who, {
        action: 'words.remove',
        target: 'sensitive_words',
        targetId: r.id,
        before: { word: r.word },
        at: now,
      });
    });
    await syncWords(this.ctx, true);
    return WORD_MESSAGES.removed;
  }
}
