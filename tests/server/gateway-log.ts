/**
 * What an interop peer in its gateway role (cmpp-peer ismg, smgp-peer smgw, sgip-peer smg) wrote
 * to its `-log` file, one JSON object a line: its submits, and the platform's answers to what it
 * delivered.
 *
 * How many uplinks a peer sends with `-mo-every N` depends on how its submits and reports
 * interleave (under load fewer than submits / N reach the platform before the test ends), so the
 * dispatch tests compare the uplinks stored with the ones the gateway saw answered, not with a count.
 */
import fs from 'node:fs';

export type GatewayLine = Record<string, unknown>;

export function readGatewayLog(file: string): GatewayLine[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as GatewayLine);
}

/**
 * The smsc_ref of every uplink the platform answered with success, as the link names it:
 * `cmpp:<Msg_Id>` / `smgp:<MsgID>` for a deliver answer whose id is no submit's,
 * `sgip:<sequence>` for an SGIP_DELIVER_RESP on the callback connection.
 */
export function answeredUplinks(log: GatewayLine[], protocol: 'cmpp' | 'smgp' | 'sgip'): string[] {
  if (protocol === 'sgip')
    return log.filter((r) => r.callbackResp === '0x80000004' && r.result === 0).map((r) => `sgip:${String(r.seq)}`);
  const submitIds = new Set(log.filter((r) => 'msgId' in r).map((r) => String(r.msgId)));
  const ok = (r: GatewayLine) => (protocol === 'cmpp' ? r.result === 0 : r.status === 0);
  return log
    .filter((r) => 'deliverResp' in r && !submitIds.has(String(r.deliverResp)) && ok(r))
    .map((r) => `${protocol}:${String(r.deliverResp)}`);
}
