/**
 * The CMPP door described for its help document (GET /help/cmppdoc; help module door-doc.ts renders
 * it), from the door's own code: the CONNECT statuses are lib/cmpp-pdu.ts CONNECT_STATUS, the
 * SUBMIT results cmpp-server.ts CMPP_RESULT and its refusal map CMPP_REFUSAL_RESULT, the command
 * ids CMD, the formats MSG_FMT, the timers and windows the running listener's options, and the
 * examples are encoded by the codec the door answers with (the authenticator computed by
 * `sourceAuthenticator`). A change of a constant changes the document;
 * tests/server/door-docs.test.ts checks that every status and result cmpp-server.ts answers with is in it.
 */
import { MESSAGES } from '../../../common/schema/messages';
import type { AppContext } from '../../context';
import type { CodeEntry, DoorDescription, DoorDocRequest } from '../help';
import { MAX_MESSAGE_CHARS } from '../../../common/sms/pieces';
import {
  CMD,
  CONNECT_STATUS,
  CONTENT_MAX,
  encodeCmppText,
  encodeConnect,
  encodeConnectResp,
  encodeDeliver,
  encodeReport,
  encodeSubmit,
  encodeSubmitResp,
  HEADER_LENGTH,
  ismgAuthenticator,
  MAX_DESTS,
  MAX_PACKET,
  MSG_FMT,
  msgIdParts,
  msgIdString,
  reportLength,
  reportTime,
  sourceAuthenticator,
  splitCmppText,
  SUBMIT_DEFAULTS,
  VERSION_OCTET,
} from '../../lib/cmpp-pdu';
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
import { CMPP_REFUSAL_RESULT, CMPP_RESULT, cmppLoginOf, cmppMessageId, type CmppServerOptions } from './cmpp-server';

/** the CMPP specification's name of each CONNECT_RESP Status */
export const CONNECT_STATUS_NAME: Record<keyof typeof CONNECT_STATUS, string> = {
  OK: '正确',
  BAD_STRUCTURE: '消息结构错',
  BAD_SOURCE_ADDR: '非法源地址',
  BAD_AUTH: '认证错',
  VERSION_TOO_HIGH: '版本太高',
  OTHER: '其他错误',
};

/** the name of each SUBMIT_RESP Result: the specification's, the platform's own from 100 */
export const CMPP_RESULT_NAME: Record<keyof typeof CMPP_RESULT, string> = {
  OK: '正确',
  BAD_STRUCTURE: '消息结构错',
  BAD_COMMAND: '命令字错',
  DUPLICATE_SEQUENCE: '消息序号重复',
  BAD_MSG_LENGTH: '消息长度错',
  BAD_FEE_CODE: '资费代码错',
  MSG_TOO_LONG: '超过最大信息长',
  BAD_SERVICE_ID: '业务代码错',
  FLOW_CONTROL: '流量控制错',
  OTHER: '其他错误',
  BAD_SRC_ID: 'Src_Id 错',
  BAD_MSG_SRC: 'Msg_src 错',
  BAD_FEE_TERMINAL: 'Fee_terminal_Id 错',
  BAD_DEST_TERMINAL: 'Dest_terminal_Id 错',
  X_ACCOUNT: '平台自定义',
  X_SIGN: '平台自定义',
  X_CREDIT: '平台自定义',
  X_BLACKLIST: '平台自定义',
  X_PARTS_FULL: '平台自定义',
  X_SYSTEM: '平台自定义',
};

const keyOf = <T extends Record<string, number>>(table: T, code: number) =>
  (Object.keys(table) as (keyof T)[]).find((k) => table[k] === code);
export const cmppResultName = (code: number) => {
  const k = keyOf(CMPP_RESULT, code);
  return k ? CMPP_RESULT_NAME[k] : undefined;
};

const status = (key: keyof typeof CONNECT_STATUS, when: string): CodeEntry => ({
  code: CONNECT_STATUS[key],
  name: CONNECT_STATUS_NAME[key],
  when,
});
const result = (key: keyof typeof CMPP_RESULT, when: string): CodeEntry => ({
  code: CMPP_RESULT[key],
  name: CMPP_RESULT_NAME[key],
  when,
});
const cmd = (id: number) => `0x${(id >>> 0).toString(16).toUpperCase().padStart(8, '0')}`;
const octets = (b: Buffer) => [...b].map((x) => x.toString(16).padStart(2, '0')).join(' ');

export interface CmppDocInput {
  /** the running listener's options and port */
  opts: CmppServerOptions;
  port: number;
  /** the account's interface password is sealed under this server's key (else CONNECT answers 3 until a reset) */
  secretUsable: boolean;
}

export function describeCmppDoor(ctx: AppContext, door: CmppDocInput, req: DoorDocRequest): DoorDescription {
  const { opts } = door;
  const a = req.account;
  const login = cmppLoginOf(a);
  const shownLogin = login || 'cli001';
  const number = `${opts.sourcePrefix}${a.id}`;
  const { maxFailedLogins, lockMs } = ctx.config;
  const tz = opts.tzMinutes;
  const sourceId = a.needextend === 1 ? `${number}${EXAMPLE.extension}` : number;

  // ---------------------------------------------------------------- examples, encoded by the door's codec
  const timestamp = '0101120000';
  const auth = sourceAuthenticator(shownLogin, EXAMPLE.password, timestamp);
  const connect = encoded(() =>
    encodeConnect(1, {
      sourceAddr: shownLogin,
      authenticatorSource: auth,
      version: VERSION_OCTET[3],
      timestamp: Number(timestamp),
    }),
  );
  const connectResp = encodeConnectResp(
    1,
    {
      status: CONNECT_STATUS.OK,
      authenticatorIsmg: ismgAuthenticator(CONNECT_STATUS.OK, auth, EXAMPLE.password, 3),
      version: VERSION_OCTET[3],
    },
    3,
  );
  const text = encodeCmppText(EXAMPLE.text);
  const submit = encodeSubmit(
    2,
    {
      ...SUBMIT_DEFAULTS,
      msgSrc: '',
      srcId: sourceId,
      destTerminalIds: [EXAMPLE.mobile],
      msgFmt: text.msgFmt,
      msgContent: text.octets,
      registeredDelivery: 1,
    },
    3,
  );
  const submitAt = new Date(req.now.getTime() - 60_000);
  const msgId = cmppMessageId(100001, submitAt, tz);
  const parts = msgIdParts(msgId);
  const submitResp = encodeSubmitResp(2, { msgId, result: CMPP_RESULT.OK }, 3);
  const ref = 0x2a;
  const long = splitCmppText(EXAMPLE.longText, ref);
  const part1 = encoded(() =>
    encodeSubmit(
      3,
      {
        ...SUBMIT_DEFAULTS,
        msgSrc: '',
        srcId: sourceId,
        destTerminalIds: [EXAMPLE.mobile],
        tpUdhi: 1,
        pkTotal: long.contents.length,
        pkNumber: 1,
        msgFmt: long.msgFmt,
        msgContent: long.contents[0],
      },
      3,
    ),
  );
  const report = encodeReport(
    {
      msgId,
      stat: 'DELIVRD',
      submitTime: reportTime(submitAt, tz),
      doneTime: reportTime(req.now, tz),
      destTerminalId: EXAMPLE.mobile,
      smscSequence: 1,
    },
    3,
  );
  const deliver = encoded(() =>
    encodeDeliver(
      1,
      {
        msgId,
        destId: number,
        serviceId: '',
        tpPid: 0,
        tpUdhi: 0,
        msgFmt: MSG_FMT.ASCII,
        srcTerminalId: EXAMPLE.mobile,
        srcTerminalType: 0,
        registeredDelivery: 1,
        msgContent: report,
        linkId: '',
      },
      3,
    ),
  );
  const reply = encodeCmppText(EXAMPLE.reply);

  const fields = (rows: (string | number)[][]) => ({ head: ['字段', '值', '说明'], rows });
  const warnings = accountWarnings(a);
  if (!login)
    warnings.push(
      '您的账户还没有 CMPP 登录名（登录名最长 6 个字符，账户名更长时另行生成）：请在「接口信息」中重置接口密码，之后即可看到登录名。示例中的登录名以 cli001 代替。',
    );
  else if (a.interface_password_hash && !door.secretUsable)
    warnings.push(
      '您的接口密码设置于 CMPP 开通之前，CMPP 登录会被拒绝（Status 3）：请在「接口信息」中重置接口密码一次。',
    );

  return {
    protocol: 'CMPP 2.0 / 3.0',
    intro: [
      '客户系统以 SP 连接中国移动网关（ISMG）的方式，用 CMPP 2.0 或 3.0 与平台建立 TCP 长连接：CMPP_CONNECT 登录后以 CMPP_SUBMIT 提交短信，状态报告与上行短信以 CMPP_DELIVER 发回同一连接。',
      '经本接口提交的短信与控制台发送的短信受理规则相同：签名、认证、敏感词、审核、号码与计费都一样，计费在应答前完成；被拒绝的提交不写入、不计费。',
    ],
    account: accountTable(ctx, a, {
      login,
      loginLabel: '登录名（Source_Addr）',
      host: req.host,
      port: door.port,
      number,
    }),
    warnings,
    sections: {
      connect: {
        table: {
          head: ['项目', '规则'],
          rows: [
            ['地址与端口', `${req.host}:${door.port}`],
            [
              '协议版本',
              `CMPP 2.0（Version \`0x${VERSION_OCTET[2].toString(16)}\`）或 3.0（\`0x${VERSION_OCTET[3].toString(16)}\`）：以 CMPP_CONNECT 中的 Version 为准，该连接的所有报文（包括 CONNECT_RESP）都用该版本的格式`,
            ],
            ['登录期限', `连接建立后 ${duration(opts.connectTimeoutMs)}内须完成 CMPP_CONNECT，否则连接被关闭`],
            [
              '链路检测',
              `连接静默 ${duration(opts.activeTestMs)}后平台发送 CMPP_ACTIVE_TEST（此后每 ${duration(opts.activeTestMs)}一次），请应答 CMPP_ACTIVE_TEST_RESP；${duration(opts.idleTimeoutMs)}内没有收到任何报文则关闭连接。客户也可以发送 CMPP_ACTIVE_TEST`,
            ],
            [
              '连接限制',
              `每个 IP 同时最多 ${opts.maxConnectionsPerAddress} 个连接，${duration(opts.connectWindowMs)}内最多新建 ${opts.maxConnectAttempts} 个连接；超过时新连接被立即关闭`,
            ],
            ['会话数', '同一账户同时登录的连接数不超过其最大连接数（nodenum），所有接口（含 SMPP）与服务器进程合计'],
            ['报文长度', `Total_Length 小于 ${HEADER_LENGTH} 或大于 ${MAX_PACKET} 字节时连接被关闭`],
          ],
        },
        notes: [
          '每个登录成功的连接都收发：提交短信，也接收状态报告与上行短信；没有连接时状态报告与上行在平台排队等待。',
        ],
      },
      login: {
        paragraphs: [
          `Source_Addr 为您的 CMPP 登录名${login ? ` \`${login}\`` : ''}（最长 6 个字符）；认证码 AuthenticatorSource = MD5(Source_Addr + 9 个字节的 0 + 接口密码 + Timestamp)，其中 Timestamp 为 10 位数字 MMDDHHMMSS（不足 10 位左补 0），平台不把它与时钟比对。接口密码与控制台登录密码不同，在「接口信息」中重置，新密码只显示一次。`,
          `登录成功时 CONNECT_RESP 的 Status 为 0，AuthenticatorISMG = MD5(Status + AuthenticatorSource + 接口密码)（Status 在 2.0 中为 1 字节，3.0 中为 4 字节），Version 为您发送的版本。登录名不存在与认证码错误的应答相同；同一登录名在同一 IP 连续失败 ${maxFailedLogins} 次后锁定 ${duration(lockMs)}。被拒绝的连接在应答后关闭。`,
        ],
        table: fields([
          ['Source_Addr', login || '（尚未生成）', '6 字节'],
          ['AuthenticatorSource', 'MD5 结果', '16 字节'],
          ['Version', `0x${VERSION_OCTET[2].toString(16)} 或 0x${VERSION_OCTET[3].toString(16)}`, '1 字节'],
          ['Timestamp', 'MMDDHHMMSS', '4 字节整数'],
        ]),
        codes: {
          format: 'decimal',
          label: 'Status',
          entries: [
            status('OK', MESSAGES.loggedIn),
            status('BAD_SOURCE_ADDR', 'Source_Addr 为空或含不可打印字符'),
            status(
              'BAD_AUTH',
              '登录名不存在、认证码错误，或账户尚无可用于 CMPP 的接口密码（在「接口信息」中重置一次）',
            ),
            status('VERSION_TOO_HIGH', 'Version 不是 0x2X 或 0x3X（以 3.0 格式应答）'),
            status('OTHER', `该登录名在此 IP 连续失败 ${maxFailedLogins} 次后被锁定`),
            status('OTHER', '账户不能使用接口：未启用、已冻结、认证未通过或测试账户'),
            status('OTHER', '连接的 IP 不在账户的 IP 白名单内'),
            status('OTHER', '账户已登录的连接数达到最大连接数（nodenum）'),
            status('OTHER', '已登录的连接再次发送 CMPP_CONNECT（连接继续）；平台内部错误'),
          ],
        },
      },
      commands: {
        table: {
          head: ['命令', 'Command_Id', '方向', '平台的处理'],
          rows: [
            ['CMPP_CONNECT', cmd(CMD.CONNECT), '客户 → 平台', '登录，见「登录认证」'],
            ['CMPP_SUBMIT', cmd(CMD.SUBMIT), '客户 → 平台', '提交短信，应答 CMPP_SUBMIT_RESP（无法解析时 Result 1）'],
            [
              'CMPP_DELIVER',
              cmd(CMD.DELIVER),
              '平台 → 客户',
              '状态报告（Registered_Delivery 1）与上行短信（Registered_Delivery 0）',
            ],
            ['CMPP_DELIVER_RESP', cmd(CMD.DELIVER_RESP), '客户 → 平台', 'Result 0：已收到，不再重发；其他：一秒后重发'],
            ['CMPP_ACTIVE_TEST', cmd(CMD.ACTIVE_TEST), '双向', '应答 CMPP_ACTIVE_TEST_RESP'],
            ['CMPP_ACTIVE_TEST_RESP', cmd(CMD.ACTIVE_TEST_RESP), '双向', ''],
            ['CMPP_TERMINATE', cmd(CMD.TERMINATE), '客户 → 平台', '应答 CMPP_TERMINATE_RESP 后关闭连接'],
          ],
        },
        notes: [
          '登录前发送 CMPP_CONNECT 以外的报文：连接被关闭。登录后，其他命令（CMPP_QUERY、CMPP_CANCEL、其他应答与未定义的 Command_Id）不应答，连接继续。一个连接中的错误只关闭该连接。',
        ],
      },
      submit: {
        paragraphs: [
          `一个 CMPP_SUBMIT 可以发往 1–${MAX_DESTS} 个号码，每个号码是一条短信，分别受理。CMPP_SUBMIT_RESP 给出第一个号码的结果（其 Msg_Id 或拒绝原因）；其余号码各自受理或拒绝，它们的状态报告也使用应答中的 Msg_Id。`,
          `Msg_Id 为 8 字节：月(4 位) 日(5) 时(5) 分(6) 秒(6) 网关代码(22) 序号(16)，时间为北京时间。整条短信的 Msg_Id 对应平台的消息编号，状态报告中的 Msg_Id 与提交应答中的相同。`,
        ],
        table: fields([
          ['Msg_Id', '0', '由平台填写'],
          ['Pk_total / Pk_number', '1 / 1', '不读取：长短信以 TP_udhi 与 UDH 为准'],
          ['Registered_Delivery', '0 或 1', '0 不要状态报告，其他值要所有最终状态的报告'],
          ['TP_udhi', '0 或 1', '1：Msg_Content 以 UDH 开头（长短信分段）'],
          ['Msg_Fmt', `${MSG_FMT.ASCII} / ${MSG_FMT.UCS2} / ${MSG_FMT.GB}`, '见「编码与长短信」'],
          [
            'Src_Id',
            sourceId,
            a.needextend === 1
              ? `账户号码 ${number} + 1–6 位扩展号（也可只填扩展号）`
              : `被忽略：一律从账户号码 ${number} 发出`,
          ],
          ['DestUsr_tl', `1–${MAX_DESTS}`, '号码个数'],
          ['Dest_terminal_Id', EXAMPLE.mobile, '中国大陆手机号，2.0 为 21 字节，3.0 为 32 字节'],
          [
            'Msg_Length / Msg_Content',
            '内容',
            `Msg_Content 最多 255 字节（含 UDH）；一条短信最多 ${MAX_MESSAGE_CHARS} 个字符`,
          ],
          [
            'Msg_level、Service_Id、Fee_UserType、Fee_terminal_Id、Fee_terminal_type、TP_pId、Msg_src、FeeType、FeeCode、ValId_Time、At_Time、Dest_terminal_type、LinkID / Reserve',
            '任意',
            '不使用',
          ],
        ]),
        notes: [
          '2.0 与 3.0 的差别：3.0 的 Fee_terminal_Id、Dest_terminal_Id 为 32 字节并有 Fee_terminal_type、Dest_terminal_type，末尾为 20 字节 LinkID；2.0 为 21 字节、无类型字段，末尾为 8 字节 Reserve。CONNECT_RESP 的 Status 与 SUBMIT_RESP、DELIVER_RESP 的 Result 在 2.0 中为 1 字节，3.0 中为 4 字节。',
          `短信内容须带账户已审核通过的签名（【签名】放在开头或结尾）；含敏感词的短信被拦截（不计费），需要审核的账户其短信等待人工审核。${PIECE_RULE}`,
        ],
      },
      results: {
        paragraphs: [
          'CMPP_SUBMIT_RESP 的 Result：0 为受理成功；除注明「请稍后重发」的以外，其他结果都是该短信的最终结果，未写入、未计费。',
        ],
        codes: {
          format: 'decimal',
          label: 'Result',
          entries: [
            result('OK', '受理成功：应答带 Msg_Id（已写入并计费）'),
            result('BAD_STRUCTURE', '报文无法解析'),
            result('BAD_STRUCTURE', `Msg_Fmt 不是 ${MSG_FMT.ASCII}、${MSG_FMT.UCS2} 或 ${MSG_FMT.GB}`),
            result('BAD_STRUCTURE', `长短信分段错误：序号超出总数、总数超过 ${MAX_PARTS}，或分段发往多个号码`),
            result('MSG_TOO_LONG', `内容超过 ${MAX_MESSAGE_CHARS} 个字符`),
            result('FLOW_CONTROL', '超过账户每秒提交速度（accessSpeed）：请稍后重发'),
            result('FLOW_CONTROL', `本连接同时受理中的提交超过 ${opts.window} 个：请稍后重发`),
            result('X_ACCOUNT', '账户不能使用接口（登录后被冻结、认证被撤销等，一秒内生效）'),
            result(
              'X_PARTS_FULL',
              `账户未完成的长短信分段已达上限（${Math.round(opts.partsMaxBytes / 1024)} KB）：分段未保存`,
            ),
            result('X_SYSTEM', '平台内部错误：未写入，请稍后重发'),
            ...refusalEntries(CMPP_REFUSAL_RESULT, cmppResultName),
          ],
        },
        notes: [
          `Result ${CMPP_RESULT.FLOW_CONTROL} 表示「稍后重发」：请保留该短信，暂停片刻（如 50 毫秒起，逐次加倍至 1 秒）再提交。100 及以上是平台自定义的拒绝原因。`,
        ],
      },
      coding: {
        table: {
          head: ['Msg_Fmt', '编码', '说明'],
          rows: [
            [MSG_FMT.ASCII, 'ASCII', '英文短信'],
            [MSG_FMT.UCS2, 'UCS2（UTF-16 大端）', '中文短信请用此编码'],
            [MSG_FMT.GB, 'GB18030（含 GBK、GB2312）', ''],
            ['其他', '—', `Result ${CMPP_RESULT.BAD_STRUCTURE}`],
          ],
        },
        notes: [
          '长短信分段提交：TP_udhi 为 1，Msg_Content 以 UDH 开头——`05 00 03 参考号 总数 序号` 或 `06 08 04 参考号(2字节) 总数 序号`；每段 UCS2 最多 67 个字符（ASCII 134 字节），每段只能发往一个号码。',
          `一条长短信最多 ${MAX_PARTS} 段、合计 ${MAX_MESSAGE_CHARS} 个字符。各段可以任意顺序、经任意连接提交（同一 Src_Id、号码、参考号与总数为同一条）。未完成的分段先应答各自的 Msg_Id，完成整条的那一段应答整条短信的 Msg_Id；每个应答过的 Msg_Id 都会收到状态报告。`,
          `第一段到达 ${duration(opts.reassemblyMs)}后仍未收齐的，按已收到的分段合并为一条受理（缺失的段略去）。每一段都占用一个提交速度（accessSpeed）配额。`,
        ],
      },
      reports: {
        paragraphs: [
          `账户的状态报告为「透传状态报告」且提交时 Registered_Delivery 不为 0 时，短信的最终状态以 CMPP_DELIVER（Registered_Delivery 1）发往该账户的连接；没有连接时排队等待（最长 ${RECEIPT_KEEP_HOURS} 小时），连接登录后按顺序发出。`,
          `客户须以 CMPP_DELIVER_RESP（Result 0）应答；应答后不再重发。应答错误一秒后重发；${duration(opts.receiptLeaseMs)}内没有应答或连接断开，则重发。每个连接最多 ${opts.deliverWindow} 条未应答。`,
        ],
        table: fields([
          ['Msg_Id', msgIdString(msgId), '与状态报告内容中的 Msg_Id 相同'],
          ['Dest_Id', number, '账户号码'],
          ['Src_terminal_Id', EXAMPLE.mobile, '手机号'],
          ['Registered_Delivery', 1, '状态报告'],
          ['Msg_Fmt', MSG_FMT.ASCII, ''],
          [
            'Msg_Content',
            `${reportLength(2)} 字节（2.0）/ ${reportLength(3)} 字节（3.0）`,
            'Msg_Id(8) Stat(7) Submit_time(10) Done_time(10) Dest_terminal_Id(2.0 为 21，3.0 为 32) SMSC_sequence(4)；时间为 YYMMDDHHMM（北京时间）；Msg_Id 为您在提交应答中得到的 Msg_Id',
          ],
        ]),
        notes: [`Stat：${RECEIPT_STAT_WORDS.map((w) => `\`${w}\` ${RECEIPT_STAT_TEXT[w]}`).join('；')}。`],
      },
      uplinks: {
        paragraphs: [
          `账户的上行短信为「需要（推送）」且状态报告为「透传」时，手机回复到账户号码 ${number}（或加扩展号）的短信以 CMPP_DELIVER（Registered_Delivery 0）发往账户的连接，排队、应答与重发规则同状态报告（最长保留 ${MO_KEEP_HOURS} 小时）。`,
        ],
        table: fields([
          ['Dest_Id', `${number}${a.needextend === 1 ? EXAMPLE.extension : ''}`, '手机回复的号码：账户号码 + 扩展号'],
          ['Src_terminal_Id', EXAMPLE.mobile, '回复的手机号'],
          ['Registered_Delivery', 0, '上行短信'],
          ['Msg_Fmt', `${MSG_FMT.ASCII} 或 ${MSG_FMT.UCS2}`, '纯 ASCII 为 0，否则 UCS2'],
          [
            'TP_udhi / Msg_Content',
            `0 / ${EXAMPLE.reply}`,
            `超过 ${CONTENT_MAX} 字节时分段发送（TP_udhi 1，UDH \`05 00 03 参考号 总数 序号\`）`,
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
              `Result ${CMPP_RESULT.FLOW_CONTROL}，请稍后重发`,
            ],
            [
              '提交窗口',
              `每个连接同时受理中的 CMPP_SUBMIT 最多 ${opts.window} 个（建议客户端窗口不超过此数）`,
              `Result ${CMPP_RESULT.FLOW_CONTROL}，请稍后重发`,
            ],
            ['推送窗口', `每个连接最多 ${opts.deliverWindow} 个未应答的 CMPP_DELIVER`, '等待应答后继续发送'],
            ['最大连接数（nodenum）', '账户同时登录的连接数', `CONNECT_RESP Status ${CONNECT_STATUS.OTHER}`],
          ],
        },
      },
    },
    examples: [
      {
        title: '登录：CMPP_CONNECT（3.0）',
        paragraphs: [
          `示例中的接口密码以 \`${EXAMPLE.password}\` 代替，请换成您的接口密码${login ? '' : '；登录名以 cli001 代替'}。Timestamp 取 ${timestamp}（1 月 1 日 12:00:00）。`,
        ],
        fields: fields([
          ['Source_Addr', shownLogin, ''],
          ['AuthenticatorSource', auth.toString('hex'), '见下方计算'],
          ['Version', `0x${VERSION_OCTET[3].toString(16)}`, 'CMPP 3.0'],
          ['Timestamp', Number(timestamp), `即 ${timestamp}（4 字节整数）`],
        ]),
        text: `AuthenticatorSource = MD5( "${shownLogin}" + 00×9 + "${EXAMPLE.password}" + "${timestamp}" )\n = MD5( ${octets(Buffer.concat([Buffer.from(shownLogin, 'latin1'), Buffer.alloc(9), Buffer.from(EXAMPLE.password + timestamp, 'latin1')]))} )\n = ${auth.toString('hex')}`,
        hex: connect,
      },
      {
        title: '登录应答：CMPP_CONNECT_RESP（3.0）',
        fields: fields([
          ['Status', 0, '成功（4 字节）'],
          [
            'AuthenticatorISMG',
            ismgAuthenticator(CONNECT_STATUS.OK, auth, EXAMPLE.password, 3).toString('hex'),
            'MD5(Status + AuthenticatorSource + 接口密码)',
          ],
          ['Version', `0x${VERSION_OCTET[3].toString(16)}`, ''],
        ]),
        hex: connectResp,
      },
      {
        title: '提交短信：CMPP_SUBMIT（3.0）',
        fields: fields([
          ['Registered_Delivery', 1, '要状态报告'],
          ['Msg_Fmt', text.msgFmt, 'UCS2'],
          ['Src_Id', sourceId, ''],
          ['DestUsr_tl', 1, ''],
          ['Dest_terminal_Id', EXAMPLE.mobile, ''],
          ['Msg_Content', EXAMPLE.text, `${text.octets.length} 字节`],
        ]),
        hex: submit,
      },
      {
        title: '提交应答：CMPP_SUBMIT_RESP（3.0）',
        fields: fields([
          [
            'Msg_Id',
            msgIdString(msgId),
            `示例：${parts.month} 月 ${parts.day} 日 ${parts.hour}:${String(parts.minute).padStart(2, '0')}:${String(parts.second).padStart(2, '0')}，网关代码 ${parts.gateway}，序号 ${parts.sequence}`,
          ],
          ['Result', 0, '受理成功（4 字节）'],
        ]),
        hex: submitResp,
      },
      {
        title: `长短信：第 1 段（共 ${long.contents.length} 段）`,
        paragraphs: [
          `「${EXAMPLE.longText}」共 ${[...EXAMPLE.longText].length} 个字符，按 UCS2 分为 ${long.contents.length} 段，每段 Msg_Content 以 UDH \`${octets(long.contents[0].subarray(0, 6))}\` 开头（参考号 ${ref}，共 ${long.contents.length} 段，第 1 段）。`,
        ],
        fields: fields([
          ['TP_udhi', 1, ''],
          ['Msg_Fmt', long.msgFmt, ''],
          ['Msg_Content', 'UDH + 第 1 段文本', `${long.contents[0].length} 字节`],
        ]),
        hex: part1,
      },
      {
        title: '状态报告：CMPP_DELIVER（3.0）',
        fields: fields([
          ['Msg_Id', msgIdString(msgId), ''],
          ['Dest_Id', number, ''],
          ['Src_terminal_Id', EXAMPLE.mobile, ''],
          ['Registered_Delivery', 1, ''],
          [
            'Msg_Content',
            `Msg_Id ${msgIdString(msgId)}，Stat DELIVRD，Submit_time ${reportTime(submitAt, tz)}，Done_time ${reportTime(req.now, tz)}，Dest_terminal_Id ${EXAMPLE.mobile}，SMSC_sequence 1`,
            `${report.length} 字节`,
          ],
        ]),
        hex: deliver,
      },
      {
        title: '上行短信：CMPP_DELIVER',
        fields: fields([
          ['Dest_Id', `${number}${a.needextend === 1 ? EXAMPLE.extension : ''}`, ''],
          ['Src_terminal_Id', EXAMPLE.mobile, ''],
          ['Registered_Delivery', 0, ''],
          ['Msg_Fmt', reply.msgFmt, ''],
          ['Msg_Content', EXAMPLE.reply, ''],
        ]),
      },
    ],
  };
}
