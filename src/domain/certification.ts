/**
 * Certification (资质认证) status. The server answers oauth_status as the words 未认证 / 待认证 or
 * as numbers 1-4 (schemas/enums/oauth-status.json: 1 未认证, 2 待认证, 3 已认证, 4 认证不通过).
 * Every screen reads it through `oauthStatusOf` so the two encodings never leak further.
 */
import { OauthStatus } from '@/generated/schemas';

const WORDS: Record<string, OauthStatus> = {
  未认证: OauthStatus.Uncertified,
  待认证: OauthStatus.Pending,
  待审核: OauthStatus.Pending,
  已认证: OauthStatus.Certified,
  认证通过: OauthStatus.Certified,
  认证不通过: OauthStatus.Rejected,
  未通过: OauthStatus.Rejected,
  已驳回: OauthStatus.Rejected,
};

/** oauth_status in whatever encoding -> 1..4, or undefined when unknown/missing. */
export function oauthStatusOf(value: unknown): OauthStatus | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const s = String(value).trim();
  if (s in WORDS) return WORDS[s];
  const n = Number(s);
  return (Object.values(OauthStatus) as number[]).includes(n) ? (n as OauthStatus) : undefined;
}

export const isCertified = (value: unknown) => oauthStatusOf(value) === OauthStatus.Certified;

/** Routes of the certification screens. */
export const CERTIFY_ROUTE = '/account/info/base/auth';
export const RECERTIFY_ROUTE = '/account/info/base/auth/re';

/** what the banner and the send pages say while the documents are under review */
export const CERTIFICATION_PENDING_TEXT = '您的认证资料正在审核中，审核通过后才能发送短信';
