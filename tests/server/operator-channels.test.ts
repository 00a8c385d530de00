/**
 * 通道 (issue 39, docs/api-operator.md "Channels") beyond the add / pause / remove of
 * tests/server/operator.test.ts: the default link. With no enabled channel (none added, or every
 * one paused) the workers send over SMPP_URL or the embedded simulator (dispatch/pipeline.ts
 * loadChannels reads the enabled rows only): the list shows that link read-only, as the channel ''
 * with its counters, and the routing preview names it; a channel of the SMPP_CHANNELS file is
 * listed read-only and cannot be changed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { backends, useServer, type Client, type TestServer } from './harness';
import { runCommand } from '../../server/cli/operator-channel';
import channelEntity from '../../schemas/entities/operator-channel.json';

async function admin(server: TestServer, name: string): Promise<Client> {
  await runCommand({ db: server.handle.db, now: server.clock.now }, [
    'operator-add',
    name,
    'Passw0rd!',
    '3',
    '--no-totp',
  ]);
  const c = await server.client().init();
  const r = await c.login(name, 'Passw0rd!');
  if (r.body.code !== 0) throw new Error(`login ${name}: ${JSON.stringify(r.body)}`);
  return c;
}

type Row = { name: string; source: string; where: string; enabled: boolean; submitted: number; workers: number };

const fileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smsp-channels-'));
const channelsFile = path.join(fileDir, 'channels.json');
const FILE_CHANNEL = { name: 'filed', url: 'smpp://fsys:FilePw1@127.0.0.1:2790', carriers: ['电信'] };
afterAll(() => fs.rmSync(fileDir, { recursive: true, force: true }));

describe.each(backends)('通道: the default link and file channels (%s)', (backend) => {
  describe('no channel', () => {
    const t = useServer(backend);

    it('lists the default link with its counters while no channel is enabled, and the preview names it', async () => {
      const a = await admin(t.server, 'chan.admin');
      const db = t.server.handle.db;
      // a worker's counters of the default link (the dispatcher writes them every 10 s)
      await sql`insert into dispatch_channel_stats (channel, worker, submitted, accepted, refused, retried, unconfirmed, receipts, latency_ms_sum, latency_count, bound, updated_at)
        values ('', 'w1', 7, 6, 1, 0, 0, 5, 120, 4, true, now())`.execute(db);
      let list = (await a.get('/api/operator/channels/list')).body.data as Row[];
      expect(list).toEqual([
        expect.objectContaining({
          name: '',
          source: 'default',
          where: '内置模拟器',
          enabled: true,
          submitted: 7,
          workers: 1,
        }),
      ]);
      expect(list[0]).toMatchObject({ bound: 1, latencyMs: 30, carriers: [], smsTypes: [] });
      let preview = (await a.post('/api/operator/channels/route', { phone: '+447700900123', smstype: 5 })).body.data;
      expect(preview).toEqual({
        carrier: 4,
        candidates: [{ name: '', priority: 0, weight: 1, bound: true, share: 100 }],
        message: channelEntity['x-messages'].defaultLink,
      });
      // the default link is no row: nothing to change
      expect((await a.post('/api/operator/channels/pause', { name: '' })).body.code).toBe(400);

      // a channel added: the default link is no longer used, nor listed
      expect(
        (
          await a.post(
            '/api/operator/channels/save',
            { name: 'cm1', url: 'smpp://sys:Pw1@127.0.0.1:2791', carriers: [1] },
            { json: true },
          )
        ).body.code,
      ).toBe(0);
      list = (await a.get('/api/operator/channels/list')).body.data;
      expect(list.map((c) => c.name)).toEqual(['cm1']);
      preview = (await a.post('/api/operator/channels/route', { phone: '13800138000', smstype: 0 })).body.data;
      expect(preview).toMatchObject({ carrier: 1, candidates: [{ name: 'cm1', share: 100 }], message: '' });
      // a China Telecom number: cm1 does not serve it, and the default link is not used while cm1 is on
      preview = (await a.post('/api/operator/channels/route', { phone: '18912345678', smstype: 0 })).body.data;
      expect(preview).toMatchObject({ carrier: 3, candidates: [], message: '没有可用的通道' });

      // every channel paused: the workers go back to the default link
      expect((await a.post('/api/operator/channels/pause', { name: 'cm1' })).body.code).toBe(0);
      list = (await a.get('/api/operator/channels/list')).body.data;
      expect(list.map((c) => [c.name, c.source, c.enabled])).toEqual([
        ['cm1', 'db', false],
        ['', 'default', true],
      ]);
      preview = (await a.post('/api/operator/channels/route', { phone: '13800138000', smstype: 0 })).body.data;
      expect(preview.candidates.map((c: { name: string }) => c.name)).toEqual(['']);
    });
  });

  describe('SMPP_URL and a channel file', () => {
    const t = useServer(backend, { config: { smppUrl: 'smpp://upstream:Hidden9@10.1.2.3:2775', channelsFile } });

    it('lists the file channel read-only, without its password, and refuses to change it', async () => {
      fs.writeFileSync(channelsFile, JSON.stringify({ channels: [FILE_CHANNEL] }));
      const a = await admin(t.server, 'file.admin');
      const list = (await a.get('/api/operator/channels/list')).body.data as Row[];
      // an enabled channel (the file's): no default link
      expect(list.map((c) => [c.name, c.source, c.where])).toEqual([['filed', 'file', 'smpp://fsys@127.0.0.1:2790']]);
      expect(JSON.stringify(list)).not.toContain('FilePw1');
      for (const [p, body] of [
        ['/api/operator/channels/save', { name: 'filed', url: 'smpp://x:y@127.0.0.1:1' }],
        ['/api/operator/channels/pause', { name: 'filed' }],
        ['/api/operator/channels/remove', { name: 'filed' }],
      ] as const)
        expect((await a.post(p, body, { json: true })).body).toMatchObject({
          code: 400,
          msg: channelEntity['x-messages'].fromFile,
        });
    });

    it('names SMPP_URL (without its password) as the default link when the file has no channel', async () => {
      fs.writeFileSync(channelsFile, JSON.stringify({ channels: [] }));
      const a = await admin(t.server, 'file.admin2');
      const list = (await a.get('/api/operator/channels/list')).body.data as Row[];
      expect(list.map((c) => [c.name, c.source, c.where])).toEqual([['', 'default', 'smpp://upstream@10.1.2.3:2775']]);
      expect(JSON.stringify(list)).not.toContain('Hidden9');
    });
  });
});
