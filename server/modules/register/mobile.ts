/** Mobile numbers: the calling code must exist; China: 11 digits starting with 1; elsewhere a possible number for that code. */
import { isPossiblePhoneNumber } from 'libphonenumber-js';
import { ApiError } from '../../http/errors';
import { isKnownCallingCode } from '../site';
import { MESSAGES } from '../../../common/schema/messages';
import registerForm from '../../../schemas/forms/register.json';

/** the register form's own refusals of a calling code / number its pattern lets through */
export const MOBILE_MESSAGES = {
  countryCode: registerForm.properties.countryCode.errorMessage,
  mobile: registerForm.properties.mobile.errorMessage.pattern,
  exists: MESSAGES.mobileExists,
} as const;

export function checkMobile(countryCode: string, mobile: string): void {
  if (!isKnownCallingCode(countryCode)) throw new ApiError(400, MOBILE_MESSAGES.countryCode);
  const ok =
    countryCode === '86'
      ? /^1\d{10}$/.test(mobile)
      : isPossiblePhoneNumber(mobile, { defaultCallingCode: countryCode });
  if (!ok) throw new ApiError(400, MOBILE_MESSAGES.mobile);
}
