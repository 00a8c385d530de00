/**
 * The sending screens' calls and rules that are not a list (those are Refine data resources
 * declared by their folders, e.g. src/resources/send-tasks/index.ts): the shapes of docs/api-send.md / the sending contract, and the
 * messages of schemas/forms/send.json (`x-messages`), read from the schema, never spelled out.
 */
import dayjs, { type Dayjs } from 'dayjs';
import sendSchema from '../../schemas/forms/send.json';
import { postForm, postJson, type ApiBody, type ApiRequestConfig } from '@/providers/http';
import { http } from '@/providers/httpRaw';
import { ApiError } from '@/providers/http';
import { fileNameOf, saveBlob } from '@/lib/download';
import type { ChargeInfo, EditedTask, NumberImport, SendForm, SmsTypeOption } from '@/generated/schemas';

// the answers' types are the schemas' (schemas/responses), the server answers through the same files
export type { ChargeInfo, EditedTask, SmsTypeOption } from '@/generated/schemas';
import { businessNow, businessTime, type BusinessTimeInput } from '@/lib/businessTime';
import {
  defaultSendWall,
  SEND_TIME_FORMAT,
  SEND_TIME_RULES,
  sendDays,
  sendHorizonWall,
  sendTimeWallError,
  type SendTimeKind,
} from '../../common/send';

/** The send page's messages (schemas/forms/send.json `x-messages`). */
export const SEND_MESSAGES = sendSchema['x-messages'];
export type SendMessageKey = keyof typeof SEND_MESSAGES;

/** Spec 02 §9: the scheduled time's default and earliest lead (common/send's rules, in minutes). */
export const SEND_TIME = {
  defaultAheadMin: SEND_TIME_RULES.defaultLeadMs / 60_000,
  earliestAheadMin: SEND_TIME_RULES.minLeadMs / 60_000,
} as const;
export { SEND_TIME_FORMAT, type SendTimeKind };
/** Spec 02 §9: one submit in 3 s. */
export const SUBMIT_LOCK_MS = 3000;
/** Spec 02 §2: after an immediate send the task list opens after about 1 s. */
export const OPEN_TASKS_AFTER_MS = 1000;

/*
 * The time rules are Asia/Shanghai's whatever the browser's zone (src/lib/businessTime.ts): `now` is
 * the business clock (Shanghai's now by default), the times are read as Shanghai wall-clock times
 * (a picker's value as it shows it), and the results are business times (what they format is the
 * Shanghai time to show and to send).
 */

/** The scheduled time a page starts with: now + 30 min (seconds dropped). */
export const defaultSendTime = (now: BusinessTimeInput = businessNow()) =>
  dayjs.utc(defaultSendWall(businessTime(now).valueOf()));
/** The latest time an ordinary timed send may take: the end of next year. */
export const latestSendTime = (now: BusinessTimeInput = businessNow()) =>
  dayjs.utc(sendHorizonWall('ordinary', businessTime(now).valueOf()) - 1);

/**
 * The time rule of a timed send (common/send: ≥ 5 min ahead; an ordinary send until the end of next
 * year, a variable or international one within 24 hours): null when it may go, else its message.
 */
export function sendTimeProblem(
  value: BusinessTimeInput | null | undefined,
  nowInput: BusinessTimeInput = businessNow(),
  kind: SendTimeKind = 'ordinary',
): string | null {
  const at = value === null || value === undefined || value === '' ? NaN : businessTime(value).valueOf();
  return sendTimeWallError(kind, at, businessTime(nowInput).valueOf());
}

/** Days a date picker of a timed send may not choose (before today, after the last day of its window). */
export function sendDateDisabled(
  day: Dayjs,
  nowInput: BusinessTimeInput = businessNow(),
  kind: SendTimeKind = 'ordinary',
): boolean {
  const { first, last } = sendDays(kind, businessTime(nowInput).valueOf());
  const d = businessTime(day).format('YYYY-MM-DD');
  return d < first || d > last;
}

// ---- calls ----

export interface ClientOption {
  clientid: string;
  name: string;
}
export interface CarrierCheck {
  mobileNum: number;
  unicomNum: number;
  telecomNum: number;
  internationalPhoneNum?: number;
  parseMobilesInfo?: { submitTotal: number; errNum: number; repeatNum: number };
}
/** /send/importMobiles (entities/number-import.json) */
export type ImportedNumbers = NumberImport;
/** The fields of a send: the type generated from schemas/forms/send.json, without the fields of a timed send */
export type SendPayload = Omit<SendForm, 'sendtime' | 'isCheckAvailableCredit' | 'taskId'>;

const quiet: ApiRequestConfig = { silent: true };

export const getSmsTypes = (clientid: string) => postForm<SmsTypeOption[]>('/send/getsmstypes', { clientid });
export const chargeInfo = (p: {
  clientId: string;
  content: string;
  sign: string;
  mobile: string;
  importFilePath?: string;
  smstype?: number;
}) => postForm<ChargeInfo>('/send/chargeInfo', p);
export const checkCarriers = (mobiles: string) => postForm<CarrierCheck>('/send/checkMobileOperater', { mobiles });
export const loadTask = (taskID: string) => postForm<EditedTask>('/send/edit', { taskID });
export const checkSubmitTime = (submitTime: string) => postForm('/send/checkSubmitTime', { submitTime });

/** POST /send/sending: content goes with its sign in front (【sign】content), as the spec sends it. */
export const sendNow = (p: SendPayload) =>
  postForm<{ taskId: string; smsNum: number; chargeNum: number; amount?: string }>('/send/sending', {
    ...p,
    content: `【${p.sign}】${p.content}`,
  });

/** POST /send/sendTim (JSON). Code 403 (credit check) is not toasted: the page asks first. */
export function sendTimed(
  p: SendPayload & { sendtime: string; taskId?: string; chargeNumTotal?: number; isCheckAvailableCredit?: 0 | 1 },
): Promise<ApiBody> {
  return postJson(
    '/send/sendTim',
    {
      jsmsAccessTimerSms: {
        clientid: p.clientId,
        mobilelist: p.mobile,
        importFilePath: p.importFilePath,
        content: p.content,
        smstype: p.smstype,
        sendtime: p.sendtime,
        submittype: p.fileType ?? 0,
        sign: p.sign,
        templateId: p.templateId,
        templateType: p.templateType,
      },
      taskId: p.taskId,
      chargeNumTotal: p.chargeNumTotal,
      isCheckAvailableCredit: p.isCheckAvailableCredit ?? 1,
      submitFlag: 1,
    },
    quiet,
  );
}

/** POST /send/importMobiles (multipart field `file`); errors are shown by the caller. */
export async function importMobiles(file: File): Promise<ApiBody<ImportedNumbers>> {
  const form = new FormData();
  form.append('file', file, file.name);
  return (await http.post<ApiBody<ImportedNumbers>>('/send/importMobiles', form, quiet)).data;
}

export const undoSend = (uid: string, submitTime: string) => postForm('/send/undoSend', { uid, submitTime });

/** The number templates to download. */
export const NUMBER_TEMPLATES = [
  { key: 'xlsx', label: 'Excel模板', url: '/api/send/downloadtemplate' },
  { key: 'csv', label: 'CSV模板', url: '/api/send/downloadtemplateCSV' },
  { key: 'txt', label: 'TXT模板', url: '/api/send/downloadtemplateTXT' },
] as const;

/**
 * A POST (or GET) answered by a file (or by a JSON refusal): saves the file, or rejects with the answer's
 * body (its msg shown by the caller).
 */
export async function downloadPosted(
  url: string,
  params: Record<string, unknown>,
  fallbackName: string,
  method: 'post' | 'get' = 'post',
): Promise<string> {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(params))
    if (v !== undefined && v !== null && v !== '') form.append(k, Array.isArray(v) ? v.join(',') : String(v));
  const res =
    method === 'get'
      ? await http.get<Blob>(url, { params: form, responseType: 'blob' })
      : await http.post<Blob>(url, form, { responseType: 'blob' });
  const type = String(res.headers['content-type'] ?? '');
  if (type.includes('json')) {
    let body: ApiBody = { code: -1, msg: SEND_MESSAGES.noData };
    try {
      body = JSON.parse(await res.data.text());
    } catch {
      /* keep the default */
    }
    throw new ApiError(body);
  }
  const name = fileNameOf(res.headers['content-disposition'] as string | undefined, fallbackName);
  saveBlob(res.data, name);
  return name;
}
