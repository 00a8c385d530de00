/**
 * The SMGP door described for its help document (GET /help/smgpdoc; help module door-doc.ts renders
 * it), from the door's own code: the statuses are smgp-server.ts SMGP_RESULT and its refusal map
 * SMGP_REFUSAL_STATUS, the request ids lib/smgp-pdu.ts CMD, the formats MSG_FORMAT, the TLV tags
 * TAG, the timers and windows the running listener's options, and the examples are encoded by the
 * codec the door answers with (the authenticator computed by `clientAuthenticator`). A change of a
 * constant changes the document; tests/server/door-docs.test.ts checks that every status
 * smgp-server.ts answers with is in it.
 */
import { MESSAGES } from '../../../common/schema/messages';
import type { AppContext } from '../../context';
import type { CodeEntry, DoorDescription, DoorDocRequest } from '../help';
import { MAX_MESSAGE_CHARS } from '../../../common/sms/pieces';
import {
  clientAuthenticator,
  CMD,
  CONTENT_MAX,
  encodeDeliver,
  encodeLogin,
  encodeLoginResp,
  encodeReport,
  encodeSmgpText,
  encodeSubmit,
  encodeSubmitResp,
  HEADER_LENGTH,
  LOGIN_MODE,
  MAX_DESTS,
  MAX_PACKET,
  MSG_FORMAT,
  recvTime,
  REPORT_LENGTH,
  reportTime,
  serverAuthenticator,
  SMGP_VERSION,
  smgpMsgIdParts,
  smgpMsgIdString,
  splitSmgpText,
  SUBMIT_DEFAULTS,
  TAG,
} from '../../lib/smgp-pdu';
import { MAX_PARTS } from './door-core';
import {
  accountTable,
  accountWarnings,
  duration,
  EXAMPLE,
  MO_KEEP_HOURS,
  PIECE_RULE,
  RECEIPT_KEEP_HOURS,
  RECEIPT_STAT_TEXT,
  RECEIPT_STAT_WORDS,
  encoded,
  refusalEntries,
} from './door-doc-common';
import { SMGP_REFUSAL_STATUS, SMGP_RESULT, smgpLoginOf, smgpMessageId, type SmgpServerOptions } from './smgp-server';

/** the SMGP 3.0 specification's name of each Status this door answers with; the platform's own from 100 */
export const SMGP_RESULT_NAME: Record<keyof typeof SMGP_RESULT, string> = {
  OK: '成功',
  SYSTEM_BUSY: '系统忙',
  TOO_MANY_CONNECTIONS: '超过最大连接数',
  BAD_STRUCTURE: '消息结构错',
  BAD_COMMAND: '命令字错',
  BAD_AUTH: '认证错',
  VERSION_TOO_HIGH: '版本太高',
  BAD_MSG_FORMAT: '非法短消息格式（MsgFormat）',
  BAD_MSG_LENGTH: '非法短消息长度（MsgLength）',
  BAD_DEST_TERM_ID: '非法接收用户号码（DestTermID）',
  X_ACCOUNT: '平台自定义',
  X_SIGN: '平台自定义',
  X_CREDIT: '平台自定义',
  X_BLACKLIST: '平台自定义',
  X_PARTS_FULL: '平台自定义',
  X_SYSTEM: '平台自定义',
};

const keyOf = <T extends Record<string, number>>(table: T, code: number) =>
  (Object.keys(table) as (keyof T)[]).find((k) => table[k] === code);
export const smgpResultName = (code: number) => {
  const k = keyOf(SMGP_RESULT, code);
  return k ? SMGP_RESULT_NAME[k] : undefined;
};

const result = (key: keyof typeof SMGP_RESULT, when: string): CodeEntry => ({
  code: SMGP_RESULT[key],
  name: SMGP_RESULT_NAME[key],
  when,
});
const cmd = (id: number) => `0x${(id >>> 0).toString(16).toUpperCase().padStart(8, '0')}`;
const hex4 = (n: number) => `0x${n.toString(16).toUpperCase().padStart(4, '0')}`;
const octets = (b: Buffer) => [...b].map((x) => x.toString(16).padStart(2, '0')).join(' ');

export interface SmgpDocInput {
  opts: SmgpServerOptions;
  port: number;
  /** the account's interface password is sealed under this server's key (else LOGIN answers 21 until a reset) */
  secretUsable: boolean;
}

export function describeSmgpDoor(ctx: AppContext, door: SmgpDocInput, req: DoorDocRequest): DoorDescription {
  const { opts } = door;
  const a = req.account;
  const login = smgpLoginOf(a);
  const shownLogin = login || 'cli001';
  const number = `${opts.sourcePrefix}${a.id}`;
  const { maxFailedLogins, lockMs } = ctx.config;
  const tz = opts.tzMinutes;
  const sourceId = a.needextend === 1 ? `${number}${EXAMPLE.extension}` : number;

  // ---------------------------------------------------------------- examples, encoded by the door's codec
  const timestamp = '0101120000';
  const auth = clientAuthenticator(shownLogin, EXAMPLE.password, timestamp);
  const loginPacket = encoded(() =>
    encodeLogin(1, {
      clientId: shownLogin,
      authenticatorClient: auth,
      loginMode: LOGIN_MODE.TRANSMIT,
      timestamp: Number(timestamp),
      clientVersion: SMGP_VERSION,
    }),
  );
  const loginResp = encodeLoginResp(1, {
    status: SMGP_RESULT.OK,
    authenticatorServer: serverAuthenticator(0, auth, EXAMPLE.password),
    serverVersion: SMGP_VERSION,
  });
  const text = encodeSmgpText(EXAMPLE.text);
  const submit = encodeSubmit(2, {
    ...SUBMIT_DEFAULTS,
    srcTermId: sourceId,
    destTermIds: [EXAMPLE.mobile],
    msgFormat: text.msgFormat,
    msgContent: text.octets,
    needReport: 1,
  });
  const submitAt = new Date(req.now.getTime() - 60_000);
  const msgId = smgpMessageId(100001, submitAt, tz);
  const parts = smgpMsgIdParts(msgId)!;
  const submitResp = encodeSubmitResp(2, { msgId, status: SMGP_RESULT.OK });
  const ref = 0x2a;
  const long = splitSmgpText(EXAMPLE.longText, ref);
  const part1 = encoded(() =>
    encodeSubmit(3, {
      ...SUBMIT_DEFAULTS,
      srcTermId: sourceId,
      destTermIds: [EXAMPLE.mobile],
      tpUdhi: 1,
      pkTotal: long.contents.length,
      pkNumber: 1,
      msgFormat: long.msgFormat,
      msgContent: long.contents[0],
    }),
  );
  const report = encodeReport({
    msgId,
    sub: '001',
    dlvrd: '001',
    submitDate: reportTime(submitAt, tz),
    doneDate: reportTime(req.now, tz),
    stat: 'DELIVRD',
    err: '000',
    text: Buffer.alloc(0),
  });
  const deliver = encoded(() =>
    encodeDeliver(1, {
      msgId,
      isReport: 1,
      msgFormat: MSG_FORMAT.ASCII,
      recvTime: recvTime(req.now, tz),
      srcTermId: EXAMPLE.mobile,
      destTermId: number,
      msgContent: report,
      reserve: '',
      tpUdhi: 0,
      linkId: '',
    }),
  );
  const reply = encodeSmgpText(EXAMPLE.reply);

  const fields = (rows: (string | number)[][]) => ({ head: ['字段', '值', '说明'], rows });
  const warnings = accountWarnings(a);
  if (!login)
    warnings.push(
      '您的账户还没有接口登录名（SMGP 的 ClientID 与 CMPP 登录名相同，最长 6 个字符，账户名更长时另行生成）：请在「接口信息」中重置接口密码，之后即可看到登录名。示例中的登录名以 cli001 代替。',
    );
  else if (a.interface_password_hash && !door.secretUsable)
    warnings.push(
      '您的接口密码设置于 SMGP 开通之前，SMGP 登录会被拒绝（Status 21）：请在「接口信息」中重置接口密码一次。',
    );

  return {
    protocol: 'SMGP 3.0',
    intro: [
      '客户系统以 SP 连接中国电信短信网关（SMGW）的方式，用 SMGP 3.0 与平台建立 TCP 长连接：SMGP_LOGIN 登录后以 SMGP_SUBMIT 提交短信，状态报告与上行短信以 SMGP_DELIVER 发往以接收或收发方式登录的连接。',
      '经本接口提交的短信与控制台发送的短信受理规则相同：签名、认证、敏感词、审核、号码与计费都一样，计费在应答前完成；被拒绝的提交不写入、不计费。',
    ],
    account: accountTable(ctx, a, { login, loginLabel: '登录名（ClientID）', host: req.host, port: door.port, number }),
    warnings,
    sections: {
      connect: {
        table: {
          head: ['项目', '规则'],
          rows: [
            ['地址与端口', `${req.host}:${door.port}`],
            ['协议版本', `SMGP 3.0（ClientVersion / ServerVersion \`0x${SMGP_VERSION.toString(16)}\`）`],
            [
              '登录方式（LoginMode）',
              `${LOGIN_MODE.SEND} 发送：只提交短信，不接收状态报告与上行；${LOGIN_MODE.RECEIVE} 接收：只接收状态报告与上行（提交被拒绝）；${LOGIN_MODE.TRANSMIT} 收发：两者都有`,
            ],
            ['登录期限', `连接建立后 ${duration(opts.connectTimeoutMs)}内须完成 SMGP_LOGIN，否则连接被关闭`],
            [
              '链路检测',
              `连接静默 ${duration(opts.activeTestMs)}后平台发送 SMGP_ACTIVE_TEST（此后每 ${duration(opts.activeTestMs)}一次），请应答 SMGP_ACTIVE_TEST_RESP；${duration(opts.idleTimeoutMs)}内没有收到任何报文则关闭连接。客户也可以发送 SMGP_ACTIVE_TEST`,
            ],
            [
              '连接限制',
              `每个 IP 同时最多 ${opts.maxConnectionsPerAddress} 个连接，${duration(opts.connectWindowMs)}内最多新建 ${opts.maxConnectAttempts} 个连接；超过时新连接被立即关闭`,
            ],
            [
              '会话数',
              '同一账户同时登录的连接数不超过其最大连接数（nodenum），所有接口（含 SMPP、CMPP）与服务器进程合计',
            ],
            ['报文长度', `PacketLength 小于 ${HEADER_LENGTH} 或大于 ${MAX_PACKET} 字节时连接被关闭`],
          ],
        },
        notes: ['没有以接收（1）或收发（2）方式登录的连接时，状态报告与上行短信在平台排队等待。'],
      },
      login: {
        paragraphs: [
          `ClientID 为您的接口登录名${login ? ` \`${login}\`` : ''}（与 CMPP 登录名相同，8 字节字段）；认证码 AuthenticatorClient = MD5(ClientID + 7 个字节的 0 + 接口密码 + TimeStamp)，其中 TimeStamp 为 10 位数字 MMDDHHMMSS（不足 10 位左补 0），平台不把它与时钟比对。接口密码与控制台登录密码不同，在「接口信息」中重置，新密码只显示一次。`,
          `登录成功时 SMGP_LOGIN_RESP 的 Status 为 0，AuthenticatorServer = MD5(Status(4 字节) + AuthenticatorClient + 接口密码)，ServerVersion 为 0x30。登录名不存在与认证码错误的应答相同；同一登录名在同一 IP 连续失败 ${maxFailedLogins} 次后锁定 ${duration(lockMs)}。被拒绝的连接在应答后关闭。`,
        ],
        table: fields([
          ['ClientID', login || '（尚未生成）', '8 字节'],
          ['AuthenticatorClient', 'MD5 结果', '16 字节'],
          ['LoginMode', `${LOGIN_MODE.SEND} / ${LOGIN_MODE.RECEIVE} / ${LOGIN_MODE.TRANSMIT}`, '1 字节'],
          ['TimeStamp', 'MMDDHHMMSS', '4 字节整数'],
          ['ClientVersion', `0x${SMGP_VERSION.toString(16)}`, '1 字节'],
        ]),
        codes: {
          format: 'decimal',
          label: 'Status',
          entries: [
            result('OK', MESSAGES.loggedIn),
            result(
              'BAD_STRUCTURE',
              'ClientID 为空或含不可打印字符，LoginMode 不是 0、1、2；已登录的连接再次发送 SMGP_LOGIN（连接继续）',
            ),
            result(
              'BAD_AUTH',
              '登录名不存在、认证码错误，或账户尚无可用于 SMGP 的接口密码（在「接口信息」中重置一次）',
            ),
            result('VERSION_TOO_HIGH', 'ClientVersion 高于 3.x'),
            result('TOO_MANY_CONNECTIONS', '账户已登录的连接数达到最大连接数（nodenum）'),
            result(
              'X_ACCOUNT',
              `该登录名在此 IP 连续失败 ${maxFailedLogins} 次后被锁定；账户不能使用接口（未启用、已冻结、认证未通过或测试账户）；连接的 IP 不在账户的 IP 白名单内`,
            ),
            result('SYSTEM_BUSY', '平台内部错误：请稍后重新登录'),
          ],
        },
      },
      commands: {
        table: {
          head: ['命令', 'RequestID', '方向', '平台的处理'],
          rows: [
            ['SMGP_LOGIN', cmd(CMD.LOGIN), '客户 → 平台', '登录，见「登录认证」'],
            ['SMGP_SUBMIT', cmd(CMD.SUBMIT), '客户 → 平台', '提交短信，应答 SMGP_SUBMIT_RESP（无法解析时 Status 10）'],
            ['SMGP_DELIVER', cmd(CMD.DELIVER), '平台 → 客户', '状态报告（IsReport 1）与上行短信（IsReport 0）'],
            ['SMGP_DELIVER_RESP', cmd(CMD.DELIVER_RESP), '客户 → 平台', 'Status 0：已收到，不再重发；其他：一秒后重发'],
            ['SMGP_ACTIVE_TEST', cmd(CMD.ACTIVE_TEST), '双向', '应答 SMGP_ACTIVE_TEST_RESP'],
            ['SMGP_ACTIVE_TEST_RESP', cmd(CMD.ACTIVE_TEST_RESP), '双向', ''],
            ['SMGP_EXIT', cmd(CMD.EXIT), '客户 → 平台', '应答 SMGP_EXIT_RESP 后关闭连接'],
          ],
        },
        notes: [
          '登录前发送 SMGP_LOGIN 以外的报文：连接被关闭。登录后，其他命令（SMGP_QUERY、SMGP_FORWARD、路由类命令、其他应答与未定义的 RequestID）不应答，连接继续。一个连接中的错误只关闭该连接。',
        ],
      },
      submit: {
        paragraphs: [
          `一个 SMGP_SUBMIT 可以发往 1–${MAX_DESTS} 个号码（DestTermIDCount），每个号码是一条短信，分别受理。SMGP_SUBMIT_RESP 给出第一个号码的结果（其 MsgID 或拒绝原因）；其余号码各自受理或拒绝，它们的状态报告也使用应答中的 MsgID。`,
          'MsgID 为 10 字节 BCD 码：网关代码(6 位) + 月日时分 MMDDHHMM(8 位，北京时间) + 序号(6 位)。整条短信的 MsgID 对应平台的消息编号，状态报告中的 MsgID 与提交应答中的相同。',
        ],
        table: fields([
          ['NeedReport', '0 或 1', '0 不要状态报告，其他值要所有最终状态的报告'],
          ['MsgFormat', `${MSG_FORMAT.ASCII} / ${MSG_FORMAT.UCS2} / ${MSG_FORMAT.GB}`, '见「编码与长短信」'],
          [
            'SrcTermID',
            sourceId,
            a.needextend === 1
              ? `账户号码 ${number} + 1–6 位扩展号（也可只填扩展号）`
              : `被忽略：一律从账户号码 ${number} 发出`,
          ],
          ['DestTermIDCount', `1–${MAX_DESTS}`, '号码个数'],
          ['DestTermID', EXAMPLE.mobile, '中国大陆手机号，21 字节'],
          [
            'MsgLength / MsgContent',
            '内容',
            `MsgContent 最多 255 字节（含 UDH）；一条短信最多 ${MAX_MESSAGE_CHARS} 个字符`,
          ],
          [`TP_udhi（TLV ${hex4(TAG.TP_udhi)}）`, '0 或 1', '1：MsgContent 以 UDH 开头（长短信分段）'],
          [
            `PkTotal / PkNumber（TLV ${hex4(TAG.PkTotal)} / ${hex4(TAG.PkNumber)}）`,
            '总数 / 序号',
            '可选，不读取：长短信以 TP_udhi 与 UDH 为准',
          ],
          [`MsgSrc / LinkID（TLV ${hex4(TAG.MsgSrc)} / ${hex4(TAG.LinkID)}）`, '任意', '可选，不使用'],
          [
            'MsgType、Priority、ServiceID、FeeType、FeeCode、FixedFee、ValidTime、AtTime、ChargeTermID、Reserve、其他 TLV',
            '任意',
            '不使用',
          ],
        ]),
        notes: [
          '可选参数（TLV）在 Reserve 之后：Tag(2 字节) Length(2 字节) Value，任意顺序；不认识的 TLV 被忽略。',
          `短信内容须带账户已审核通过的签名（【签名】放在开头或结尾）；含敏感词的短信被拦截（不计费），需要审核的账户其短信等待人工审核。${PIECE_RULE}`,
        ],
      },
      results: {
        paragraphs: [
          'SMGP_SUBMIT_RESP 的 Status：0 为受理成功；除注明「请稍后重发」的以外，其他结果都是该短信的最终结果，未写入、未计费。',
        ],
        codes: {
          format: 'decimal',
          label: 'Status',
          entries: [
            result('OK', '受理成功：应答带 MsgID（已写入并计费）'),
            result('BAD_STRUCTURE', '报文无法解析'),
            result('BAD_STRUCTURE', `长短信分段错误：序号超出总数、总数超过 ${MAX_PARTS}，或分段发往多个号码`),
            result('BAD_MSG_FORMAT', `MsgFormat 不是 ${MSG_FORMAT.ASCII}、${MSG_FORMAT.UCS2} 或 ${MSG_FORMAT.GB}`),
            result('BAD_MSG_LENGTH', `内容超过 ${MAX_MESSAGE_CHARS} 个字符`),
            result('BAD_COMMAND', `以接收方式（LoginMode ${LOGIN_MODE.RECEIVE}）登录的连接提交短信`),
            result('SYSTEM_BUSY', '超过账户每秒提交速度（accessSpeed）：请稍后重发'),
            result('SYSTEM_BUSY', `本连接同时受理中的提交超过 ${opts.window} 个：请稍后重发`),
            result('X_ACCOUNT', '账户不能使用接口（登录后被冻结、认证被撤销等，一秒内生效）'),
            result(
              'X_PARTS_FULL',
              `账户未完成的长短信分段已达上限（${Math.round(opts.partsMaxBytes / 1024)} KB）：分段未保存`,
            ),
            result('X_SYSTEM', '平台内部错误：未写入，请稍后重发'),
            ...refusalEntries(SMGP_REFUSAL_STATUS, smgpResultName),
          ],
        },
        notes: [
          `Status ${SMGP_RESULT.SYSTEM_BUSY} 表示「稍后重发」（流量控制）：请保留该短信，暂停片刻（如 50 毫秒起，逐次加倍至 1 秒）再提交。100 及以上是平台自定义的拒绝原因。`,
        ],
      },
      coding: {
        table: {
          head: ['MsgFormat', '编码', '说明'],
          rows: [
            [MSG_FORMAT.ASCII, 'ASCII', '英文短信'],
            [MSG_FORMAT.UCS2, 'UCS2（UTF-16 大端）', '中文短信请用此编码'],
            [MSG_FORMAT.GB, 'GB18030（含 GBK、GB2312）', ''],
            ['其他', '—', `Status ${SMGP_RESULT.BAD_MSG_FORMAT}`],
          ],
        },
        notes: [
          `长短信分段提交：TP_udhi（TLV ${hex4(TAG.TP_udhi)}）为 1，MsgContent 以 UDH 开头——\`05 00 03 参考号 总数 序号\` 或 \`06 08 04 参考号(2字节) 总数 序号\`；PkTotal / PkNumber 可一并填写；每段 UCS2 最多 67 个字符（ASCII 134 字节），每段只能发往一个号码。`,
          `一条长短信最多 ${MAX_PARTS} 段、合计 ${MAX_MESSAGE_CHARS} 个字符。各段可以任意顺序、经任意连接提交（同一 SrcTermID、号码、参考号与总数为同一条）。未完成的分段先应答各自的 MsgID，完成整条的那一段应答整条短信的 MsgID；每个应答过的 MsgID 都会收到状态报告。`,
          `第一段到达 ${duration(opts.reassemblyMs)}后仍未收齐的，按已收到的分段合并为一条受理（缺失的段略去）。每一段都占用一个提交速度（accessSpeed）配额。`,
        ],
      },
      reports: {
        paragraphs: [
          `账户的状态报告为「透传状态报告」且提交时 NeedReport 不为 0 时，短信的最终状态以 SMGP_DELIVER（IsReport 1）发往该账户以接收或收发方式登录的连接；没有这样的连接时排队等待（最长 ${RECEIPT_KEEP_HOURS} 小时），连接登录后按顺序发出。`,
          `客户须以 SMGP_DELIVER_RESP（Status 0）应答；应答后不再重发。应答错误一秒后重发；${duration(opts.receiptLeaseMs)}内没有应答或连接断开，则重发。每个连接最多 ${opts.deliverWindow} 条未应答。`,
        ],
        table: fields([
          ['MsgID', smgpMsgIdString(msgId), '与状态报告内容中的 id 相同'],
          ['IsReport', 1, '状态报告'],
          ['MsgFormat', MSG_FORMAT.ASCII, ''],
          ['SrcTermID', EXAMPLE.mobile, '手机号'],
          ['DestTermID', number, '账户号码'],
          [
            'MsgContent',
            `${REPORT_LENGTH} 字节`,
            '`id:`(10 字节 MsgID) ` sub:001 dlvrd:001 Submit date:`YYMMDDhhmm ` done date:`YYMMDDhhmm ` stat:`(7) ` err:`(3) ` Text:`(20)；时间为北京时间；id 为您在提交应答中得到的 MsgID 的 10 个字节',
          ],
        ]),
        notes: [`stat：${RECEIPT_STAT_WORDS.map((w) => `\`${w}\` ${RECEIPT_STAT_TEXT[w]}`).join('；')}。`],
      },
      uplinks: {
        paragraphs: [
          `账户的上行短信为「需要（推送）」且状态报告为「透传」时，手机回复到账户号码 ${number}（或加扩展号）的短信以 SMGP_DELIVER（IsReport 0）发往账户以接收或收发方式登录的连接，排队、应答与重发规则同状态报告（最长保留 ${MO_KEEP_HOURS} 小时）。`,
        ],
        table: fields([
          ['IsReport', 0, '上行短信'],
          ['MsgFormat', `${MSG_FORMAT.ASCII} 或 ${MSG_FORMAT.UCS2}`, '纯 ASCII 为 0，否则 UCS2'],
          ['SrcTermID', EXAMPLE.mobile, '回复的手机号'],
          [
            'DestTermID',
            `${number}${a.needextend === 1 ? EXAMPLE.extension : ''}`,
            '手机回复的号码：账户号码 + 扩展号',
          ],
          [
            'MsgContent',
            EXAMPLE.reply,
            `超过 ${CONTENT_MAX} 字节时分段发送（TLV TP_udhi 1，UDH \`05 00 03 参考号 总数 序号\`）`,
          ],
        ]),
      },
      flow: {
        table: {
          head: ['限制', '规则', '超过时'],
          rows: [
            [
              '提交速度（accessSpeed）',
              `账户每秒可提交的条数（当前：${a.access_speed > 0 ? `每秒 ${a.access_speed} 条` : '不限'}），所有接口与服务器进程合计；每个号码（长短信的每一段）计 1 条`,
              `Status ${SMGP_RESULT.SYSTEM_BUSY}，请稍后重发`,
            ],
            [
              '提交窗口',
              `每个连接同时受理中的 SMGP_SUBMIT 最多 ${opts.window} 个（建议客户端窗口不超过此数）`,
              `Status ${SMGP_RESULT.SYSTEM_BUSY}，请稍后重发`,
            ],
            ['推送窗口', `每个连接最多 ${opts.deliverWindow} 个未应答的 SMGP_DELIVER`, '等待应答后继续发送'],
            [
              '最大连接数（nodenum）',
              '账户同时登录的连接数',
              `SMGP_LOGIN_RESP Status ${SMGP_RESULT.TOO_MANY_CONNECTIONS}`,
            ],
          ],
        },
      },
    },
    examples: [
      {
        title: '登录：SMGP_LOGIN',
        paragraphs: [
          `示例中的接口密码以 \`${EXAMPLE.password}\` 代替，请换成您的接口密码${login ? '' : '；登录名以 cli001 代替'}。TimeStamp 取 ${timestamp}（1 月 1 日 12:00:00），收发方式登录。`,
        ],
        fields: fields([
          ['ClientID', shownLogin, ''],
          ['AuthenticatorClient', auth.toString('hex'), '见下方计算'],
          ['LoginMode', LOGIN_MODE.TRANSMIT, '收发'],
          ['TimeStamp', Number(timestamp), `即 ${timestamp}（4 字节整数）`],
          ['ClientVersion', `0x${SMGP_VERSION.toString(16)}`, 'SMGP 3.0'],
        ]),
        text: `AuthenticatorClient = MD5( "${shownLogin}" + 00×7 + "${EXAMPLE.password}" + "${timestamp}" )\n = MD5( ${octets(Buffer.concat([Buffer.from(shownLogin, 'latin1'), Buffer.alloc(7), Buffer.from(EXAMPLE.password + timestamp, 'latin1')]))} )\n = ${auth.toString('hex')}`,
        hex: loginPacket,
      },
      {
        title: '登录应答：SMGP_LOGIN_RESP',
        fields: fields([
          ['Status', 0, '成功（4 字节）'],
          [
            'AuthenticatorServer',
            serverAuthenticator(0, auth, EXAMPLE.password).toString('hex'),
            'MD5(Status + AuthenticatorClient + 接口密码)',
          ],
          ['ServerVersion', `0x${SMGP_VERSION.toString(16)}`, ''],
        ]),
        hex: loginResp,
      },
      {
        title: '提交短信：SMGP_SUBMIT',
        fields: fields([
          ['NeedReport', 1, '要状态报告'],
          ['MsgFormat', text.msgFormat, 'UCS2'],
          ['SrcTermID', sourceId, ''],
          ['DestTermIDCount', 1, ''],
          ['DestTermID', EXAMPLE.mobile, ''],
          ['MsgContent', EXAMPLE.text, `${text.octets.length} 字节`],
        ]),
        hex: submit,
      },
      {
        title: '提交应答：SMGP_SUBMIT_RESP',
        fields: fields([
          [
            'MsgID',
            smgpMsgIdString(msgId),
            `示例：网关代码 ${String(parts.gateway).padStart(6, '0')}，${parts.month} 月 ${parts.day} 日 ${parts.hour}:${String(parts.minute).padStart(2, '0')}，序号 ${String(parts.sequence).padStart(6, '0')}`,
          ],
          ['Status', 0, '受理成功（4 字节）'],
        ]),
        hex: submitResp,
      },
      {
        title: `长短信：第 1 段（共 ${long.contents.length} 段）`,
        paragraphs: [
          `「${EXAMPLE.longText}」共 ${[...EXAMPLE.longText].length} 个字符，按 UCS2 分为 ${long.contents.length} 段，每段 MsgContent 以 UDH \`${octets(long.contents[0].subarray(0, 6))}\` 开头（参考号 ${ref}，共 ${long.contents.length} 段，第 1 段），TLV TP_udhi 1、PkTotal ${long.contents.length}、PkNumber 1。`,
        ],
        fields: fields([
          ['MsgFormat', long.msgFormat, ''],
          ['MsgContent', 'UDH + 第 1 段文本', `${long.contents[0].length} 字节`],
          ['TLV', `${hex4(TAG.TP_udhi)}=1，${hex4(TAG.PkTotal)}=${long.contents.length}，${hex4(TAG.PkNumber)}=1`, ''],
        ]),
        hex: part1,
      },
      {
        title: '状态报告：SMGP_DELIVER',
        fields: fields([
          ['MsgID', smgpMsgIdString(msgId), ''],
          ['IsReport', 1, ''],
          ['SrcTermID', EXAMPLE.mobile, ''],
          ['DestTermID', number, ''],
          [
            'MsgContent',
            `id:(MsgID) sub:001 dlvrd:001 Submit date:${reportTime(submitAt, tz)} done date:${reportTime(req.now, tz)} stat:DELIVRD err:000 Text:`,
            `${report.length} 字节`,
          ],
        ]),
        hex: deliver,
      },
      {
        title: '上行短信：SMGP_DELIVER',
        fields: fields([
          ['IsReport', 0, ''],
          ['MsgFormat', reply.msgFormat, ''],
          ['SrcTermID', EXAMPLE.mobile, ''],
          ['DestTermID', `${number}${a.needextend === 1 ? EXAMPLE.extension : ''}`, ''],
          ['MsgContent', EXAMPLE.reply, ''],
        ]),
      },
    ],
  };
}
