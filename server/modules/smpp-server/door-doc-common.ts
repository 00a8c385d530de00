/**
 * What every door's description (smpp-doc.ts, cmpp-doc.ts; SMGP / SGIP next) says alike, written
 * from the shared core's own rules: the acceptance's refusal reasons (every door maps them to its
 * own codes: `refusalEntries` makes the rows from that very map), the receipt stat words
 * (receipts.ts RECEIPT_STATS), the account's settings as the doors read them (door-core.ts
 * `sessionLimit`, `interfaceRefusal`), and the example values.
 *
 * A new door writes `describe<Proto>Door(input): DoorDescription` (help module's door-doc.ts) from
 * its constants and running options, and registers it in index.ts (`DOOR_DOCS`).
 */
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import type { CodeEntry, DocTable } from '../help';
import type { InterfaceRefusalReason } from '../send';
import { MAX_MESSAGE_CHARS, PIECE_LIMITS } from '../../../common/sms/pieces';
import { interfaceRefusal, sessionLimit } from './door-core';
import { RECEIPT_KEEP_MS, RECEIPT_STATS, type ReceiptStat } from './receipts';
import { MO_KEEP_MS } from './mo';

/** what the acceptance's refusal reasons mean (send/interface.ts InterfaceRefusalReason): one text per reason */
export const REFUSAL_REASON_TEXT: Record<InterfaceRefusalReason, string> = {
  account: '账户不能发送：未启用、已冻结、认证未通过、测试账户，或账户不允许的短信类型',
  domestic: '账户不允许发送国内短信',
  sign: '短信没有签名，或签名不是账户已审核通过的签名（签名以【签名】放在内容开头或结尾）',
  number: '目标号码不是有效的中国大陆手机号（86、+86、0086 前缀会被去掉）',
  length: `内容为空，或不合发送规则（如加上签名后超过 ${MAX_MESSAGE_CHARS} 个字符）`,
  credit: '余额或短信包不足',
  busy: '平台数据库繁忙（冲突重试后仍未成功）：未写入、未计费，请稍后重发',
  blacklist: '营销短信的目标号码在黑名单中',
};

/** the rows of a door's refusal map (reason → its code): the table follows the map the door answers with */
export function refusalEntries(
  map: Record<InterfaceRefusalReason, number>,
  nameOf: (code: number) => string | undefined,
): CodeEntry[] {
  return (Object.keys(map) as InterfaceRefusalReason[]).map((reason) => ({
    code: map[reason],
    name: nameOf(map[reason]),
    when: REFUSAL_REASON_TEXT[reason],
  }));
}

/** what each stat word of a receipt means (receipts.ts RECEIPT_STATS) */
export const RECEIPT_STAT_TEXT: Record<ReceiptStat, string> = {
  DELIVRD: '已送达手机',
  EXPIRED: '超过有效期未送达（运营商报告）',
  DELETED: '被运营商删除（运营商报告）',
  UNDELIV: '无法送达：空号、停机、关机超时等',
  ACCEPTD: '运营商已接受（运营商报告）',
  UNKNOWN: '状态未知（运营商报告）',
  REJECTD: '被拒绝：平台或运营商拒收（审核不通过、拦截、提交失败、计费失败等）',
};
/** the stat words in the order receipts.ts lists them */
export const RECEIPT_STAT_WORDS: readonly ReceiptStat[] = RECEIPT_STATS;

/** hours a queued receipt / uplink waits for a receiver session */
export const RECEIPT_KEEP_HOURS = RECEIPT_KEEP_MS / 3600_000;
export const MO_KEEP_HOURS = MO_KEEP_MS / 3600_000;

/** the piece rule the charge uses (common/sms/pieces.ts), as one sentence */
export const PIECE_RULE = `计费条数与控制台发送相同：含中文等非 ASCII 字符的短信 ${PIECE_LIMITS.chinese.single} 字以内为 1 条，超过按每条 ${PIECE_LIMITS.chinese.multi} 字计；纯 ASCII 短信 ${PIECE_LIMITS.english.single} 字以内为 1 条，超过按每条 ${PIECE_LIMITS.english.multi} 字计；一条短信最多 ${MAX_MESSAGE_CHARS} 字（含签名）。`;

/** example values of the documents */
export const EXAMPLE = {
  /** stands for the account's interface password in the examples (never the real one) */
  password: '12345678',
  mobile: '13800138000',
  text: '【签名】您的验证码是123456，5分钟内有效。',
  longText:
    '【签名】尊敬的客户，您本月的账单已生成，本期应还金额为128.50元，最后还款日为本月25日。请您及时还款，以免影响信用记录。如已还款请忽略本短信，感谢您的支持！',
  reply: '收到，谢谢',
  extension: '01',
} as const;

/** an example packet as the door's encoder writes it; none when a value of the account does not fit the field (a login longer than the protocol allows) */
export function encoded(encode: () => Buffer): Buffer | undefined {
  try {
    return encode();
  } catch (err) {
    if (err instanceof RangeError) return undefined;
    throw err;
  }
}

export interface DoorAccountInfo {
  /** what the account logs in with on this door ('' when it has none yet) */
  login: string;
  /** its heading (SMPP system_id, CMPP Source_Addr) */
  loginLabel: string;
  host: string;
  port: number;
  /** other ports of the door (SMPP over TLS) */
  extraPorts?: [string, string][];
  /** the account's number: SMS_SOURCE_PREFIX + its id */
  number: string;
}

/** a duration of the door's options as the document says it */
export const duration = (ms: number) =>
  ms % 3600_000 === 0
    ? `${ms / 3600_000} 小时`
    : ms % 60_000 === 0 && ms >= 60_000
      ? `${ms / 60_000} 分钟`
      : ms % 1000 === 0
        ? `${ms / 1000} 秒`
        : `${ms} 毫秒`;

/** the account's own settings for the door, as the door reads them */
export function accountTable(ctx: AppContext, a: Account, d: DoorAccountInfo): DocTable {
  const label = (name: string, v: unknown) => ctx.schemas.registry.enumLabel(name, v) ?? String(v);
  const limit = sessionLimit(a.nodenum);
  const rows: (string | number)[][] = [
    ['服务器地址', d.host, '平台对外的主机名（以您访问控制台的地址为准，运营方另有说明时以其为准）'],
    ['端口', d.port, ''],
    ...(d.extraPorts ?? []).map(([k, v]) => [k, v, '']),
    [
      d.loginLabel,
      d.login || '（尚未生成）',
      d.login ? '即「接口信息」中的登录名' : '在「接口信息」中重置接口密码后生成',
    ],
    [
      '接口密码',
      a.interface_password_hash ? '已设置（不在文档中显示）' : '未设置',
      '与控制台登录密码不同；在「接口信息」中重置，新密码只显示一次',
    ],
    ['账户号码', d.number, '短信的发送号码；上行回复发往此号码（加扩展号）'],
    [
      '扩展号',
      label('need-extend', a.needextend),
      a.needextend === 1 ? '提交时在源号码中带 1–6 位扩展号' : '源号码被忽略，一律从账户号码发出',
    ],
    [
      '状态报告',
      label('need-report', a.needreport),
      a.needreport === 2 ? '状态报告经本接口推送' : '仅「透传状态报告」时状态报告经本接口推送；当前设置不经本接口推送',
    ],
    [
      '上行短信',
      label('need-mo', a.needmo),
      a.needmo === 1 && a.needreport === 2
        ? '上行短信经本接口推送'
        : '上行「需要（推送）」且状态报告为「透传」时经本接口推送',
    ],
    [
      '提交速度（accessSpeed）',
      a.access_speed > 0 ? `每秒 ${a.access_speed} 条` : '不限',
      '所有接口（SMPP、CMPP、HTTP）合计',
    ],
    [
      '最大连接数（nodenum）',
      limit === Infinity ? '不限' : `${limit} 个`,
      '同时登录的会话数，所有接口与服务器进程合计',
    ],
    ['IP 白名单', a.ip?.trim() || '不限', '设置后只接受来自这些地址的连接'],
  ];
  return { head: ['项目', '值', '说明'], rows };
}

/** what keeps the account from using the door now */
export function accountWarnings(a: Account): string[] {
  const out: string[] = [];
  if (!a.interface_password_hash)
    out.push('您的账户尚未设置接口密码，暂时无法登录：请在「接口信息」中重置接口密码（新密码只显示一次）。');
  const why = interfaceRefusal({ ...a, interface_password_hash: a.interface_password_hash || 'set' });
  if (why) out.push(`您的账户当前不能使用接口：${why}`);
  return out;
}
