/**
 * The carrier link a URL's scheme names: smpp:// and smpps:// the SMPP link (client.ts), cmpp://
 * the CMPP link (cmpp-client.ts), smgp:// the SMGP link (smgp-client.ts), sgip:// the SGIP link
 * (sgip-client.ts). docs/api-dispatch.md "CMPP link", "SMGP link", "SGIP link".
 */
import { createSmscLink as createSmppLink, type LinkLog, type SmscLinkHandle } from './client';
import { createCmppLink } from './cmpp-client';
import { createSgipLink } from './sgip-client';
import { createSmgpLink } from './smgp-client';
import type { SmscConfig } from './config';

export interface LinkOptions {
  /** the platform's prefix of a request's `from` (the dispatcher's sourcePrefix): a CMPP / SMGP link replaces it with its src_id / src */
  sourcePrefix?: string;
}

export function createSmscLink(config: SmscConfig, log?: LinkLog, opts: LinkOptions = {}): SmscLinkHandle {
  if (config.protocol === 'cmpp') return createCmppLink(config, log, opts);
  if (config.protocol === 'smgp') return createSmgpLink(config, log, opts);
  if (config.protocol === 'sgip') return createSgipLink(config, log, opts);
  return createSmppLink(config, log);
}
