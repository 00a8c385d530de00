/**
 * Stand-in for `markdown-to-jsx`, which @rjsf/core imports for markdown in field descriptions
 * (`enableMarkdownInDescription`). Our schemas' descriptions are plain text and no form turns
 * that option on, so the 80 KB parser is replaced by this (vite.config.ts alias): text stays text.
 */
import type { ReactNode } from 'react';

export default function Markdown({ children }: { children?: ReactNode; options?: unknown }) {
  return <>{children}</>;
}
export { Markdown };
