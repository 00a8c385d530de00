/**
 * Certification (资质认证) status. The server answers oauth_status as the words 未认证 / 待认证 or
 * as numbers 1-4 (schemas/enums/oauth-status.json: 1 未认证, 2 待认证, 3 已认证, 4 认证不通过).
 * Every screen reads it through `oauthStatusOf` so the two encodings never leak further.
 */
import type { OauthStatus } from '@/generated/schemas';

export const OAUTH = { notCertified: 1, pending: 2, certified: 3, rejected: 4 } as const satisfies Record<string, OauthStatus>;

const WORDS: Record<string, OauthStatus> = {
  未认证: 1,
  待认证: 2,
  待审核: 2,
  已认证: 3,
  认证通过: 3,
  认证不通过: 4,
  未通过: 4,
  已驳回: 4,
};

/** oauth_status in whatever encoding -> 1..4, or undefined when unknown/missing. */
export function oauthStatusOf(value: unknown): OauthStatus | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const s = String(value).trim();
  if (s in WORDS) return WORDS[s];
  const n = Number(s);
  return n === 1 || n === 2 || n === 3 || n === 4 ? n : undefined;
}

export const isCertified = (value: unknown) => oauthStatusOf(value) === OAUTH.certified;

/** Routes of the certification screens. */
export const CERTIFY_ROUTE = '/account/info/base/auth';
export const RECERTIFY_ROUTE = '/account/info/base/auth/re';
