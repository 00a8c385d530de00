import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HighlightedContent, highlightSegments, parseContentTestAnswer } from './highlight';

describe('content test highlighting', () => {
  it('reads the keyed answer: 200 clean, 500+ ranges sorted and merged, junk dropped', () => {
    expect(parseContentTestAnswer({ 200: 'ok' })).toEqual({ clean: true, ranges: [] });
    expect(parseContentTestAnswer({ 501: '9,11', 500: '2,4', 502: '3,6', 503: 'x,y', 504: '8,8' })).toEqual({
      clean: false,
      ranges: [
        [2, 6],
        [9, 11],
      ],
    });
    expect(parseContentTestAnswer({ 500: '2,99' }, 5).ranges).toEqual([[2, 5]]);
    expect(parseContentTestAnswer(null)).toEqual({ clean: true, ranges: [] });
  });

  it('cuts the text at the ranges', () => {
    expect(highlightSegments('招聘刷单兼职', [[2, 4]])).toEqual([
      { text: '招聘', hit: false },
      { text: '刷单', hit: true },
      { text: '兼职', hit: false },
    ]);
  });

  it('renders markup in the content as text: no element is injected', () => {
    const text = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">刷单<b>粗</b>';
    const start = text.indexOf('刷单');
    const { getByTestId } = render(
      <HighlightedContent
        text={text}
        ranges={[
          [0, 8],
          [start, start + 2],
        ]}
      />,
    );
    const box = getByTestId('content-test-highlight');
    expect(box.querySelectorAll('script, img, b')).toHaveLength(0);
    const marks = [...box.querySelectorAll('mark')];
    expect(marks.map((m) => m.textContent)).toEqual(['<script>', '刷单']);
    expect(marks.every((m) => m.children.length === 0)).toBe(true);
    expect(box.textContent).toBe(text);
    expect((window as { __pwned?: unknown }).__pwned).toBeUndefined();
  });
});
