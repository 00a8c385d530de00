/**
 * The embedded database (PGlite) can be opened by one process only, so while the server runs
 * the operator CLI hands its command to the server instead: the server writes
 * `DATA_DIR/operator.json` ({ port, token, pid }, mode 0600) and accepts
 * `POST /__operator` from loopback with that token; it runs the same command code against its
 * own database and answers the printed lines and the exit code.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { COMMANDS } from './commands';
import { CommandError, UsageError, type CliContext } from './registry';
import { ServerSchemas } from '../schemas';
import { DEFAULT_CONFIG, type AppConfig } from '../config';

export interface OperatorEndpoint {
  port: number;
  token: string;
  pid: number;
}

export const operatorFile = (dataDir: string) => path.join(dataDir, 'operator.json');

export interface CommandResult {
  code: number;
  lines: string[];
}

/** schemas/ of a CLI run without a server (the process's one copy) */
const cliSchemas = () => ServerSchemas.shared();

/** Runs one command line against a database; the same code path for the CLI and the server. */
export async function runCommand(
  ctx: Omit<CliContext, 'out' | 'schemas' | 'config'> & { schemas?: ServerSchemas; config?: AppConfig },
  argv: string[],
): Promise<CommandResult> {
  const lines: string[] = [];
  const [name, ...args] = argv;
  const cmd = COMMANDS.find((c) => c.name === name);
  if (!cmd) return { code: 2, lines: [`未知命令: ${name ?? ''}`] };
  try {
    await cmd.run(
      { ...ctx, schemas: ctx.schemas ?? cliSchemas(), config: ctx.config ?? DEFAULT_CONFIG, out: (l) => lines.push(l) },
      args,
    );
    return { code: 0, lines };
  } catch (e) {
    if (e instanceof UsageError) return { code: 2, lines: [...lines, e.message, `用法: npm run cli -- ${cmd.usage}`] };
    if (e instanceof CommandError) return { code: 1, lines: [...lines, e.message] };
    throw e;
  }
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** Registers POST /__operator and publishes DATA_DIR/operator.json once the server listens. */
export function installOperatorChannel(app: FastifyInstance, dataDir: string) {
  const token = crypto.randomBytes(32).toString('hex');
  // not a browser call: authenticated by the token header, no cookies, so no CSRF token either
  app.post('/__operator', { config: { csrf: false } }, async (req, reply) => {
    const given = String(req.headers['x-operator-token'] ?? '');
    const ok =
      LOOPBACK.has(req.ip) &&
      given.length === token.length &&
      crypto.timingSafeEqual(Buffer.from(given), Buffer.from(token));
    if (!ok) return reply.status(403).send({ code: 403, msg: '无权访问' });
    const argv = (req.body as { argv?: unknown })?.argv;
    if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string')) return { code: 400, msg: '参数错误' };
    const result = await runCommand(
      { db: app.ctx.db, now: () => app.ctx.now(), schemas: app.ctx.schemas, config: app.ctx.config },
      argv,
    );
    return { code: 0, msg: '成功', data: result };
  });
  return {
    /** call after listen */
    publish(port: number) {
      const file = operatorFile(dataDir);
      fs.writeFileSync(file, JSON.stringify({ port, token, pid: process.pid } satisfies OperatorEndpoint), {
        mode: 0o600,
      });
    },
    unpublish() {
      try {
        const file = operatorFile(dataDir);
        const cur = JSON.parse(fs.readFileSync(file, 'utf8')) as OperatorEndpoint;
        if (cur.token === token) fs.unlinkSync(file);
      } catch {
        /* already gone */
      }
    },
  };
}

/** The running server's operator endpoint, if one is up for this data directory. */
export function runningServer(dataDir: string): OperatorEndpoint | undefined {
  try {
    const ep = JSON.parse(fs.readFileSync(operatorFile(dataDir), 'utf8')) as OperatorEndpoint;
    process.kill(ep.pid, 0); // throws when that process is gone
    return ep;
  } catch {
    return undefined;
  }
}

export async function runOnServer(ep: OperatorEndpoint, argv: string[]): Promise<CommandResult> {
  const res = await fetch(`http://127.0.0.1:${ep.port}/__operator`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-operator-token': ep.token },
    body: JSON.stringify({ argv }),
  });
  const body = (await res.json()) as { code: number; msg: string; data?: CommandResult };
  if (body.code !== 0 || !body.data) throw new Error(`服务器拒绝了命令: ${body.msg}`);
  return body.data;
}
