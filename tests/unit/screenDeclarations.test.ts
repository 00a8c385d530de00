/**
 * Screens declared by their folders: src/screens.tsx puts the folders' declarations together, the
 * data provider serves the data resources they declare, tab strips and card titles read the
 * declared labels (none retyped in a page).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { http as mock, HttpResponse } from 'msw';
import { childPath, resourceRegistry, tabsOf, type Screen, type ScreenTable } from '@/layout/declarations';
import { screenByName, screenEntries } from '@/layout/screens';
import { createDataProvider } from '@/providers/dataProvider';
import { consoleScreens } from '@/screens';
import { opsScreens } from '@/ops/screens';
import * as signFolder from '@/resources/signs';
import * as invoiceFolder from '@/resources/invoices';
import { sendRecordTabs } from '@/resources/send-records';
import { reportsPre, reportPreScreen, reportPostScreen } from '@/custom-pages/reports';
import { SignState } from '@/generated/schemas';
import { server, useMswServer } from './msw';

useMswServer();

const Page = () => null;

describe('the table is the folders put together', () => {
  it('every folder screen is in the table, with its own declaration object', () => {
    const names = new Map(screenEntries(consoleScreens).map((e) => [e.screen.name, e.screen]));
    for (const s of [...signFolder.screens, ...invoiceFolder.screens]) expect(names.get(s.name)).toBe(s);
    expect(names.get('finance_invoice_list')?.label).toBe('发票记录');
  });

  it('a page shared by several screens declares its data once', () => {
    expect(reportPreScreen.data).toBe(reportPostScreen.data);
    expect(resourceRegistry(consoleScreens).reportsPre).toBe(reportsPre);
  });
});

describe('resourceRegistry', () => {
  it('collects the data of the screens, their children and the table, by name', () => {
    const a = { name: 'a', list: { url: '/a' } };
    const b = { name: 'b', list: { url: '/b' } };
    const c = { name: 'c', list: { url: '/c' } };
    const table: ScreenTable = {
      groups: [],
      screens: [
        {
          name: 'p',
          path: '/p',
          label: 'P',
          page: Page,
          data: [a],
          children: [{ name: 'q', path: 'q', label: 'Q', page: Page, data: [b, a] }],
        },
      ],
      data: [c],
    };
    expect(resourceRegistry(table)).toEqual({ a, b, c });
  });

  it('refuses one name declared twice with two different declarations', () => {
    const table: ScreenTable = {
      groups: [],
      screens: [
        { name: 'p', path: '/p', label: 'P', page: Page, data: [{ name: 'a', list: { url: '/a' } }] },
        { name: 'q', path: '/q', label: 'Q', page: Page, data: [{ name: 'a', list: { url: '/other' } }] },
      ],
    };
    expect(() => resourceRegistry(table)).toThrow(/a declared twice/);
  });

  it('the console declares each resource the pages use', () => {
    expect(Object.keys(resourceRegistry(consoleScreens)).sort()).toEqual(
      [
        'blacklist',
        'creditHistories',
        'directPurchaseRecords',
        'generalTemplates',
        'invoices',
        'moRecords',
        'notices',
        'ownBill',
        'payOrders',
        'products',
        'purchaseRecords',
        'rebateBills',
        'remain',
        'reportsPre',
        'reportsPreDay',
        'reportsSuf',
        'reportsSufDay',
        'sendRecords',
        'sendTasks',
        'signs',
        'smsBills',
        'subAccountFinance',
        'subAccounts',
        'supportContacts',
        'templates',
        'timedTaskPhones',
        'timedTasks',
      ].sort(),
    );
  });
});

describe('the data provider reads the endpoints from the declarations', () => {
  const dp = createDataProvider(resourceRegistry(consoleScreens));

  it('lists the signs at the endpoint the signs folder declares, deletes with its fixed state', async () => {
    const calls: { url: string; body: Record<string, string> }[] = [];
    const record = async ({ request }: { request: Request }) => {
      calls.push({
        url: new URL(request.url).pathname,
        body: Object.fromEntries(new URLSearchParams(await request.text())),
      });
      return HttpResponse.json({ code: 0, data: { list: [{ id: 7 }], totalCount: 1 } });
    };
    server.use(mock.post('/api/sign/list', record), mock.post('/api/sign/update', record));
    expect(await dp.getList({ resource: signFolder.signs.name, pagination: { currentPage: 1 } })).toEqual({
      data: [{ id: 7 }],
      total: 1,
    });
    await dp.deleteOne({ resource: signFolder.signs.name, id: 7 });
    expect(calls).toEqual([
      { url: '/api/sign/list', body: { currentPage: '1', pageRowCount: '15' } },
      { url: '/api/sign/update', body: { id: '7', state: String(SignState.Deleted) } },
    ]);
  });

  it('a name no folder declares is refused', async () => {
    await expect(dp.getList({ resource: 'nothing' })).rejects.toThrow('未登记的资源：nothing');
  });
});

describe('tab strips read the declarations', () => {
  it('tabsOf: a tab per child, its label and absolute path', () => {
    const layout: Screen = {
      name: 'l',
      path: '/x/',
      label: 'L',
      page: Page,
      children: [
        { name: 'a', path: 'a', label: '甲', page: Page },
        { name: 'b', path: 'a/b', label: '乙', page: Page },
      ],
    };
    expect(tabsOf(layout)).toEqual([
      { key: 'a', label: '甲', path: '/x/a' },
      { key: 'b', label: '乙', path: '/x/a/b' },
    ]);
    expect(childPath(layout, 'b')).toBe('/x/a/b');
    expect(() => childPath(layout, 'c')).toThrow();
  });

  it('the send record tabs are the declared children', () => {
    // SendRecordTabs lays out tabsOf(useScreen('statistics_sendlayout')): the folder's declaration
    expect(screenByName(consoleScreens, 'statistics_sendlayout')?.screen).toBe(sendRecordTabs);
    expect(tabsOf(sendRecordTabs).map((t) => t.label)).toEqual(['发送记录', '回复记录']);
  });
});

/**
 * No page retypes a screen label: a card title or a tab strip entry spelling a label of the table
 * as a literal is refused (read it from the folder's declaration).
 */
describe('no retyped screen labels', () => {
  const root = path.resolve(import.meta.dirname, '../..');
  const filesUnder = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) =>
        e.isDirectory() ? filesUnder(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : [],
      );
  const pages = ['src/resources', 'src/custom-pages', 'src/pages', 'src/ops']
    .flatMap((d) => filesUnder(path.join(root, d)))
    .filter(
      (f) =>
        !/\.(stories|test)\.tsx?$|mock|Mocks|fixtures/.test(f) && !f.endsWith('index.ts') && !f.endsWith('screens.ts'),
    );
  const entries = [...screenEntries(consoleScreens), ...screenEntries(opsScreens)];
  const labels = new Set(entries.map((e) => e.screen.label));
  const names = new Set(entries.map((e) => e.screen.name));

  /** card titles written as literals: title="x", title={'x'}, title={`x ...`} on a <Card */
  const cardTitles = (code: string) =>
    [...code.matchAll(/<Card\b[^>]*?\btitle=(?:"([^"]*)"|\{'([^']*)'\}|\{`([^`$]*))/gs)].map((m) =>
      (m[1] ?? m[2] ?? m[3]).trim(),
    );
  /** tab entries keyed by a screen name with a literal label: { key: 'statistics_reply', label: '回复记录' } */
  const tabLabels = (code: string) =>
    [...code.matchAll(/key:\s*'([^']+)'\s*,\s*label:\s*'([^']*)'/g)].filter((m) => names.has(m[1])).map((m) => m[2]);

  it('finds the literals it looks for', () => {
    expect(cardTitles('<Card title="签名报备">\n<Card\n  title={`日报表 ${id}`}\n<Card title={x.label}>')).toEqual([
      '签名报备',
      '日报表',
    ]);
    expect(
      tabLabels("{ key: 'statistics_reply', label: '回复记录', path: '/x' }, { key: 'info', label: '基本信息' }"),
    ).toEqual(['回复记录']);
  });

  it('card titles and tab strips of the pages read their labels from the declarations', () => {
    const retyped = pages.flatMap((f) => {
      const code = fs.readFileSync(f, 'utf8');
      return [...cardTitles(code), ...tabLabels(code)]
        .filter((t) => labels.has(t) || names.has(t))
        .map((t) => `${path.relative(root, f)}: ${t}`);
    });
    expect(retyped).toEqual([]);
  });
});
