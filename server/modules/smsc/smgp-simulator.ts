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
import net from 'node:net';
import { prng } from '../../lib/prng';
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

export interface SmgpSimulatorSettings {
  host: string;
  /** 0 = any free port */
  port: number;
  /** the SP's ClientID and the shared secret */
  clientId: string;
  secret: string;
  delivered: number;
  failed: number;
  noReceipt: number;
  latencyMinMs: number;
  latencyMaxMs: number;
  /** submits a second beyond which the answer is Result 8 (0 = no limit) */
  maxPerSecond: number;
  moRatio: number;
  moTexts: string[];
  moDelayMs: number;
  redeliverMs: number;
  seed?: number;
  /** the SMGW code in MsgIDs (6 digits) */
  gateway: number;
  tzMinutes: number;
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
export async function startSmgpSimulator(settings: Partial<SmgpSimulatorSettings> & Record<string, unknown> = {}): Promise<SmgpSimulator> {
  const s: SmgpSimulatorSettings = { ...SMGP_SIMULATOR_DEFAULTS };
  for (const k of Object.keys(SMGP_SIMULATOR_DEFAULTS) as (keyof SmgpSimulatorSettings)[])
    if (settings[k] !== undefined) (s as unknown as Record<string, unknown>)[k] = settings[k];
  if (settings.seed !== undefined) s.seed = Number(settings.seed);
  const rnd = prng(s.seed ?? Math.floor(Math.random() * 2 ** 32));
  const ids = new SmgpMsgIdSource(s.gateway, s.tzMinutes);
  const sessions = new Set<Sess>();
  const queue: Job[] = [];
  const recent: SmgpSimSubmit[] = [];
  const phones = new Map<string, number>();
  const counts: SmgpSimulatorCounts = { received: 0, accepted: 0, throttled: 0, reportsSent: 0, reportsPending: 0, moSent: 0, connects: 0, connectFailures: 0, sessions: 0 };
  let second = 0;
  let inSecond = 0;
  const total = s.delivered + s.failed + s.noReceipt || 1;

  const deliver = (sess: Sess, job: Job) => {
    const seq = (sess.seq = sess.seq >= 0x7fffffff ? 1 : sess.seq + 1);
    sess.unacked.set(seq, job);
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

  const tick = setInterval(() => {
    const now = Date.now();
    const live = [...sessions].filter((x) => x.connected && x.receive && x.unacked.size < 1000);
    if (!live.length) return;
    const due: Job[] = [];
    const later: Job[] = [];
    for (const j of queue) (j.due <= now ? due : later).push(j);
    if (!due.length) return;
    queue.length = 0;
    for (const j of later) queue.push(j);
    due.forEach((job, i) => deliver(live[i % live.length], job));
  }, 20);
  tick.unref();

  const requeue = (sess: Sess) => {
    for (const job of sess.unacked.values()) queue.push({ ...job, due: Date.now() + s.redeliverMs });
    sess.unacked.clear();
  };

  const server = net.createServer((socket) => {
    const sess: Sess = { socket, connected: false, receive: false, seq: 0, unacked: new Map() };
    sessions.add(sess);
    counts.sessions = sessions.size;
    const splitter = new SmgpFrameSplitter();
    socket.setNoDelay(true);
    socket.on('error', () => {});
    socket.on('close', () => {
      requeue(sess);
      sessions.delete(sess);
      counts.sessions = sessions.size;
    });
    socket.on('data', (chunk: Buffer) => {
      let packets: Buffer[];
      try {
        packets = splitter.push(chunk);
      } catch {
        socket.destroy();
        return;
      }
      for (const b of packets) {
        let pkt;
        try {
          pkt = decodePacket(b);
        } catch {
          socket.destroy();
          return;
        }
        if (!sess.connected && pkt.command !== 'LOGIN') {
          socket.destroy();
          return;
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
              encodeLoginResp(pkt.sequenceId, { status, authenticatorServer: serverAuthenticator(status, pkt.authenticatorClient, s.secret), serverVersion: SMGP_VERSION }),
            );
            if (status !== STATUS.OK) {
              counts.connectFailures++;
              socket.end();
              return;
            }
            counts.connects++;
            sess.connected = true;
            sess.receive = pkt.loginMode !== LOGIN_MODE.SEND;
            break;
          }
          case 'SUBMIT': {
            counts.received++;
            const nowMs = Date.now();
            const sec = Math.floor(nowMs / 1000);
            if (sec !== second) [second, inSecond] = [sec, 0];
            if (s.maxPerSecond && ++inSecond > s.maxPerSecond) {
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
            recent.push({
              msgId: smgpMsgIdString(msgId),
              to: pkt.destTermIds[0] ?? '',
              srcTermId: pkt.srcTermId,
              text: decodeSmgpText(body, pkt.msgFormat),
              msgFormat: pkt.msgFormat,
              pkTotal: pkt.pkTotal,
              pkNumber: pkt.pkNumber,
            });
            if (recent.length > 1000) recent.splice(0, recent.length - 1000);
            if (pkt.pkNumber <= 1) for (const d of pkt.destTermIds) phones.set(d, (phones.get(d) ?? 0) + 1);
            if (pkt.needReport !== 1) break;
            const r = rnd() * total;
            if (r >= s.delivered + s.failed) break; // no report
            const stat = r < s.delivered ? 'DELIVRD' : STATS[Math.floor(rnd() * STATS.length)];
            const latency = s.latencyMinMs + rnd() * (s.latencyMaxMs - s.latencyMinMs);
            for (const phone of pkt.destTermIds) queue.push({ due: nowMs + latency, kind: 'report', msgId, stat, phone, srcId: pkt.srcTermId, submitAt: new Date(nowMs) });
            break;
          }
          case 'DELIVER_RESP': {
            const job = sess.unacked.get(pkt.sequenceId);
            if (!job) break;
            sess.unacked.delete(pkt.sequenceId);
            if (pkt.status !== STATUS.OK) {
              queue.push({ ...job, due: Date.now() + s.redeliverMs });
              break;
            }
            if (job.kind === 'report') {
              counts.reportsSent++;
              if (job.stat === 'DELIVRD' && s.moRatio > 0 && rnd() < s.moRatio) {
                const text = s.moTexts[Math.floor(rnd() * s.moTexts.length)] ?? 'TD';
                queue.push({ due: Date.now() + s.moDelayMs, kind: 'mo', msgId: ids.next(), phone: job.phone, srcId: job.srcId, submitAt: new Date(), text });
              }
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
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(s.port, s.host, () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  s.port = port;
  const host = s.host.includes(':') ? `[${s.host}]` : s.host;
  return {
    url: `smgp://${encodeURIComponent(s.clientId)}:${encodeURIComponent(s.secret)}@${host}:${port}`,
    port,
    settings: s,
    recent,
    phones,
    counts: () => ({
      ...counts,
      reportsPending: queue.filter((j) => j.kind === 'report').length + [...sessions].reduce((n, x) => n + [...x.unacked.values()].filter((j) => j.kind === 'report').length, 0),
    }),
    dropConnections: () => {
      for (const x of sessions) x.socket.destroy();
    },
    close: async () => {
      clearInterval(tick);
      for (const x of sessions) x.socket.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
