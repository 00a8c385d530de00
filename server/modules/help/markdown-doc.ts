/**
 * Documents the platform brings as Markdown in the repository (docs/user-guide.md: 用户使用手册),
 * downloaded like the generated ones: one self-contained HTML page (DOC_STYLE, no script, served
 * with DOC_CSP), rendered with `marked` (GitHub-flavoured Markdown). The Markdown is the
 * platform's own file, not a user's: its HTML is taken as it is.
 */
import { marked } from 'marked';
import { DOC_STYLE, esc } from './html';

export function renderMarkdownDoc(markdown: string, meta: { title: string; generatedAt: string }): string {
  const body = marked.parse(markdown, { async: false, gfm: true });
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>${esc(meta.title)}</title>
<style>
${DOC_STYLE}
li{margin:4px 0}
</style></head><body>
${body}
<p class="note">${esc(meta.title)} · 下载于 ${esc(meta.generatedAt)}</p>
</body></html>
`;
}
