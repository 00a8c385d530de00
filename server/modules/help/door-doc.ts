/**
 * The interface documents of the customer doors (issue 36: `cmppdoc`, `smppdoc`; issue 38 adds
 * `smgpdoc`, `sgipdoc`), generated like the HTTP API document: a door module describes what its
 * door does (`DoorDescription`, written from the door's own constants and options, beside the door
 * code: server/modules/smpp-server/smpp-doc.ts, cmpp-doc.ts) and registers a `DoorDocSource` with
 * the help documents (`HelpDocs.addDoor`); this file renders a description as one self-contained
 * HTML page, filled in for the account that downloads it (its login, the door's host and port).
 *
 * Every door describes the same topics (`DOOR_TOPICS`), so a new protocol's document reads like
 * the others. Status and result codes are given as `CodeEntry` rows whose `code` is the door's own
 * constant: the table shows the number the door really answers with, one row per code (the cases
 * that answer the same code joined).
 */
import type { Account } from '../../db/types';
import { DOC_STYLE, esc } from './html';

/** the topics of every door's document, in this order, with their headings */
export const DOOR_TOPICS = {
  connect: '连接与会话',
  login: '登录认证',
  commands: '支持的命令',
  submit: '提交短信',
  results: '提交应答码',
  coding: '编码与长短信',
  reports: '状态报告',
  uplinks: '上行短信',
  flow: '流量控制与窗口',
} as const;
export type DoorTopic = keyof typeof DOOR_TOPICS;

/** a plain table; cells are text (`backticks` show as code) */
export interface DocTable {
  head: string[];
  rows: (string | number)[][];
}

/** one case answered with a status / result code: `code` is the door's constant */
export interface CodeEntry {
  code: number;
  /** the protocol's name of the code (ESME_RTHROTTLED …), when it has one */
  name?: string;
  /** when the door answers it */
  when: string;
}

export interface CodeTable {
  /** how the protocol writes its codes: SMPP in hex (0x00000058), CMPP in decimal */
  format: 'hex' | 'decimal';
  /** the column heading of the code (命令状态 command_status, Status, Result …) */
  label: string;
  entries: CodeEntry[];
}

export interface DoorSection {
  paragraphs?: string[];
  table?: DocTable;
  codes?: CodeTable;
  /** paragraphs after the tables */
  notes?: string[];
}

export interface DoorExample {
  title: string;
  paragraphs?: string[];
  /** the packet's fields (字段, 值, 说明) */
  fields?: DocTable;
  /** the packet as the codec writes it */
  hex?: Buffer;
  /** a text (a receipt's text, a computation) shown as it is, before the packet */
  text?: string;
}

/** One door, described for one account (the door module writes it from its constants and options). */
export interface DoorDescription {
  /** 'SMPP 3.4', 'CMPP 2.0 / 3.0' */
  protocol: string;
  intro: string[];
  /** the account's own settings for this door (项目, 值, 说明) */
  account: DocTable;
  /** what keeps the account from connecting now (no interface password, a test account …) */
  warnings: string[];
  sections: Record<DoorTopic, DoorSection>;
  examples: DoorExample[];
}

/** what a door's description is made for: the account that downloads it and the host it reached the platform at */
export interface DoorDocRequest {
  account: Account;
  /** the host name customers reach this platform at (PAY_PUBLIC_URL's, else the request's) */
  host: string;
  now: Date;
}

/** A door's document as the help module sees it (registered by the door module: HelpDocs.addDoor). */
export interface DoorDocSource {
  /** the document's key (systemInfoShow, HELP_DOCS): 'smpp', 'cmpp' */
  key: string;
  /** the door listens in this process (its port configured and open) */
  available(): boolean;
  describe(req: DoorDocRequest): DoorDescription | Promise<DoorDescription>;
}

/** `text` escaped, with `backticks` as code */
function inline(text: string | number): string {
  return esc(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

const paras = (list: string[] | undefined) => (list ?? []).map((p) => `<p>${inline(p)}</p>`).join('\n');

function table(t: DocTable): string {
  return `<table><thead><tr>${t.head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${t.rows
    .map((r) => `<tr>${r.map((c) => `<td>${inline(c)}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

/** a code as the protocol writes it */
export function codeText(code: number, format: CodeTable['format']): string {
  return format === 'hex' ? `0x${(code >>> 0).toString(16).toUpperCase().padStart(8, '0')}` : String(code);
}

/** one row per code (ascending), the cases that answer it joined */
export function codeRows(t: CodeTable): { code: number; name: string; when: string[] }[] {
  const by = new Map<number, { code: number; name: string; when: string[] }>();
  for (const e of t.entries) {
    const row = by.get(e.code) ?? { code: e.code, name: '', when: [] };
    if (e.name && !row.name) row.name = e.name;
    if (!row.when.includes(e.when)) row.when.push(e.when);
    by.set(e.code, row);
  }
  return [...by.values()].sort((a, b) => a.code - b.code);
}

function codeTable(t: CodeTable): string {
  const rows = codeRows(t);
  const named = rows.some((r) => r.name);
  return `<table><thead><tr><th>${esc(t.label)}</th>${named ? '<th>名称</th>' : ''}<th>含义</th></tr></thead><tbody>${rows
    .map(
      (r) =>
        `<tr><td><code>${codeText(r.code, t.format)}</code></td>${named ? `<td>${esc(r.name)}</td>` : ''}<td>${
          r.when.length > 1 ? `<ul>${r.when.map((w) => `<li>${inline(w)}</li>`).join('')}</ul>` : inline(r.when[0])
        }</td></tr>`,
    )
    .join('')}</tbody></table>`;
}

/** octets as lines of 16, with their offset */
export function hexDump(b: Buffer): string {
  const lines: string[] = [];
  for (let o = 0; o < b.length; o += 16) {
    const hex = [...b.subarray(o, o + 16)].map((x) => x.toString(16).padStart(2, '0')).join(' ');
    lines.push(`${o.toString(16).padStart(4, '0')}  ${hex}`);
  }
  return lines.join('\n');
}

export interface DoorDocMeta {
  platformName: string;
  generatedAt: string;
}

/** The interface document of a door: a self-contained HTML page (no script, inline style only). */
export function renderDoorHtml(d: DoorDescription, meta: DoorDocMeta): string {
  const title = `${meta.platformName}短信平台 ${d.protocol} 接口文档`;
  const topics = Object.entries(DOOR_TOPICS) as [DoorTopic, string][];
  const sections = topics.map(([key, heading], i) => {
    const s = d.sections[key];
    return `<h2 id="${key}">${i + 1}. ${esc(heading)}</h2>
${paras(s.paragraphs)}${s.table ? table(s.table) : ''}${s.codes ? codeTable(s.codes) : ''}${paras(s.notes)}`;
  });
  const examples = d.examples.map(
    (x) => `<h3>${esc(x.title)}</h3>
${paras(x.paragraphs)}${x.fields ? table(x.fields) : ''}${x.text ? `<pre>${esc(x.text)}</pre>` : ''}${x.hex ? `<p class="note">报文（十六进制，共 ${x.hex.length} 字节）：</p><pre>${hexDump(x.hex)}</pre>` : ''}`,
  );
  const toc = [
    ...topics.map(([key, heading], i) => `<li><a href="#${key}">${i + 1}. ${esc(heading)}</a></li>`),
    '<li><a href="#examples">示例</a></li>',
  ].join('');
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>
${DOC_STYLE}
pre{background:#f5f5f5;padding:8px 12px;border-radius:4px;overflow-x:auto;font-size:13px}
.warn{background:#fff7e6;border:1px solid #ffd591;padding:8px 12px;border-radius:4px}
td ul{margin:0;padding-left:18px}
table{margin:8px 0}
</style></head><body>
<h1>${esc(title)}</h1>
<p>生成于 ${esc(meta.generatedAt)} · 本文档由平台 ${esc(d.protocol)} 接口的程序描述生成（命令、状态码与参数取自接口程序本身），并已填入您的账户信息</p>
${paras(d.intro)}
${d.warnings.length ? `<div class="warn">${paras(d.warnings)}</div>` : ''}
<h2 id="account">您的接入参数</h2>
${table(d.account)}
<h2>目录</h2><ul>${toc}</ul>
${sections.join('\n')}
<h2 id="examples">示例</h2>
${examples.join('\n')}
</body></html>
`;
}
