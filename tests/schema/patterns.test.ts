/**
 * Issue 9 finding 2 (ReDoS): every regular expression that can meet user input runs in linear
 * time. Collected, not listed by hand, so a new one is covered the day it is written:
 *   - every `pattern` in schemas/ (compiled as ajv compiles it, with the `u` flag), and every
 *     `format` the schemas use (ajv-formats' own checks);
 *   - every regular-expression literal and `new RegExp(...)` in server/ and common/ (found with
 *     TypeScript's scanner).
 * Each gets 1 MB of adversarial shapes and must answer within 50 ms. Then the login regression
 * through the real route.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../common/schema/ajv';
import { backends, useServer } from '../server/harness';

const root = path.resolve(import.meta.dirname, '../..');

function files(dir: string, ext: RegExp): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...files(p, ext));
    else if (ext.test(e.name)) out.push(p);
  }
  return out;
}

interface Found {
  where: string;
  re: RegExp;
}

/** `pattern` and `format` keywords anywhere in schemas/ */
function schemaKeywords(): { patterns: Found[]; formats: Set<string> } {
  const patterns: Found[] = [];
  const formats = new Set<string>();
  const walk = (node: unknown, where: string) => {
    if (Array.isArray(node)) node.forEach((n, i) => walk(n, `${where}/${i}`));
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (k === 'pattern' && typeof v === 'string')
          patterns.push({ where: `${where}/pattern`, re: new RegExp(v, 'u') });
        else if (k === 'format' && typeof v === 'string') formats.add(v);
        if (k !== 'errorMessage') walk(v, `${where}/${k}`);
      }
    }
  };
  for (const f of files(path.join(root, 'schemas'), /\.json$/))
    walk(JSON.parse(fs.readFileSync(f, 'utf8')), path.relative(root, f));
  return { patterns, formats };
}

/** regular-expression literals (and constant `new RegExp('…')`) in the TypeScript of `dirs` */
function sourceRegexes(dirs: string[]): Found[] {
  const out: Found[] = [];
  for (const dir of dirs) {
    for (const f of files(path.join(root, dir), /\.ts$/)) {
      const text = fs.readFileSync(f, 'utf8');
      const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
      let prev = ts.SyntaxKind.Unknown;
      const valueEnd = new Set([
        ts.SyntaxKind.Identifier,
        ts.SyntaxKind.NumericLiteral,
        ts.SyntaxKind.StringLiteral,
        ts.SyntaxKind.CloseParenToken,
        ts.SyntaxKind.CloseBracketToken,
        ts.SyntaxKind.CloseBraceToken,
        ts.SyntaxKind.ThisKeyword,
      ]);
      const templates: number[] = []; // brace depth at each open `${`
      let depth = 0;
      for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
        if ((kind === ts.SyntaxKind.SlashToken || kind === ts.SyntaxKind.SlashEqualsToken) && !valueEnd.has(prev))
          kind = scanner.reScanSlashToken();
        if (kind === ts.SyntaxKind.OpenBraceToken) depth++;
        else if (kind === ts.SyntaxKind.CloseBraceToken) {
          if (templates.length && templates[templates.length - 1] === depth) {
            kind = scanner.reScanTemplateToken(false);
            if (kind === ts.SyntaxKind.TemplateTail) templates.pop();
          } else depth--;
        } else if (kind === ts.SyntaxKind.TemplateHead) templates.push(depth);
        if (kind === ts.SyntaxKind.RegularExpressionLiteral) {
          const lit = scanner.getTokenText();
          const end = lit.lastIndexOf('/');
          const line = text.slice(0, scanner.getTokenStart()).split('\n').length;
          out.push({
            where: `${path.relative(root, f)}:${line}`,
            re: new RegExp(lit.slice(1, end), lit.slice(end + 1)),
          });
        }
        prev = kind;
      }
      // constant only: the literal is the whole first argument (not the head of a concatenation)
      for (const m of text.matchAll(/new RegExp\(\s*'([^'\\]*(?:\\.[^'\\]*)*)'(?:\s*,\s*'([a-z]*)')?\s*\)/g)) {
        out.push({
          where: `${path.relative(root, f)} new RegExp`,
          re: new RegExp(m[1].replace(/\\\\/g, '\\'), m[2] ?? ''),
        });
      }
    }
  }
  return out;
}

const LIMIT_MS = 50;
const MB = 1024 * 1024;
let SIZE = MB;
/** the shapes, built once per size (hundreds of patterns meet the same megabytes) */
const shapes = new Map<string, string>();
const fill = (unit: string, suffix = '') => {
  const key = `${SIZE}\u0000${unit}\u0000${suffix}`;
  let s = shapes.get(key);
  if (s === undefined) shapes.set(key, (s = unit.repeat(Math.ceil((SIZE - suffix.length) / unit.length)) + suffix));
  return s;
};

/** the shapes that make backtracking patterns explode, plus the pattern's own alphabet */
function adversarial(re: RegExp): string[] {
  const literal = [...new Set(re.source.replace(/\\[dDsSwWbBpPu]|\{[^}]*\}|[\\^$|()[\]*+?]/g, '').split(''))]
    .filter((c) => c.trim())
    .slice(0, 8)
    .join('');
  return [
    'a@' + fill('a.', '@'),
    fill('a@'),
    fill(' ', '@'),
    fill('1', 'x'),
    fill('1.', 'x'),
    fill('0', '.'),
    fill('a1', '!'),
    fill('<br', ''),
    fill('=?utf-8?B?', ''),
    fill('_x', ''),
    fill('{a', ''),
    fill('&#', ''),
    fill(':1', 'x'),
    'http://' + fill('a.', '@'),
    'http://' + fill('a', ':'),
    ...(literal ? [fill(literal, '\u0000'), fill(literal + 'a', '\u0000')] : []),
  ];
}

/** best of three, so a busy machine does not fail a linear pattern */
function bestOf3(fn: () => void): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    fn();
    best = Math.min(best, performance.now() - t0);
    if (best < LIMIT_MS / 10) break;
  }
  return best;
}

/** the slowest of the adversarial shapes at the current SIZE */
function worstOf(re: RegExp, run: (s: string) => unknown): { ms: number; input: string } {
  let worst = { ms: 0, input: '' };
  for (const s of adversarial(re)) {
    const ms = bestOf3(() => {
      re.lastIndex = 0;
      run(s);
    });
    if (ms > worst.ms) worst = { ms, input: s.slice(0, 24) };
  }
  return worst;
}

/**
 * Linear time on 1 MB: 64 KB goes first and must be within the limit (a backtracking pattern can
 * take minutes on 1 MB and cannot be interrupted); then 1 MB must be within the limit, or — when
 * the work is output-bound (a global replace with half a million matches on a busy machine) —
 * grow no more than linearly from 64 KB (16x, allowed 100x; quadratic growth is 256x).
 */
function linear(re: RegExp, run: (s: string) => unknown): { ok: boolean; why: string } {
  SIZE = 64 * 1024;
  const small = worstOf(re, run);
  if (small.ms >= LIMIT_MS)
    return { ok: false, why: `64 KB took ${small.ms.toFixed(1)} ms on ${JSON.stringify(small.input)}…` };
  SIZE = MB;
  const big = worstOf(re, run);
  const ok = big.ms < LIMIT_MS || big.ms < 100 * Math.max(small.ms, 1);
  return {
    ok,
    why: `1 MB took ${big.ms.toFixed(1)} ms (64 KB: ${small.ms.toFixed(1)} ms) on ${JSON.stringify(big.input)}…`,
  };
}

/** each expression's verdict, by flags and source */
const checked = new Map<string, { ok: boolean; why: string }>();

/**
 * `test` on the non-global form: when nothing matches it tries every start position, which is
 * where backtracking blows up (a global replace adds only output-bound work, too noisy to time).
 */
function check(re: RegExp) {
  const plain = new RegExp(re.source, re.flags.replace(/[gy]/g, ''));
  // the same expression in several places (a schema's pattern repeated, a literal in two files)
  // is timed once; each place still gets its own test
  const key = `${plain.flags}/${plain.source}`;
  let r = checked.get(key);
  if (!r) checked.set(key, (r = linear(plain, (s) => plain.test(s))));
  expect(r.ok, `${re}: ${r.why}`).toBe(true);
}

describe('every pattern meets 1 MB of adversarial input in linear time', () => {
  const { patterns, formats } = schemaKeywords();

  it('collects what it checks', () => {
    expect(patterns.length).toBeGreaterThan(20);
    expect(patterns.some((p) => p.where.startsWith(path.join('schemas', 'forms', 'login.json')))).toBe(true);
  });

  it.each(patterns.map((p) => [p.where, p.re] as const))('schemas: %s', (_where, re) => check(re));

  it('formats used by the schemas (ajv-formats)', () => {
    const ajv = createAjv({});
    for (const name of formats) {
      const def = (ajv.formats as Record<string, unknown>)[name];
      const test =
        def instanceof RegExp
          ? (s: string) => def.test(s)
          : typeof def === 'function'
            ? (def as (s: string) => boolean)
            : def && typeof def === 'object' && 'validate' in def
              ? (s: string) => {
                  const v = (def as { validate: RegExp | ((s: string) => boolean) }).validate;
                  return v instanceof RegExp ? v.test(s) : v(s);
                }
              : undefined;
      if (!test) continue;
      const r = linear(/./, (s) => test(s));
      expect(r.ok, `format ${name}: ${r.why}`).toBe(true);
    }
  });

  const source = sourceRegexes(['server', 'common']);
  it('finds the source regexes', () => expect(source.length).toBeGreaterThan(30));
  it.each(source.map((p) => [p.where, p.re] as const))('source: %s', (_where, re) => check(re));
});

describe.each(backends)('login ReDoS regression (%s)', (backend) => {
  const t = useServer(backend);
  it('answers a 128 KB crafted username at once, before any captcha work', async () => {
    const c = await t.server.client().init();
    const username = 'a@' + 'a.'.repeat(64000) + '@';
    const t0 = performance.now();
    const r = await c.post('/api/login', { username, password: 'x', server: 's', token: 't' }, { json: true });
    const ms = performance.now() - t0;
    expect(r.status).toBeLessThan(500);
    expect(r.body.code).not.toBe(0);
    expect(ms).toBeLessThan(1000);
  });
});
