/**
 * Server-only enums (`"x-internal": true` in schemas/enums): stored codes that the console never
 * labels (sms_tasks.send_kind, charge_state, file_uploads.state, push_outbox.kind, ...). They get
 * their generated constants like every enum (`SendKind.International`), ajv knows the keyword,
 * and no console schema offers them: no form, filter or entity refers to one, so no picker, filter
 * bar or tag lists their values.
 */
import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { ANNOTATION_KEYWORDS, extendAjv } from '../../common/schema/ajv';
import { SCHEMA_DIR, generateEnumConstants, listSchemaFiles } from '../../scripts/schema-types';
import { loadSchemaMap } from '../../server/schemas';
import {
  ChargeState,
  FileUploadState,
  LedgerKind,
  ProductState,
  PushKind,
  SendKind,
} from '../../common/generated/schemas';

const map = loadSchemaMap();
const internal = Object.keys(map).filter((k) => k.startsWith('enums/') && map[k]['x-internal'] === true);

/** every cross-file $ref and x-enum of a schema, as registry keys */
function refsOf(key: string, node: any, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refsOf(key, n, out));
  else if (node && typeof node === 'object') {
    if (typeof node.$ref === 'string' && !node.$ref.startsWith('#'))
      out.push(path.posix.normalize(path.posix.join(path.posix.dirname(key), node.$ref)));
    if (typeof node['x-enum'] === 'string') out.push(`enums/${node['x-enum']}.json`);
    for (const v of Object.values(node)) refsOf(key, v, out);
  }
  return out;
}

describe('x-internal enums', () => {
  it('are the server-only code tables', () => {
    expect(internal.sort()).toEqual(
      ['charge-state', 'file-upload-state', 'ledger-kind', 'product-state', 'push-kind', 'send-kind'].map(
        (n) => `enums/${n}.json`,
      ),
    );
  });

  it('x-internal is an annotation keyword: a strict ajv compiles the enums without complaint', () => {
    expect(ANNOTATION_KEYWORDS).toContain('x-internal');
    const ajv = extendAjv(new Ajv({ strict: true, allErrors: true }));
    for (const k of internal) expect(() => ajv.compile({ ...map[k], $id: undefined }), k).not.toThrow();
    const validate = ajv.compile({ ...map['enums/send-kind.json'], $id: undefined });
    expect(validate(2)).toBe(true);
    expect(validate(3)).toBe(false);
  });

  it('still get their generated constants', () => {
    const ts = generateEnumConstants();
    for (const k of internal) expect(ts, k).toContain(`export const ${map[k].title} = {`);
    expect(SendKind).toEqual({ Ordinary: 0, Variable: 1, International: 2 });
    expect(ChargeState).toEqual({ Deferred: 0, Charged: 1, Failed: 2 });
    expect(FileUploadState).toEqual({ Uploading: 0, Merging: 1, Done: 2 });
    expect(PushKind).toEqual({ Report: 1, Mo: 2, TemplateReview: 3 });
    expect(ProductState).toEqual({ OffSale: 0, OnSale: 1 });
    expect(LedgerKind).toEqual({ PriceChange: 99 });
  });

  it('no form, filter or entity refers to one: no console picker, filter bar or tag offers them', () => {
    const offered = listSchemaFiles(SCHEMA_DIR)
      // params/ are the API's request schemas (the console renders none of them): sendKind of /send/send_time_sms may name its enum
      .filter((k) => !k.startsWith('enums/') && !k.startsWith('params/'))
      .flatMap((k) =>
        refsOf(k, JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, k), 'utf8'))).map((r) => [k, r] as const),
      );
    expect(offered.length).toBeGreaterThan(20);
    expect(offered.filter(([, r]) => internal.includes(r))).toEqual([]);
    // the check itself sees a reference: an entity pointing at send-kind would be caught
    expect(refsOf('entities/x.json', { properties: { k: { $ref: '../enums/send-kind.json' } } })).toEqual([
      'enums/send-kind.json',
    ]);
    expect(refsOf('filters/x.json', { properties: { k: { 'x-enum': 'push-kind' } } })).toEqual([
      'enums/push-kind.json',
    ]);
  });
});
