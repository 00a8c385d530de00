/**
 * Array parameters as PostgreSQL array literals, written in one pass.
 *
 * node-postgres turns a JS array parameter into its literal by appending element by element to a
 * string and escaping every element with two regular-expression replaces. For the dispatcher's
 * batch statements (unnest of 500-element arrays, seven per statement) that was the largest
 * source of garbage in the process: about 17 % of all it allocated in bench/send-e2e.ts. This
 * writes the same literal with one join for the usual case (numbers, and strings without `"` or
 * `\`) and one escaped element per string otherwise.
 *
 * The result is the literal node-postgres itself would send, character for character
 * (tests/server/array-params.test.ts compares them); an element of any other kind (Date, Buffer,
 * object, nested array) leaves the whole array to node-postgres.
 */
const NEEDS_ESCAPE = /["\\]/;

const quoted = (s: string) => `"${NEEDS_ESCAPE.test(s) ? s.replace(/\\/g, '\\\\').replace(/"/g, '\\"') : s}"`;

/** node-postgres's literal for `xs`, or undefined: an element only node-postgres converts */
export function arrayLiteral(xs: readonly unknown[]): string | undefined {
  let plain = true;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i];
    switch (typeof x) {
      case 'number':
      case 'bigint':
      case 'boolean':
        continue;
      case 'string':
        if (plain && NEEDS_ESCAPE.test(x)) plain = false;
        continue;
      default:
        if (x === null || x === undefined) {
          plain = false;
          continue;
        }
        return undefined;
    }
  }
  if (!xs.length) return '{}';
  if (plain) return `{"${xs.join('","')}"}`;
  const parts = new Array<string>(xs.length);
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i];
    parts[i] = x === null || x === undefined ? 'NULL' : quoted(String(x));
  }
  return `{${parts.join(',')}}`;
}

/** `values` with every array this module writes replaced by its literal (the same array when there is none) */
export function withArrayLiterals(values: unknown[]): unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Array.isArray(v)) continue;
    const lit = arrayLiteral(v);
    if (lit === undefined) continue;
    out ??= values.slice();
    out[i] = lit;
  }
  return out ?? values;
}
