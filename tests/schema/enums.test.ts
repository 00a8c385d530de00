import { describe, expect, it } from 'vitest';
import { SchemaRegistry } from '../../common/schema';
import { loadSchemaMap } from '../../server/schemas';

const registry = new SchemaRegistry(loadSchemaMap());
const labels = (name: string) => Object.fromEntries(registry.enumOptions(name).map((o) => [String(o.value), o.label]));

describe('enumerations of both spec documents', () => {
  it('every enum file declares options with a Chinese label', () => {
    const enums = Object.keys(registry.schemas).filter((k) => k.startsWith('enums/'));
    expect(enums.length).toBeGreaterThanOrEqual(40);
    for (const k of enums) {
      const opts = registry.enumOptions(k.slice('enums/'.length, -'.json'.length));
      expect(opts.length, k).toBeGreaterThan(0);
      for (const o of opts) expect(o.label, `${k} ${o.value}`).toMatch(/[\u4e00-\u9fa5A-Z]/);
      expect(new Set(opts.map((o) => String(o.value))).size, `${k} has duplicate values`).toBe(opts.length);
    }
  });

  it('every enum value has a unique PascalCase name (x-name): code compares against SignState.Deleted, not 4', () => {
    const enums = Object.keys(registry.schemas).filter((k) => k.startsWith('enums/'));
    for (const k of enums) {
      const names = (registry.get(k).oneOf ?? []).map((o) => o['x-name']);
      for (const n of names) expect(n, `${k}: every value needs an x-name`).toMatch(/^[A-Z][A-Za-z0-9]*$/);
      expect(new Set(names).size, `${k} has duplicate x-names`).toBe(names.length);
    }
    expect(registry.get('enums/sign-state').oneOf?.map((o) => o['x-name'])).toEqual([
      'Pending',
      'Approved',
      'Rejected',
      'Deleted',
    ]);
  });

  it('carriers, SMS types and product types carry the spec values', () => {
    expect(labels('carrier')).toEqual({ 0: '全网', 1: '移动', 2: '联通', 3: '电信', 4: '国际' });
    expect(labels('sms-type')).toMatchObject({ 0: '通知', 4: '验证码', 5: '营销' });
    expect(Object.keys(labels('product-type'))).toEqual(['0', '1', '2', '3', '4']);
    expect(Object.keys(labels('id-type')).sort()).toEqual(['1', '3', '4', '5', '6', '7', '8']);
    expect(labels('id-type')).toMatchObject({ 6: '三证合一', 7: '四证合一', 3: '组织机构证', 1: '个人身份证' });
  });

  it('send-record status colours follow the spec', () => {
    const colour = (v: number) => registry.enumColor('send-record-status', v);
    for (const v of [4, 6, 9, 14, 1, 7, 8]) expect(colour(v)).toBe('red');
    expect(colour(0)).toBe('yellow');
    for (const v of [3, 13, 15, 16]) expect(colour(v)).toBe('green');
    for (const v of [11, 12]) expect(colour(v)).toBe('grey');
  });

  it('account status 5 (frozen) is red and pay order 2 and 5 both mean success', () => {
    expect(registry.enumColor('account-status', 5)).toBe('red');
    expect(registry.enumLabel('pay-order-state', 2)).toBe(registry.enumLabel('pay-order-state', 5));
  });
});
