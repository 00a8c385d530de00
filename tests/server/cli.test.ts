import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../server/cli';
import { openDatabase } from '../../server/db';

/** The operator CLI against the embedded database in a temporary DATA_DIR. */
describe('operator CLI', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smsp-cli-'));
  const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };
  let out: string[] = [];
  let err: string[] = [];
  const run = (...args: string[]) => {
    out = [];
    err = [];
    return runCli(
      args,
      (s) => out.push(s),
      (s) => err.push(s),
    );
  };

  beforeAll(() => {
    process.env.DATA_DIR = dir;
    delete process.env.DATABASE_URL;
  });
  afterAll(() => {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('prints help and refuses unknown commands', async () => {
    expect(await run('help')).toBe(0);
    expect(out.join('\n')).toContain('reset-password <clientid> <password>');
    expect(await run('frobnicate')).toBe(2);
    expect(err.join('\n')).toContain('未知命令: frobnicate');
  });

  it('lists accounts (seeding a fresh data directory)', async () => {
    expect(await run('accounts')).toBe(0);
    const text = out.join('\n');
    for (const id of ['agent1', 'agent0', 'newagent', 'client1', 'a10000']) expect(text).toContain(id);
    expect(text).toContain('共 8 个账户'); // 5 accounts + the sub-account area's client0, client2, client3
    expect(await run('accounts', 'client')).toBe(0);
    expect(out.join('\n')).toContain('共 4 个账户');
  });

  it('unlocks a locked account', async () => {
    const h = await openDatabase({ dataDir: dir });
    await h.db
      .updateTable('accounts')
      .set({ status: 7, failed_logins: 0, locked_until: new Date(Date.now() + 600_000) })
      .where('clientid', '=', 'agent0')
      .execute();
    await h.close();
    expect(await run('accounts', 'agent0')).toBe(0);
    expect(out.join('\n')).toContain('锁定');
    expect(await run('unlock', 'agent0')).toBe(0);
    expect(out.join('\n')).toContain('已解锁 agent0（状态：注册完成）');
    expect(await run('unlock', 'nobody')).toBe(1);
    expect(err.join('\n')).toContain('账户 nobody 不存在');
    expect(await run('unlock')).toBe(2);
  });

  it('resets a password (checking its format) and ends the sessions', async () => {
    expect(await run('reset-password', 'agent1', 'short')).toBe(1);
    expect(err.join('\n')).toContain('密码须为8-16位字母和数字的组合');
    expect(await run('reset-password', 'agent1', 'Operator2026')).toBe(0);
    const h = await openDatabase({ dataDir: dir });
    try {
      const { verifyDigest, passwordDigest } = await import('../../server/lib/crypto');
      const row = await h.db
        .selectFrom('accounts')
        .select('password_hash')
        .where('clientid', '=', 'agent1')
        .executeTakeFirstOrThrow();
      expect(await verifyDigest(row.password_hash, passwordDigest('Operator2026'))).toBe(true);
    } finally {
      await h.close();
    }
  });

  it('refuses to open the embedded database while another live process holds it', async () => {
    const lock = path.join(dir, 'pgdata.lock');
    fs.writeFileSync(lock, String(process.ppid));
    try {
      const e = await run('accounts').catch((x: Error) => x);
      expect(e).toBeInstanceOf(Error);
      expect((e as Error).message).toContain(`正被进程 ${process.ppid} 使用`);
    } finally {
      fs.rmSync(lock, { force: true });
    }
    // a stale lock (dead process) is taken over
    fs.writeFileSync(lock, '999999999');
    expect(await run('accounts')).toBe(0);
  });
});

/** While a server holds the embedded database, the CLI hands its commands to that server. */
describe('operator CLI with the server running', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smsp-cli-live-'));
  const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };
  let close: () => Promise<void> = async () => {};

  beforeAll(async () => {
    process.env.DATA_DIR = dir;
    delete process.env.DATABASE_URL;
    const { buildApp } = await import('../../server/app');
    const { seed } = await import('../../server/db/seed');
    const { installOperatorChannel } = await import('../../server/cli/operator-channel');
    const handle = await openDatabase({ dataDir: dir });
    await seed(handle.db);
    const app = await buildApp({ db: handle.db, dataDir: dir, purgeEveryMs: 0 });
    const channel = installOperatorChannel(app, dir);
    await app.listen({ port: 0, host: '127.0.0.1' });
    channel.publish((app.server.address() as { port: number }).port);
    close = async () => {
      channel.unpublish();
      await app.close();
      await handle.close();
    };
  });
  afterAll(async () => {
    await close();
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs commands through the server while it holds the database lock', async () => {
    expect(fs.existsSync(path.join(dir, 'pgdata.lock'))).toBe(true);
    const out: string[] = [];
    const err: string[] = [];
    expect(
      await runCli(
        ['accounts', 'agent1'],
        (s) => out.push(s),
        (s) => err.push(s),
      ),
    ).toBe(0);
    expect(out.join('\n')).toContain('共 1 个账户');
    expect(
      await runCli(
        ['unlock', 'nobody'],
        (s) => out.push(s),
        (s) => err.push(s),
      ),
    ).toBe(1);
    expect(err.join('\n')).toContain('账户 nobody 不存在');
  });

  it('refuses the operator endpoint without the token', async () => {
    const ep = JSON.parse(fs.readFileSync(path.join(dir, 'operator.json'), 'utf8'));
    const res = await fetch(`http://127.0.0.1:${ep.port}/__operator`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-operator-token': 'x'.repeat(64) },
      body: JSON.stringify({ argv: ['accounts'] }),
    });
    expect(await res.json()).toEqual({ code: 403, msg: '无权访问' });
  });
});
