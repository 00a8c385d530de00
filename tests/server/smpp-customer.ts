/** The customer's side of the SMPP listener tests (the `smpp` package as the customer's client). */
import smpp, { type PDU, type Session } from 'smpp';
import type { TestServer } from './harness';

export const DEMO_INTERFACE_PASSWORD = 'Demo2468';

export const openSessions: Session[] = [];

export function connectPort(port: number, opts: Record<string, unknown> = {}): Promise<Session> {
  return new Promise((resolve, reject) => {
    const s = new smpp.Session({ host: '127.0.0.1', port, ...opts });
    openSessions.push(s);
    s.on('error', () => {});
    s.socket.once(opts.tls ? 'secureConnect' : 'connect', () => resolve(s));
    s.socket.once('error', reject);
    s.socket.once('close', () => reject(new Error('closed before connecting')));
  });
}

export const connect = (server: TestServer) => connectPort(server.app.services.smppServer!.port);

export function call(s: Session, command: string, fields: Record<string, unknown> = {}): Promise<PDU> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command}: no answer`)), 5000);
    s.send(new smpp.PDU(command, fields), (resp) => {
      clearTimeout(timer);
      resolve(resp);
    });
  });
}

export const closed = (s: Session) =>
  new Promise<void>((resolve) => (s.socket.destroyed ? resolve() : s.socket.once('close', () => resolve())));

export async function bindOn(
  s: Session,
  kind = 'bind_transceiver',
  systemId = 'client1',
  password = DEMO_INTERFACE_PASSWORD,
) {
  return (await call(s, kind, { system_id: systemId, password })).command_status;
}

export const until = async (f: () => boolean | Promise<boolean>, ms = 8000) => {
  const end = Date.now() + ms;
  while (!(await f())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** A receiver (or transceiver) of client1 answering each deliver_sm with `answer` (null: no answer), listening before it binds. */
export async function receiver(
  server: TestServer,
  answer: (p: PDU) => number | null = () => 0,
  kind = 'bind_receiver',
) {
  const got: PDU[] = [];
  const s = await connect(server);
  s.on('deliver_sm', (p: PDU) => {
    got.push(p);
    const st = answer(p);
    if (st !== null) s.send(p.response({ command_status: st }));
  });
  const status = await bindOn(s, kind);
  if (status !== 0) throw new Error(`bind ${status}`);
  return { s, got };
}
