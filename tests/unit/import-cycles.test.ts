/**
 * No import cycles in src/ (issue 37 item 5): every module's imports, read with the TypeScript
 * parser — static imports and re-exports, and lazy `import()` too (a folder's index.ts that lazily
 * imports a page the page imports back is a cycle as well); `import type` is erased and is not
 * followed. Stories and tests are left out (they import whatever they show). Pages read their
 * screens through useScreen() / useScreenPath() (layout/screens.tsx) and their folder's data from
 * its data.ts, never from the index.ts that declares them.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const src = path.join(root, 'src');
const notProduction = /\.(stories|test)\.tsx?$/;

const filesUnder = (dir: string): string[] =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory()
        ? e.name === 'generated'
          ? []
          : filesUnder(path.join(dir, e.name))
        : /\.tsx?$/.test(e.name) && !notProduction.test(e.name)
          ? [path.join(dir, e.name)]
          : [],
    );

/** The specifiers a module loads: static imports / re-exports that are not type-only, and `import('...')`. */
function loadedSpecifiers(fileName: string, code: string): string[] {
  const sf = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier)) {
      const c = n.importClause;
      const typeOnly =
        !!c &&
        (c.isTypeOnly ||
          (!c.name &&
            !!c.namedBindings &&
            ts.isNamedImports(c.namedBindings) &&
            c.namedBindings.elements.length > 0 &&
            c.namedBindings.elements.every((e) => e.isTypeOnly)));
      if (!typeOnly) out.push(n.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(n) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) {
      if (!n.isTypeOnly) out.push(n.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(n) &&
      n.expression.kind === ts.SyntaxKind.ImportKeyword &&
      n.arguments[0] &&
      ts.isStringLiteral(n.arguments[0])
    ) {
      out.push(n.arguments[0].text);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/** A specifier -> the source file it loads (`@/` is src/); undefined: a package or not TypeScript. */
function resolve(from: string, spec: string): string | undefined {
  const base = spec.startsWith('@/')
    ? path.join(src, spec.slice(2))
    : spec.startsWith('.')
      ? path.resolve(path.dirname(from), spec)
      : undefined;
  if (!base) return undefined;
  return [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')].find(
    (f) => /\.tsx?$/.test(f) && fs.existsSync(f) && fs.statSync(f).isFile(),
  );
}

/** The strongly connected components of more than one module (or a module importing itself): the cycles. */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const strong = (v: string) => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) strong(v);
  return found;
}

describe('import cycles', () => {
  it('finds a cycle, lazy imports included, and not a type-only one', () => {
    expect(
      loadedSpecifiers(
        'x.tsx',
        "import { a } from './a';\nimport type { B } from './b';\nimport { type C } from './c';\nexport * from './d';\nconst P = lazy(() => import('./P'));",
      ),
    ).toEqual(['./a', './d', './P']);
    const graph = new Map([
      ['index', ['page']],
      ['page', ['index', 'data']],
      ['data', []],
      ['self', ['self']],
    ]);
    expect(cyclesOf(graph)).toEqual([['index', 'page'], ['self']]);
  });

  it('src/ has none', () => {
    const files = filesUnder(src);
    expect(files).toContain(path.join(src, 'layout/screens.tsx'));
    const known = new Set(files);
    const graph = new Map(
      files.map((f) => [
        f,
        loadedSpecifiers(f, fs.readFileSync(f, 'utf8'))
          .map((s) => resolve(f, s))
          .filter((t): t is string => !!t && known.has(t)),
      ]),
    );
    const cycles = cyclesOf(graph).map((c) => c.map((f) => path.relative(root, f)).join(' <-> '));
    expect(cycles).toEqual([]);
  });
});
