/**
 * The SGIP door described for its help document (GET /help/sgipdoc; help module door-doc.ts renders
 * it), from the door's own code: the results are lib/sgip-pdu.ts RESULT and sgip-server.ts
 * SGIP_RESULT / SGIP_REFUSAL_RESULT, the command ids CMD, the codings MESSAGE_CODING, the timers and
 * windows the running listener's options, and the examples are encoded by the codec the door
 * answers with. A change of a constant changes the document.
 */
import { MESSAGES } from '../../../common/schema/messages';
import type { AppContext } from '../../context';
import type { CodeEntry, DoorDescription, DoorDocRequest } from '../help';
import { MAX_MESSAGE_CHARS } from '../../../common/sms/pieces';
import { cmppTimestamp } from '../../lib/cmpp-pdu';
import {
  CMD,
  encodeBind,
  encodeBindResp,
  encodeReport,
  encodeSgipText,
  encodeSubmit,
  encodeSubmitResp,
  HEADER_LENGTH,
  LOGIN_TYPE,
  MAX_PACKET,
  MAX_USERS,
  MESSAGE_CODING,
  REPORT_FLAG,
  REPORT_STATE,
  seqString,
  splitSgipText,
  SUBMIT_DEFAULTS,
  withCountryCode,
} from '../../lib/sgip-pdu';
import { MAX_PARTS } from './door-core';
import {
  accountTable,
  accountWarnings,
  duration,
  EXAMPLE,
  MO_KEEP_HOURS,
  PIECE_RULE,
  RECEIPT_KEEP_HOURS,
  encoded,
  refusalEntries,
} from './door-doc-common';
import { SGIP_REFUSAL_RESULT, SGIP_RESULT, type SgipServerOptions } from './sgip-server';
import { sgipLoginOf } from '../../lib/interface-password';

/** the name of each Result: the specification's, the platform's own from 100 */
export const SGIP_RESULT_NAME: Record<keyof typeof SGIP_RESULT, string> = {
  OK: '正确',
  BAD_LOGIN: '非法登录',
  REPEATED_LOGIN: '重复登录',
  TOO_MANY_CONNECTIONS: '连接过多',
  BAD_LOGIN_TYPE: '登录类型错',
  BAD_PARAMETER: '参数格式错',
  BAD_USER_NUMBER: '非法手机号码',
  BAD_MESSAGE_ID: '消息ID错',
  BAD_MESSAGE_LENGTH: '信息长度错',
  BAD_SEQUENCE: '非法序列号',
  BAD_GNS_OPERATION: '非法操作GNS',
  NODE_BUSY: '节点忙',
  UNREACHABLE: '目的地址不可达',
  ROUTE_ERROR: '路由错',
  NO_ROUTE: '路由不存在',
  BAD_CHARGE_NUMBER: '计费号码无效',
  USER_CANNOT_COMMUNICATE: '用户不能通信',
  PHONE_MEMORY_FULL: '手机内存不足',
  NO_SMS_SUPPORT: '手机不支持短消息',
  RECEIVE_ERROR: '手机接收短消息出现错误',
  UNKNOWN_USER: '不知道的用户',
  NOT_PROVIDED: '不提供此功能',
  BAD_DEVICE: '非法设备',
  SYSTEM_FAILURE: '系统失败',
  QUEUE_FULL: '短信中心队列满',
  X_ACCOUNT: '平台自定义',
  X_SIGN: '平台自定义',
  X_CREDIT: '平台自定义',
  X_BLACKLIST: '平台自定义',
  X_PARTS_FULL: '平台自定义',
  X_SYSTEM: '平台自定义',
};

const keyOf = <T extends Record<string, number>>(table: T, code: number) =>
  (Object.keys(table) as (keyof T)[]).find((k) => table[k] === code);
export const sgipResultName = (code: number) => {
  const k = keyOf(SGIP_RESULT, code);
  return k ? SGIP_RESULT_NAME[k] : undefined;
};
const result = (key: keyof typeof SGIP_RESULT, when: string): CodeEntry => ({
  code: SGIP_RESULT[key],
  name: SGIP_RESULT_NAME[key],
  when,
});
const cmd = (id: number) => `0x${(id >>> 0).toString(16).toUpperCase().padStart(8, '0')}`;

export interface SgipDocInput {
  opts: SgipServerOptions;
  port: number;
  /** the account's interface password is sealed under this server's key (else the bind answers 1 until a reset) */
  secretUsable: boolean;
}

export function describeSgipDoor(ctx: AppContext, door: SgipDocInput, req: DoorDocRequest): DoorDescription {
  const { opts } = door;
  const a = req.account;
  const login = sgipLoginOf(a);
  const shownLogin = login || 'cli001';
  const number = `${opts.sourcePrefix}${a.id}`;
  const spNumber = a.needextend === 1 ? `${number}${EXAMPLE.extension}` : number;
  const { maxFailedLogins, lockMs } = ctx.config;
  const tz = opts.tzMinutes;
  const node = 3000012345;
  const seq = { node, time: Number(cmppTimestamp(req.now, tz)), number: 1 };
  const bind = encoded(() =>
    encodeBind(seq, { loginType: LOGIN_TYPE.SP_TO_SMG, loginName: shownLogin, loginPassword: EXAMPLE.password }),
  );
  const text = encodeSgipText(EXAMPLE.text);
  const submitSeq = { ...seq, number: 2 };
  const submit = encodeSubmit(submitSeq, {
    ...SUBMIT_DEFAULTS,
    spNumber,
    userNumbers: [withCountryCode(EXAMPLE.mobile)],
    corpId: '',
    messageCoding: text.messageCoding,
    messageContent: text.octets,
  });
  const long = splitSgipText(EXAMPLE.longText, 0x2a);
  const reportSeq = { node: opts.nodeId, time: seq.time, number: 7 };
  const report = encodeReport(reportSeq, {
    submitSeq,
    reportType: 0,
    userNumber: withCountryCode(EXAMPLE.mobile),
    state: REPORT_STATE.DELIVERED,
    errorCode: 0,
  });
  const fields = (rows: (string | number)[][]) => ({ head: ['字段', '值', '说明'], rows });
  const warnings = accountWarnings(a);
  if (a.interface_password_hash && !door.secretUsable)
    warnings.push(
      '您的接口密码设置于 SGIP 开通之前，SGIP 登录会被拒绝（Result 1）：请在「接口信息」中重置接口密码一次。',
    );
  if (!a.sgip_callback_host)
    warnings.push(
      '「接口信息」中尚未设置 SGIP 回调地址：状态报告与上行短信在平台排队等待（最长 72 小时），设置后平台连接您的监听推送。',
    );

  return {
    protocol: 'SGIP 1.2',
    intro: [
      'SGIP 使用两条连接：客户系统以 SP 连接中国联通网关（SMG）的方式，用 SGIP_BIND（Login_Type 1）登录平台后以 SGIP_SUBMIT 提交短信；平台再以 SGIP_BIND（Login_Type 2）连接客户自己的 SGIP 监听，以 SGIP_REPORT 推送状态报告、以 SGIP_DELIVER 推送上行短信。',
      '经本接口提交的短信与控制台发送的短信受理规则相同：签名、认证、敏感词、审核、号码与计费都一样，计费在应答前完成；被拒绝的提交不写入、不计费。',
    ],
    account: accountTable(ctx, a, {
      login,
      loginLabel: '登录名（Login_Name）',
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
            ['登录期限', `连接建立后 ${duration(opts.bindTimeoutMs)}内须完成 SGIP_BIND，否则连接被关闭`],
            [
              '空闲',
              `SGIP 没有链路检测报文：${duration(opts.idleTimeoutMs)}内没有收到任何报文则关闭连接，需要时重新连接`,
            ],
            [
              '连接限制',
              `每个 IP 同时最多 ${opts.maxConnectionsPerAddress} 个连接，${duration(opts.connectWindowMs)}内最多新建 ${opts.maxConnectAttempts} 个连接`,
            ],
            ['会话数', '同一账户同时登录的连接数不超过其最大连接数（nodenum），所有接口与服务器进程合计'],
            ['报文长度', `Message Length 小于 ${HEADER_LENGTH} 或大于 ${MAX_PACKET} 字节时连接被关闭`],
            [
              '回连（推送）',
              a.sgip_callback_host
                ? `平台连接 ${a.sgip_callback_host}:${a.sgip_callback_port}，Login_Type 2，Login_Name \`${a.sgip_callback_user}\``
                : '在「接口信息」中设置 SGIP 回调地址、端口、登录名与密码后，平台连接您的监听推送状态报告与上行',
            ],
          ],
        },
        notes: [
          `序列号为 12 字节：节点编号(4) + 时间 MMDDHHMMSS(4) + 序号(4)。平台应答您的报文时沿用您报文的序列号；平台发出的报文以节点编号 ${opts.nodeId} 开头。`,
        ],
      },
      login: {
        paragraphs: [
          `SGIP_BIND：Login_Type 1，Login_Name 为您的接口登录名${login ? ` \`${login}\`` : ''}（最长 16 个字符），Login_Password 为接口密码（与控制台登录密码不同，在「接口信息」中重置）。登录名不存在与密码错误的应答相同；同一登录名在同一 IP 连续失败 ${maxFailedLogins} 次后锁定 ${duration(lockMs)}。被拒绝的连接在应答后关闭。`,
        ],
        table: fields([
          ['Login_Type', LOGIN_TYPE.SP_TO_SMG, '1 字节'],
          ['Login_Name', login || '（尚未生成）', '16 字节'],
          ['Login_Password', '接口密码', '16 字节'],
          ['Reserve', '', '8 字节'],
        ]),
        codes: {
          format: 'decimal',
          label: 'Result',
          entries: [
            result('OK', MESSAGES.loggedIn),
            result('BAD_LOGIN', '登录名不存在、密码错误，或账户尚无可用于 SGIP 的接口密码（在「接口信息」中重置一次）'),
            result(
              'BAD_LOGIN',
              `该登录名在此 IP 连续失败 ${maxFailedLogins} 次后被锁定；账户不能使用接口；IP 不在白名单内`,
            ),
            result('BAD_LOGIN_TYPE', 'Login_Type 不是 1'),
            result('TOO_MANY_CONNECTIONS', '账户已登录的连接数达到最大连接数（nodenum）'),
            result('REPEATED_LOGIN', '已登录的连接再次发送 SGIP_BIND（连接继续）'),
            result('SYSTEM_FAILURE', '平台内部错误'),
          ],
        },
      },
      commands: {
        table: {
          head: ['命令', 'Command ID', '方向', '平台的处理'],
          rows: [
            ['SGIP_BIND', cmd(CMD.BIND), '双向', '客户登录平台（Login_Type 1）；平台登录客户监听（Login_Type 2）'],
            ['SGIP_SUBMIT', cmd(CMD.SUBMIT), '客户 → 平台', '提交短信，应答 SGIP_SUBMIT_RESP'],
            ['SGIP_REPORT', cmd(CMD.REPORT), '平台 → 客户监听', '状态报告，请应答 SGIP_REPORT_RESP'],
            ['SGIP_DELIVER', cmd(CMD.DELIVER), '平台 → 客户监听', '上行短信，请应答 SGIP_DELIVER_RESP'],
            [
              'SGIP_TRACE',
              cmd(CMD.TRACE),
              '客户 → 平台',
              '查询一次提交（SubmitSequenceNumber + UserNumber）的处理情况，应答 SGIP_TRACE_RESP：第一个节点是平台（Result 0 已收到；ReceiveTime 受理时刻，SendTime 交给运营商的时刻）；交给运营商后，第二个节点是运营商（Result 0 已接收、1 拒收；SendTime 送达时刻）。查无此提交：只有平台节点，Result 1。时间为 YYMMDDHHMMSS（北京时间）',
            ],
            ['SGIP_UNBIND', cmd(CMD.UNBIND), '双向', '应答 SGIP_UNBIND_RESP 后关闭连接'],
          ],
        },
        notes: [
          `登录前发送 SGIP_BIND 以外的报文：连接被关闭。登录后，发往平台的 SGIP_DELIVER、SGIP_REPORT、SGIP_USERRPT 与网管命令应答 Result ${SGIP_RESULT.NOT_PROVIDED}（不提供此功能），其他应答与未定义的 Command ID 不应答，连接继续。`,
        ],
      },
      submit: {
        paragraphs: [
          `一个 SGIP_SUBMIT 可以发往 1–${MAX_USERS} 个号码（UserNumber，带 86），每个号码是一条短信，分别受理；SGIP_SUBMIT_RESP 给出第一个号码的结果，沿用 SGIP_SUBMIT 的序列号。SGIP 的应答不带消息编号：状态报告以 SubmitSequenceNumber（您提交时的序列号）指明是哪一次提交。`,
        ],
        table: fields([
          [
            'SPNumber',
            spNumber,
            a.needextend === 1
              ? `账户号码 ${number} + 1–6 位扩展号（也可只填扩展号）`
              : `被忽略：一律从账户号码 ${number} 发出`,
          ],
          ['UserCount / UserNumber', `1–${MAX_USERS} / ${withCountryCode(EXAMPLE.mobile)}`, '中国大陆手机号，带 86'],
          [
            'ReportFlag',
            `${REPORT_FLAG.FAILURES} / ${REPORT_FLAG.ALWAYS} / ${REPORT_FLAG.NEVER}`,
            '0 只报告失败，1 报告所有最终状态，2 不要状态报告',
          ],
          ['TP_udhi', '0 或 1', '1：MessageContent 以 UDH 开头（长短信分段）'],
          [
            'MessageCoding',
            `${MESSAGE_CODING.ASCII} / ${MESSAGE_CODING.UCS2} / ${MESSAGE_CODING.GB}`,
            '见「编码与长短信」',
          ],
          ['MessageLength / MessageContent', '内容', `一条短信最多 ${MAX_MESSAGE_CHARS} 个字符`],
          [
            'ChargeNumber、CorpId、ServiceType、FeeType、FeeValue、GivenValue、AgentFlag、MorelatetoMTFlag、Priority、ExpireTime、ScheduleTime、TP_pid、MessageType',
            '任意',
            '不使用',
          ],
        ]),
        notes: [`短信内容须带账户已审核通过的签名（【签名】放在开头或结尾）。${PIECE_RULE}`],
      },
      results: {
        paragraphs: [
          'SGIP_SUBMIT_RESP 的 Result：0 为受理成功；除注明「请稍后重发」的以外，其他结果都是该短信的最终结果，未写入、未计费。',
        ],
        codes: {
          format: 'decimal',
          label: 'Result',
          entries: [
            result('OK', '受理成功（已写入并计费）'),
            result('BAD_PARAMETER', '报文无法解析、UDH 错误'),
            result(
              'BAD_PARAMETER',
              `MessageCoding 不是 ${MESSAGE_CODING.ASCII}、${MESSAGE_CODING.UCS2} 或 ${MESSAGE_CODING.GB}`,
            ),
            result('BAD_PARAMETER', `长短信分段错误：序号超出总数、总数超过 ${MAX_PARTS}，或分段发往多个号码`),
            result('BAD_MESSAGE_LENGTH', `内容超过 ${MAX_MESSAGE_CHARS} 个字符`),
            result('NODE_BUSY', '超过账户每秒提交速度（accessSpeed）：请稍后重发'),
            result('NODE_BUSY', `本连接同时受理中的提交超过 ${opts.window} 个：请稍后重发`),
            result('X_ACCOUNT', '账户不能使用接口（登录后被冻结、认证被撤销等，一秒内生效）'),
            result(
              'X_PARTS_FULL',
              `账户未完成的长短信分段已达上限（${Math.round(opts.partsMaxBytes / 1024)} KB）：分段未保存`,
            ),
            result('X_SYSTEM', '平台内部错误：未写入，请稍后重发'),
            ...refusalEntries(SGIP_REFUSAL_RESULT, sgipResultName),
            result('NOT_PROVIDED', '（其他命令的应答）发往平台的 SGIP_DELIVER、SGIP_REPORT、SGIP_USERRPT 与网管命令'),
          ],
        },
        notes: [`Result ${SGIP_RESULT.NODE_BUSY} 表示「稍后重发」。100 及以上是平台自定义的拒绝原因。`],
      },
      coding: {
        table: {
          head: ['MessageCoding', '编码', '说明'],
          rows: [
            [MESSAGE_CODING.ASCII, 'ASCII', '英文短信'],
            [MESSAGE_CODING.UCS2, 'UCS2（UTF-16 大端）', '中文短信请用此编码'],
            [MESSAGE_CODING.GB, 'GBK / GB18030', ''],
            ['其他', '—', `Result ${SGIP_RESULT.BAD_PARAMETER}`],
          ],
        },
        notes: [
          '长短信分段提交：TP_udhi 为 1，MessageContent 以 UDH `05 00 03 参考号 总数 序号`（或 `06 08 04 …`）开头；每段 UCS2 最多 67 个字符，每段只能发往一个号码。每一段的提交都会收到自己的状态报告（SubmitSequenceNumber 为该段的序列号）。',
          `一条长短信最多 ${MAX_PARTS} 段；第一段到达 ${duration(opts.reassemblyMs)}后仍未收齐的，按已收到的分段合并受理。`,
        ],
      },
      reports: {
        paragraphs: [
          `账户的状态报告为「透传状态报告」且 ReportFlag 要求时，平台连接您在「接口信息」中设置的 SGIP 监听（Login_Type 2），以 SGIP_REPORT 推送；您的监听不可达时排队等待（最长 ${RECEIPT_KEEP_HOURS} 小时）并以递增间隔重试（最长 ${duration(opts.bindBackRetryMaxMs)}）。`,
          `请以 SGIP_REPORT_RESP（Result 0）应答；应答 0 后不再重发，其他应答稍后重发。推送连接空闲 ${duration(opts.bindBackIdleMs)}后平台发送 SGIP_UNBIND。`,
        ],
        table: fields([
          ['SubmitSequenceNumber', seqString(submitSeq), '您提交该短信（或该段）时的序列号'],
          ['ReportType', 0, '对 SGIP_SUBMIT 的报告'],
          ['UserNumber', withCountryCode(EXAMPLE.mobile), '手机号，带 86'],
          ['State', `${REPORT_STATE.DELIVERED} / ${REPORT_STATE.FAILED}`, '0 成功，2 失败'],
          ['ErrorCode', '0 或错误码', '失败时为运营商的错误码'],
        ]),
      },
      uplinks: {
        paragraphs: [
          `账户的上行短信为「需要（推送）」时，手机回复到账户号码 ${number}（或加扩展号）的短信以 SGIP_DELIVER 推送到您的监听，排队、应答与重发规则同状态报告（最长保留 ${MO_KEEP_HOURS} 小时）。`,
        ],
        table: fields([
          ['UserNumber', withCountryCode(EXAMPLE.mobile), '回复的手机号，带 86'],
          ['SPNumber', spNumber, '手机回复的号码'],
          [
            'MessageCoding',
            `${MESSAGE_CODING.ASCII} 或 ${MESSAGE_CODING.UCS2}`,
            '纯 ASCII 为 0，否则 UCS2；超过 140 字节时分段（TP_udhi 1）',
          ],
          ['MessageContent', EXAMPLE.reply, ''],
        ]),
      },
      flow: {
        table: {
          head: ['限制', '规则', '超过时'],
          rows: [
            [
              '提交速度（accessSpeed）',
              `账户每秒可提交的条数（当前：${a.access_speed > 0 ? `每秒 ${a.access_speed} 条` : '不限'}），所有接口合计`,
              `Result ${SGIP_RESULT.NODE_BUSY}，请稍后重发`,
            ],
            [
              '提交窗口',
              `每个连接同时受理中的 SGIP_SUBMIT 最多 ${opts.window} 个`,
              `Result ${SGIP_RESULT.NODE_BUSY}，请稍后重发`,
            ],
            [
              '推送窗口',
              `每个回连最多 ${opts.deliverWindow} 个未应答的 SGIP_REPORT / SGIP_DELIVER`,
              '等待应答后继续发送',
            ],
          ],
        },
      },
    },
    examples: [
      {
        title: '登录：SGIP_BIND',
        paragraphs: [`示例中的接口密码以 \`${EXAMPLE.password}\` 代替，节点编号以 ${node} 代替。`],
        fields: fields([
          ['Login_Type', 1, ''],
          ['Login_Name', shownLogin, ''],
          ['Login_Password', EXAMPLE.password, ''],
        ]),
        hex: bind,
      },
      { title: '登录应答：SGIP_BIND_RESP', fields: fields([['Result', 0, '成功']]), hex: encodeBindResp(seq, 0) },
      {
        title: '提交短信：SGIP_SUBMIT',
        fields: fields([
          ['SPNumber', spNumber, ''],
          ['UserNumber', withCountryCode(EXAMPLE.mobile), ''],
          ['ReportFlag', 1, ''],
          ['MessageCoding', text.messageCoding, 'UCS2'],
          ['MessageContent', EXAMPLE.text, `${text.octets.length} 字节`],
        ]),
        hex: submit,
      },
      {
        title: '提交应答：SGIP_SUBMIT_RESP',
        fields: fields([['Result', 0, `序列号与提交相同：${seqString(submitSeq)}`]]),
        hex: encodeSubmitResp(submitSeq, 0),
      },
      {
        title: `长短信：第 1 段（共 ${long.contents.length} 段）`,
        fields: fields([
          ['TP_udhi', 1, ''],
          ['MessageContent', 'UDH + 第 1 段文本', `${long.contents[0].length} 字节`],
        ]),
      },
      {
        title: '状态报告：SGIP_REPORT（平台 → 您的监听）',
        fields: fields([
          ['SubmitSequenceNumber', seqString(submitSeq), ''],
          ['ReportType', 0, ''],
          ['UserNumber', withCountryCode(EXAMPLE.mobile), ''],
          ['State', 0, '成功'],
          ['ErrorCode', 0, ''],
        ]),
        hex: report,
      },
    ],
  };
}
