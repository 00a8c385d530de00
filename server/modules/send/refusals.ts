/**
 * The console's send refusals by name (server/http/refusals.ts): a refused send whose message is
 * one of these (or starts with it: a balance refusal goes on with the amounts) is counted under its
 * key in the 监控 screen's refusals, and the key reads as the message there.
 */
import { SIGN_NOT_APPROVED } from '../sign';
import { TEST_MSG } from '../clients';
import { NUMBER_MESSAGES } from '../../../common/sms/numbers';
import { GATE_MSG } from './gate';
import { MSG, X } from './service';

export const CONSOLE_SEND_REFUSALS: Record<string, string> = {
  notEnoughBalance: X.notEnoughBalance,
  notEnoughPieces: X.notEnoughPieces,
  submitLock: X.submitLock,
  allBlacklisted: X.allBlacklisted,
  notCertified: GATE_MSG.notCertified,
  accountDisabled: GATE_MSG.accountDisabled,
  deferredCap: GATE_MSG.deferredCap,
  signNotApproved: SIGN_NOT_APPROVED,
  noDomestic: MSG.noDomestic,
  smstypeNotAllowed: MSG.smstypeNotAllowed,
  smstypeMismatch: MSG.smstypeMismatch,
  templateRequired: MSG.templateRequired,
  templateInvalid: MSG.templateInvalid,
  templateMismatch: MSG.templateMismatch,
  tooLong: MSG.tooLong,
  badSendTime: MSG.badSendTime,
  sendTimeTooEarly: X.sendTimeTooEarly,
  sendTimeTooLate: X.sendTimeTooLate,
  clientRequired: MSG.clientRequired,
  notOwnClient: MSG.notOwnClient,
  numbersEmpty: NUMBER_MESSAGES.empty,
  numbersTooMany: NUMBER_MESSAGES.tooMany,
  testExpired: TEST_MSG.expired,
  testRecipients: TEST_MSG.recipients,
  testPageOnly: TEST_MSG.pageNotAllowed,
  taskNotFound: MSG.taskNotFound,
};
