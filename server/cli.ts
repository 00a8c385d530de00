/**
 * Operator CLI: `npm run cli -- <command> [args]`. Reads the environment like the server
 * (loadConfig(): DATA_DIR, DATABASE_URL, the budgets some commands show; a bad value is refused).
 * When a server runs on the embedded database of DATA_DIR (which one process at a time may open),
 * the command is handed to that server over its loopback operator channel instead.
 */
import { loadConfig } from './config';
import { openDatabase } from './db';
import { seed } from './db/seed';
import { COMMANDS } from './cli/commands';
import { runCommand, runningServer, runOnServer } from './cli/operator-channel';

export { COMMANDS };

function help(out: (s: string) => void) {
  out('用法: npm run cli -- <命令> [参数]\n');
  for (const c of COMMANDS) out(`  ${c.usage.padEnd(40)} ${c.description}`);
}

export async function runCli(
  argv: string[],
  out = (s: string) => console.log(s),
  err = (s: string) => console.error(s),
): Promise<number> {
  const [name, ...rawArgs] = argv;
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
  let args = rawArgs;
  try {
    if (cmd.prepare) args = await cmd.prepare(rawArgs);
  } catch (e) {
    err(e instanceof Error ? e.message : String(e));
    return 1;
  }
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    err(e instanceof Error ? e.message : String(e));
    return 1;
  }
  const { dataDir } = config;
  const databaseUrl = config.db.url;
  const server = databaseUrl ? undefined : runningServer(dataDir);
  let result;
  if (server) {
    result = await runOnServer(server, [name, ...args]);
  } else {
    const handle = await openDatabase({ databaseUrl, dataDir, prepare: config.db.prepare });
    try {
      await seed(handle.db);
      result = await runCommand({ db: handle.db, now: () => new Date(), config: config.app }, [name, ...args]);
    } finally {
      await handle.close();
    }
  }
  for (const line of result.lines) (result.code === 0 ? out : err)(line);
  return result.code;
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
