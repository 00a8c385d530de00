/**
 * Import boundaries of the screen folders: a page reads its own folder's data (src/resources/<x>/data.ts,
 * src/custom-pages/<x>/data.ts, the operator console's src/ops/<x>/data.ts) and its screens through
 * useScreen() / useScreenPath() (layout/screens.tsx), never a whole table (nor its folder's index.ts,
 * which lazily imports it: tests/unit/import-cycles.test.ts). No file of those folders (stories, tests and their
 * mocks aside) may reach src/screens.tsx or src/ops/screens.tsx through its
 * static imports, directly or through other modules (lazy `import()` is a separate chunk and
 * is not followed; `import type` is erased and is not followed either, but a direct
 * `import type ... from '@/screens'` is refused too).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const src = path.join(root, 'src');
const TABLE = path.join(src, 'screens.tsx');
const OPS_TABLE = path.join(src, 'ops/screens.tsx');
const TABLES = new Set([TABLE, OPS_TABLE]);
const FOLDERS = ['src/resources', 'src/custom-pages'];
/** the operator console's folders (src/ops/<x>/); the files of src/ops itself are its shell, which routes the table */
const OPS_FOLDERS = fs
  .readdirSync(path.join(src, 'ops'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => `src/ops/${e.name}`);
const notAPage = /\.(stories|test)\.tsx?$|(\.mock|[Mm]ocks?|fixtures)\.ts$/;

const filesUnder = (dir: string): string[] =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? filesUnder(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : [],
    );

/** Static import / re-export specifiers of a file: `all` (type-only ones included) and `loaded` (those that load the module). */
function importsOf(code: string): { all: string[]; loaded: string[] } {
  const all: string[] = [];
  const loaded: string[] = [];
  const statement = /^\s*(import|export)\s+(type\s+)?([^'";]*?\bfrom\s+)?['"]([^'"]+)['"]/gm;
  for (const m of code.matchAll(statement)) {
    const [, kind, typeOnly, clause, spec] = m;
    if (kind === 'export' && !clause) continue; // `export const x = '...'`
    all.push(spec);
    if (!typeOnly) loaded.push(spec);
  }
  return { all, loaded };
}

const candidates = (base: string) => [
  base,
  `${base}.ts`,
  `${base}.tsx`,
  path.join(base, 'index.ts'),
  path.join(base, 'index.tsx'),
];

/** A specifier -> the source file it loads (undefined: a package, or not a TypeScript file). */
function resolve(from: string, spec: string): string | undefined {
  const base = spec.startsWith('@/')
    ? path.join(src, spec.slice(2))
    : spec.startsWith('.')
      ? path.resolve(path.dirname(from), spec)
      : undefined;
  if (!base) return undefined;
  return candidates(base).find((f) => /\.tsx?$/.test(f) && fs.existsSync(f) && fs.statSync(f).isFile());
}

/** The chain of static imports from `file` to the table, or undefined when the table is not reached. */
function pathToTable(file: string): string[] | undefined {
  const seen = new Set<string>();
  const walk = (f: string, chain: string[]): string[] | undefined => {
    if (TABLES.has(f)) return chain;
    if (seen.has(f)) return undefined;
    seen.add(f);
    for (const spec of importsOf(fs.readFileSync(f, 'utf8')).loaded) {
      const next = resolve(f, spec);
      const found = next && walk(next, [...chain, path.relative(root, next)]);
      if (found) return found;
    }
    return undefined;
  };
  return walk(file, [path.relative(root, file)]);
}

const pages = [...FOLDERS, ...OPS_FOLDERS]
  .flatMap((d) => filesUnder(path.join(root, d)))
  .filter((f) => !notAPage.test(f));

describe('import boundaries: pages read their own folder, not src/screens.tsx', () => {
  it('finds the screen folders and their index files', () => {
    expect(pages.length).toBeGreaterThan(50);
    expect(pages).toContain(path.join(src, 'resources/signs/index.ts'));
    expect(pages).toContain(path.join(src, 'ops/review/index.ts'));
  });

  it('no page file imports a screen table (not even its types)', () => {
    const direct = pages.filter((f) =>
      importsOf(fs.readFileSync(f, 'utf8')).all.some((s) => TABLES.has(resolve(f, s) ?? '')),
    );
    expect(direct.map((f) => path.relative(root, f))).toEqual([]);
  });

  it('no page file reaches src/screens.tsx through other modules', () => {
    const reached = pages.map(pathToTable).filter((c): c is string[] => !!c);
    expect(reached.map((c) => c.join(' -> '))).toEqual([]);
  });

  it('the check sees a way in: the routes module that holds the table does reach it', () => {
    expect(pathToTable(path.join(src, 'ConsoleRoutes.tsx'))).toEqual(['src/ConsoleRoutes.tsx', 'src/screens.tsx']);
    expect(pathToTable(path.join(src, 'ops/OpsRoutes.tsx'))).toEqual(['src/ops/OpsRoutes.tsx', 'src/ops/screens.tsx']);
    // the shared layout machinery holds neither table: each console's chunk carries its own
    expect(pathToTable(path.join(src, 'layout/screens.tsx'))).toBeUndefined();
    expect(
      importsOf(
        "import { a } from '@/screens';\nimport type { B } from './x';\nexport { c } from '../y';\nexport const s = 'z';",
      ),
    ).toEqual({
      all: ['@/screens', './x', '../y'],
      loaded: ['@/screens', '../y'],
    });
  });
});
