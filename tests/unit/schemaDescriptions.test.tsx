/**
 * SchemaDescriptions lays a record out from its entity schema alone: labels are titles, enum
 * values are the enum's labels and colours, order / visibility / spans come from the schema's
 * `x-ui`. Each check edits a copy of schemas/ and sees the change with no code change.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { SchemaRegistry } from '../../common/schema/registry';
import { loadSchemaMap } from '../../server/schemas';
import { SchemaDescriptions, descriptionFields } from '@/components/SchemaDescriptions';

const SRC = path.resolve(import.meta.dirname, '../../schemas');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** a copy of schemas/ with `edit` applied to the named files, read as the console reads it */
function editedRegistry(edit: Record<string, (s: any) => void> = {}): SchemaRegistry {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schemas-'));
  dirs.push(dir);
  fs.cpSync(SRC, dir, { recursive: true });
  for (const [file, fn] of Object.entries(edit)) {
    const p = path.join(dir, file);
    const s = JSON.parse(fs.readFileSync(p, 'utf8'));
    fn(s);
    fs.writeFileSync(p, JSON.stringify(s));
  }
  return new SchemaRegistry(loadSchemaMap(dir));
}

const detail = {
  clientid: 'b20001',
  name: '苏州好易购',
  status: 5,
  balance: '1200.5',
  realname: '',
  mobile: '13900139009',
  email: 'a@b.example',
  address: '苏州',
  needreport: 1,
  deliveryurl: 'https://x.example/r',
  needmo: 0,
  mourl: '',
  paytype: 0,
  create_time: '2026-01-01 10:00:00',
  remarks: '',
};

const labels = (root: HTMLElement) =>
  [...root.querySelectorAll('.ant-descriptions-item-label')].map((e) => e.textContent);

describe('SchemaDescriptions', () => {
  it('labels, order and spans from the schema; enums as their labels; money with <Money>; empty as -', () => {
    const { container } = render(
      <SchemaDescriptions entity="entities/sub-account-detail" record={detail} registry={editedRegistry()} />,
    );
    expect(labels(container)).toEqual([
      '账户',
      '账户名称',
      '账户状态',
      '余额',
      '联系人',
      '手机号',
      '邮箱',
      '地址',
      '状态报告',
      '状态报告回调地址',
      '上行',
      '上行回调地址',
      '付费方式',
      '创建时间',
      '备注',
    ]);
    expect(screen.getByText('1,200.50 元')).toBeInTheDocument();
    expect(screen.getByText('冻结').closest('.ant-tag')?.className).toMatch(/red/);
    // a plain enum (x-ui "ui:plain") is text, not a tag
    expect(container.querySelector('[data-enum="need-report"]')?.closest('.ant-tag')).toBeNull();
    // 备注 spans the row (x-ui "ui:span": 2 of "ui:column": 2)
    const remarks = [...container.querySelectorAll('.ant-descriptions-item-label')].find(
      (e) => e.textContent === '备注',
    )!;
    expect(remarks.nextElementSibling?.getAttribute('colspan')).toBe('3');
  });

  it('an edited title, enum label / colour and x-ui order / hidden list show with no code change', () => {
    const registry = editedRegistry({
      'entities/sub-account-detail.json': (s) => {
        s.properties.name.title = '客户名称';
        s['x-ui']['ui:order'] = ['name', 'clientid', 'status'];
      },
      'enums/account-status.json': (s) => {
        const frozen = s.oneOf.find((o: any) => o.const === 5);
        frozen.title = '已停用';
        frozen['x-color'] = 'purple';
      },
    });
    const { container } = render(
      <SchemaDescriptions entity="entities/sub-account-detail" record={detail} registry={registry} />,
    );
    expect(labels(container)).toEqual(['客户名称', '账户', '账户状态']);
    const tag = within(container).getByText('已停用');
    expect(tag.closest('.ant-tag')?.className).toMatch(/purple/);
  });

  it('ui:showIf, ui:hideEmpty, ui:titleIf and ui:fallback follow the record', () => {
    const registry = editedRegistry();
    const cert = {
      oauth_status: 3,
      cert_type: 1,
      id_typeNum: null,
      id_type: '护照',
      company: '张三',
      id_nbr: '123',
      img_url: '',
      oauth_date: '',
    };
    const { container } = render(
      <SchemaDescriptions entity="entities/certification-info" record={cert} registry={registry} />,
    );
    // oauth_date / submitted_at are empty (hidden), company is labelled 姓名 for a personal certification
    expect(labels(container)).toEqual(['认证状态', '认证类型', '证件类型', '姓名', '证件号码', '证件图片']);
    expect(screen.getByText('护照')).toBeInTheDocument();

    const ent = { clientid: 'b1', name: 'n', needreport: 0, deliveryurl: 'https://r', needmo: 1, mourl: 'https://m' };
    const view = render(<SchemaDescriptions entity="entities/enterprise-base-info" record={ent} registry={registry} />);
    const shown = labels(view.container);
    expect(shown).not.toContain('状态报告回调地址');
    expect(shown).toContain('上行回调地址');
  });

  it('a screen can pick fields and render what the schema cannot say', () => {
    const { fields } = descriptionFields('entities/sub-account-detail', editedRegistry(), ['idType', 'idNbr']);
    expect(fields.map((f) => [f.title, f.enumName])).toEqual([
      ['证件类型', 'id-type'],
      ['证件号码', undefined],
    ]);
    render(
      <SchemaDescriptions
        entity="entities/sub-account-detail"
        record={detail}
        fields={['clientid']}
        render={{ clientid: (v) => <b>#{v}</b> }}
      />,
    );
    expect(screen.getByText('#b20001')).toBeInTheDocument();
  });

  it('date-time values are shown as YYYY-MM-DD HH:mm:ss', () => {
    const registry = editedRegistry({
      'entities/sub-account-detail.json': (s) => (s.properties.create_time.format = 'date-time'),
    });
    render(
      <SchemaDescriptions
        entity="entities/sub-account-detail"
        record={{ ...detail, create_time: '2026-01-02T03:04:05' }}
        fields={['create_time']}
        registry={registry}
      />,
    );
    expect(screen.getByText('2026-01-02 03:04:05')).toBeInTheDocument();
  });
});
