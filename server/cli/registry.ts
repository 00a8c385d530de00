/**
 * The operator CLI's command registry. A command is a name, a usage line, a description and a
 * `run` that gets the database. Areas add their commands with `defineCommands` in their own file
 * and list it in server/cli.ts.
 */
import type { Db } from '../db';
import type { ServerSchemas } from '../schemas';
import type { AppConfig } from '../config';

export interface CliContext {
  db: Db;
  out: (line: string) => void;
  now: () => Date;
  /** schemas/: labels of stored codes come from the enums (`ctx.schemas.registry.enumLabel('sign-state', r.state)`), never from a map of their own */
  schemas: ServerSchemas;
  /** the settings of the process running the command (the CLI's loadConfig(), or the server's ctx.config) */
  config: AppConfig;
}

export interface Command {
  name: string;
  usage: string;
  description: string;
  run(ctx: CliContext, args: string[]): Promise<void>;
  /** optional: rewrites the arguments where the CLI runs (e.g. reads a local file or stdin) before dispatch */
  prepare?(args: string[]): Promise<string[]>;
}

/** A wrong invocation: printed with the command's usage, exit code 2. */
export class UsageError extends Error {}
/** A refused operation (unknown account …): printed, exit code 1. */
export class CommandError extends Error {}

/** The Chinese label of a stored code (schemas/enums/<name>.json), or the code itself when the enum does not know it. */
export function enumLabel(schemas: ServerSchemas, name: string, value: unknown): string {
  return schemas.registry.enumLabel(name, value) ?? String(value);
}

export function defineCommands(...commands: Command[]): Command[] {
  return commands;
}

/** Pads rows into aligned columns. */
export function table(rows: string[][]): string[] {
  const widths: number[] = [];
  const w = (s: string) => [...s].reduce((n, ch) => n + (/[\u1100-\uffff]/.test(ch) ? 2 : 1), 0);
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, w(c))));
  return rows.map((r) =>
    r
      .map((c, i) => c + ' '.repeat(widths[i] - w(c)))
      .join('  ')
      .trimEnd(),
  );
}
