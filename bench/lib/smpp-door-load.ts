/**
 * A door customer that keeps going through a door restart (bench/scale-out.ts): one SMPP
 * transceiver session (the `smpp` package, as bench/lib/smpp-customer.ts) submitting at `rate`
 * submit_sm a second with at most `window` unanswered, answering every deliver_sm (receipts
 * counted); when the connection drops it counts the submits it had unanswered as dropped (with the
 * time) and binds again every `reconnectMs` until the door is back. Each submit's destination is
 * `phoneBase + i`: a fresh number per message.
 */
import smpp, { type PDU, type Session } from 'smpp';

export interface DoorLoadStats {
  sent: number;
  /** submit_sm_resp received, by command_status (0x58 throttled included: not resent) */
  answered: number;
  ok: number;
  statuses: Record<string, number>;
  /** unanswered when their connection dropped; the times of the drops (performance.now()) */
  dropped: number;
  drops: { at: number; unanswered: number }[];
  binds: number;
  bindFailures: number;
  receipts: number;
  /** receipts for the submits this customer saw accepted: each once, or more than once */
  receiptsMatched: number;
  receiptsRepeated: number;
  /** performance.now() of every accepted submit's answer, for the rates by phase */
  okTimes: number[];
}

export interface DoorLoad {
  stats: DoorLoadStats;
  /** submits now unanswered on the current connection */
  inFlight(): number;
  /** stop submitting; resolves once every submit is answered or dropped, or after `waitMs` */
  stop(waitMs: number): Promise<void>;
  close(): void;
}

export function startDoorLoad(o: {
  port: number;
  systemId: string;
  password: string;
  rate: number;
  window: number;
  text: string;
  phoneBase: number;
  reconnectMs?: number;
}): DoorLoad {
  const stats: DoorLoadStats = {
    sent: 0,
    answered: 0,
    ok: 0,
    statuses: {},
    dropped: 0,
    drops: [],
    binds: 0,
    bindFailures: 0,
    receipts: 0,
    receiptsMatched: 0,
    receiptsRepeated: 0,
    okTimes: [],
  };
  let session: Session | null = null;
  let bound = false;
  let inFlight = 0;
  let stopping = false;
  let closed = false;
  let budget = 0;
  let last = performance.now();
  let next = 0;
  /** message id of an accepted submit → receipts received for it */
  const ids = new Map<string, number>();

  const connect = () => {
    if (closed) return;
    const s = new smpp.Session({ host: '127.0.0.1', port: o.port });
    session = s;
    let lost = false;
    const lose = () => {
      if (lost) return;
      lost = true;
      if (bound || inFlight) stats.drops.push({ at: performance.now(), unanswered: inFlight });
      stats.dropped += inFlight;
      inFlight = 0;
      bound = false;
      session = null;
      if (!closed && !stopping) setTimeout(connect, o.reconnectMs ?? 500);
    };
    s.on('error', lose);
    s.on('close', lose);
    s.on('deliver_sm', (pdu: PDU) => {
      s.send(pdu.response());
      if (!(Number(pdu.esm_class) & 0x04)) return;
      // the receipts of the account's other messages (its console sends) come here too: counted apart
      stats.receipts++;
      const id = String(pdu.receipted_message_id ?? /id:(\S+)/.exec(String(pdu.short_message?.message ?? ''))?.[1]);
      const seen = ids.get(id);
      if (seen === undefined) return;
      ids.set(id, seen + 1);
      if (seen === 0) stats.receiptsMatched++;
      else stats.receiptsRepeated++;
    });
    s.socket.once('connect', () =>
      s.send(new smpp.PDU('bind_transceiver', { system_id: o.systemId, password: o.password }), (resp: PDU) => {
        if (resp.command_status !== 0) {
          stats.bindFailures++;
          s.close();
          return;
        }
        stats.binds++;
        bound = true;
      }),
    );
  };

  const submit = (s: Session) => {
    const phone = String(o.phoneBase + next++);
    stats.sent++;
    inFlight++;
    s.send(
      new smpp.PDU('submit_sm', {
        destination_addr: phone,
        source_addr: '1',
        registered_delivery: 1,
        short_message: o.text,
      }),
      (resp: PDU) => {
        // an answer after its connection was counted lost cannot come (the session is gone)
        inFlight--;
        stats.answered++;
        if (resp.command_status === 0) {
          stats.ok++;
          stats.okTimes.push(performance.now());
          ids.set(String(resp.message_id), 0);
        } else {
          const k = `0x${resp.command_status.toString(16)}`;
          stats.statuses[k] = (stats.statuses[k] ?? 0) + 1;
        }
      },
    );
  };

  const pump = setInterval(() => {
    const now = performance.now();
    budget = Math.min(o.rate, budget + ((now - last) / 1000) * o.rate);
    last = now;
    if (stopping || !bound || !session) return;
    while (budget >= 1 && inFlight < o.window) {
      budget--;
      submit(session);
    }
  }, 20);

  connect();
  return {
    stats,
    inFlight: () => inFlight,
    async stop(waitMs) {
      stopping = true;
      const until = performance.now() + waitMs;
      while (inFlight > 0 && performance.now() < until) await new Promise((r) => setTimeout(r, 50));
    },
    close() {
      closed = true;
      clearInterval(pump);
      session?.close();
    },
  };
}
