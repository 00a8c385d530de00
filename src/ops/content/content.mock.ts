/** Story data and MSW handlers of the 内容 screens (stories only; the app never imports this). */
import type { HttpHandler } from 'msw';
import type { OperatorNotice, SensitiveWord } from '@/generated/schemas';
import { listPageOf, ok, type Calls } from '@/stories/mockApi';
import { answering, refusedOr, type Refusal } from '@/stories/pageRows';

export const wordRows: SensitiveWord[] = [
  { id: 14, word: '代开发票', createdBy: 'operator1', createdAt: '2026-11-24 10:12:40' },
  { id: 13, word: '刷单返利', createdBy: 'operator1', createdAt: '2026-11-24 10:12:40' },
  { id: 12, word: '高额兼职', createdBy: 'chief.admin', createdAt: '2026-11-20 16:45:02' },
  { id: 9, word: '私彩', createdBy: 'chief.admin', createdAt: '2026-11-02 09:03:17' },
];

export const FILE_COUNT = 1203;

export const noticeRows: OperatorNotice[] = [
  {
    id: 21,
    name: '关于元旦期间短信发送的通知',
    top: true,
    releaseTime: '2026-12-01 09:00:00',
    excerpt: '元旦期间（1月1日至1月3日）营销短信仅在 9:00-20:00 发送，验证码与通知类短信不受影响。',
  },
  {
    id: 18,
    name: '平台系统升级维护公告',
    top: false,
    releaseTime: '2026-11-20 18:30:00',
    excerpt: '平台将于11月22日 00:00-02:00 进行系统升级，期间控制台暂停访问，接口发送不受影响。',
  },
];

/** what a text hits: the UTF-16 ranges of the story words in it ({"200":"ok"} when none), as the server answers */
function testAnswer(text: string, words: string[]) {
  const out: Record<string, string> = {};
  let n = 500;
  for (const w of words)
    for (let i = text.indexOf(w); i >= 0; i = text.indexOf(w, i + w.length)) out[String(n++)] = `${i},${i + w.length}`;
  return n === 500 ? { '200': 'ok' } : out;
}

export interface ContentApiOptions {
  words?: SensitiveWord[];
  notices?: OperatorNotice[];
  /** the add / publish / delete calls' refusal */
  refuse?: Refusal;
  /** the request bodies by call ('words/list', 'words/add', …) */
  calls?: Calls;
}

export function contentApi(o: ContentApiOptions = {}): HttpHandler[] {
  const words = o.words ?? wordRows;
  const notices = o.notices ?? noticeRows;
  const { post } = answering(o.calls);
  const listed = (name: string, answer: (f: Record<string, any>) => unknown) =>
    post(`/operator/${name}/list`, `${name}/list`, answer);
  const action = (path: string, answer: (b: Record<string, any>) => string) =>
    post(`/operator/${path}`, path, (b) => refusedOr(o.refuse, () => ok(null, answer(b))));
  return [
    listed('words', (f) => ({
      ...listPageOf(f.word ? words.filter((w) => w.word.includes(String(f.word))) : words, f),
      fileCount: FILE_COUNT,
    })),
    action('words/add', (b) => {
      const lines = String(b.words)
        .split('\n')
        .map((l) => l.replace(/#.*$/, '').trim())
        .filter(Boolean);
      const known = lines.filter((l) => words.some((w) => w.word === l)).length;
      return `已添加 ${lines.length - known} 个${known ? `，${known} 个已存在` : ''}`;
    }),
    action('words/remove', () => '删除成功'),
    post('/operator/words/test', 'words/test', (b) => {
      const answer = testAnswer(b.content, [...words.map((w) => w.word), '赌博']);
      return ok(answer, '200' in answer ? '未检测到敏感词' : '检测到敏感内容');
    }),
    listed('notices', (f) => listPageOf(notices, f)),
    action('notices/publish', () => '发布成功'),
    action('notices/delete', () => '删除成功'),
  ];
}
