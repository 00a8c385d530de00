/**
 * What the send page does with the number box (no React, so bench/send-page-numbers.ts can time the
 * very code in Chromium): the input normalised as typed (common/sms/numbers normalizeNumberInput),
 * counted and sorted by carrier (checkNumbers), the box's refusal (numberBoxError), and merging
 * numbers imported from a file into the box.
 */
import {
  checkNumbers,
  confirmNumbers,
  normalizeNumberInput,
  numberBoxError,
  type NumberCheck,
} from '../../../common/sms/numbers';

export interface NumberBox {
  /** the box's text as shown (normalised) */
  text: string;
  check: NumberCheck;
}

/** Typing or pasting into the box: the text normalised (separators become one comma) and its counts. */
export function numberInput(raw: string): NumberBox {
  const text = normalizeNumberInput(raw);
  return { text, check: checkNumbers(text) };
}

/** The box's text as typed (the page counts it a moment later, so typing stays responsive). */
export const normalizeNumbers = (raw: string) => normalizeNumberInput(raw);

/** 确认号码 on the text alone: the distinct valid numbers. */
export const confirmText = (text: string) => confirmNumbers(text).join(',');

/** Imported numbers after the box's text. */
export const appendText = (text: string, mobiles: string) =>
  normalizeNumberInput([text.replace(/,+$/, ''), mobiles].filter(Boolean).join(','));

/** 确认号码: the distinct valid numbers in first-seen order (invalid ones and repeats cleared). */
export function confirmBox(text: string): NumberBox {
  const kept = confirmNumbers(text).join(',');
  return { text: kept, check: checkNumbers(kept) };
}

/** Numbers imported from a file (a comma list) added after what the box holds. */
export function appendNumbers(text: string, mobiles: string): NumberBox {
  const joined = [text.replace(/,+$/, ''), mobiles].filter(Boolean).join(',');
  return numberInput(joined);
}

/** the box's message beside the field: 请输入手机号码 while empty, else the pool rule's (号码池不能为空, 号码不能大于60000个) */
export const poolProblem = (check: NumberCheck) => numberBoxError(check);

export { checkNumbers };
