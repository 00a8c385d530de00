/**
 * Operator CLI: `npm run cli -- <command> [args]`. Uses DATA_DIR / DATABASE_URL like the server.
 * With the embedded database, stop the server first (one process at a time may open it).
 */
import path from 'node:path';
import { openDatabase } from './db';
import { seed } from './db/seed';
import { accountCommands } from './cli/accounts';
import { CommandError, UsageError, type Command } from './cli/registry';

/** Every area's commands; add new lists here. */
export const COMMANDS: Command[] = [...accountCommands];

function help(out: (s: string) => void) {
  out('用法: npm run cli -- <命令> [参数]\n');
  for (const c of COMMANDS) out(`  ${c.usage.padEnd(40)} ${c.description}`);
}

export async function runCli(argv: string[], out = (s: string) => console.log(s), err = (s: string) => console.error(s)): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    help(out);
    return name ? 0 : 2;
  }
  const cmd = COMMANDS.find((c) => c.name === name);
  if (!cmd) {
    err(`未知命令: ${name}\n`);
    help(err);
    return 2;
  }
  const handle = await openDatabase({
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: path.resolve(process.env.DATA_DIR ?? './data'),
  });
  try {
    await seed(handle.db);
    await cmd.run({ db: handle.db, out, now: () => new Date() }, args);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      err(`${e.message}\n用法: npm run cli -- ${cmd.usage}`);
      return 2;
    }
    if (e instanceof CommandError) {
      err(e.message);
      return 1;
    }
    throw e;
  } finally {
    await handle.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('server/cli.ts')) {
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
