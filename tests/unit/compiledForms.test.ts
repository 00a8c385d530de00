/**
 * Issue 28 item 2: the console validates with validators compiled at build time only, so its
 * Content-Security-Policy needs no 'unsafe-eval'. ajv (run-time compiling, `new Function`) is
 * reached only through SchemaForm/validation, which no page imports; the checks that used it
 * (content test, template, purchase quantity, /forget's form) answer the same from compiled forms.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkForm, compiledValidator, withShownFields } from '@/components/SchemaForm/compiled';
import { validateForm } from '@/components/SchemaForm/validation';
import passwordResetForm from '@/generated/forms/password-reset';
import passwordCodeForm from '@/generated/forms/password-code';
import contentTestForm from '@/generated/forms/content-test';
import templateForm from '@/generated/forms/template';
import purchaseForm from '@/generated/forms/purchase';
import { contentError } from '@/custom-pages/content-test/validation';
import { quantityError } from '@/domain/purchase';
import { validateTemplate } from '@/resources/templates/validation';

const root = path.resolve(import.meta.dirname, '../..');
const filesUnder = (dir: string): string[] =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? filesUnder(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : [],
    );
const notShipped = /\.(stories|test)\.tsx?$|(\.mock|[Mm]ocks?|fixtures|storyRouter)\.ts$|[\\/]src[\\/]stories[\\/]/;

describe('no run-time schema compiling in the console', () => {
  it("no shipped module imports ajv's compiler (its run-time helpers aside), the run-time validator or SchemaForm/validation (only SchemaForm loads it, for run-time schemas)", () => {
    const offenders: string[] = [];
    for (const f of filesUnder(path.join(root, 'src'))) {
      if (notShipped.test(f) || /generated/.test(f)) continue;
      const rel = path.relative(root, f);
      if (rel === 'src/components/SchemaForm/validation.ts' || rel === 'src/components/SchemaForm/SchemaForm.tsx')
        continue;
      const code = fs.readFileSync(f, 'utf8');
      const specs = [...code.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'";]*?['"]([^'"]+)['"]/gm)].map((m) => m[1]);
      const inSchemaForm = rel.startsWith('src/components/SchemaForm/');
      if (
        specs.some(
          (s) =>
            (/^ajv(-|\/|$)/.test(s) && !/^ajv\/dist\/runtime\/|^ajv-formats\/dist\/formats/.test(s)) ||
            /SchemaForm\/validation$/.test(s) ||
            (inSchemaForm && s === './validation'),
        ) ||
        /customizeValidator/.test(code)
      )
        offenders.push(rel);
    }
    expect(offenders).toEqual([]);
  });

  it('the checks that used run-time schemas answer as before, from compiled forms', () => {
    for (const [form, key, values] of [
      [contentTestForm, 'forms/content-test', { content: '' }],
      [contentTestForm, 'forms/content-test', { content: '好'.repeat(501) }],
      [purchaseForm, 'forms/purchase', { product_id: 1, num: 'x' }],
      [templateForm, 'forms/template', { smsType: 1, content: '' }],
    ] as const) {
      expect(checkForm(form, values)).toEqual(validateForm(key, values));
    }
    expect(contentError('')).toBeTruthy();
    expect(contentError('你好')).toBeUndefined();
    expect(quantityError('abc')).toBeTruthy();
    expect(validateTemplate({ smsType: 1, content: '' }, { agent: false, operationMode: '1' }).length).toBeGreaterThan(
      0,
    );
  });

  it("/forget's form: the reset form's compiled rules with the code request's captcha field shown, unchecked", () => {
    const forget = withShownFields(passwordResetForm, { captcha: passwordCodeForm.schema.properties!.captcha });
    expect(Object.keys(forget.schema.properties!)).toContain('captcha');
    const v = compiledValidator(forget);
    const values = {
      sendType: 1,
      email: 'a@b.cn',
      validateCode: '123456',
      password: '12345678',
      confirmPassword: '12345678',
      captcha: 'ab',
    };
    const messages = v.validateFormData(values, forget.schema as any).errors.map((e) => e.message);
    const reset = validateForm('forms/password-reset', values).errors.map((e) => e.message);
    expect(messages.length).toBe(reset.length);
    expect(reset).toContain('密码不能全为数字');
    expect(
      v.validateFormData({ ...values, password: 'abc12345', confirmPassword: 'abc12345' }, forget.schema as any).errors,
    ).toEqual([]);
  });
});
