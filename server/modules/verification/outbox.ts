/**
 * Reading the embedded outboxes (DATA_DIR/outbox): what tests, the e2e test and a developer use
 * to get the codes the server "sent".
 */
import fs from 'node:fs';
import path from 'node:path';
import { mailOutboxDir } from './mail';
import { smsOutboxFile, type OutboxSms } from './sms';
import { codeOf } from '../../lib/error-code';

export function readSmsOutbox(dataDir: string): OutboxSms[] {
  try {
    return fs
      .readFileSync(smsOutboxFile(dataDir), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  } catch (e) {
    if (codeOf(e) === 'ENOENT') return [];
    throw e;
  }
}

/** The code of the last SMS to `mobile` (optionally of one purpose), or undefined. */
export function latestSmsCode(dataDir: string, mobile: string, purpose?: string): string | undefined {
  return readSmsOutbox(dataDir)
    .filter((m) => m.mobile === mobile && (!purpose || m.purpose === purpose))
    .at(-1)?.code;
}

export interface OutboxMail {
  file: string;
  to: string;
  subject: string;
  text: string;
}

function decodeQuotedPrintable(s: string): string {
  const bytes: number[] = [];
  const body = s.replace(/=\r?\n/g, '');
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '=' && /^[0-9A-F]{2}$/i.test(body.slice(i + 1, i + 3))) {
      bytes.push(parseInt(body.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(body[i], 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeHeader(v: string): string {
  return v.replace(/=\?utf-8\?([BQ])\?([^?]*)\?=\s*/gi, (_m, enc: string, text: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}

export function parseEml(raw: string, file = ''): OutboxMail {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = rest.join('\n\n');
  const cte = (headers['content-transfer-encoding'] ?? '').toLowerCase();
  if (cte === 'quoted-printable') body = decodeQuotedPrintable(body);
  else if (cte === 'base64') body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return { file, to: headers.to ?? '', subject: decodeHeader(headers.subject ?? ''), text: body };
}

export function readMailOutbox(dataDir: string): OutboxMail[] {
  const dir = mailOutboxDir(dataDir);
  let files: string[];
  try {
    files = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.eml'))
      .sort();
  } catch (e) {
    if (codeOf(e) === 'ENOENT') return [];
    throw e;
  }
  return files.map((f) => parseEml(fs.readFileSync(path.join(dir, f), 'utf8'), f));
}

/** The 6-digit code of the last mail to `to`, or undefined. */
export function latestMailCode(dataDir: string, to: string): string | undefined {
  const m = readMailOutbox(dataDir)
    .filter((x) => x.to.toLowerCase().includes(to.toLowerCase()))
    .at(-1);
  return m?.text.match(/\b(\d{6})\b/)?.[1];
}
