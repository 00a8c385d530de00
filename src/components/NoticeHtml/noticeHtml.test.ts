import { describe, expect, it } from 'vitest';
import { noticePlainText, safeNoticeHtml } from './noticeHtml';

describe('notice HTML on display', () => {
  it('drops script, handlers, styles, frames and unsafe URLs; keeps formatting, links, tables, http(s) images', () => {
    const html = safeNoticeHtml(
      `<p onclick="x()" style="color:red">正文<script>alert(1)</script></p><style>p{}</style><iframe src="https://e.example"></iframe>
<a href="javascript:alert(1)">坏</a><a href="https://ok.example">好</a><img src="data:image/png;base64,AA"><img src="https://cdn.example/a.png">
<svg onload="alert(1)"></svg><table><tr><td>移动</td></tr></table><strong>粗</strong>`,
    );
    for (const bad of ['<script', 'onclick', 'style', '<iframe', 'javascript:', 'data:', '<svg', 'onload'])
      expect(html).not.toContain(bad);
    for (const good of [
      '<p>正文</p>',
      'href="https://ok.example"',
      'rel="noopener noreferrer"',
      'src="https://cdn.example/a.png"',
      '<td>移动</td>',
      '<strong>粗</strong>',
    ]) {
      expect(html).toContain(good);
    }
  });

  it('gives a plain-text excerpt with entities decoded', () => {
    expect(noticePlainText('<p>甲 &amp; 乙</p><p>丙<script>x</script></p>')).toBe('甲 & 乙 丙');
    expect(noticePlainText('<p>一二三四五六</p>', 4)).toBe('一二三四…');
  });
});
