/**
 * Spreadsheet formula injection (issue 23): the one place exported cells are written
 * (server/lib/export-columns.ts safeRow / safeCell), and a check that every row the server adds
 * to a sheet goes through it. The attack through an export: tests/server/bills.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { safeCell, safeRow } from '../../server/lib/export-columns';

describe('safeCell', () => {
  it('quotes text a spreadsheet would run as a formula', () => {
    for (const v of ['=1+1', '=HYPERLINK("http://x","y")', '+cmd|calc', '-1+2', '@SUM(A1)', '\t=1', '\r=1', '--', '=A'])
      expect(safeCell(v)).toBe(`'${v}`);
  });
  it('leaves other text, plain numbers and non-strings alone', () => {
    for (const v of ['abc', '短信', '-12.50', '+8613800138000', '0.05', '12', ' =1', '', "'=1", '-', '+', '='])
      expect(safeCell(v)).toBe(v);
    expect(safeCell(5)).toBe(5);
    expect(safeCell(null)).toBe(null);
    expect(safeRow({ a: '=1', b: 2, c: '-3' })).toEqual({ a: "'=1", b: 2, c: '-3' });
    expect(safeRow(['@x', 'y'])).toEqual(["'@x", 'y']);
  });
});

/** rows of fixed text (templates, samples, notes, headers): nothing a user typed */
const STATIC_ROWS = [
  'server/modules/sign/service.ts: note.addRow([l])',
  // the example row of the notes sheet (its array written over several lines)
  'server/modules/sign/service.ts: note.addRow([',
  'server/modules/variable-international/variable.ts: errWs.addRow([NUMBER_HEADER,',
  "server/modules/variable-international/variable.ts: ws.addRow({ phone: '13800138000'",
  "server/modules/variable-international/variable.ts: ws.addRow({ phone: '13900139000'",
  'server/modules/send/import.ts: ws.addRow({ phone: p })',
  'server/modules/template/batch.ts: ws.addRow(Object.fromEntries(cols.map((c) => [c.field, c.example])))',
  "server/modules/template/batch.ts: notes.addRow(['列', '可填写的值'])",
  // one row per column of the notes sheet: header and allowed values (its array written over several lines)
  'server/modules/template/batch.ts: notes.addRow([',
];

function tsFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? tsFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
    );
}

describe('every exported row goes through safeRow', () => {
  it('no addRow of the server writes user text unquoted', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const unsafe: string[] = [];
    for (const file of tsFiles(path.join(root, 'server'))) {
      const rel = path.relative(root, file).split(path.sep).join('/');
      for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
        const m = /([\w!.]+)\.addRow\((.*)$/.exec(line.trim());
        if (!m || m[2].startsWith('safeRow(')) continue;
        const call = `${rel}: ${m[1].replace(/!$/, '')}.addRow(${m[2]}`;
        if (!STATIC_ROWS.some((s) => call.startsWith(s))) unsafe.push(call);
      }
    }
    expect(unsafe).toEqual([]);
  });
});
