/**
 * The `as` casts left in server/modules (docs/architecture.md "Casts"), counted from the syntax
 * trees: `npx tsx scripts/count-casts.ts` prints the count by category, `--list` every cast with
 * its category. `as const` is not a cast; `x as unknown as T` counts once. A cast's category is the
 * first rule it meets:
 *
 * - **through unknown**: `x as unknown as T` (library typings);
 * - **request values**: `req.body` / `req.query` / `req.params` (payment notices' bodies: no schema);
 * - **caught errors**: `e`, `err` or `error`;
 * - **database rows**: a row (`row`), or a column of server/db/generated.ts read off a variable
 *   (`r.carriers`);
 * - **others**: literals, object keys, library types, narrowing the compiler cannot follow.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** the checkout counted: this one, or `--root=<dir>` (another commit's files, `git archive`) */
const ROOT = path.resolve(
  process.argv.find((a) => a.startsWith('--root='))?.slice('--root='.length) ?? path.join(import.meta.dirname, '..'),
);
const MODULES = path.join(ROOT, 'server/modules');

export const CATEGORIES = ['through unknown', 'request values', 'caught errors', 'database rows', 'others'] as const;
export type Category = (typeof CATEGORIES)[number];

export interface Cast {
  file: string;
  line: number;
  text: string;
  category: Category;
}

/** the column names of the generated table types */
function columnNames(): Set<string> {
  const text = fs.readFileSync(path.join(ROOT, 'server/db/generated.ts'), 'utf8');
  return new Set([...text.matchAll(/^ {2}(\w+): /gm)].map((m) => m[1]));
}

function filesOf(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? filesOf(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
    )
    .sort();
}

const castOf = (n: ts.Node | undefined): (ts.AsExpression | ts.TypeAssertion) | null =>
  n && (ts.isAsExpression(n) || ts.isTypeAssertionExpression(n)) ? n : null;

function categoryOf(n: ts.AsExpression | ts.TypeAssertion, sf: ts.SourceFile, columns: Set<string>): Category {
  const inner = castOf(n.expression);
  if (inner && inner.type.kind === ts.SyntaxKind.UnknownKeyword) return 'through unknown';
  const e = n.expression;
  const text = e.getText(sf);
  if (/^req\.(body|query|params)\b/.test(text)) return 'request values';
  if (ts.isIdentifier(e) && ['e', 'err', 'error'].includes(e.text)) return 'caught errors';
  if (ts.isIdentifier(e) && e.text === 'row') return 'database rows';
  if (ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.expression) && columns.has(e.name.text))
    return 'database rows';
  return 'others';
}

export function countCasts(): Cast[] {
  const columns = columnNames();
  const casts: Cast[] = [];
  for (const file of filesOf(MODULES)) {
    const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (n: ts.Node) => {
      const cast = castOf(n);
      // `as const` is no cast; the inner `x as unknown` of `x as unknown as T` is counted with it
      const outer = castOf(n.parent);
      const isConst = cast && ts.isTypeReferenceNode(cast.type) && cast.type.typeName.getText(sf) === 'const';
      const isInner = cast && outer && outer.expression === n && cast.type.kind === ts.SyntaxKind.UnknownKeyword;
      if (cast && !isConst && !isInner)
        casts.push({
          file: path.relative(ROOT, file),
          line: sf.getLineAndCharacterOfPosition(cast.getStart(sf)).line + 1,
          text: cast.getText(sf).replace(/\s+/g, ' '),
          category: categoryOf(cast, sf, columns),
        });
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return casts;
}

if (import.meta.filename === process.argv[1]) {
  const casts = countCasts();
  if (process.argv.includes('--list'))
    for (const c of casts) console.log(`${c.file}:${c.line}\t${c.category}\t${c.text.slice(0, 120)}`);
  console.log(`${casts.length} casts in server/modules (not counting as const)`);
  for (const k of CATEGORIES) console.log(`${String(casts.filter((c) => c.category === k).length).padStart(5)} ${k}`);
}
