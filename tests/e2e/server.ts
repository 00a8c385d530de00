import { execFileSync } from 'node:child_process';
import { test } from '@playwright/test';
import type { E2EServer } from '../../playwright.config';

/**
 * The server of the running test's project: playwright.config.ts runs the spec files in
 * E2E_SERVERS projects at once, each against a server of its own (port, data directory, simulator
 * and listener ports). Call it inside a test or a hook.
 */
export function e2eServer(): E2EServer {
  return test.info().project.metadata.server as E2EServer;
}

/** The operator CLI (`server/cli.ts`) against the running test's server: its data directory. */
export function cli(...args: string[]): string {
  return execFileSync('node', ['--import', 'tsx', 'server/cli.ts', ...args], {
    env: { ...process.env, DATA_DIR: e2eServer().dataDir },
    encoding: 'utf8',
  });
}
