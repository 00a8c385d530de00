/**
 * Once per server test run: a migrated, seeded PGlite data directory, dumped to a file. Every
 * in-memory PGlite server of the harness starts from it (about 0.3 s) instead of running the
 * migrations and the seed again (about 4 s each, some 110 servers a run). A file that misses a
 * migration is still brought up to date by openDatabase, so a stale template cannot pass a test.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../server/db';
import { seed } from '../../server/db/seed';
import { farIds } from './far-ids';

// (typed by hand: importing vitest/node's types here changes jest-dom's matchers in the unit tests)
export default async function setup(project: { provide(key: 'pgliteTemplate', value: string): void }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smsp-template-'));
  const file = path.join(dir, 'pgdata.tar');
  const handle = await openDatabase({ memory: true });
  try {
    await seed(handle.db);
    await farIds(handle.db);
    const dump = await handle.dump!();
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await handle.close();
  }
  project.provide('pgliteTemplate', file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
