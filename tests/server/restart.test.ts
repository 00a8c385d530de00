import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { backends, startServer, type ServerOptions } from './harness';

describe.each(backends)('restart keeps data (%s)', (backend) => {
  it('a registered agent, its session and a new password survive closing and reopening the database', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smsp-restart-'));
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const opts: ServerOptions = backend === 'pglite' ? { pgliteDir: dir } : { pgSchema: schema, keepSchema: true };
    try {
      const first = await startServer(backend, opts);
      const c = await first.client().init();
      await c.sendCode({ mobile: '13698765432' });
      const reg = await c.post('/api/userCenter/agentRegister', {
        realName: '重启测试',
        email: 'restart@example.cn',
        countryCode: '86',
        mobile: '13698765432',
        validateCode: first.smsCode('13698765432'),
        password: 'Restart88',
        confirmPassword: 'Restart88',
      });
      expect(reg.body.code).toBe(0);
      const jar = new Map(c.jar);
      await first.close();
      if (backend === 'pglite') expect(fs.existsSync(path.join(dir, 'pgdata.lock'))).toBe(false);

      const second = await startServer(backend, { ...opts, keepSchema: false });
      try {
        const again = await second.client().init();
        for (const [k, v] of jar) again.jar.set(k, v);
        // the session opened by the registration is still valid
        expect((await again.get('/api/admin/info')).body.data.clientid).toBe(reg.body.data.clientid);
        const fresh = await second.client().init();
        expect((await fresh.login('restart@example.cn', 'Restart88')).body.code).toBe(0);
        // the seed did not run twice
        const n = await second.handle.db.selectFrom('accounts').select('id').where('clientid', '=', 'agent1').execute();
        expect(n).toHaveLength(1);
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
