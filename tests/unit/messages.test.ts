/**
 * The messages both sides say live once, in schemas/messages/messages.json: no source file of the
 * console or the server spells one out again (stories, mocks, fixtures and tests may: they are what
 * a user sees, checked).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MESSAGES, requiredMessage } from '../../common/schema/messages';
import openAccountForm from '../../schemas/forms/open-account.json';
import registerForm from '../../schemas/forms/register.json';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SKIP =
  /(\.stories\.tsx?|\/src\/stories\/|[Mm]ocks\.ts|[.-]mocks?\.ts|fixtures\.ts|\/generated\/|\/seed\.ts|\/cli\/)/;

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(rel);
    return /\.tsx?$/.test(e.name) && !SKIP.test(`/${rel}`) ? [rel] : [];
  });
}

describe('messages live once (schemas/messages/messages.json)', () => {
  it('no console or server source spells out a shared message', () => {
    const found: string[] = [];
    for (const file of [...sources('src'), ...sources('server')]) {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      for (const [key, msg] of Object.entries(MESSAGES)) {
        if (new RegExp(`['"\`]${msg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}['"\`]`).test(text))
          found.push(`${file}: ${key} (${msg})`);
      }
    }
    expect(found).toEqual([]);
  });
});

/** each form's own messages (`x-messages` of schemas/forms/*.json: the send page's refusals, prompts) */
const formMessages = fs
  .readdirSync(path.join(ROOT, 'schemas/forms'))
  .flatMap((f) =>
    Object.entries<string>(
      JSON.parse(fs.readFileSync(path.join(ROOT, 'schemas/forms', f), 'utf8'))['x-messages'] ?? {},
    ).map(([k, m]) => [`${f}:${k}`, m] as const),
  );

/** the screens that say forms' messages (the sending screens read forms/send.json through src/domain/send.ts) */
const FORM_MESSAGE_SCREENS = [
  'src/custom-pages/send',
  'src/resources/send-tasks',
  'src/resources/timed-tasks',
  'src/resources/send-records',
  'src/components/CopyText',
  'src/domain',
];

describe("forms' messages live once (schemas/forms/*.json x-messages)", () => {
  it('no sending screen spells out a form message', () => {
    const found: string[] = [];
    for (const file of FORM_MESSAGE_SCREENS.flatMap(sources)) {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      for (const [key, msg] of formMessages) {
        if (new RegExp(`['"\`]${msg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}['"\`]`).test(text))
          found.push(`${file}: ${key} (${msg})`);
      }
    }
    expect(formMessages.length).toBeGreaterThan(0);
    expect(found).toEqual([]);
  });
});

describe('requiredMessage', () => {
  it("reads a form's required message, also from a conditional (allOf/then) branch", () => {
    expect(requiredMessage(registerForm, 'email')).toBe(registerForm.errorMessage.required.email);
    expect(requiredMessage(openAccountForm, 'deliveryurl')).toBe('状态报告回调地址不能为空');
    expect(requiredMessage(openAccountForm, 'mourl')).toBe('上行回调地址不能为空');
  });
  it('throws when the schema has no message for the field', () => {
    expect(() => requiredMessage(registerForm, 'nosuchfield')).toThrow();
  });
});
