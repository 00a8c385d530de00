/** Per-IP request limits (@fastify/rate-limit) for the endpoints that send codes or check passwords. */
import type { RouteShorthandOptions } from 'fastify';
import type { AppConfig } from '../config';

export function ipRateLimit(config: AppConfig): RouteShorthandOptions {
  const max = config.ipRateLimitPerMinute;
  return { config: { rateLimit: max > 0 ? { max, timeWindow: 60_000 } : false } };
}
