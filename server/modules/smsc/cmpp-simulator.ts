/**
 * A CMPP 2.0 / 3.0 carrier gateway (ISMG) simulator on the codec of server/lib/cmpp-pdu.ts: `npm
 * start` runs one on a loopback port instead of the SMPP simulator when SMPP_URL is not set and
 * SMSC_SIM_PROTOCOL=cmpp, so a cmpp:// link works on one machine. Rules: docs/api-dispatch.md
 * "CMPP link" → "Simulator".
 *
 * - CMPP_CONNECT checked against spId / secret (Status 2 bad Source_Addr, 3 bad authentication,
 *   4 a version other than 2.x / 3.x); answered in the version asked. Packets before it: the
 *   connection is closed. A Total_Length out of bounds or an unreadable packet closes it too.
 * - CMPP_SUBMIT → a Msg_Id (MsgIdSource: time, gateway code, sequence); beyond `maxPerSecond`
 *   submits a second → Result 8. Outcomes from a seeded PRNG: delivered / failed / noReceipt; a
 *   status report (DELIVER, Registered_Delivery 1) after latencyMinMs..latencyMaxMs, sent on any
 *   connection of the SP, kept while none is up, sent again when the connection drops before its
 *   DELIVER_RESP or the answer is not 0 (after redeliverMs). After a delivered report is
 *   acknowledged, `moRatio` of recipients reply to the submit's Src_Id.
 * - CMPP_ACTIVE_TEST and CMPP_TERMINATE are answered.
 */
import type net from 'node:net';
import {
  CmppFrameSplitter,
  CONNECT_STATUS,
  type CmppVersion,
  decodeCmppText,
  decodePacket,
  encodeActiveTestResp,
  encodeCmppText,
  encodeConnectResp,
  encodeDeliver,
  encodeReport,
  encodeSubmitResp,
  encodeTerminateResp,
  ismgAuthenticator,
  MsgIdSource,
  msgIdString,
  reportTime,
  RESULT,
  sourceAuthenticator,
  splitUdh,
  timestampText,
  versionOf,
  VERSION_OCTET,
} from '../../lib/cmpp-pdu';
import { listenFrames, SimCore, simHandle, simSettings, SimQueue, type SimCoreSettings } from './sim-core';

export interface CmppSimulatorSettings extends SimCoreSettings {
  /** the SP id (Source_Addr) and the shared secret */
  spId: string;
  secret: string;
  /** the gateway code in Msg_Ids (22 bits) */
  gateway: number;
}

export const CMPP_SIMULATOR_DEFAULTS: CmppSimulatorSettings = {
  host: '127.0.0.1',
  port: 0,
  spId: '900001',
  secret: 'secret',
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
  gateway: 10086,
  tzMinutes: 480,
};

export interface CmppSimulatorCounts {
  received: number;
  accepted: number;
  throttled: number;
  reportsSent: number;
  reportsPending: number;
  moSent: number;
  connects: number;
  connectFailures: number;
  sessions: number;
}

export interface CmppSimSubmit {
  msgId: string;
  to: string;
  srcId: string;
  text: string;
  msgFmt: number;
  pkTotal: number;
  pkNumber: number;
}

export interface CmppSimulator {
  readonly url: string;
  readonly port: number;
  readonly settings: CmppSimulatorSettings;
  counts(): CmppSimulatorCounts;
  /** the latest 1,000 submits accepted */
  readonly recent: CmppSimSubmit[];
  /** destination → submits accepted for it (first parts only): CMPP carries no ref of ours, the crash bench counts by number */
  readonly phones: Map<string, number>;
  dropConnections(): void;
  close(): Promise<void>;
}

interface Job {
  due: number;
  kind: 'report' | 'mo';
  msgId: bigint;
  /** report: stat, phone, submit time; mo: from, to, text */
  stat?: string;
  phone: string;
  srcId: string;
  submitAt: Date;
  text?: string;
}

interface Sess {
  socket: net.Socket;
  version: CmppVersion;
  connected: boolean;
  seq: number;
  unacked: Map<number, Job>;
}

const STATS = ['UNDELIV', 'EXPIRED', 'REJECTD'];

/** the settings the SMPP simulator's SMSC_SIM_* also name (simulatorSettingsFromEnv) are taken; others ignored */
export async function startCmppSimulator(
  settings: Partial<CmppSimulatorSettings> & Record<string, unknown> = {},
): Promise<CmppSimulator> {
  const s = simSettings(CMPP_SIMULATOR_DEFAULTS, settings);
  const sim = new SimCore<CmppSimSubmit>(s);
  const ids = new MsgIdSource(s.gateway, s.tzMinutes);
  const counts: CmppSimulatorCounts = {
    received: 0,
    accepted: 0,
    throttled: 0,
    reportsSent: 0,
    reportsPending: 0,
    moSent: 0,
    connects: 0,
    connectFailures: 0,
    sessions: 0,
  };

  const deliver = (sess: Sess, seq: number, job: Job) => {
    const now = new Date();
    if (job.kind === 'report') {
      const content = encodeReport(
        {
          msgId: job.msgId,
          stat: job.stat!,
          submitTime: reportTime(job.submitAt, s.tzMinutes),
          doneTime: reportTime(now, s.tzMinutes),
          destTerminalId: job.phone,
          smscSequence: seq,
        },
        sess.version,
      );
      sess.socket.write(
        encodeDeliver(
          seq,
          {
            msgId: ids.next(now),
            destId: job.srcId,
            serviceId: '',
            tpPid: 0,
            tpUdhi: 0,
            msgFmt: 0,
            srcTerminalId: job.phone,
            srcTerminalType: 0,
            registeredDelivery: 1,
            msgContent: content,
            linkId: '',
          },
          sess.version,
        ),
      );
    } else {
      const { msgFmt, octets } = encodeCmppText(job.text ?? '');
      sess.socket.write(
        encodeDeliver(
          seq,
          {
            msgId: job.msgId,
            destId: job.srcId,
            serviceId: '',
            tpPid: 0,
            tpUdhi: 0,
            msgFmt,
            srcTerminalId: job.phone,
            srcTerminalType: 0,
            registeredDelivery: 0,
            msgContent: octets.subarray(0, 140),
            linkId: '',
          },
          sess.version,
        ),
      );
    }
  };
  const queue = new SimQueue<Job, Sess>(s.redeliverMs, (x) => x.connected, deliver);

  const listener = await listenFrames(s, (socket) => {
    const sess: Sess = { socket, version: 2, connected: false, seq: 0, unacked: new Map() };
    queue.sessions.add(sess);
    counts.sessions = queue.sessions.size;
    return {
      splitter: new CmppFrameSplitter(),
      closed: () => {
        queue.closed(sess);
        counts.sessions = queue.sessions.size;
      },
      frame: (b) => {
        const pkt = decodePacket(b, sess.version);
        if (!sess.connected && pkt.command !== 'CONNECT') {
          socket.destroy();
          return false;
        }
        switch (pkt.command) {
          case 'CONNECT': {
            const v = versionOf(pkt.version);
            const layout: CmppVersion = v ?? 2;
            const expected = sourceAuthenticator(s.spId, s.secret, timestampText(pkt.timestamp));
            const status = !v
              ? CONNECT_STATUS.VERSION_TOO_HIGH
              : pkt.sourceAddr !== s.spId
                ? CONNECT_STATUS.BAD_SOURCE_ADDR
                : !expected.equals(pkt.authenticatorSource)
                  ? CONNECT_STATUS.BAD_AUTH
                  : CONNECT_STATUS.OK;
            socket.write(
              encodeConnectResp(
                pkt.sequenceId,
                {
                  status,
                  authenticatorIsmg: ismgAuthenticator(status, pkt.authenticatorSource, s.secret, layout),
                  version: VERSION_OCTET[layout],
                },
                layout,
              ),
            );
            if (status !== CONNECT_STATUS.OK) {
              counts.connectFailures++;
              socket.end();
              return false;
            }
            counts.connects++;
            sess.version = layout;
            sess.connected = true;
            break;
          }
          case 'SUBMIT': {
            counts.received++;
            const nowMs = Date.now();
            if (sim.throttled(nowMs)) {
              counts.throttled++;
              socket.write(encodeSubmitResp(pkt.sequenceId, { msgId: 0n, result: RESULT.FLOW_CONTROL }, sess.version));
              break;
            }
            const msgId = ids.next(new Date(nowMs));
            counts.accepted++;
            socket.write(encodeSubmitResp(pkt.sequenceId, { msgId, result: RESULT.OK }, sess.version));
            let body = pkt.msgContent;
            if (pkt.tpUdhi) {
              try {
                body = splitUdh(pkt.msgContent).body;
              } catch {
                body = pkt.msgContent;
              }
            }
            sim.took(
              {
                msgId: msgIdString(msgId),
                to: pkt.destTerminalIds[0] ?? '',
                srcId: pkt.srcId,
                text: decodeCmppText(body, pkt.msgFmt),
                msgFmt: pkt.msgFmt,
                pkTotal: pkt.pkTotal,
                pkNumber: pkt.pkNumber,
              },
              pkt.pkNumber <= 1,
              pkt.destTerminalIds,
            );
            if (pkt.registeredDelivery !== 1) break;
            const outcome = sim.outcome();
            if (!outcome) break; // no report
            const stat = outcome === 'delivered' ? 'DELIVRD' : sim.pick(STATS);
            const latency = sim.latency();
            for (const phone of pkt.destTerminalIds)
              queue.add({
                due: nowMs + latency,
                kind: 'report',
                msgId,
                stat,
                phone,
                srcId: pkt.srcId,
                submitAt: new Date(nowMs),
              });
            break;
          }
          case 'DELIVER_RESP': {
            const job = queue.answered(sess, pkt.sequenceId, pkt.result === RESULT.OK);
            if (!job) break;
            if (job.kind === 'report') {
              counts.reportsSent++;
              const text = job.stat === 'DELIVRD' ? sim.reply() : null;
              if (text !== null)
                queue.add({
                  due: Date.now() + s.moDelayMs,
                  kind: 'mo',
                  msgId: ids.next(),
                  phone: job.phone,
                  srcId: job.srcId,
                  submitAt: new Date(),
                  text,
                });
            } else counts.moSent++;
            break;
          }
          case 'ACTIVE_TEST':
            socket.write(encodeActiveTestResp(pkt.sequenceId));
            break;
          case 'TERMINATE':
            socket.write(encodeTerminateResp(pkt.sequenceId));
            socket.end();
            break;
          default:
            break;
        }
      },
    };
  });
  return {
    ...simHandle('cmpp', s.spId, s.secret, s, sim, listener),
    counts: () => ({ ...counts, reportsPending: queue.pendingReports() }),
    close: async () => {
      queue.stop();
      await listener.close();
    },
  };
}
