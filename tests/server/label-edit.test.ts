/**
 * Issue 8 "Done means": a product person's edit of a label, an enum label and colour and a
 * message in schemas/ shows in the console, the server's answers and the exports with no code
 * change. The schemas are copied and edited (label-edit.fixture.ts); the console's registry is
 * pointed at the copy (as a rebuild would bundle it), the server is built with `schemaDir`.
 */
import React from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { generateFormModules } from '../../scripts/form-validators';
import { backends, useServer, type Client, type TestServer } from './harness';
import { runCommand } from '../../server/cli/operator-channel';
import { EDITED, editedSchemaDir, removeEditedSchemas } from './label-edit.fixture';

// the console bundles schemas/ at build time: here it bundles the edited copy
vi.mock('@/schema', async () => {
  const { SchemaRegistry } = await import('../../common/schema/registry');
  const { loadSchemaMap } = await import('../../server/schemas');
  const { editedSchemaDir: dir } = await import('./label-edit.fixture');
  const schemaMap = loadSchemaMap(dir);
  const schemas = new SchemaRegistry(schemaMap);
  return {
    schemaMap,
    schemas,
    enumOptions: schemas.enumOptions.bind(schemas),
    enumLabel: schemas.enumLabel.bind(schemas),
    enumColor: schemas.enumColor.bind(schemas),
  };
});

afterAll(removeEditedSchemas);

async function xlsx(rows: string[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('导入');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function readSheet(buf: Buffer): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as any);
  const out: string[][] = [];
  wb.worksheets[0].eachRow((row) =>
    out.push((row.values as any[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v)))),
  );
  return out;
}

describe('a label-only edit of schemas/', () => {
  it('shows in the console: table column title, enum tag label and colour, form message', async () => {
    const { schemaColumns } = await import('@/components/SchemaTable/SchemaTable');
    const { EnumTag } = await import('@/components/EnumTag/EnumTag');
    const [column] = schemaColumns('entities/sign', ['sign']);
    expect(column.title).toBe(EDITED.fieldTitle.now);

    const tag = renderToStaticMarkup(React.createElement(EnumTag, { enumName: 'sign-state', value: 1 }));
    expect(tag).toContain(EDITED.enumLabel.now);
    expect(tag).toContain(`ant-tag-${EDITED.enumColour.now}`);

    // the console's compiled form validator, generated from the edited schemas
    const form = generateFormModules(editedSchemaDir)['sign-add.js'];
    expect(form).toContain(EDITED.message.now);
    expect(form).not.toContain(`"minLength": "${EDITED.message.was}"`);
  });

  it('a filter edit shows in the console: the renamed parameter is sent, the new enum value offered', async () => {
    const { schemaFilters } = await import('../../common/schema/filters');
    const { schemas } = await import('@/schema');
    expect(schemaFilters(schemas.get('filters/sign'), { sign: '龙井', state: EDITED.enumValue.value })).toEqual({
      [EDITED.filterParam.now]: '龙井',
      state: EDITED.enumValue.value,
    });
    expect(schemas.enumOptions('sign-state').map((o) => o.label)).toContain(EDITED.enumValue.label);
  });

  describe.each(backends)('in the server (%s)', (backend) => {
    const t = useServer(backend, { schemaDir: editedSchemaDir });
    let agent: Client;
    const server = (): TestServer => t.server;

    it('answers the edited message and enum label', async () => {
      agent = await server().client().init();
      expect((await agent.login('agent1')).body.code).toBe(0);
      expect((await agent.post('/api/sign/add', { clientid: 'client1', sign: '云' })).body).toMatchObject({
        code: 400,
        msg: EDITED.message.now,
      });
      const list = (await agent.post('/api/sign/list', { clientid: 'client1', state: 1 })).body.data.list;
      expect(list.length).toBeGreaterThan(0);
      expect(list.every((r: any) => r.stateStr === EDITED.enumLabel.now)).toBe(true);
      // the API document describes the routes from the same schemas
      const spec = (await agent.get('/api/help/openapi.json')).body;
      expect(JSON.stringify(spec.paths['/api/sign/list'])).toContain(EDITED.enumLabel.now);
    });

    it('a filter edit alone changes validation and SQL: the renamed parameter filters, the new enum value is accepted', async () => {
      const all = (await agent.post('/api/sign/list', { clientid: 'client1' })).body.data;
      expect(all.totalCount).toBeGreaterThan(1);
      const one: string = all.list[0].sign;
      const byNew = (await agent.post('/api/sign/list', { clientid: 'client1', [EDITED.filterParam.now]: one })).body
        .data;
      expect(byNew.totalCount).toBeGreaterThan(0);
      expect(byNew.totalCount).toBeLessThan(all.totalCount);
      expect(byNew.list.every((r: any) => r.sign.includes(one))).toBe(true);
      // the old name is no parameter any more
      expect(
        (await agent.post('/api/sign/list', { clientid: 'client1', [EDITED.filterParam.was]: one })).body.data
          .totalCount,
      ).toBe(all.totalCount);
      // the new enum value passes validation and reaches SQL (no sign has it yet); a value still unknown is refused
      expect(
        (await agent.post('/api/sign/list', { clientid: 'client1', state: EDITED.enumValue.value })).body,
      ).toMatchObject({ code: 0, data: { totalCount: 0 } });
      expect((await agent.post('/api/sign/list', { clientid: 'client1', state: 6 })).body).toMatchObject({
        code: 400,
        msg: '状态参数不正确',
      });
    });

    it('the operator CLI labels the codes from the same enums (no label map of its own)', async () => {
      const cli = (...argv: string[]) =>
        runCommand({ db: server().handle.db, now: server().clock.now, schemas: server().app.ctx.schemas }, argv);
      const r = await cli('signs', 'client1');
      expect(r.code).toBe(0);
      const rows = r.lines.join('\n').split('\n');
      expect(rows.filter((l) => l.includes(EDITED.enumLabel.now)).length).toBeGreaterThan(0);
      expect(rows.filter((l) => l.includes(EDITED.enumLabel.was))).toEqual([]);
    });

    it('heads the export with the edited title and writes the edited enum label', async () => {
      const r = await server().app.inject({
        method: 'POST',
        url: '/api/sign/export',
        headers: {
          host: 'localhost:8080',
          cookie: [...agent.jar].map(([k, v]) => `${k}=${v}`).join('; '),
          'x-xsrf-token': agent.jar.get('XSRF-TOKEN')!,
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: new URLSearchParams({ clientid: 'client1', state: '1' }).toString(),
        remoteAddress: agent.ip,
      });
      expect(r.headers['content-type']).toContain('spreadsheetml');
      const [header, ...rows] = await readSheet(r.rawPayload);
      expect(header).toContain(EDITED.fieldTitle.now);
      expect(header).not.toContain(EDITED.fieldTitle.was);
      const state = header.indexOf('状态');
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((row) => row[state] === EDITED.enumLabel.now)).toBe(true);
    });

    /** a file upload (multipart, field `excel`) or a download with the agent's session */
    const call = async (method: 'GET' | 'POST', url: string, file?: Buffer) => {
      const boundary = '----smspLabelEdit';
      const body = file
        ? Buffer.concat([
            Buffer.from(
              `--${boundary}\r\nContent-Disposition: form-data; name="excel"; filename="x.xlsx"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`,
            ),
            file,
            Buffer.from(`\r\n--${boundary}--\r\n`),
          ])
        : undefined;
      return server().app.inject({
        method,
        url,
        headers: {
          host: 'localhost:8080',
          cookie: [...agent.jar].map(([k, v]) => `${k}=${v}`).join('; '),
          'x-xsrf-token': agent.jar.get('XSRF-TOKEN')!,
          ...(body ? { 'content-type': `multipart/form-data; boundary=${boundary}` } : {}),
        },
        payload: body,
        remoteAddress: agent.ip,
      });
    };

    it('heads the sign import template with the edited title, and the import reads files headed by it', async () => {
      const [header] = await readSheet((await call('GET', '/api/sign/downloadExcelTemplate')).rawPayload);
      expect(header).toEqual(['子账户', EDITED.fieldTitle.now, '备注']);
      const ok = (
        await call('POST', '/api/sign/addsignBatch', await xlsx([header, ['client1', '改名后导入', '']]))
      ).json();
      expect(ok).toMatchObject({ code: 0, data: { importSuccess: 1, importFall: 0 } });
      const old = (
        await call(
          'POST',
          '/api/sign/addsignBatch',
          await xlsx([
            ['子账户', EDITED.fieldTitle.was, '备注'],
            ['client1', '旧表头导入', ''],
          ]),
        )
      ).json();
      expect(old).toEqual({
        code: 400,
        msg: `表头不正确，请下载模板并按模板填写（子账户、${EDITED.fieldTitle.now}、备注）`,
      });
    });

    it('heads the template import workbook with the edited title, and the import reads files headed by it', async () => {
      const [header] = await readSheet((await call('GET', '/api/autoTemplate/downloadExcelTemplate')).rawPayload);
      expect(header).toContain(EDITED.templateTitle.now);
      expect(header).not.toContain(EDITED.templateTitle.was);
      const row = (content: string) =>
        header.map(
          (h) =>
            ({
              子账户: 'client1',
              模板属性: '行业',
              短信类型: '通知',
              模板类型: '固定模板',
              业务类型: '国内',
              签名: '好易购',
            })[h] ?? content,
        );
      const ok = (
        await call('POST', '/api/autoTemplate/addBatch', await xlsx([header, row('改名后导入的模板内容。')]))
      ).json();
      expect(ok).toMatchObject({ code: 0, data: { importSuccess: 1, importFall: 0 } });
      const oldHeader = header.map((h) => (h === EDITED.templateTitle.now ? EDITED.templateTitle.was : h));
      const old = (
        await call('POST', '/api/autoTemplate/addBatch', await xlsx([oldHeader, row('旧表头导入的模板内容。')]))
      ).json();
      expect(old.code).toBe(400);
    });
  });
});
