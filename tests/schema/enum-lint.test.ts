/**
 * The ESLint rule of eslint.config.js that keeps raw enum codes out of production code: a number
 * compared with a state / status / type / mode / kind (===, !==, ==, !=, switch cases, Kysely's
 * .where(col, op, n), SQL text `state in (4, 6)`) is refused in server/, src/ and common/; tests,
 * benches and migrations (history) may spell codes out.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// the texts linted here are no files of the TypeScript project: the type-checked rules (which need it) are off for them
const eslint = new ESLint({
  cwd: path.resolve(import.meta.dirname, '../..'),
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/no-misused-promises': 'off',
      '@typescript-eslint/await-thenable': 'off',
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
    },
  },
});
const RULE = 'no-restricted-syntax';

async function refusals(code: string, filePath: string): Promise<number[]> {
  const [r] = await eslint.lintText(code, { filePath });
  return r.messages.filter((m) => m.ruleId === RULE).map((m) => m.line);
}

const RAW = [
  `declare const tpl: { state: number }; export const a = tpl.state !== 1;`,
  `declare const m: { status: number }; export const a = 3 === m.status;`,
  `declare const mode: number; export const a = mode == 0;`,
  `declare const t: { send_kind: number }; export const a = t.send_kind != 2;`,
  `declare const o: { paymentMode: unknown }; export const a = Number(o.paymentMode) === 1;`,
  `declare const r: { payment_type: number }; export function f() { switch (r.payment_type) { case 11: return 1; } return 0; }`,
  `declare const db: any; export const q = db.where('t.state', '=', 1);`,
  `declare const eb: any; export const q = eb.case().when('status', '=', 7);`,
  'declare const sql: any; export const q = sql`select 1 from sms_messages m where m.state in (4, 6)`;',
];

const NAMED = [
  `import { SignState } from '../../../common/generated/schemas'; declare const s: { state: number }; export const a = s.state !== SignState.Deleted;`,
  `declare const db: any; import { TaskStatus } from '../../../common/generated/schemas'; export const q = db.where('status', '=', TaskStatus.Cancelled);`,
  "declare const sql: any; import { SendRecordStatus as S } from '../../../common/generated/schemas'; export const q = sql`select 1 where m.state in (${S.SubmitFailed}, ${S.DeliveryFailed})`;",
  // not a code: counts and lengths may be compared with numbers
  `declare const list: number[]; declare const t: { audit_num: number }; export const a = list.length === 0 || t.audit_num === 0;`,
];

describe('ESLint: no raw enum codes in production code', { timeout: 120_000 }, () => {
  it('refuses a number compared with a state / status / type / mode / kind, in server/, src/ and common/', async () => {
    for (const file of ['server/modules/probe/service.ts', 'src/resources/probe/Probe.tsx', 'common/probe.ts']) {
      for (const code of RAW) expect(await refusals(code, file), `${file}: ${code}`).toHaveLength(1);
    }
  });

  it('accepts the generated constants and comparisons of plain numbers', async () => {
    for (const code of NAMED) expect(await refusals(code, 'server/modules/probe/service.ts'), code).toEqual([]);
  });

  it('leaves tests, benches and migrations alone', async () => {
    for (const file of ['tests/server/probe.test.ts', 'bench/probe.ts', 'server/db/migrations/0099_probe.ts']) {
      for (const code of RAW) expect(await refusals(code, file), `${file}: ${code}`).toEqual([]);
    }
  });
});
