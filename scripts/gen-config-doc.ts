/**
 * `npm run docs:config`: docs/configuration.md, the configuration reference, rendered from
 * schemas/config/env.json (the schema loadConfig() checks the environment with). The file is
 * committed; tests/server/config.test.ts renders it again and fails while the two differ, so a
 * variable added to the schema without running this is caught by CI.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { JsonSchema } from '../common/schema';
import { accepts, ENV_SCHEMA, FALSE_WORDS, TRUE_WORDS } from '../server/env';

export const CONFIG_DOC = path.resolve(import.meta.dirname, '../docs/configuration.md');

const WIDTH = 100;

/** `text` wrapped at WIDTH columns (at spaces outside code spans), each line starting with `indent` after the first's `first`. */
function wrap(text: string, first = '', indent = ''): string {
  const lines: string[] = [];
  let line = first;
  // a code span (`npm run cli`) is one word: never broken
  for (const word of text.match(/(?:`[^`]*`|\S)+/g) ?? []) {
    const bare = line === first || line === indent;
    if (!bare && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = indent + word;
    } else line += (bare ? '' : ' ') + word;
  }
  lines.push(line);
  return lines.join('\n');
}

const code = (v: unknown) => `\`${String(v)}\``;
const list = (names: string[]) => names.map(code).join(', ');

function acceptsText(p: JsonSchema): string {
  if (typeof p['x-accepts'] === 'string') return p['x-accepts'];
  if (p.enum) return `one of ${list(p.enum.map(String))}`;
  if (p.type === 'boolean') return `${list([...TRUE_WORDS])} (or ${list([...FALSE_WORDS])}), in any case`;
  return accepts(p);
}

function defaultText(p: JsonSchema): string {
  if (p.default !== undefined) return p.type === 'boolean' ? code(p.default ? 1 : 0) : code(p.default);
  if (typeof p['x-default-text'] === 'string') return p['x-default-text'];
  return 'unset';
}

/** The rules between variables: the key sets that go together (`dependencies`) and the conditional (`if` / `then`). */
function rules(schema: JsonSchema): string[] {
  const deps = (schema.dependencies ?? {}) as Record<string, string[]>;
  const closure = (k: string) => [k, ...(deps[k] ?? [])].sort().join(',');
  const out: string[] = [];
  const done = new Set<string>();
  /** keys that need a group without belonging to it, by what they need */
  const needing = new Map<string, string[]>();
  for (const [k, needs] of Object.entries(deps)) {
    const group = [k, ...needs];
    const key = closure(k);
    if (group.every((n) => closure(n) === key)) {
      if (!done.has(key)) out.push(`${list(group)}: all or none.`);
      done.add(key);
    } else needing.set(needs.join(','), [...(needing.get(needs.join(',')) ?? []), k]);
  }
  for (const [needs, keys] of needing)
    out.push(`${list(keys)}: ${keys.length > 1 ? 'each needs' : 'needs'} ${list(needs.split(','))}.`);
  const then = schema.then as JsonSchema | undefined;
  if (then?.description) out.push(`${then.description.replace(/\b([A-Z][A-Z0-9]*_[A-Z0-9_]+)\b/g, '`$1`')}.`);
  return out;
}

/** The reference as Markdown. */
export function renderConfigDoc(schema: JsonSchema = ENV_SCHEMA): string {
  const props = schema.properties ?? {};
  const groups = new Map<string, [string, JsonSchema][]>();
  for (const [name, p] of Object.entries(props)) {
    const g = typeof p['x-group'] === 'string' ? p['x-group'] : 'Other';
    groups.set(g, [...(groups.get(g) ?? []), [name, p]]);
  }
  const anchor = (g: string) =>
    g
      .toLowerCase()
      .replace(/[^a-z0-9 -]/g, '')
      .replace(/ /g, '-');
  const out: string[] = [
    '# Configuration',
    '',
    '<!-- Generated from schemas/config/env.json by `npm run docs:config` (scripts/gen-config-doc.ts).',
    '     Do not edit: change the schema and run it again. tests/server/config.test.ts fails while',
    '     this file and the schema differ. -->',
    '',
    wrap(
      'Every process of the platform (`npm start`, `npm run worker`, `npm run smpp-server`, `npm run cli`, `npm run smsc-sim`) ' +
        'reads its settings from these environment variables, once, when it starts (`loadConfig()` in server/config.ts, ' +
        'which checks them against schemas/config/env.json). A variable a process has no use for is read and checked all the same.',
    ),
    '',
    'How a value is read:',
    '',
    wrap(
      'An empty value (or one of spaces) is the same as an unset one: the default applies. Values are trimmed.',
      '- ',
      '  ',
    ),
    wrap(
      `A boolean is ${list([...TRUE_WORDS])} or ${list([...FALSE_WORDS])}, in any case; anything else is refused.`,
      '- ',
      '  ',
    ),
    wrap(
      'A number is refused outside its range: it is never clamped, and a value that is not a number is never read as 0.',
      '- ',
      '  ',
    ),
    wrap(
      'A bad value stops the start: the process prints `Bad configuration` with one line per bad variable, naming it and what it accepts, and exits with code 1. ' +
        'Values of text variables (URLs, keys) are not repeated in the message.',
      '- ',
      '  ',
    ),
    '',
    'Variables that go together:',
    '',
    ...rules(schema).map((r) => wrap(r, '- ', '  ')),
    '',
    `${Object.keys(props).length} variables, in ${groups.size} groups:`,
    '',
    ...[...groups].map(([g, vars]) => `- [${g}](#${anchor(g)}): ${vars.length}`),
  ];
  for (const [g, vars] of groups) {
    out.push('', `## ${g}`);
    for (const [name, p] of vars) {
      out.push(
        '',
        `### \`${name}\``,
        '',
        wrap(p.description ?? ''),
        '',
        wrap(acceptsText(p), '- accepts: ', '  '),
        wrap(defaultText(p), '- default: ', '  '),
      );
    }
  }
  return `${out.map((l) => l.replace(/[ \t]+$/gm, '')).join('\n')}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const text = renderConfigDoc();
  const before = fs.existsSync(CONFIG_DOC) ? fs.readFileSync(CONFIG_DOC, 'utf8') : '';
  if (before === text) console.log(`docs:config: ${path.relative(process.cwd(), CONFIG_DOC)} is up to date`);
  else {
    fs.writeFileSync(CONFIG_DOC, text);
    console.log(`docs:config: wrote ${path.relative(process.cwd(), CONFIG_DOC)}`);
  }
}
