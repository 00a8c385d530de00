/**
 * Calls and rules of the variable and international pages (docs/api-variable-international.md; their
 * time rule is common/send's, through src/domain/send):
 * messages from schemas/forms/send-variable.json and send-international.json (`x-messages`).
 */
import type {
  IntlCharge,
  IntlCheck,
  Screened,
  SendAnswer,
  SendKind,
  VariableCharge,
  VariableParse,
} from '@/generated/schemas';

// the answers' types are the schemas' (schemas/responses), the server answers through the same files
export type { CountryCount, IntlCheck, Screened, SendAnswer, VariableParse } from '@/generated/schemas';
import variableSchema from '../../../schemas/forms/send-variable.json';
import intlSchema from '../../../schemas/forms/send-international.json';
import { postForm, postJson, type ApiBody, type ApiRequestConfig } from '@/providers/http';

export const VARIABLE_MESSAGES = variableSchema['x-messages'];
export const INTL_MESSAGES = intlSchema['x-messages'];
/** the forms' own field messages */
export const FIELD_MESSAGES = {
  templateRequired: variableSchema.properties.templateId.errorMessage,
  smstypeRequired: variableSchema.properties.smstype.errorMessage,
  sign: variableSchema.properties.sign.errorMessage.minLength,
  contentEmpty: intlSchema.properties.content.errorMessage.minLength,
  intlMobile: intlSchema.properties.mobile.errorMessage.pattern,
} as const;

/** Spec 02 §5 "File upload" */
export const VARIABLE_FILE = { maxBytes: 300 * 1024 * 1024, nameMax: 50 } as const;
export const INTL_FILE = { maxBytes: 250 * 1024 * 1024, nameMax: 30 } as const;

/** Typed international numbers: digits and commas only (anything else becomes a comma, repeats collapse). */
export const intlNumbersOnly = (s: string) => s.replace(/[^0-9]+/g, ',').replace(/^,/, '');

const quiet: ApiRequestConfig = { silent: true };

/** a successful answer (the http layer rejects every other): its data and msg are there */
export type Answer<T> = ApiBody<T> & { data: T; msg: string };
const ans = <T>(p: Promise<ApiBody<T>>) => p as Promise<Answer<T>>;

export const checkInternational = (mobiles: string) =>
  ans(postForm<IntlCheck>('/send/checkMobileInternational', { mobiles }));

export const parseVariableFile = (p: {
  clientId?: string;
  importFilePath: string;
  templateId: number;
  sign: string;
  fileName: string;
}) => ans(postForm<VariableParse>('/send/parsefileVariate', p, quiet));
export const parseInternationalFile = (p: { importFilePath: string; fileName: string }) =>
  ans(postForm<IntlCheck & { importFilePath: string; fileName: string }>('/send/parsefileInternational', p, quiet));
export const screenPhones = (p: {
  type: 1 | 2;
  operators: number[];
  provinces: number[];
  removeCitys: number[];
  importFilePath?: string;
  phones?: string;
  variateNum?: number;
}) => ans(postForm<Screened>('/send/screenPhones', p, quiet));
export const provinceList = () =>
  ans(postForm<{ provinceId: number; provinceName: string }[]>('/send/provinceList', {}));
export const cityList = (provinceId: number) =>
  ans(postForm<{ cityId: number; cityName: string; label: string }[]>('/send/cityList', { provinceId }));

export interface IntlPayload {
  clientId?: string;
  smstype: number;
  sign: string;
  content: string;
  fileType: 0 | 1;
  mobile?: string;
  importFilePath?: string;
  fileName?: string;
}
export interface VariablePayload {
  clientId?: string;
  templateId: number;
  smstype: number;
  sign: string;
  fileType: 0 | 1;
  content?: string;
  mobile?: string;
  importFilePath?: string;
  fileName?: string;
}
const clean = <T extends object>(p: T) =>
  Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined && v !== '')) as T;

export const chargeInternational = (p: IntlPayload) =>
  ans(postForm<IntlCharge>('/send/chargeInfoInternational', clean(p)));
export const chargeVariable = (p: VariablePayload) =>
  ans(postForm<VariableCharge>('/send/chargeInfoVariable', clean(p)));
export const sendInternational = (p: IntlPayload) => ans(postForm<SendAnswer>('/send/sendingInternational', clean(p)));
export const sendVariable = (p: VariablePayload) => ans(postForm<SendAnswer>('/send/sendingVariable', clean(p)));
/** POST /send/send_time_sms (JSON); code 403 (credit) is not toasted: the page asks first. */
export const sendTimedPage = (
  kind: typeof SendKind.Variable | typeof SendKind.International,
  p: (IntlPayload | VariablePayload) & { sendtime: string; isCheckAvailableCredit?: 0 | 1 },
) =>
  ans(
    postJson<SendAnswer>(
      '/send/send_time_sms',
      { sendKind: kind, ...clean(p), mobilelist: p.mobile, mobile: undefined },
      quiet,
    ),
  );

export const VARIABLE_TEMPLATE_URL = '/api/send/downloadtemplateVariate';
export const variableErrorUrl = (filePath: string) =>
  `/api/send/downloadtemplateVariateError?filePath=${encodeURIComponent(filePath)}`;
