/**
 * An SGIP 1.2 carrier gateway (SMG) simulator on the codec of server/lib/sgip-pdu.ts: `npm start`
 * runs one on a loopback port instead of the SMPP simulator when SMPP_URL is not set and
 * SMSC_SIM_PROTOCOL=sgip, so an sgip:// link works on one machine. Rules: docs/api-dispatch.md
 * "SGIP link" → "Simulator".
 *
 * - SGIP_BIND (Login_Type 1) checked against login / password (Result 1, 4 for another type);
 *   packets before it, a Message Length out of bounds or an unreadable packet close the connection.
 * - SGIP_SUBMIT → Result 0; beyond `maxPerSecond` submits a second → Result 11 (node busy).
 *   Outcomes from a seeded PRNG: delivered / failed / noReceipt, per ReportFlag (0 failures only,
 *   1 always, 2 never). The SMG binds back (Login_Type 2, callbackUser / callbackPassword) to the
 *   SP's listener (callbackHost:callbackPort, or the port given to bindBackTo) after
 *   latencyMinMs..latencyMaxMs and hands it SGIP_REPORT (SubmitSequenceNumber = the submit's,
 *   State 0 / 2); kept while the listener cannot be reached and sent again after redeliverMs, as is
 *   one answered with a Result other than 0. After a delivered report is answered, `moRatio` of
 *   recipients reply with an SGIP_DELIVER to the submit's SPNumber.
 * - SGIP_TRACE → SGIP_TRACE_RESP from what this SMG holds of the submit it names (the last
 *   TRACE_KEEP submits, by sequence number and UserNumber): one node, Result 0, ReceiveTime its
 *   arrival, SendTime when its delivered report was handed over ('' before); an unknown submit:
 *   Result 1 (an unreadable TRACE closes the connection, as any unreadable packet).
 * - SGIP_UNBIND is answered.
 */
import { SgipBindBack } from '../../lib/sgip-bindback';
import {
  decodePacket,
  decodeSgipText,
  encodeBindResp,
  encodeDeliver,
  encodeReport,
  encodeSgipText,
  encodeSubmitResp,
  encodeTraceResp,
  encodeUnbindResp,
  LOGIN_TYPE,
  REPORT_FLAG,
  REPORT_STATE,
  RESULT,
  SeqSource,
  seqString,
  SgipFrameSplitter,
  splitSgipUdh,
  TRACE_RESULT,
  traceNodeId,
  traceTime,
  withoutCountryCode,
  type SgipSeq,
} from '../../lib/sgip-pdu';
import { listenFrames, SimCore, simHandle, simSettings, type SimCoreSettings } from './sim-core';

/** the submits an SGIP_TRACE can name (the oldest forgotten first) */
const TRACE_KEEP = 10_000;

export interface SgipSimulatorSettings extends SimCoreSettings {
  /** the SP's Login_Name / Login_Password */
  login: string;
  password: string;
  /** where the SMG binds back (the link's callback listener); port 0: not known yet (bindBackTo) */
  callbackHost: string;
  callbackPort: number;
  callbackUser: string;
  callbackPassword: string;
  /** this SMG's node id */
  nodeId: number;
}

export const SGIP_SIMULATOR_DEFAULTS: SgipSimulatorSettings = {
  host: '127.0.0.1',
  port: 0,
  login: 'sp1',
  password: 'secret',
  callbackHost: '127.0.0.1',
  callbackPort: 0,
  callbackUser: 'smg',
  callbackPassword: 'secret',
  delivered: 0.9,
  failed: 0.08,
  noReceipt: 0.02,
  latencyMinMs: 50,
  latencyMaxMs: 500,
  maxPerSecond: 0,
  moRatio: 0.05,
  moTexts: ['收到，谢谢', '好的', 'TD'],
  moDelayMs: 500,
  redeliverMs: 1000,
  nodeId: 3000010010,
  tzMinutes: 480,
};

export interface SgipSimulatorCounts {
  received: number;
  accepted: number;
  throttled: number;
  reportsSent: number;
  reportsPending: number;
  moSent: number;
  binds: number;
  bindFailures: number;
  bindBacks: number;
  sessions: number;
}

export interface SgipSimSubmit {
  seq: string;
  to: string;
  spNumber: string;
  text: string;
  messageCoding: number;
  tpUdhi: number;
  reportFlag: number;
}

export interface SgipSimulator {
  readonly url: string;
  readonly port: number;
  readonly settings: SgipSimulatorSettings;
  counts(): SgipSimulatorCounts;
  readonly recent: SgipSimSubmit[];
  /** destination (without 86) → submits accepted for it (first parts only) */
  readonly phones: Map<string, number>;
  /** the SP's callback listener is on this port (host: callbackHost unless given) */
  bindBackTo(port: number, host?: string): void;
  dropConnections(): void;
  close(): Promise<void>;
}

interface Job {
  due: number;
  kind: 'report' | 'mo';
  submitSeq: SgipSeq;
  state: number;
  errorCode: number;
  /** with 86 */
  phone: string;
  spNumber: string;
  text?: string;
}

export async function startSgipSimulator(
  settings: Partial<SgipSimulatorSettings> & Record<string, unknown> = {},
): Promise<SgipSimulator> {
  const s = simSettings(SGIP_SIMULATOR_DEFAULTS, settings);
  const sim = new SimCore<SgipSimSubmit>(s);
  const seqs = new SeqSource(s.nodeId, s.tzMinutes);
  const queue: Job[] = [];
  let sending = 0;
  /** submit sequence → its numbers (without 86), when it came and when its delivered report went */
  const traced = new Map<string, { numbers: string[]; at: Date; sentAt: Date | null }>();
  const counts: SgipSimulatorCounts = {
    received: 0,
    accepted: 0,
    throttled: 0,
    reportsSent: 0,
    reportsPending: 0,
    moSent: 0,
    binds: 0,
    bindFailures: 0,
    bindBacks: 0,
    sessions: 0,
  };
  let back: SgipBindBack | null = null;
  const bindBack = () => {
    if (!s.callbackPort) return null;
    back ??= new SgipBindBack({
      host: s.callbackHost,
      port: s.callbackPort,
      loginName: s.callbackUser,
      loginPassword: s.callbackPassword,
      seqs,
      window: 64,
      idleMs: 2000,
    });
    return back;
  };

  const hand = (job: Job, b: SgipBindBack) => {
    sending++;
    const build = (seq: SgipSeq) =>
      job.kind === 'report'
        ? encodeReport(seq, {
            submitSeq: job.submitSeq,
            reportType: 0,
            userNumber: job.phone,
            state: job.state,
            errorCode: job.errorCode,
          })
        : (() => {
            const { messageCoding, octets } = encodeSgipText(job.text ?? '');
            return encodeDeliver(seq, {
              userNumber: job.phone,
              spNumber: job.spNumber,
              tpPid: 0,
              tpUdhi: 0,
              messageCoding,
              messageContent: octets.subarray(0, 140),
            });
          })();
    b.send(build).then(
      (result) => {
        sending--;
        if (result !== RESULT.OK) return void queue.push({ ...job, due: Date.now() + s.redeliverMs });
        if (job.kind === 'report') {
          counts.reportsSent++;
          const t = job.state === REPORT_STATE.DELIVERED ? traced.get(seqString(job.submitSeq)) : undefined;
          if (t && !t.sentAt) t.sentAt = new Date();
          const text = job.state === REPORT_STATE.DELIVERED ? sim.reply() : null;
          if (text !== null) queue.push({ ...job, kind: 'mo', due: Date.now() + s.moDelayMs, text });
        } else counts.moSent++;
      },
      () => {
        sending--;
        queue.push({ ...job, due: Date.now() + s.redeliverMs });
      },
    );
  };

  const tick = setInterval(() => {
    const b = bindBack();
    if (!b || !queue.length) return;
    const now = Date.now();
    const later: Job[] = [];
    const due: Job[] = [];
    for (const j of queue) (j.due <= now && due.length < 2000 ? due : later).push(j);
    if (!due.length) return;
    queue.length = 0;
    queue.push(...later);
    for (const j of due) hand(j, b);
  }, 20);
  tick.unref();

  const listener = await listenFrames(s, (socket) => {
    let bound = false;
    counts.sessions++;
    return {
      splitter: new SgipFrameSplitter(),
      closed: () => counts.sessions--,
      frame: (b) => {
        const pkt = decodePacket(b);
        if (!bound && pkt.command !== 'BIND') {
          socket.destroy();
          return false;
        }
        switch (pkt.command) {
          case 'BIND': {
            const result =
              pkt.loginType !== LOGIN_TYPE.SP_TO_SMG
                ? RESULT.BAD_LOGIN_TYPE
                : pkt.loginName !== s.login || pkt.loginPassword !== s.password
                  ? RESULT.BAD_LOGIN
                  : RESULT.OK;
            socket.write(encodeBindResp(pkt.seq, result));
            if (result !== RESULT.OK) {
              counts.bindFailures++;
              socket.end();
              return false;
            }
            counts.binds++;
            bound = true;
            break;
          }
          case 'SUBMIT': {
            counts.received++;
            const nowMs = Date.now();
            if (sim.throttled(nowMs)) {
              counts.throttled++;
              socket.write(encodeSubmitResp(pkt.seq, RESULT.NODE_BUSY));
              break;
            }
            counts.accepted++;
            socket.write(encodeSubmitResp(pkt.seq, RESULT.OK));
            let body = pkt.messageContent;
            let first = true;
            if (pkt.tpUdhi) {
              try {
                const u = splitSgipUdh(pkt.messageContent);
                body = u.body;
                first = !u.concat || u.concat.number <= 1;
              } catch {
                body = pkt.messageContent;
              }
            }
            const numbers = pkt.userNumbers.map((d) => withoutCountryCode(d));
            sim.took(
              {
                seq: seqString(pkt.seq),
                to: pkt.userNumbers[0] ?? '',
                spNumber: pkt.spNumber,
                text: decodeSgipText(body, pkt.messageCoding),
                messageCoding: pkt.messageCoding,
                tpUdhi: pkt.tpUdhi,
                reportFlag: pkt.reportFlag,
              },
              first,
              numbers,
            );
            traced.set(seqString(pkt.seq), { numbers, at: new Date(nowMs), sentAt: null });
            if (traced.size > TRACE_KEEP) traced.delete(traced.keys().next().value!);
            if (pkt.reportFlag === REPORT_FLAG.NEVER || pkt.reportFlag === REPORT_FLAG.CHARGE_ONLY) break;
            const outcome = sim.outcome();
            if (!outcome) break;
            const delivered = outcome === 'delivered';
            if (delivered && pkt.reportFlag === REPORT_FLAG.FAILURES) break;
            const latency = sim.latency();
            for (const phone of pkt.userNumbers)
              queue.push({
                due: nowMs + latency,
                kind: 'report',
                submitSeq: pkt.seq,
                state: delivered ? REPORT_STATE.DELIVERED : REPORT_STATE.FAILED,
                errorCode: delivered ? 0 : RESULT.UNKNOWN_USER,
                phone,
                spNumber: pkt.spNumber,
              });
            break;
          }
          case 'TRACE': {
            const t = traced.get(seqString(pkt.submitSeq));
            const nodeId = traceNodeId(s.nodeId);
            const known = t && t.numbers.includes(withoutCountryCode(pkt.userNumber.trim()));
            socket.write(
              encodeTraceResp(pkt.seq, [
                known
                  ? {
                      result: TRACE_RESULT.ARRIVED,
                      nodeId,
                      receiveTime: traceTime(t.at, s.tzMinutes),
                      sendTime: traceTime(t.sentAt, s.tzMinutes),
                    }
                  : { result: TRACE_RESULT.NOT_ARRIVED, nodeId, receiveTime: '', sendTime: '' },
              ]),
            );
            break;
          }
          case 'UNBIND':
            socket.write(encodeUnbindResp(pkt.seq));
            socket.end();
            break;
          default:
            break;
        }
      },
    };
  });
  return {
    ...simHandle('sgip', s.login, s.password, s, sim, listener),
    counts: () => ({
      ...counts,
      bindBacks: back?.binds ?? 0,
      reportsPending: queue.filter((j) => j.kind === 'report').length + sending,
    }),
    bindBackTo: (p: number, h?: string) => {
      s.callbackPort = p;
      if (h) s.callbackHost = h;
      const old = back;
      back = null;
      void old?.close();
    },
    close: async () => {
      clearInterval(tick);
      listener.dropConnections();
      await back?.close();
      await listener.close();
    },
  };
}
