import { describe, expect, it } from 'vitest';
import { keyColumnsFirst } from '@/components/SchemaTable/SchemaTable';

type C = { key: string; fixed?: 'left' | 'right' };
const cols = (...keys: string[]): C[] =>
  keys.map((k) => (k.endsWith('!') ? { key: k.slice(0, -1), fixed: 'left' } : { key: k }));
const order = (cs: C[]) => cs.map((c) => c.key);
/** status 0, times 1, others not key */
const rank = (c: C) => ({ status: 0, createTime: 1, sendTime: 1 })[c.key as 'status'];

describe('keyColumnsFirst (issue 41 item 2)', () => {
  it('puts the key columns after the fixed-left ones, a status before the times', () => {
    expect(
      order(keyColumnsFirst(cols('rowNum', 'uid!', 'content', 'sendTime', 'status', 'createTime', 'creator'), rank)),
    ).toEqual(['rowNum', 'uid', 'status', 'sendTime', 'createTime', 'content', 'creator']);
  });
  it('without a fixed column: after a leading row number', () => {
    expect(order(keyColumnsFirst(cols('rownum', 'type', 'amount', 'createTime'), rank))).toEqual([
      'rownum',
      'createTime',
      'type',
      'amount',
    ]);
  });
  it('without either: first', () => {
    expect(order(keyColumnsFirst(cols('name', 'createTime'), rank))).toEqual(['createTime', 'name']);
  });
  it('leaves a list without key columns as it is', () => {
    expect(order(keyColumnsFirst(cols('a!', 'b', 'c'), rank))).toEqual(['a', 'b', 'c']);
  });
});
