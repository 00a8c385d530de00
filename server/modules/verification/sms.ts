/**
 * The SMS channel that carries verification codes. The embedded implementation logs the message
 * and appends a JSON line to DATA_DIR/outbox/sms.jsonl (what a developer, a test or the e2e test
 * reads); a carrier gateway implements the same interface.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';

export interface SmsRecipient {
  countryCode: string;
  mobile: string;
}

export interface SmsMeta {
  code?: string;
  purpose?: string;
}

export interface SmsChannel {
  send(to: SmsRecipient, text: string, meta?: SmsMeta): Promise<void>;
}

export interface OutboxSms {
  time: string;
  countryCode: string;
  mobile: string;
  text: string;
  code?: string;
  purpose?: string;
}

export function smsOutboxFile(dataDir: string) {
  return path.join(dataDir, 'outbox', 'sms.jsonl');
}

export class OutboxSmsChannel implements SmsChannel {
  constructor(
    private readonly dataDir: string,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async send(to: SmsRecipient, text: string, meta: SmsMeta = {}): Promise<void> {
    const line: OutboxSms = {
      time: this.now().toISOString(),
      countryCode: to.countryCode,
      mobile: to.mobile,
      text,
      ...meta,
    };
    const file = smsOutboxFile(this.dataDir);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.appendFile(file, JSON.stringify(line) + '\n', 'utf8');
    this.log.info({ sms: { to: `+${to.countryCode} ${to.mobile}`, purpose: meta.purpose } }, `SMS (outbox): ${text}`);
  }
}
