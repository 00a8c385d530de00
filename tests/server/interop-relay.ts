/**
 * A relay between an interop peer in its customer role (cmpp-peer / smgp-peer / sgip-peer `sp`) and
 * a door, holding what the door sends for a few milliseconds.
 *
 * Why: cmpp-peer `sp` loses a submit's response that arrives within about a millisecond of that
 * submit, before the peer has noted it as sent (observed 2 runs in 150 with `-n 2`: both responses
 * on the wire with the right sequence numbers, and the peer waits for ever instead of sending its
 * TERMINATE). The door answers a refusal (flow control, an unapproved sign) at once, so the tests
 * that make it refuse hit this. A real network holds a packet longer than this; what the door
 * sends and in which order is unchanged.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';

const DELAY_MS = 20;
const relays = new Map<number, Promise<number>>();

/** the port of a relay to the door listening on `doorPort` (127.0.0.1), made once per door */
export function relayTo(doorPort: number): Promise<number> {
  let port = relays.get(doorPort);
  if (!port) {
    port = start(doorPort);
    relays.set(doorPort, port);
  }
  return port;
}

function start(doorPort: number): Promise<number> {
  const server = net.createServer((peer) => {
    const door = net.connect(doorPort, '127.0.0.1');
    peer.on('error', () => door.destroy());
    door.on('error', () => peer.end());
    peer.pipe(door);
    // the door's packets and its end, in order, each a little later
    door.on('data', (d: Buffer) => setTimeout(() => peer.writable && peer.write(d), DELAY_MS));
    door.on('close', () => setTimeout(() => peer.end(), DELAY_MS));
    peer.on('close', () => door.destroy());
  });
  server.unref();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}
