/**
 * Help documents: files the operator places in the documents folder (config.docsDir, env
 * DOCS_DIR, default DATA_DIR/docs). A document exists when a file of its stem with one of the
 * accepted extensions is there (`cmpp.pdf`, `http-demo.zip` …); the first extension found wins.
 * The HTTP API document is not a file: it is generated from the server's OpenAPI description
 * and always present. `flags()` is what GET /loginInfo answers as systemInfoShow: computed on
 * every call, so a document appears or disappears with its file, no restart, nothing stored.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface HelpDoc {
  /** systemInfoShow key */
  key: string;
  /** route under /api */
  route: string;
  title: string;
  /** file stem in the documents folder; none: generated (the HTTP API document) */
  stem?: string;
  agentOnly?: boolean;
}

export const HELP_DOCS: HelpDoc[] = [
  { key: 'https', route: '/help/httpsdoc', title: 'HTTP接口文档' },
  { key: 'cmpp', route: '/help/cmppdoc', title: 'CMPP接口文档', stem: 'cmpp' },
  { key: 'sgip', route: '/help/sgipdoc', title: 'SGIP接口文档', stem: 'sgip' },
  { key: 'smgp', route: '/help/smgpdoc', title: 'SMGP接口文档', stem: 'smgp' },
  { key: 'smpp', route: '/help/smppdoc', title: 'SMPP接口文档', stem: 'smpp' },
  { key: 'template', route: '/help/smstemplatedoc', title: '模板短信接口文档', stem: 'template' },
  { key: 'httpDemo', route: '/help/demoFilePath', title: 'HTTP接口示例代码', stem: 'http-demo' },
  { key: 'faq', route: '/help/faqdoc', title: '常见问题文档', stem: 'faq', agentOnly: true },
];

export const DOC_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  zip: 'application/zip',
  rar: 'application/vnd.rar',
  '7z': 'application/x-7z-compressed',
  html: 'text/html; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
};

export class HelpDocs {
  constructor(readonly dir: string) {}

  /** The file of a document, if the operator has placed one. */
  fileOf(doc: HelpDoc): { file: string; ext: string } | undefined {
    if (!doc.stem) return undefined;
    for (const ext of Object.keys(DOC_TYPES)) {
      const file = path.join(this.dir, `${doc.stem}.${ext}`);
      try {
        if (fs.statSync(file).isFile()) return { file, ext };
      } catch {
        /* not there */
      }
    }
    return undefined;
  }

  exists(doc: HelpDoc): boolean {
    return !doc.stem || !!this.fileOf(doc);
  }

  /** systemInfoShow: 1 for each document that exists, else 0. */
  flags(): Record<string, number> {
    return Object.fromEntries(HELP_DOCS.map((d) => [d.key, this.exists(d) ? 1 : 0]));
  }
}
