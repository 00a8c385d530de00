/**
 * An SMPP carrier simulator (an SMSC) built on the same `smpp` package: `npm start` runs one on a
 * loopback port when SMPP_URL is not set, tests and benchmarks start their own, `npm run smsc-sim`
 * runs one standalone (sim-main.ts). Rules: docs/api-dispatch.md "SMPP link and simulator".
 *
 * - bind_transceiver / bind_transmitter / bind_receiver checked against systemId / password
 *   (0x0E / 0x0F otherwise); submit_sm before a bind → 0x04.
 * - Every submit_sm that is not throttled is counted under its ref (the vendor TLV): `refs`
 *   maps ref → times received, so a message that reaches the carrier twice shows up.
 * - Throttling: more than `maxPerSecond` submits in one second → ESME_RTHROTTLED (0x58).
 * - Outcomes drawn from a seeded PRNG: rejectRatio (submit_sm_resp `rejectCode`), then
 *   delivered / failed / noReceipt ratios; a receipt after latencyMinMs..latencyMaxMs.
 * - Receipts and MO are delivered at least once: redelivered after `redeliverMs` when the ESME
 *   answers an error, does not answer in 30 s, or the connection drops; kept while no session is
 *   bound. After a delivered receipt is acknowledged, `moRatio` of recipients reply (MO from the
 *   recipient to the source address the message came from) after `moDelayMs`.
 * - Long messages: a part (8-bit or 16-bit reference UDH with esm_class 0x40, or the SAR TLVs) is
 *   a submit like any other, with its own id and receipt; `refs` counts a message once (its first
 *   part), the other parts under "ref/seq" in `partRefs`. Habits: `failPart` (that part of every
 *   long message gets a failure receipt), `reverseParts` (a long message's receipts come last part
 *   first); `refuseTlvs: [0x0424]` refuses message_payload.
 * - Every setting can be changed while running (`update`); `dropConnections()` cuts every session.
 */
import type { AddressInfo } from 'node:net';
import { prng } from '../../lib/prng';
import smpp, { type PDU, type Session } from 'smpp';
import {
  corkForTick,
  cstr,
  encodeResp,
  encodeSm,
  encodeText,
  ESM_RECEIPT,
  pduText,
  receiptText,
  refTlvName,
  STAT_STATE,
  STATUS,
  TLV_MESSAGE_PAYLOAD,
  TLV_MESSAGE_STATE,
  TLV_RECEIPTED_MESSAGE_ID,
  type SmFields,
} from '../../lib/smpp-pdu';

export interface SimulatorSettings {
  host: string;
  /** 0 = any free port */
  port: number;
  systemId: string;
  password: string;
  /** outcome ratios (normalised): final receipt DELIVRD, a failure receipt, no receipt at all */
  delivered: number;
  failed: number;
  noReceipt: number;
  /** failure receipts: one of these (uniformly) */
  failures: { stat: string; err: string }[];
  /** share of submits refused in submit_sm_resp with rejectCode */
  rejectRatio: number;
  rejectCode: number;
  latencyMinMs: number;
  latencyMaxMs: number;
  /** submits per second above which the answer is ESME_RTHROTTLED (0 = no limit) */
  maxPerSecond: number;
  /** share of delivered recipients that reply (MO), the reply texts, the delay after the receipt */
  moRatio: number;
  moTexts: string[];
  moDelayMs: number;
  /** false: submits are counted but never answered (tests of 'unconfirmed') */
  answerSubmits: boolean;
  /** false: enquire_link is never answered (a hung SMSC) */
  answerEnquireLink: boolean;
  /** deliver_sm sent and not yet answered, per session */
  deliverWindow: number;
  /** a receipt / MO the ESME did not accept is delivered again after this long */
  redeliverMs: number;
  /** PRNG seed (same seed + same submit order = same outcomes); undefined: random */
  seed?: number;
  /** vendor TLV tag of the ref */
  refTlv: number;
  /**
   * carrier habits (docs/api-dispatch.md): `receiptIds: 'decimal'` — the submit_sm_resp gives the id
   * in hex, receipts name it in decimal; `receiptTlv: false` — receipts carry no
   * receipted_message_id / message_state TLVs, only the text; `refuseTlvs` — a submit_sm carrying
   * any of these optional parameters (e.g. 0x0424 message_payload, a vendor tag) is refused with
   * 0xC1 ESME_ROPTPARNOTALLWD
   */
  receiptIds: 'same' | 'decimal';
  receiptTlv: boolean;
  refuseTlvs: number[];
  /** UTC offset of the receipt dates */
  tzMinutes: number;
  /** long messages: this part (1..n) of every one gets a failure receipt (UNDELIV 001); 0 = none */
  failPart: number;
  /** long messages: the parts' receipts come in reverse order (the last part's first) */
  reverseParts: boolean;
  /** message ids start with this (default: derived from the start time, unique across restarts) */
  idPrefix?: string;
  /** how many recent submits `recent` keeps (tests read texts from it) */
  keepRecent: number;
  /** PEM key and certificate: listen with TLS (smpps://) */
  tls?: { key: string; cert: string };
}

export const SIMULATOR_DEFAULTS: SimulatorSettings = {
  host: '127.0.0.1',
  port: 0,
  systemId: 'smsp',
  password: 'smsp',
  delivered: 0.9,
  failed: 0.08,
  noReceipt: 0.02,
  failures: [
    { stat: 'UNDELIV', err: '001' },
    { stat: 'REJECTD', err: '045' },
    { stat: 'EXPIRED', err: '002' },
    { stat: 'UNKNOWN', err: '099' },
  ],
  rejectRatio: 0,
  rejectCode: STATUS.INVDSTADR,
  latencyMinMs: 50,
  latencyMaxMs: 500,
  maxPerSecond: 0,
  moRatio: 0.05,
  moTexts: ['收到，谢谢', '好的', 'TD', '请问优惠还有吗？'],
  moDelayMs: 500,
  answerSubmits: true,
  answerEnquireLink: true,
  deliverWindow: 1000,
  redeliverMs: 1000,
  refTlv: 0x1401,
  receiptIds: 'same',
  receiptTlv: true,
  refuseTlvs: [],
  tzMinutes: 480,
  failPart: 0,
  reverseParts: false,
  keepRecent: 100,
};

export interface RecentSubmit {
  ref: string;
  to: string;
  from: string;
  text: string;
  dataCoding: number;
  payload: boolean;
  msgId: string;
  esmClass: number;
  /** when it was accepted (epoch ms): tests count submits per second */
  at: number;
  /** a part of a long message: its reference, part count and number, and how they came (UDH or SAR TLVs) */
  part?: { ref: number; total: number; seq: number; via: 'udh' | 'sar' };
}

/** The concatenation of a submit: an 8-bit (IEI 0x00) or 16-bit (IEI 0x08) reference UDH, else the SAR TLVs; undefined when it is whole. */
export function partOf(pdu: PDU): RecentSubmit['part'] {
  const sm = pdu.short_message as { udh?: Buffer[] } | undefined;
  for (const ie of sm && typeof sm === 'object' && Array.isArray(sm.udh) ? sm.udh : []) {
    if (ie[0] === 0x00 && ie[1] === 3 && ie.length >= 5) return { ref: ie[2], total: ie[3], seq: ie[4], via: 'udh' };
    if (ie[0] === 0x08 && ie[1] === 4 && ie.length >= 6)
      return { ref: ie.readUInt16BE(2), total: ie[4], seq: ie[5], via: 'udh' };
  }
  if (
    pdu.sar_msg_ref_num !== undefined &&
    pdu.sar_total_segments !== undefined &&
    pdu.sar_segment_seqnum !== undefined
  ) {
    return {
      ref: Number(pdu.sar_msg_ref_num),
      total: Number(pdu.sar_total_segments),
      seq: Number(pdu.sar_segment_seqnum),
      via: 'sar',
    };
  }
  return undefined;
}

export interface SimulatorCounts {
  /** every submit_sm received while bound (throttled ones included) */
  received: number;
  accepted: number;
  rejected: number;
  throttled: number;
  /** distinct refs received (not throttled), refs received more than once */
  distinctRefs: number;
  duplicates: [string, number][];
  receiptsSent: number;
  receiptsPending: number;
  moSent: number;
  binds: number;
  bindFailures: number;
  sessions: number;
}

interface Job {
  kind: 'receipt' | 'mo';
  systemId: string;
  due: number;
  pdu: SmFields;
  /** receipt: reply afterwards (MO) to this */
  mo?: { recipient: string; source: string } | null;
}

interface SimSession {
  session: Session;
  systemId: string | null;
  receives: boolean;
  unacked: Map<number, { job: Job; sentAt: number }>;
}

export interface Simulator {
  readonly host: string;
  readonly port: number;
  /** smpp://systemId:password@host:port */
  readonly url: string;
  readonly settings: SimulatorSettings;
  update(changes: Partial<SimulatorSettings>): void;
  counts(): SimulatorCounts;
  /** ref → times received (not throttled) */
  readonly refs: Map<string, number>;
  /** "ref/seq" → times received, for the parts after the first of long messages */
  readonly partRefs: Map<string, number>;
  readonly recent: RecentSubmit[];
  /** receipts and MO scheduled, waiting or sent and not acknowledged */
  pending(): number;
  /** resolves when nothing is pending (or after timeoutMs, false) */
  waitIdle(timeoutMs?: number): Promise<boolean>;
  dropConnections(): void;
  close(): Promise<void>;
}

const TICK_MS = 10;

export async function startSimulator(settings: Partial<SimulatorSettings> = {}): Promise<Simulator> {
  const s: SimulatorSettings = { ...SIMULATOR_DEFAULTS, ...settings };
  let random = prng(s.seed ?? Math.floor(Math.random() * 2 ** 32));
  let refName = refTlvName(s.refTlv);
  const idPrefix = s.idPrefix ?? Date.now().toString(36).toUpperCase();
  let idSeq = 0;
  let moSeq = 0;
  const hexIdBase = BigInt(Date.now()) << 20n;

  const refs = new Map<string, number>();
  const partRefs = new Map<string, number>();
  const recent: RecentSubmit[] = [];
  const c = {
    received: 0,
    accepted: 0,
    rejected: 0,
    throttled: 0,
    receiptsSent: 0,
    moSent: 0,
    binds: 0,
    bindFailures: 0,
  };
  const sessions = new Set<SimSession>();
  /** due tick → jobs */
  const wheel = new Map<number, Job[]>();
  let wheelCount = 0;
  let lastTick = Math.floor(Date.now() / TICK_MS);
  /** due now, waiting for a session with room */
  const ready: Job[] = [];
  let readyHead = 0;
  let rateWindow = 0;
  let rateCount = 0;

  function schedule(job: Job) {
    const tick = Math.max(Math.floor(job.due / TICK_MS), lastTick + 1);
    let list = wheel.get(tick);
    if (!list) wheel.set(tick, (list = []));
    list.push(job);
    wheelCount++;
  }

  function unackedCount() {
    let n = 0;
    for (const ss of sessions) n += ss.unacked.size;
    return n;
  }

  function pendingCount() {
    return wheelCount + (ready.length - readyHead) + unackedCount();
  }

  function pick<T>(list: T[]): T {
    return list[Math.min(list.length - 1, Math.floor(random() * list.length))];
  }

  function onSubmit(ss: SimSession, pdu: PDU) {
    const answer = (status: number, msgId = '') => {
      corkForTick(ss.session.socket);
      ss.session.send(encodeResp('submit_sm_resp', pdu.sequence_number, status, msgId) as unknown as PDU);
    };
    if (!ss.systemId) return answer(STATUS.INVBNDSTS);
    c.received++;
    const now = Date.now();
    if (s.maxPerSecond > 0) {
      const w = Math.floor(now / 1000);
      if (w !== rateWindow) {
        rateWindow = w;
        rateCount = 0;
      }
      if (rateCount >= s.maxPerSecond) {
        c.throttled++;
        return answer(STATUS.THROTTLED);
      }
      rateCount++;
    }
    if (
      s.refuseTlvs.some((tag) => pdu[tag === TLV_MESSAGE_PAYLOAD ? 'message_payload' : refTlvName(tag)] !== undefined)
    ) {
      c.rejected++;
      return answer(STATUS.OPTPARNOTALLWD);
    }
    const ref = pdu[refName] !== undefined ? String(pdu[refName]) : '';
    const part = partOf(pdu);
    if (ref && part && part.seq > 1) partRefs.set(`${ref}/${part.seq}`, (partRefs.get(`${ref}/${part.seq}`) ?? 0) + 1);
    else if (ref) refs.set(ref, (refs.get(ref) ?? 0) + 1);
    const to = String(pdu.destination_addr ?? '');
    const from = String(pdu.source_addr ?? '');
    if (s.rejectRatio > 0 && random() < s.rejectRatio) {
      c.rejected++;
      if (s.answerSubmits) answer(s.rejectCode);
      return;
    }
    // decimal receipts: a pure hex id (its decimal reading names it in the receipt)
    const msgId =
      s.receiptIds === 'decimal'
        ? (hexIdBase + BigInt(++idSeq)).toString(16).toUpperCase()
        : `${idPrefix}${(++idSeq).toString(16).toUpperCase().padStart(8, '0')}`;
    const receiptId = s.receiptIds === 'decimal' ? BigInt(`0x${msgId}`).toString(10) : msgId;
    c.accepted++;
    if (s.keepRecent > 0) {
      recent.push({
        ref,
        to,
        from,
        text: pduText(pdu),
        dataCoding: Number(pdu.data_coding ?? 0),
        payload: pdu.message_payload !== undefined,
        msgId,
        esmClass: Number(pdu.esm_class ?? 0),
        at: now,
        ...(part ? { part } : {}),
      });
      if (recent.length > s.keepRecent) recent.splice(0, recent.length - s.keepRecent);
    }
    // outcome
    const total = s.delivered + s.failed + s.noReceipt || 1;
    const r = random() * total;
    let latency = s.latencyMinMs + random() * Math.max(0, s.latencyMaxMs - s.latencyMinMs);
    // reversed parts: the later the part, the sooner its receipt (50 ms apart)
    if (part && s.reverseParts) latency = s.latencyMinMs + (part.total - part.seq) * 50;
    if (s.answerSubmits) answer(0, msgId);
    const failedPart = !!part && s.failPart > 0 && part.seq === s.failPart;
    if (!failedPart && r >= s.delivered + s.failed) return; // no receipt ever
    const delivered = !failedPart && r < s.delivered;
    const failure = delivered
      ? { stat: 'DELIVRD', err: '000' }
      : failedPart
        ? { stat: 'UNDELIV', err: '001' }
        : pick(s.failures.length ? s.failures : SIMULATOR_DEFAULTS.failures);
    const doneAt = new Date(now + latency);
    const body = encodeText(
      receiptText({
        msgId: receiptId,
        stat: failure.stat,
        err: failure.err,
        submitAt: new Date(now),
        doneAt,
        text: '',
        tzMinutes: s.tzMinutes,
      }),
    );
    const wantsMo = delivered && s.moRatio > 0 && random() < s.moRatio;
    schedule({
      kind: 'receipt',
      systemId: ss.systemId,
      due: now + latency,
      pdu: {
        sourceTon: 0,
        sourceNpi: 1,
        source: to,
        destTon: 0,
        destNpi: 1,
        dest: from,
        esmClass: ESM_RECEIPT,
        registeredDelivery: 0,
        dataCoding: body.dataCoding,
        shortMessage: body.octets,
        tlvs: s.receiptTlv
          ? [
              [TLV_RECEIPTED_MESSAGE_ID, cstr(receiptId)],
              [TLV_MESSAGE_STATE, Buffer.from([STAT_STATE[failure.stat] ?? 7])],
            ]
          : [],
      },
      mo: wantsMo ? { recipient: to, source: from } : null,
    });
  }

  function scheduleMo(systemId: string, mo: { recipient: string; source: string }) {
    const text = pick(s.moTexts.length ? s.moTexts : SIMULATOR_DEFAULTS.moTexts);
    const body = encodeText(text);
    const long = body.octets.length > 140;
    const tlvs: [number, Buffer][] = [[s.refTlv, cstr(`MO${idPrefix}${(++moSeq).toString(16).toUpperCase()}`)]];
    if (long) tlvs.push([TLV_MESSAGE_PAYLOAD, body.octets]);
    const pdu: SmFields = {
      sourceTon: 0,
      sourceNpi: 1,
      source: mo.recipient,
      destTon: 0,
      destNpi: 1,
      dest: mo.source,
      esmClass: 0,
      registeredDelivery: 0,
      dataCoding: body.dataCoding,
      shortMessage: long ? Buffer.alloc(0) : body.octets,
      tlvs,
    };
    schedule({ kind: 'mo', systemId, due: Date.now() + s.moDelayMs, pdu });
  }

  function deliver(ss: SimSession, job: Job) {
    let pdu: ReturnType<typeof encodeSm>;
    try {
      pdu = encodeSm('deliver_sm', job.pdu);
    } catch {
      return true; // cannot be encoded: dropped (never happens with our own texts)
    }
    const ok = ss.session.send(pdu as unknown as PDU, (resp) => {
      const entry = ss.unacked.get(resp.sequence_number);
      if (!entry) return;
      ss.unacked.delete(resp.sequence_number);
      if (resp.command_status === STATUS.OK) {
        if (job.kind === 'receipt') {
          c.receiptsSent++;
          if (job.mo) scheduleMo(job.systemId, job.mo);
        } else c.moSent++;
      } else {
        job.due = Date.now() + s.redeliverMs;
        schedule(job);
      }
      // answers come in bursts (one read, many PDUs): refill the window once for the burst, in one write
      schedulePump();
    });
    if (!ok) return false;
    ss.unacked.set(pdu.sequence_number, { job, sentAt: Date.now() });
    return true;
  }

  let pumpSoon = false;
  function schedulePump() {
    if (pumpSoon) return;
    pumpSoon = true;
    setImmediate(() => {
      pumpSoon = false;
      pumpReady();
    });
  }

  let pumping = false;
  /** due receipts / MO to the bound receivers (one system_id: every bind uses the configured one) */
  function pumpReady() {
    if (pumping || readyHead >= ready.length) return;
    const receivers = [...sessions].filter((ss) => ss.systemId && ss.receives && !ss.session.socket.destroyed);
    if (!receivers.length) return; // kept until an ESME binds
    pumping = true;
    for (const ss of receivers) ss.session.socket.cork();
    try {
      let i = 0;
      while (readyHead < ready.length) {
        let target: SimSession | null = null;
        for (let k = 0; k < receivers.length; k++) {
          const ss = receivers[(i + k) % receivers.length];
          if (ss.unacked.size < s.deliverWindow) {
            target = ss;
            break;
          }
        }
        if (!target) break; // windows full: wait for answers
        i++;
        const job = ready[readyHead++];
        if (!deliver(target, job)) {
          ready[--readyHead] = job;
          break;
        }
      }
    } finally {
      for (const ss of receivers) ss.session.socket.uncork();
      if (readyHead > 1024 || readyHead >= ready.length) {
        ready.splice(0, readyHead);
        readyHead = 0;
      }
      pumping = false;
    }
  }

  const ticker = setInterval(() => {
    const nowTick = Math.floor(Date.now() / TICK_MS);
    for (let t = lastTick + 1; t <= nowTick; t++) {
      const list = wheel.get(t);
      if (!list) continue;
      wheel.delete(t);
      wheelCount -= list.length;
      for (const j of list) ready.push(j);
    }
    lastTick = nowTick;
    // deliver_sm unanswered for 30 s: again
    const now = Date.now();
    for (const ss of sessions) {
      for (const [seq, u] of ss.unacked) {
        if (now - u.sentAt < 30_000) break;
        ss.unacked.delete(seq);
        u.job.due = now + s.redeliverMs;
        schedule(u.job);
      }
    }
    pumpReady();
  }, TICK_MS);
  ticker.unref();

  function onSession(session: Session) {
    const ss: SimSession = { session, systemId: null, receives: false, unacked: new Map() };
    sessions.add(ss);
    session.on('error', () => session.socket.destroy());
    session.socket.on('error', () => {});
    session.socket.setNoDelay(true);
    session.socket.once('close', () => {
      sessions.delete(ss);
      // unanswered receipts / MO: delivered again later
      for (const u of ss.unacked.values()) {
        u.job.due = Date.now() + s.redeliverMs;
        schedule(u.job);
      }
      ss.unacked.clear();
    });
    const bind = (receives: boolean) => (pdu: PDU) => {
      if (ss.systemId) return session.send(pdu.response({ command_status: 0x05 })); // ESME_RALYBND
      if (pdu.system_id !== s.systemId || pdu.password !== s.password) {
        c.bindFailures++;
        session.send(
          pdu.response({ command_status: pdu.system_id !== s.systemId ? STATUS.INVSYSID : STATUS.INVPASWD }),
        );
        return;
      }
      ss.systemId = String(pdu.system_id);
      ss.receives = receives;
      c.binds++;
      session.send(pdu.response({ system_id: 'SIMSMSC' }));
      pumpReady();
    };
    session.on('bind_transceiver', bind(true));
    session.on('bind_receiver', bind(true));
    session.on('bind_transmitter', bind(false));
    session.on('submit_sm', (pdu: PDU) => onSubmit(ss, pdu));
    session.on('enquire_link', (pdu: PDU) => {
      if (s.answerEnquireLink) session.send(pdu.response());
    });
    session.on('unbind', (pdu: PDU) => {
      session.send(pdu.response(), () => session.socket.end());
      ss.systemId = null;
    });
    session.on('pdu', (pdu: PDU) => {
      if (pdu.command === 'unknown') session.send(pdu.response());
    });
  }

  const server = smpp.createServer(s.tls ? { key: s.tls.key, cert: s.tls.cert } : {}, onSession);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(s.port, s.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = s.host;

  const sim: Simulator = {
    host,
    port,
    get url() {
      const h = host.includes(':') ? `[${host}]` : host;
      return `${s.tls ? 'smpps' : 'smpp'}://${encodeURIComponent(s.systemId)}:${encodeURIComponent(s.password)}@${h}:${port}`;
    },
    settings: s,
    update(changes) {
      Object.assign(s, changes);
      if (changes.seed !== undefined) random = prng(changes.seed);
      if (changes.refTlv !== undefined) refName = refTlvName(changes.refTlv);
    },
    counts() {
      const duplicates: [string, number][] = [];
      for (const [ref, n] of refs) if (n > 1) duplicates.push([ref, n]);
      for (const [ref, n] of partRefs) if (n > 1) duplicates.push([ref, n]);
      return {
        ...c,
        distinctRefs: refs.size,
        duplicates,
        receiptsPending: pendingCount(),
        sessions: sessions.size,
      };
    },
    refs,
    partRefs,
    recent,
    pending: pendingCount,
    async waitIdle(timeoutMs = 10_000) {
      const end = Date.now() + timeoutMs;
      while (pendingCount() > 0) {
        if (Date.now() > end) return false;
        await new Promise((r) => setTimeout(r, 20));
      }
      return true;
    },
    dropConnections() {
      for (const ss of sessions) ss.session.socket.destroy();
    },
    close() {
      clearInterval(ticker);
      for (const ss of sessions) ss.session.socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return sim;
}
