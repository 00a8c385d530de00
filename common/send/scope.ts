/**
 * 收发范围 (phone_inout_type): which sends an account may make, shared by the console (menus,
 * pages) and the server (the send checks). Spec 01 §3:
 *
 * - the stored value is one of enums/phone-inout-type: 0 国内, 1 国际, 2 国内和国际; domestic
 *   sending needs 0 or 2, international sending 1 or 2 (spec 02 §1); agents see both;
 * - a raw bit mask (as the upstream carrier systems give it) normalises to that value: bit 8 set
 *   means international (1); bits 1, 2 or 4 set mean domestic (0); both groups set mean both (2).
 *   Every reading of the value goes through `phoneInoutTypeOf`: 0, 1 and 2 are the values
 *   themselves, any other (3 to 15: an account imported with the raw mask) is read as a mask
 *   (issue 41 item 12); the server's SQL filter is `phoneInoutTypeSql` (server/modules/clients).
 */
import { PhoneInoutType } from '../generated/schemas';

/** the bits of a raw mask that mean domestic numbers (1, 2, 4) and international numbers (8) */
export const PHONE_INOUT_BITS = { domestic: 1 | 2 | 4, international: 8 } as const;

/** A raw phone in/out bit mask as the stored value (0 / 1 / 2); no known bit: 0 国内. */
export function phoneInoutTypeOfMask(mask: number): PhoneInoutType {
  const domestic = (mask & PHONE_INOUT_BITS.domestic) !== 0;
  const international = (mask & PHONE_INOUT_BITS.international) !== 0;
  if (domestic && international) return PhoneInoutType.Both;
  if (international) return PhoneInoutType.International;
  return PhoneInoutType.Domestic;
}

/**
 * The 收发范围 of a stored or received phone_inout_type: 0 / 1 / 2 as they are, another
 * non-negative integer as a raw bit mask (phoneInoutTypeOfMask); nothing, or what is not a
 * number: 0 国内.
 */
export function phoneInoutTypeOf(v: unknown): PhoneInoutType {
  if (v === undefined || v === null || v === '') return PhoneInoutType.Domestic;
  const n = Number(v);
  if (n === PhoneInoutType.Domestic || n === PhoneInoutType.International || n === PhoneInoutType.Both) return n;
  return Number.isInteger(n) && n > 0 ? phoneInoutTypeOfMask(n) : PhoneInoutType.Domestic;
}

const asType = phoneInoutTypeOf;

/** The account may send to domestic numbers (0 or 2). */
export const allowsDomestic = (phoneInoutType: unknown): boolean => {
  const t = asType(phoneInoutType);
  return t === PhoneInoutType.Domestic || t === PhoneInoutType.Both;
};

/** The account may send to international numbers (1 or 2). */
export const allowsInternational = (phoneInoutType: unknown): boolean => {
  const t = asType(phoneInoutType);
  return t === PhoneInoutType.International || t === PhoneInoutType.Both;
};
