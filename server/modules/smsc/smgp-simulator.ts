/**
 * An SMGP 3.0 carrier gateway (SMGW) simulator on the codec of server/lib/smgp-pdu.ts: `npm start`
 * runs one on a loopback port instead of the SMPP simulator when SMPP_URL is not set and
 * SMSC_SIM_PROTOCOL=smgp, so an smgp:// link works on one machine. Rules: docs/api-dispatch.md
 * "SMGP link" → "Simulator". The same behaviour as the CMPP simulator (cmpp-simulator.ts):
 *
 * - SMGP_LOGIN checked against clientId / secret (Status 21 for a wrong ClientID or
 *   authenticator, 22 a version above 3.x); packets before it, a PacketLength out of bounds or an
 *   unreadable packet close the connection. Reports and uplinks go to sessions of LoginMode 1 / 2.
 * - SMGP_SUBMIT → a MsgID (SmgpMsgIdSource); beyond `maxPerSecond` submits a second → Status 1.
 *   Outcomes from a seeded PRNG: delivered / failed / noReceipt; a status report (DELIVER,
 *   IsReport 1, the 122-octet text) after latencyMinMs..latencyMaxMs on any receiving session of
 *   the SP, kept while none is up, sent again when the connection drops before its DELIVER_RESP
 *   or the answer is not 0. After a delivered report is acknowledged, `moRatio` of recipients
 *   reply to the submit's SrcTermID.
 * - SMGP_ACTIVE_TEST and SMGP_EXIT are answered.
 */
import type net from 'node:net';
import {
  clientAuthenticator,
  decodePacket,
  decodeSmgpText,
  encodeActiveTestResp,
  encodeDeliver,
  encodeDeliverResp,
  encodeExitResp,
  encodeLoginResp,
  encodeReport,
  encodeSmgpText,
  encodeSubmitResp,
  LOGIN_MODE,
  recvTime,
  reportTime,
  serverAuthenticator,
  SMGP_VERSION,
  SmgpFrameSplitter,
  SmgpMsgIdSource,
  smgpMsgIdString,
  splitUdh,
  STATUS,
  timestampText,
  ZERO_MSG_ID,
} from '../../lib/smgp-pdu';
import { listenFrames, SimCore, simHandle, simSettings, SimQueue, type SimCoreSettings } from './sim-core';

export interface SmgpSimulatorSettings extends SimCoreSettings {
  /** the SP's ClientID and the shared secret */
  clientId: string;
  secret: string;
  /** the SMGW code in MsgIDs (6 digits) */
  gateway: number;
}

export const SMGP_SIMULATOR_DEFAULTS: SmgpSimulatorSettings = {
  host: '127.0.0.1',
  port: 0,
  clientId: '10690001',
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
  gateway: 100001,
  tzMinutes: 480,
};

export interface SmgpSimulatorCounts {
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

export interface SmgpSimSubmit {
  msgId: string;
  to: string;
  srcTermId: string;
  text: string;
  msgFormat: number;
  pkTotal: number;
  pkNumber: number;
}

export interface SmgpSimulator {
  readonly url: string;
  readonly port: number;
  readonly settings: SmgpSimulatorSettings;
  counts(): SmgpSimulatorCounts;
  /** the latest 1,000 submits accepted */
  readonly recent: SmgpSimSubmit[];
  /** destination → submits accepted for it (first parts only): SMGP carries no ref of ours */
  readonly phones: Map<string, number>;
  dropConnections(): void;
  close(): Promise<void>;
}

interface Job {
  due: number;
  kind: 'report' | 'mo';
  msgId: Buffer;
  /** report: stat, phone, submit time; mo: from, to, text */
  stat?: string;
  phone: string;
  srcId: string;
  submitAt: Date;
  text?: string;
}

interface Sess {
  socket: net.Socket;
  connected: boolean;
  /** LoginMode 1 / 2: takes reports and uplinks */
  receive: boolean;
  seq: number;
  unacked: Map<number, Job>;
}

const STATS = ['UNDELIV', 'EXPIRED', 'REJECTD'];

/** the settings the SMPP simulator's SMSC_SIM_* also name (simulatorSettingsFromEnv) are taken; others ignored */
export async function startSmgpSimulator(
  settings: Partial<SmgpSimulatorSettings> & Record<string, unknown> = {},
): Promise<SmgpSimulator> {
  const s = simSettings(SMGP_SIMULATOR_DEFAULTS, settings);
  const sim = new SimCore<SmgpSimSubmit>(s);
  const ids = new SmgpMsgIdSource(s.gateway, s.tzMinutes);
  const counts: SmgpSimulatorCounts = {
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
      const content = encodeReport({
        msgId: job.msgId,
        sub: '001',
        dlvrd: job.stat === 'DELIVRD' ? '001' : '000',
        submitDate: reportTime(job.submitAt, s.tzMinutes),
        doneDate: reportTime(now, s.tzMinutes),
        stat: job.stat!,
        err: job.stat === 'DELIVRD' ? '000' : '001',
        text: Buffer.alloc(0),
      });
      sess.socket.write(
        encodeDeliver(seq, {
          msgId: ids.next(now),
          isReport: 1,
          msgFormat: 0,
          recvTime: recvTime(now, s.tzMinutes),
          srcTermId: job.phone,
          destTermId: job.srcId,
          msgContent: content,
          reserve: '',
          tpUdhi: 0,
          linkId: '',
        }),
      );
    } else {
      const { msgFormat, octets } = encodeSmgpText(job.text ?? '');
      sess.socket.write(
        encodeDeliver(seq, {
          msgId: job.msgId,
          isReport: 0,
          msgFormat,
          recvTime: recvTime(now, s.tzMinutes),
          srcTermId: job.phone,
          destTermId: job.srcId,
          msgContent: octets.subarray(0, 140),
          reserve: '',
          tpUdhi: 0,
          linkId: '',
        }),
      );
    }
  };

  const queue = new SimQueue<Job, Sess>(s.redeliverMs, (x) => x.connected && x.receive, deliver);

  const listener = await listenFrames(s, (socket) => {
    const sess: Sess = { socket, connected: false, receive: false, seq: 0, unacked: new Map() };
    queue.sessions.add(sess);
    counts.sessions = queue.sessions.size;
    return {
      splitter: new SmgpFrameSplitter(),
      closed: () => {
        queue.closed(sess);
        counts.sessions = queue.sessions.size;
      },
      frame: (b) => {
        const pkt = decodePacket(b);
        if (!sess.connected && pkt.command !== 'LOGIN') {
          socket.destroy();
          return false;
        }
        switch (pkt.command) {
          case 'LOGIN': {
            const expected = clientAuthenticator(s.clientId, s.secret, timestampText(pkt.timestamp));
            const status =
              pkt.clientVersion >> 4 > 3
                ? STATUS.VERSION_TOO_HIGH
                : pkt.clientId !== s.clientId || !expected.equals(pkt.authenticatorClient)
                  ? STATUS.BAD_AUTH
                  : pkt.loginMode > LOGIN_MODE.TRANSMIT
                    ? STATUS.BAD_STRUCTURE
                    : STATUS.OK;
            socket.write(
              encodeLoginResp(pkt.sequenceId, {
                status,
                authenticatorServer: serverAuthenticator(status, pkt.authenticatorClient, s.secret),
                serverVersion: SMGP_VERSION,
              }),
            );
            if (status !== STATUS.OK) {
              counts.connectFailures++;
              socket.end();
              return false;
            }
            counts.connects++;
            sess.connected = true;
            sess.receive = pkt.loginMode !== LOGIN_MODE.SEND;
            break;
          }
          case 'SUBMIT': {
            counts.received++;
            const nowMs = Date.now();
            if (sim.throttled(nowMs)) {
              counts.throttled++;
              socket.write(encodeSubmitResp(pkt.sequenceId, { msgId: ZERO_MSG_ID, status: STATUS.SYSTEM_BUSY }));
              break;
            }
            const msgId = ids.next(new Date(nowMs));
            counts.accepted++;
            socket.write(encodeSubmitResp(pkt.sequenceId, { msgId, status: STATUS.OK }));
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
                msgId: smgpMsgIdString(msgId),
                to: pkt.destTermIds[0] ?? '',
                srcTermId: pkt.srcTermId,
                text: decodeSmgpText(body, pkt.msgFormat),
                msgFormat: pkt.msgFormat,
                pkTotal: pkt.pkTotal,
                pkNumber: pkt.pkNumber,
              },
              pkt.pkNumber <= 1,
              pkt.destTermIds,
            );
            if (pkt.needReport !== 1) break;
            const outcome = sim.outcome();
            if (!outcome) break; // no report
            const stat = outcome === 'delivered' ? 'DELIVRD' : sim.pick(STATS);
            const latency = sim.latency();
            for (const phone of pkt.destTermIds)
              queue.add({
                due: nowMs + latency,
                kind: 'report',
                msgId,
                stat,
                phone,
                srcId: pkt.srcTermId,
                submitAt: new Date(nowMs),
              });
            break;
          }
          case 'DELIVER_RESP': {
            const job = queue.answered(sess, pkt.sequenceId, pkt.status === STATUS.OK);
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
          case 'DELIVER':
            // an uplink from the SP is not served: answered and dropped
            socket.write(encodeDeliverResp(pkt.sequenceId, { msgId: pkt.msgId, status: STATUS.OK }));
            break;
          case 'EXIT':
            socket.write(encodeExitResp(pkt.sequenceId));
            socket.end();
            break;
          default:
            break;
        }
      },
    };
  });
  return {
    ...simHandle('smgp', s.clientId, s.secret, s, sim, listener),
    counts: () => ({ ...counts, reportsPending: queue.pendingReports() }),
    close: async () => {
      queue.stop();
      await listener.close();
    },
  };
}
