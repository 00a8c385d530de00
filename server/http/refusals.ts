/**
 * Refused sends of the HTTP API and the console, counted where their answers are made (issue 39,
 * docs/api-metrics.md "Per-minute series"): as the doors count their refused submits, this process
 * keeps a counter per protocol, code and reason, in memory (one map increment per refused request;
 * nothing per accepted one), and the metrics module's flush (every ~10 s) adds their growth to the
 * same per-minute `refused` rows the doors' go to.
 *
 * Which answers count: those of the routes declared with `refusals` (server/http/route.ts) — the
 * console's accepting routes (`console`: /send/sending, /send/sendTim, …) and the HTTP API's send
 * (`http`: /openapi/v1/sms/send) — when the answer is not a success, whatever refused it (the
 * session, the CSRF token, the rate limit, the payload's schema, the acceptance).
 *
 * - `http`: code = the API's numeric error code (40003), reason = its stable name (SIGN_MISSING),
 *   both from schemas/messages/openapi.json: a finite set.
 * - `console`: code = the answer's code (400, 403, 500 …); reason = the key of the message when it
 *   is one of the messages the modules name here (`nameMessages`, e.g. the send module's
 *   notEnoughBalance, matched at the start: a balance refusal goes on with the amounts), otherwise
 *   a kind by code (`invalid`, `session`, `forbidden`, `throttled`, `tooLarge`, `refused`, `other`).
 *   Never the text itself: its numbers would make every refusal a label of its own.
 */
import type { FastifyRequest } from 'fastify';

/** the label of a refusal row: `protocol code reason` (no space in any part) */
export type RefusalProtocol = 'http' | 'console';

declare module 'fastify' {
  interface FastifyInstance {
    /** the refused sends this process answered (HTTP API and console), by `protocol code reason` */
    refusals: RefusalCounts;
  }
  interface FastifyContextConfig {
    /** a refused answer of this route is counted (refusals.ts) */
    refusals?: RefusalProtocol;
  }
}

/** a console answer's kind when its message is none of the named ones */
const CONSOLE_KIND: Record<number, string> = {
  400: 'invalid',
  401: 'session',
  403: 'forbidden',
  413: 'tooLarge',
  415: 'invalid',
  429: 'throttled',
  500: 'refused',
};

const safe = (s: string) => s.replace(/\s+/g, '_').slice(0, 60) || '-';

export class RefusalCounts {
  private readonly counts = new Map<string, number>();
  /** console messages by text → their key, longest first (a longer message that starts like a shorter one wins) */
  private named: [text: string, key: string][] = [];
  private keys = new Map<string, string>();

  /** Names console messages (`{ key: text }`): a refusal with that text (or starting with it) counts as `key`. */
  nameMessages(messages: Record<string, string>): void {
    for (const [key, text] of Object.entries(messages)) {
      if (!text || this.keys.has(key) || this.named.some(([t]) => t === text)) continue;
      this.keys.set(key, text);
      this.named.push([text, safe(key)]);
    }
    this.named.sort((a, b) => b[0].length - a[0].length);
  }

  /** the text a console reason key stands for (its message), when it is a named one */
  messageOf(key: string): string | undefined {
    return this.keys.get(key);
  }

  /** the reason of a console refusal: a named message's key, else its kind by code */
  consoleReason(code: number, msg: string): string {
    for (const [text, key] of this.named) if (msg === text || msg.startsWith(text)) return key;
    return CONSOLE_KIND[code] ?? 'other';
  }

  count(protocol: RefusalProtocol, code: string | number, reason: string): void {
    const key = `${protocol} ${safe(String(code))} ${safe(reason)}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** every counter since the process started: [`protocol code reason`, count] */
  entries(): IterableIterator<[string, number]> {
    return this.counts.entries();
  }
}

/** Counts a refused console answer of a route declared `refusals: 'console'` (the app's error handler). */
export function countConsoleRefusal(req: FastifyRequest, code: number, msg: string): void {
  if (req.routeOptions?.config?.refusals !== 'console') return;
  const counts = req.server.refusals;
  counts?.count('console', code, counts.consoleReason(code, msg));
}
