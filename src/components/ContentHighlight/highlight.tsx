/**
 * The content check's answer and its highlighting. The answer is keyed by number:
 * {"200":"ok"} when clean, else {"500":"begin,end","501":…} (UTF-16 offsets, end exclusive).
 *
 * Highlighting is built from text only: the content is cut into plain strings and each range
 * becomes a <mark> whose child is a string, so React renders text nodes. No HTML string is ever
 * produced or parsed, so content like `<script>` shows as text and cannot inject markup.
 */
import type { ReactNode } from 'react';

export type Range = [begin: number, end: number];

export interface ContentTestResult {
  clean: boolean;
  ranges: Range[];
}

/** Reads the answer; malformed ranges are dropped, the rest sorted, clipped and merged. */
export function parseContentTestAnswer(data: unknown, textLength = Number.MAX_SAFE_INTEGER): ContentTestResult {
  const d = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
  const ranges: Range[] = [];
  for (const [k, v] of Object.entries(d)) {
    if (Number(k) < 500 || typeof v !== 'string') continue;
    const m = /^\s*(\d+)\s*,\s*(\d+)\s*$/.exec(v);
    if (!m) continue;
    const a = Math.min(Number(m[1]), textLength);
    const b = Math.min(Number(m[2]), textLength);
    if (b > a) ranges.push([a, b]);
  }
  ranges.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const merged: Range[] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return { clean: merged.length === 0, ranges: merged };
}

export interface Segment {
  text: string;
  hit: boolean;
}

/** The text cut at the ranges (assumed sorted and disjoint, as parseContentTestAnswer returns them). */
export function highlightSegments(text: string, ranges: Range[]): Segment[] {
  const out: Segment[] = [];
  let pos = 0;
  for (const [a, b] of ranges) {
    if (a > pos) out.push({ text: text.slice(pos, a), hit: false });
    if (b > a) out.push({ text: text.slice(a, b), hit: true });
    pos = Math.max(pos, b);
  }
  if (pos < text.length) out.push({ text: text.slice(pos), hit: false });
  return out;
}

export function HighlightedContent({ text, ranges }: { text: string; ranges: Range[] }): ReactNode {
  return (
    <div
      data-testid="content-test-highlight"
      style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', lineHeight: 1.8 }}
    >
      {highlightSegments(text, ranges).map((s, i) =>
        s.hit ? (
          <mark key={i} style={{ background: '#ffccc7', color: '#cf1322', padding: '0 2px' }}>
            {s.text}
          </mark>
        ) : (
          <span key={i}>{s.text}</span>
        ),
      )}
    </div>
  );
}
