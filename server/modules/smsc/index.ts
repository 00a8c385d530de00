/**
 * 通道 (carrier SMSC links): the link the dispatch pipeline submits through and reads receipts and
 * uplink from (client.ts, cmpp-client.ts, sgip-client.ts, all over the shared machinery of link-core.ts;
 * types.ts), the channel table and SMSC URLs (config.ts), the embedded simulators (simulator.ts,
 * cmpp-simulator.ts, sgip-simulator.ts). Not a plugin (no routes, no service): the pipeline (server/modules/dispatch)
 * builds the links (link.ts: smpp:// → client.ts, cmpp:// → cmpp-client.ts). The packet codecs are
 * server/lib/smpp-pdu.ts and server/lib/cmpp-pdu.ts. docs/api-dispatch.md.
 */
export type { MoMessage, Receipt, SmscLink, SubmitRequest, SubmitResult } from './types';
export { type SmscLinkHandle } from './client';
export { createSmscLink, type LinkOptions } from './link';
export { createCmppLink } from './cmpp-client';
export { createSmgpLink } from './smgp-client';
export {
  channelServes,
  channelRowOf,
  checkChannels,
  ChannelConfigError,
  describeSmsc,
  parseChannel,
  parseChannelTable,
  parseSmppUrl,
  simulatorSettingsFromEnv,
  DEFAULT_FAILOVER_MS,
  type ChannelSpec,
} from './config';
export { startSimulator, type Simulator, type SimulatorSettings } from './simulator';
export { startCmppSimulator, type CmppSimulator, type CmppSimulatorSettings } from './cmpp-simulator';
export { startSmgpSimulator, type SmgpSimulator, type SmgpSimulatorSettings } from './smgp-simulator';
export { createSgipLink, type SgipLinkHandle } from './sgip-client';
export { startSgipSimulator, type SgipSimulator, type SgipSimulatorSettings } from './sgip-simulator';
