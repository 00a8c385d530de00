/**
 * Outgoing mail: SMTP through nodemailer when an SMTP URL is configured, otherwise each message
 * is written as an .eml file to DATA_DIR/outbox/mail (quoted-printable text, readable as is).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(msg: MailMessage): Promise<void>;
  close(): void;
}

let sequence = 0;

export function mailOutboxDir(dataDir: string) {
  return path.join(dataDir, 'outbox', 'mail');
}

export class NodeMailer implements Mailer {
  private readonly transport: Transporter;
  private readonly toFile: boolean;

  constructor(
    private readonly opts: { smtpUrl: string; from: string; dataDir: string; log: FastifyBaseLogger; now?: () => Date },
  ) {
    this.toFile = !opts.smtpUrl;
    this.transport = this.toFile
      ? nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
      : nodemailer.createTransport(opts.smtpUrl);
  }

  async send(msg: MailMessage): Promise<void> {
    // the file transport (streamTransport, buffer) answers the message; SMTP its messageId
    const info = (await this.transport.sendMail({
      from: this.opts.from,
      to: msg.to,
      subject: msg.subject,
      text: msg.text,
      textEncoding: 'quoted-printable',
    })) as { message?: Buffer; messageId?: string };
    if (this.toFile) {
      const dir = mailOutboxDir(this.opts.dataDir);
      await fs.mkdir(dir, { recursive: true });
      const stamp = (this.opts.now?.() ?? new Date()).toISOString().replace(/[:.]/g, '-');
      const name = `${stamp}-${String(++sequence % 1e6).padStart(6, '0')}-${msg.to.replace(/[^A-Za-z0-9@._-]/g, '_')}.eml`;
      await fs.writeFile(path.join(dir, name), info.message ?? Buffer.alloc(0));
      this.opts.log.info({ mail: { to: msg.to, file: name } }, `mail (outbox): ${msg.subject}`);
    } else {
      this.opts.log.info({ mail: { to: msg.to, messageId: info.messageId } }, `mail sent: ${msg.subject}`);
    }
  }

  close() {
    this.transport.close();
  }
}
