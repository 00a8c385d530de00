/**
 * The SMPP door described for its help document (GET /help/smppdoc; help module door-doc.ts renders
 * it), from the door's own code: the statuses are server.ts SMPP_STATUS and the refusal map
 * SMPP_REFUSAL_STATUS, the command ids the smpp library's, the timers and windows the running
 * listener's options, the codings and receipt layout lib/smpp-pdu.ts's, and the examples are
 * encoded by the same encoders the door answers with. A change of a constant changes the document;
 * tests/server/door-docs.test.ts checks that every status server.ts answers with is in it.
 */
import smpp from 'smpp';
import { MESSAGES } from '../../../common/schema/messages';
import type { AppContext } from '../../context';
import type { CodeEntry, DoorDescription, DoorDocRequest } from '../help';
import { MAX_MESSAGE_CHARS } from '../../../common/sms/pieces';
import {
  concatUdh,
  cstr,
  DC_GBK,
  DC_GSM7,
  DC_IA5,
  DC_LATIN1,
  DC_UCS2,
  encodeResp,
  encodeSm,
  encodeText,
  ESM_RECEIPT,
  ESM_UDHI,
  receiptText,
  SHORT_MESSAGE_MAX,
  splitText,
  STAT_STATE,
  TLV_MESSAGE_PAYLOAD,
  TLV_MESSAGE_STATE,
  TLV_RECEIPTED_MESSAGE_ID,
  TLV_SAR_MSG_REF_NUM,
  TLV_SAR_SEGMENT_SEQNUM,
  TLV_SAR_TOTAL_SEGMENTS,
  type SmFields,
} from '../../lib/smpp-pdu';
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
import {
  BIND_RESP_SYSTEM_ID,
  HAS_RESPONSE,
  SERVED_COMMANDS,
  SMPP_REFUSAL_STATUS,
  SMPP_STATUS,
  type SmppServerOptions,
} from './server';

const COMMANDS = (smpp as unknown as { commands: Record<string, { id: number }> }).commands;
/** a command's id as SMPP writes it */
const idOf = (command: string) => `0x${(COMMANDS[command].id >>> 0).toString(16).toUpperCase().padStart(8, '0')}`;
const hex = (n: number, width = 2) => `0x${n.toString(16).toUpperCase().padStart(width, '0')}`;

/** SMPP's name of a status of this door: ESME_R<key> (its key in SMPP_STATUS), the vendor range 0x400-0x4FF the platform's own */
export function smppStatusName(code: number): string {
  if (code >= 0x400 && code <= 0x4ff) return '平台自定义';
  const key = Object.entries(SMPP_STATUS).find(([k, v]) => v === code && !k.startsWith('X_') && k !== 'OK')?.[0];
  return code === SMPP_STATUS.OK ? 'ESME_ROK' : key ? `ESME_R${key}` : '';
}

/** an entry of a status table: the constant's code and its SMPP name */
const st = (code: number, when: string): CodeEntry => ({ code, name: smppStatusName(code), when });

export interface SmppDocInput {
  /** the running listener's options and ports */
  opts: SmppServerOptions;
  port: number;
  tlsPort: number;
}

export function describeSmppDoor(ctx: AppContext, door: SmppDocInput, req: DoorDocRequest): DoorDescription {
  const { opts } = door;
  const a = req.account;
  const login = a.clientid;
  const number = `${opts.sourcePrefix}${a.id}`;
  const { maxFailedLogins, lockMs, lockMaxMs } = ctx.config;
  const tz = opts.tzMinutes;
  const notOffered = [...HAS_RESPONSE].filter((c) => !(SERVED_COMMANDS as readonly string[]).includes(c)).sort();

  // ---------------------------------------------------------------- examples, encoded as the door encodes
  /** a submit_sm / deliver_sm written by lib/smpp-pdu encodeSm (the door's own encoder) with its sequence number */
  const sm = (
    command: 'submit_sm' | 'deliver_sm',
    sequence: number,
    f: Omit<SmFields, 'sourceTon' | 'sourceNpi' | 'destTon' | 'destNpi'>,
  ) =>
    encoded(() => {
      const pdu = encodeSm(command, { sourceTon: 0, sourceNpi: 0, destTon: 0, destNpi: 0, ...f });
      pdu.sequence_number = sequence;
      return pdu.toBuffer();
    });
  const bind = encoded(() =>
    new smpp.PDU('bind_transceiver', {
      sequence_number: 1,
      system_id: login,
      password: EXAMPLE.password,
      system_type: '',
      interface_version: 0x34,
      addr_ton: 0,
      addr_npi: 0,
      address_range: '',
    }).toBuffer(),
  );
  const bindResp = new smpp.PDU('bind_transceiver_resp', {
    sequence_number: 1,
    command_status: SMPP_STATUS.OK,
    system_id: BIND_RESP_SYSTEM_ID,
  }).toBuffer();
  const text = encodeText(EXAMPLE.text);
  const submit = sm('submit_sm', 2, {
    source: a.needextend === 1 ? EXAMPLE.extension : '',
    dest: EXAMPLE.mobile,
    esmClass: 0,
    registeredDelivery: 1,
    dataCoding: text.dataCoding,
    shortMessage: text.octets,
  });
  const messageId = '100001';
  const submitResp = encodeResp('submit_sm_resp', 2, SMPP_STATUS.OK, messageId).toBuffer();
  const long = splitText(EXAMPLE.longText, 'ia5', 'udh');
  const ref = 0x2a;
  const part1 = sm('submit_sm', 3, {
    source: '',
    dest: EXAMPLE.mobile,
    esmClass: ESM_UDHI,
    registeredDelivery: 1,
    dataCoding: long.dataCoding,
    shortMessage: Buffer.concat([concatUdh(ref, long.parts.length, 1), long.parts[0]]),
  });
  const submitAt = new Date(req.now.getTime() - 60_000);
  const receipt = receiptText({
    msgId: messageId,
    stat: 'DELIVRD',
    err: '000',
    submitAt,
    doneAt: req.now,
    text: EXAMPLE.text,
    tzMinutes: tz,
  });
  const deliver = sm('deliver_sm', 1, {
    source: EXAMPLE.mobile,
    dest: login,
    esmClass: ESM_RECEIPT,
    registeredDelivery: 0,
    dataCoding: DC_IA5,
    shortMessage: Buffer.from(receipt, 'latin1'),
    tlvs: [
      [TLV_RECEIPTED_MESSAGE_ID, cstr(messageId)],
      [TLV_MESSAGE_STATE, Buffer.from([STAT_STATE.DELIVRD])],
    ],
  });
  const reply = encodeText(EXAMPLE.reply);

  const fields = (rows: (string | number)[][]) => ({ head: ['字段', '值', '说明'], rows });

  return {
    protocol: 'SMPP 3.4',
    intro: [
      '客户系统（网关、程序）以 SMPP 3.4 客户端（ESME）身份与平台建立 TCP 长连接，登录（bind）后提交短信（submit_sm / data_sm），并在接收会话上收到状态报告与上行短信（deliver_sm）。',
      '经本接口提交的短信与控制台发送的短信受理规则相同：签名、认证、敏感词、审核、号码与计费都一样，计费在应答前完成；被拒绝的提交不写入、不计费。',
    ],
    account: accountTable(ctx, a, {
      login,
      loginLabel: '登录名（system_id）',
      host: req.host,
      port: door.port,
      extraPorts: [['TLS 端口', door.tlsPort ? String(door.tlsPort) : '未开通']],
      number,
    }),
    warnings: accountWarnings(a),
    sections: {
      connect: {
        table: {
          head: ['项目', '规则'],
          rows: [
            [
              '地址与端口',
              `${req.host}:${door.port}${door.tlsPort ? `；SMPP over TLS：${req.host}:${door.tlsPort}` : ''}`,
            ],
            ['协议版本', 'SMPP 3.4（interface_version `0x34`）'],
            ['登录期限', `连接建立后 ${duration(opts.bindTimeoutMs)}内须完成 bind，否则连接被关闭`],
            [
              '空闲超时',
              `登录后 ${duration(opts.idleTimeoutMs)}内没有收到任何 PDU 则关闭连接：请定时发送 enquire_link（建议每 ${duration(Math.max(1000, Math.floor(opts.idleTimeoutMs / 4000) * 1000))}一次）`,
            ],
            [
              '会话类型',
              '`bind_transmitter` 只提交；`bind_receiver` 只接收状态报告与上行；`bind_transceiver` 收发都可以',
            ],
            [
              '连接限制',
              `每个 IP 同时最多 ${opts.maxConnectionsPerAddress} 个连接，${duration(opts.connectWindowMs)}内最多新建 ${opts.maxConnectAttempts} 个连接；超过时新连接被立即关闭`,
            ],
            ['会话数', '同一账户同时登录的会话数不超过其最大连接数（nodenum），所有服务器进程合计'],
          ],
        },
        notes: [
          '状态报告与上行短信只发往接收会话（receiver 或 transceiver），任一会话、任一服务器进程都可以；没有接收会话时在平台排队等待。',
        ],
      },
      login: {
        paragraphs: [
          `bind 的 system_id 为您的登录名 \`${login}\`，password 为接口密码（8 位，区分大小写；与控制台登录密码不同，在「接口信息」中重置，新密码只显示一次）。`,
          `登录成功的应答（bind_*_resp）command_status 为 0，system_id 为 \`${BIND_RESP_SYSTEM_ID}\`。登录名不存在与密码错误的应答相同；同一登录名在同一 IP 连续失败 ${maxFailedLogins} 次后锁定 ${duration(lockMs)}，此后每再失败一次锁定时间加倍（最长 ${duration(lockMaxMs)}）。`,
        ],
        table: fields([
          ['system_id', login, '账户登录名'],
          ['password', '接口密码', '最长 8 位'],
          ['system_type', '任意（可为空）', '不检查'],
          ['interface_version', '`0x34`', ''],
          ['addr_ton / addr_npi / address_range', '0 / 0 / 空', '不使用'],
        ]),
        codes: {
          format: 'hex',
          label: 'command_status',
          entries: [
            st(SMPP_STATUS.OK, MESSAGES.loggedIn),
            st(SMPP_STATUS.INVPASWD, '登录名不存在、账户尚未设置接口密码或接口密码错误（应答相同，每次计为一次失败）'),
            st(SMPP_STATUS.BINDFAIL, `该登录名在此 IP 连续失败 ${maxFailedLogins} 次后被锁定`),
            st(SMPP_STATUS.BINDFAIL, '账户不能使用接口：未启用、已冻结、认证未通过或测试账户'),
            st(SMPP_STATUS.BINDFAIL, '连接的 IP 不在账户的 IP 白名单内'),
            st(SMPP_STATUS.BINDFAIL, '平台内部错误，请稍后重试'),
            st(SMPP_STATUS.ALYBND, '账户已登录的会话数达到最大连接数（nodenum）'),
            st(SMPP_STATUS.ALYBND, '本连接已经登录'),
          ],
        },
      },
      commands: {
        table: {
          head: ['命令', 'command_id', '方向', '平台的处理'],
          rows: [
            ['bind_transmitter', idOf('bind_transmitter'), '客户 → 平台', '登录（只提交），见「登录认证」'],
            ['bind_receiver', idOf('bind_receiver'), '客户 → 平台', '登录（只接收）'],
            ['bind_transceiver', idOf('bind_transceiver'), '客户 → 平台', '登录（收发）'],
            ['enquire_link', idOf('enquire_link'), '客户 → 平台', '任何时候都应答 enquire_link_resp'],
            ['unbind', idOf('unbind'), '客户 → 平台', '应答 unbind_resp 后关闭连接'],
            [
              'submit_sm',
              idOf('submit_sm'),
              '客户 → 平台',
              `提交短信，应答 submit_sm_resp；未登录或在接收会话上提交：${hex(SMPP_STATUS.INVBNDSTS, 8)}`,
            ],
            [
              'data_sm',
              idOf('data_sm'),
              '客户 → 平台',
              '与 submit_sm 相同（文本在 message_payload），应答 data_sm_resp',
            ],
            [
              'deliver_sm',
              idOf('deliver_sm'),
              '平台 → 客户',
              '状态报告（esm_class `0x04`）与上行短信（esm_class `0x00`）',
            ],
            [
              'deliver_sm_resp',
              idOf('deliver_sm_resp'),
              '客户 → 平台',
              'command_status 0：已收到，不再重发；其他：稍后重发',
            ],
            [
              'generic_nack',
              idOf('generic_nack'),
              '平台 → 客户',
              `未定义的 command_id、没有应答的命令（outbind、alert_notification）：${hex(SMPP_STATUS.INVCMDID, 8)}`,
            ],
          ],
        },
        codes: {
          format: 'hex',
          label: 'command_status',
          entries: [
            st(SMPP_STATUS.INVBNDSTS, '登录前发送 bind、enquire_link、unbind 以外的请求（应答该请求的响应）'),
            st(SMPP_STATUS.INVBNDSTS, '在只接收的会话（bind_receiver）上提交 submit_sm / data_sm'),
            st(SMPP_STATUS.INVCMDID, '未定义的 command_id（generic_nack）'),
            st(SMPP_STATUS.INVCMDID, '没有应答的命令 outbind、alert_notification（generic_nack）'),
            st(SMPP_STATUS.INVCMDID, `登录后平台不提供的操作：${notOffered.join('、')}（generic_nack）`),
          ],
        },
        notes: ['command_length 小于 16 或大于 16 KB、无法解析的 PDU：连接被关闭。一个会话中的错误只关闭该会话。'],
      },
      submit: {
        paragraphs: [
          '每个 submit_sm 是发往一个号码的一条短信。受理成功的应答带 message_id：平台的消息编号（十进制数字），状态报告以它为准。',
          '短信内容须带账户已审核通过的签名（【签名】放在开头或结尾）；含敏感词的短信被拦截（不计费），需要审核的账户其短信等待人工审核。',
        ],
        table: fields([
          [
            'source_addr',
            a.needextend === 1 ? `扩展号，如 \`${EXAMPLE.extension}\`` : '任意（被忽略）',
            `账户支持扩展号时为 1–6 位扩展号（可带账户号码 ${number} 前缀），短信从 ${number}+扩展号 发出；否则一律从 ${number} 发出。源号码从不导致拒绝`,
          ],
          ['destination_addr', EXAMPLE.mobile, '一个中国大陆手机号；86、+86、0086 前缀会被去掉'],
          [
            'esm_class',
            `0 或 \`${hex(ESM_UDHI)}\``,
            `\`${hex(ESM_UDHI)}\`（UDHI）表示 short_message 以 UDH 开头（长短信分段）`,
          ],
          ['registered_delivery', '0 / 1 / 2', '低两位：0 不要状态报告；1 所有最终状态；2 仅失败时；3 同 1'],
          ['data_coding', `\`${hex(DC_UCS2)}\` 等`, '见「编码与长短信」'],
          ['short_message', '文本', '为空时读 message_payload'],
          [
            `message_payload（TLV \`${hex(TLV_MESSAGE_PAYLOAD, 4)}\`）`,
            '文本',
            'data_sm 的文本，或 submit_sm 中较长的文本',
          ],
          [
            `sar_msg_ref_num / sar_total_segments / sar_segment_seqnum（TLV \`${hex(TLV_SAR_MSG_REF_NUM, 4)}\` / \`${hex(TLV_SAR_TOTAL_SEGMENTS, 4)}\` / \`${hex(TLV_SAR_SEGMENT_SEQNUM, 4)}\`）`,
            '分段参数',
            '长短信分段的另一种方式（代替 UDH）',
          ],
          [
            'service_type、*_ton、*_npi、protocol_id、priority_flag、schedule_delivery_time、validity_period、replace_if_present_flag、sm_default_msg_id',
            '任意',
            '不使用',
          ],
        ]),
        notes: [
          `一次提交的扩展号与 registered_delivery 随短信保存。${PIECE_RULE}`,
          '多个连接可以同时提交；每个 submit_sm_resp 在其短信写入并计费之后才发出。',
        ],
      },
      results: {
        paragraphs: [
          'submit_sm_resp / data_sm_resp 的 command_status：0 为受理成功；除注明「请稍后重发」的以外，其他状态都是该短信的最终结果，未写入、未计费。',
        ],
        codes: {
          format: 'hex',
          label: 'command_status',
          entries: [
            st(SMPP_STATUS.OK, '受理成功：应答带 message_id'),
            st(SMPP_STATUS.INVBNDSTS, '未登录，或在只接收的会话（bind_receiver）上提交'),
            st(SMPP_STATUS.X_ACCOUNT, '账户不能使用接口（登录后被冻结、认证被撤销等，一秒内生效）'),
            st(
              SMPP_STATUS.INVMSGLEN,
              `内容超过 ${MAX_MESSAGE_CHARS} 个字符；长短信分段序号超出总数，或总数超过 ${MAX_PARTS}`,
            ),
            st(SMPP_STATUS.THROTTLED, '超过账户每秒提交速度（accessSpeed）：请稍后重发'),
            st(SMPP_STATUS.THROTTLED, `本会话同时受理中的提交超过 ${opts.window} 个：请稍后重发`),
            st(
              SMPP_STATUS.MSGQFUL,
              `账户未完成的长短信分段已达上限（${Math.round(opts.partsMaxBytes / 1024)} KB）：分段未保存`,
            ),
            st(SMPP_STATUS.SYSERR, '平台内部错误：未写入，请稍后重发'),
            ...refusalEntries(SMPP_REFUSAL_STATUS, smppStatusName),
          ],
        },
        notes: [
          `${hex(SMPP_STATUS.THROTTLED, 8)} 表示「稍后重发」：请保留该短信，暂停片刻（如 50 毫秒起，逐次加倍至 1 秒）再提交。`,
          `${hex(0x400, 8)}–${hex(0x4ff, 8)} 是 SMPP 留给厂商的状态段，这里用作平台自定义的拒绝原因。`,
        ],
      },
      coding: {
        paragraphs: ['submit_sm 的文本按 data_coding 解码：'],
        table: {
          head: ['data_coding', '编码', '说明'],
          rows: [
            [hex(DC_GSM7), 'SMSC 默认字母表（GSM 03.38）', '英文短信'],
            [hex(DC_IA5), 'IA5（ASCII）', '英文短信'],
            [hex(DC_LATIN1), 'Latin-1（ISO-8859-1）', ''],
            [hex(DC_UCS2), 'UCS2（UTF-16 大端）', '中文短信请用此编码'],
            [hex(DC_GBK), 'GBK', ''],
            ['其他', '按字节读取（Latin-1）', '不建议'],
          ],
        },
        notes: [
          `长短信分段提交：esm_class 为 \`${hex(ESM_UDHI)}\`，short_message 以 UDH 开头——8 位参考号 \`05 00 03 参考号 总数 序号\` 或 16 位参考号 \`06 08 04 参考号(2字节) 总数 序号\`；也可以不用 UDH，改用 SAR 参数（sar_msg_ref_num、sar_total_segments、sar_segment_seqnum）。每段 UCS2 最多 67 个字符（ASCII 134 字节）。`,
          `一条长短信最多 ${MAX_PARTS} 段、合计 ${MAX_MESSAGE_CHARS} 个字符。各段可以任意顺序、经任意连接提交（同一源号码、目标号码、参考号与总数为同一条）。未完成的分段先应答各自的编号（十进制数字），完成整条的那一段应答整条短信的 message_id；每个应答过的编号都会收到状态报告。`,
          `第一段到达 ${duration(opts.reassemblyMs)}后仍未收齐的，按已收到的分段合并为一条受理（缺失的段略去）。每一段都占用一个提交速度（accessSpeed）配额。`,
        ],
      },
      reports: {
        paragraphs: [
          `账户的状态报告为「透传状态报告」，且提交时 registered_delivery 要求时，短信的最终状态以 deliver_sm 发往该账户的接收会话；没有接收会话时排队等待（最长 ${RECEIPT_KEEP_HOURS} 小时），会话登录后按顺序发出。`,
          `客户须以 deliver_sm_resp（command_status 0）应答；应答后不再重发。应答错误一秒后重发；${duration(opts.receiptLeaseMs)}内没有应答或连接断开，则重发（可能发往另一个接收会话）。每个会话最多 ${opts.deliverWindow} 条未应答。`,
        ],
        table: fields([
          ['source_addr', EXAMPLE.mobile, '手机号'],
          ['destination_addr', login, '您的登录名'],
          ['esm_class', `\`${hex(ESM_RECEIPT)}\``, '状态报告'],
          ['data_coding', `\`${hex(DC_IA5)}\``, ''],
          [
            'short_message',
            'id:… sub:001 dlvrd:… submit date:… done date:… stat:… err:… text:…',
            'SMPP 3.4 附录 B 格式；日期为 YYMMDDhhmm（北京时间），text 为内容的前 20 个字母数字',
          ],
          [
            `receipted_message_id（TLV \`${hex(TLV_RECEIPTED_MESSAGE_ID, 4)}\`）`,
            messageId,
            '提交应答中的 message_id（或长短信分段的编号）',
          ],
          [`message_state（TLV \`${hex(TLV_MESSAGE_STATE, 4)}\`）`, String(STAT_STATE.DELIVRD), '见下表'],
        ]),
        notes: [
          `stat 与 message_state：${RECEIPT_STAT_WORDS.map((w) => `\`${w}\`（${STAT_STATE[w]}）${RECEIPT_STAT_TEXT[w]}`).join('；')}。`,
          'err 为 3 位数字：运营商给出的错误码（1–3 位数字时），否则送达为 000、失败为 001。',
        ],
      },
      uplinks: {
        paragraphs: [
          `账户的上行短信为「需要（推送）」且状态报告为「透传」时，手机回复到账户号码 ${number}（或加扩展号）的短信以 deliver_sm 发往接收会话，排队、应答与重发规则同状态报告（最长保留 ${MO_KEEP_HOURS} 小时）。`,
        ],
        table: fields([
          ['source_addr', EXAMPLE.mobile, '回复的手机号（不带 +86）'],
          [
            'destination_addr',
            `${number}${a.needextend === 1 ? EXAMPLE.extension : ''}`,
            '手机回复的号码：账户号码 + 扩展号',
          ],
          ['esm_class', '`0x00`', '上行短信'],
          ['data_coding', `\`${hex(DC_IA5)}\` 或 \`${hex(DC_UCS2)}\``, '纯 ASCII 为 IA5，否则 UCS2'],
          ['short_message / message_payload', EXAMPLE.reply, `超过 ${SHORT_MESSAGE_MAX} 字节时放在 message_payload`],
        ]),
      },
      flow: {
        table: {
          head: ['限制', '规则', '超过时'],
          rows: [
            [
              '提交速度（accessSpeed）',
              `账户每秒可提交的条数（当前：${a.access_speed > 0 ? `每秒 ${a.access_speed} 条` : '不限'}），所有接口与服务器进程合计；每个 submit_sm（长短信的每一段）计 1 条`,
              `${hex(SMPP_STATUS.THROTTLED, 8)}，请稍后重发`,
            ],
            [
              '提交窗口',
              `每个会话同时受理中的 submit_sm 最多 ${opts.window} 个（建议客户端窗口不超过此数）`,
              `${hex(SMPP_STATUS.THROTTLED, 8)}，请稍后重发`,
            ],
            ['推送窗口', `每个接收会话最多 ${opts.deliverWindow} 个未应答的 deliver_sm`, '等待应答后继续发送'],
            ['最大连接数（nodenum）', '账户同时登录的会话数', `登录应答 ${hex(SMPP_STATUS.ALYBND, 8)}`],
          ],
        },
      },
    },
    examples: [
      {
        title: '登录：bind_transceiver',
        paragraphs: [`示例中的接口密码以 \`${EXAMPLE.password}\` 代替，请换成您的接口密码。`],
        fields: fields([
          ['command_id', idOf('bind_transceiver'), ''],
          ['sequence_number', 1, ''],
          ['system_id', login, '登录名'],
          ['password', EXAMPLE.password, '接口密码'],
          ['interface_version', '0x34', ''],
        ]),
        hex: bind,
      },
      {
        title: '登录应答：bind_transceiver_resp',
        fields: fields([
          ['command_status', 0, '成功'],
          ['system_id', BIND_RESP_SYSTEM_ID, ''],
        ]),
        hex: bindResp,
      },
      {
        title: '提交短信：submit_sm',
        fields: fields([
          ['sequence_number', 2, ''],
          ['source_addr', a.needextend === 1 ? EXAMPLE.extension : '', a.needextend === 1 ? '扩展号' : '被忽略'],
          ['destination_addr', EXAMPLE.mobile, ''],
          ['registered_delivery', 1, '要状态报告'],
          ['data_coding', hex(text.dataCoding), 'UCS2'],
          ['short_message', EXAMPLE.text, `${text.octets.length} 字节`],
        ]),
        hex: submit,
      },
      {
        title: '提交应答：submit_sm_resp',
        fields: fields([
          ['command_status', 0, '受理成功'],
          ['message_id', messageId, '平台的消息编号（示例）'],
        ]),
        hex: submitResp,
      },
      {
        title: `长短信：第 1 段（共 ${long.parts.length} 段）`,
        paragraphs: [
          `「${EXAMPLE.longText}」共 ${[...EXAMPLE.longText].length} 个字符，按 UCS2 分为 ${long.parts.length} 段，每段前加 UDH \`${[...concatUdh(ref, long.parts.length, 1)].map((x) => x.toString(16).padStart(2, '0')).join(' ')}\`（参考号 ${ref}，共 ${long.parts.length} 段，第 1 段）。`,
        ],
        fields: fields([
          ['esm_class', hex(ESM_UDHI), 'short_message 带 UDH'],
          ['data_coding', hex(long.dataCoding), ''],
          ['short_message', `UDH + 第 1 段文本`, `${6 + long.parts[0].length} 字节`],
        ]),
        hex: part1,
      },
      {
        title: '状态报告：deliver_sm',
        fields: fields([
          ['source_addr', EXAMPLE.mobile, ''],
          ['destination_addr', login, ''],
          ['esm_class', hex(ESM_RECEIPT), ''],
          ['receipted_message_id', messageId, ''],
          ['message_state', STAT_STATE.DELIVRD, 'DELIVRD'],
        ]),
        text: receipt,
        hex: deliver,
      },
      {
        title: '上行短信：deliver_sm',
        fields: fields([
          ['source_addr', EXAMPLE.mobile, ''],
          ['destination_addr', `${number}${a.needextend === 1 ? EXAMPLE.extension : ''}`, ''],
          ['esm_class', '0x00', ''],
          ['data_coding', hex(reply.dataCoding), ''],
          ['short_message', EXAMPLE.reply, ''],
        ]),
      },
    ],
  };
}
