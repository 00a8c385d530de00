/**
 * What the generated help documents share: HTML escaping and the page's style (self-contained
 * pages: inline style only, no script, no external resource; served with a CSP that allows nothing else).
 */

export const esc = (s: unknown) =>
  String(s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** the style of every generated document */
export const DOC_STYLE = `body{font-family:-apple-system,"PingFang SC","Microsoft YaHei","Noto Sans CJK SC",sans-serif;max-width:1000px;margin:24px auto;padding:0 16px;color:#222;line-height:1.6}
h1{border-bottom:2px solid #1677ff;padding-bottom:8px}h2{margin-top:40px;border-bottom:1px solid #ddd}
table{border-collapse:collapse;width:100%;font-size:14px}th,td{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}th{background:#fafafa}
code{background:#f5f5f5;padding:0 4px;border-radius:3px}.note{color:#666}.none{color:#999}`;

/** the Content-Security-Policy of a generated document: its inline style, nothing else */
export const DOC_CSP = "default-src 'none'; style-src 'unsafe-inline'";
