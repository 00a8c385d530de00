/**
 * A customer's SMPP gateway in its own process (bench/smpp-customer-e2e.ts forks it): binds as a
 * transceiver (system_id / password from argv), submits `n` messages with at most `window`
 * submit_sm unanswered, answers every deliver_sm and counts the receipts (esm_class 0x04).
 * A submit answered 0x58 (throttled) is retried after a pause as a real gateway does; the others are
 * final. Reports over IPC: `{ type: 'accepted' | 'done', ... }` with its CPU time.
 */
import smpp, { type PDU } from 'smpp';

interface Args {
  port: number;
  systemId: string;
  password: string;
  n: number;
  window: number;
  text: string;
}

if (process.send) {
  const a = JSON.parse(process.argv[2]) as Args;
  const s = new smpp.Session({ host: '127.0.0.1', port: a.port });
  s.on('error', (err: Error) => process.send!({ type: 'error', message: String(err) }));
  await new Promise<void>((resolve) => s.socket.once('connect', () => resolve()));
  const bind = await new Promise<PDU>((resolve) =>
    s.send(new smpp.PDU('bind_transceiver', { system_id: a.systemId, password: a.password }), resolve),
  );
  if (bind.command_status !== 0) {
    process.send({ type: 'error', message: `bind refused 0x${bind.command_status.toString(16)}` });
    process.exit(1);
  }
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let sent = 0;
  let answered = 0;
  let ok = 0;
  const statuses: Record<string, number> = {};
  let receipts = 0;
  let tAccepted = 0;
  const cpuMs = () => {
    const c = process.cpuUsage(cpu0);
    return (c.user + c.system) / 1000;
  };
  const finish = () => {
    process.send!({ type: 'done', ms: performance.now() - t0, receipts, cpuMs: cpuMs() });
  };
  s.on('deliver_sm', (pdu: PDU) => {
    s.send(pdu.response());
    if (Number(pdu.esm_class) & 0x04) receipts++;
    if (receipts === ok && answered === a.n) finish();
  });
  // as a well-behaved gateway: a submit answered 0x58 ESME_RTHROTTLED is sent again after a pause
  // (doubling from 50 ms up to 1 s), keeping its place in the window; any other status is final
  let throttled = 0;
  const submit = (i: number, attempt: number) => {
    const phone = `139${String(10_000_000 + i).slice(-8)}`;
    s.send(
      new smpp.PDU('submit_sm', {
        destination_addr: phone,
        source_addr: '1',
        registered_delivery: 1,
        short_message: a.text,
      }),
      (resp: PDU) => {
        if (process.env.BENCH_DEBUG) console.error('resp', resp.command_status, resp.message_id);
        if (resp.command_status === 0x58) {
          throttled++;
          setTimeout(() => submit(i, attempt + 1), Math.min(1000, 50 * 2 ** attempt));
          return;
        }
        answered++;
        if (resp.command_status === 0) ok++;
        else
          statuses[`0x${resp.command_status.toString(16)}`] =
            (statuses[`0x${resp.command_status.toString(16)}`] ?? 0) + 1;
        if (answered === a.n) {
          tAccepted = performance.now() - t0;
          process.send!({ type: 'accepted', ms: tAccepted, ok, statuses, throttled, cpuMs: cpuMs() });
          if (receipts === ok) finish();
        } else pump();
      },
    );
  };
  const pump = () => {
    while (sent < a.n && sent - answered < a.window) submit(sent++, 0);
  };
  pump();
  process.on('message', (m: { type: string }) => {
    if (m.type === 'close') {
      s.close();
      process.exit(0);
    }
  });
}
