import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pgAdmin, TEST_DATABASE_URL } from './harness';

/**
 * HTTP_REUSE_PORT=1 (issue 28 item 3): several API processes on PostgreSQL listen on one port and
 * the kernel spreads the connections; the embedded database refuses it (one process only).
 */
const root = path.resolve(import.meta.dirname, '../..');
const children: ChildProcess[] = [];
const dirs: string[] = [];

function server(env: Record<string, string>): ChildProcess {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reuse-port-'));
  dirs.push(dataDir);
  const c = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SMPP_SERVER_PORT: '0',
      CMPP_SERVER_PORT: '0',
      SMGP_SERVER_PORT: '0',
      SGIP_SERVER_PORT: '0',
      DISPATCH: '0',
      CSRF_SECRET: 'x'.repeat(40),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(c);
  return c;
}

const exited = (c: ChildProcess) =>
  new Promise<number | null>((r) => (c.exitCode !== null ? r(c.exitCode) : c.once('exit', (code) => r(code))));

async function up(port: number, c: ChildProcess) {
  for (let i = 0; i < 600; i++) {
    if (c.exitCode !== null) throw new Error(`exited ${c.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/login/timeout`, { headers: { connection: 'close' } })).ok) return;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('not up');
}

/** LISTEN sockets on 127.0.0.1:port (/proc/net/tcp): two when both processes hold the port */
function listeners(port: number): number {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  return fs
    .readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .filter((l) => {
      const f = l.trim().split(/\s+/);
      return f[1] === `0100007F:${hex}` && f[3] === '0A';
    }).length;
}

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('HTTP_REUSE_PORT', () => {
  it('is refused on the embedded database', async () => {
    const c = server({ HTTP_REUSE_PORT: '1', DATABASE_URL: '', PORT: '0' });
    let err = '';
    c.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    expect(await exited(c)).toBe(2);
    expect(err).toContain('HTTP_REUSE_PORT=1 需要 DATABASE_URL');
  }, 60_000);

  it.skipIf(!TEST_DATABASE_URL)(
    'two processes on PostgreSQL share the port: the second starts, and serves alone once the first stops',
    async () => {
      const db = `reuse_port_${process.pid}`;
      await pgAdmin(`create database ${db}`);
      try {
        const u = new URL(TEST_DATABASE_URL!);
        u.pathname = `/${db}`;
        const port = 20000 + Math.floor(Math.random() * 5000);
        const env = { HTTP_REUSE_PORT: '1', DATABASE_URL: u.toString(), PORT: String(port) };
        const first = server(env);
        await up(port, first);
        expect(listeners(port)).toBe(1);
        const second = server(env);
        // without SO_REUSEPORT the second would exit with EADDRINUSE instead of listening beside the first
        for (let i = 0; i < 600 && listeners(port) < 2; i++) {
          if (second.exitCode !== null) throw new Error(`the second process exited (${second.exitCode})`);
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(listeners(port)).toBe(2);
        first.kill('SIGTERM');
        await exited(first);
        for (let i = 0; i < 5; i++) {
          const r = await fetch(`http://127.0.0.1:${port}/api/login/timeout`, { headers: { connection: 'close' } });
          expect(r.ok).toBe(true);
        }
        expect(second.exitCode).toBeNull();
        second.kill('SIGTERM');
        await exited(second);
      } finally {
        await pgAdmin(`drop database if exists ${db} with (force)`);
      }
    },
    120_000,
  );
});
