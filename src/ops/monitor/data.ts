/**
 * The data of this folder's screens (data resources, endpoints, constants), apart from the screen
 * declarations of ./index.ts: its pages import this module, never ./index.ts, which lazily imports them.
 */

export const MONITOR_URL = '/operator/monitor';

/** the series are per minute: asked again every minute */
export const MONITOR_REFRESH_MS = 60_000;
