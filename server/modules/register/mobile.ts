/** Mobile numbers: the calling code must exist; China: 11 digits starting with 1; elsewhere a possible number for that code. */
import { isPossiblePhoneNumber } from 'libphonenumber-js';
import { ApiError } from '../../http/errors';
import { isKnownCallingCode } from '../site/service';

export const MOBILE_MESSAGES = {
  countryCode: '请输入正确的国家代码',
  mobile: '请输入正确的手机号',
  exists: '手机号码已存在',
} as const;

export function checkMobile(countryCode: string, mobile: string): void {
  if (!isKnownCallingCode(countryCode)) throw new ApiError(400, MOBILE_MESSAGES.countryCode);
  const ok = countryCode === '86' ? /^1\d{10}$/.test(mobile) : isPossiblePhoneNumber(mobile, { defaultCallingCode: countryCode });
  if (!ok) throw new ApiError(400, MOBILE_MESSAGES.mobile);
}
