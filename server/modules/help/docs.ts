/**
 * Help documents: files the operator places in the documents folder (config.docsDir, env
 * DOCS_DIR, default DATA_DIR/docs). A document exists when a file of its stem with one of the
 * accepted extensions is there (`cmpp.pdf`, `http-demo.zip` …); the first extension found wins.
 * The HTTP API document is not a file: it is generated from the server's OpenAPI description
 * and always present. The user guide (用户使用手册) is the repository's docs/user-guide.md rendered
 * to HTML (markdown-doc.ts), unless the operator placed a file of its stem. The documents of the customer doors (`cmpp`, `smgp`, `smpp`; `door` below) are
 * generated from the door's own description (door-doc.ts) while the door listens in this process,
 * unless the operator placed a file of the stem: the file wins (an operator's own document, e.g.
 * a PDF with the public host name and its own wording, is kept as it is).
 * `flags()` is what GET /loginInfo answers as systemInfoShow: computed on every call, so a
 * document appears or disappears with its file or its door, no restart, nothing stored.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DoorDocSource } from './door-doc';

export interface HelpDoc {
  /** systemInfoShow key */
  key: string;
  /** route under /api */
  route: string;
  title: string;
  /** file stem in the documents folder; none: generated (the HTTP API document) */
  stem?: string;
  agentOnly?: boolean;
  /** generated from its door's description while the door listens (HelpDocs.addDoor), when no file of the stem is there */
  door?: boolean;
  /** a Markdown file of the repository's docs/ the platform brings, rendered to HTML, when no file of the stem is there */
  bundled?: string;
}

/** the repository's docs/ (the bundled documents) */
export const BUNDLED_DOCS_DIR = path.resolve(import.meta.dirname, '../../../docs');

export const HELP_DOCS: HelpDoc[] = [
  { key: 'guide', route: '/help/userguide', title: '用户使用手册', stem: 'user-guide', bundled: 'user-guide.md' },
  { key: 'https', route: '/help/httpsdoc', title: 'HTTP接口文档' },
  { key: 'cmpp', route: '/help/cmppdoc', title: 'CMPP接口文档', stem: 'cmpp', door: true },
  { key: 'sgip', route: '/help/sgipdoc', title: 'SGIP接口文档', stem: 'sgip', door: true },
  { key: 'smgp', route: '/help/smgpdoc', title: 'SMGP接口文档', stem: 'smgp', door: true },
  { key: 'smpp', route: '/help/smppdoc', title: 'SMPP接口文档', stem: 'smpp', door: true },
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
  private readonly doors = new Map<string, DoorDocSource>();

  constructor(readonly dir: string) {}

  /** The bundled Markdown of a document, when it has one and it is there. */
  bundledOf(doc: HelpDoc): string | undefined {
    if (!doc.bundled) return undefined;
    const file = path.join(BUNDLED_DOCS_DIR, doc.bundled);
    return fs.existsSync(file) ? file : undefined;
  }

  /** A door's generated document (the door module registers it; a document of HELP_DOCS marked `door`). */
  addDoor(source: DoorDocSource) {
    const doc = HELP_DOCS.find((d) => d.key === source.key);
    if (!doc?.door) throw new Error(`help: no door document "${source.key}"`);
    this.doors.set(source.key, source);
  }

  /** The door's document source when its door listens now. */
  doorOf(doc: HelpDoc): DoorDocSource | undefined {
    const source = doc.door ? this.doors.get(doc.key) : undefined;
    return source?.available() ? source : undefined;
  }

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
    return !doc.stem || !!this.fileOf(doc) || !!this.doorOf(doc) || !!this.bundledOf(doc);
  }

  /** systemInfoShow: 1 for each document that exists, else 0. */
  flags(): Record<string, number> {
    return Object.fromEntries(HELP_DOCS.map((d) => [d.key, this.exists(d) ? 1 : 0]));
  }
}
