/**
 * Issue 9 finding 1: hostile spreadsheets. The streaming reader (server/lib/spreadsheet.ts) on
 * real exceljs files and on bombs, and the two import routes under a concurrent bomb: answered with
 * the clear message, memory bounded, other requests still answered.
 */
import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  readSheetBatches,
  readSheetRows,
  SpreadsheetError,
  IMPORT_SHEET_LIMITS,
  type SheetRow,
} from '../../server/lib/spreadsheet';
import { XmlError, XmlScanner } from '../../server/lib/xml-scan';
import { bombXlsx, SHEET_HEAD, SHEET_TAIL, writeZip, xlsxWith } from '../fixtures/zip';
import { backends, useServer, type Client } from './harness';

async function rows(src: Buffer, limits = {}): Promise<SheetRow[]> {
  const out: SheetRow[] = [];
  for await (const r of readSheetRows(src, limits)) out.push(r);
  return out;
}
async function refusal(src: Buffer, limits = {}): Promise<string> {
  try {
    await rows(src, limits);
  } catch (e) {
    if (e instanceof SpreadsheetError) return e.reason;
    throw e;
  }
  return 'accepted';
}

describe('readSheetRows on real files', () => {
  it('reads exceljs workbooks: shared strings, rich text, numbers, booleans, formulas, empty cells and rows', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('签名报备');
    ws.addRow(['子账户', '签名', '备注']);
    ws.addRow(['client1', ' 批量 ', null, 13800138000, 1.5, true]);
    ws.addRow([]);
    ws.addRow([
      'a&b<c>',
      { richText: [{ text: 'x' }, { font: { bold: true }, text: 'y' }] },
      { formula: '1+1', result: 2 },
    ]);
    wb.addWorksheet('second').addRow(['not read']);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    expect(await rows(buf)).toEqual([
      { row: 1, cells: ['子账户', '签名', '备注'] },
      { row: 2, cells: ['client1', ' 批量 ', '', '13800138000', '1.5', 'true'] },
      { row: 4, cells: ['a&b<c>', 'xy', '2'] },
    ]);
  });

  it('reads inline strings (exceljs streaming writer) and large files row by row', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c) => chunks.push(c));
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false });
    const ws = wb.addWorksheet('号码');
    ws.addRow(['手机号', '姓名']).commit();
    for (let i = 0; i < 20_000; i++) ws.addRow([`138${String(i).padStart(8, '0')}`, `用户${i}`]).commit();
    ws.commit();
    await wb.commit();
    const got = await rows(Buffer.concat(chunks));
    expect(got).toHaveLength(20_001);
    expect(got[20_000]).toEqual({ row: 20_001, cells: ['13800019999', '用户19999'] });
  });

  it('refuses what is not a workbook, DTDs, unknown entities, and entries outside the package', async () => {
    expect(await refusal(Buffer.from('子账户,签名\n'))).toBe('notXlsx');
    expect(await refusal(Buffer.concat([Buffer.from('PK\x03\x04'), randomBytes(300)]))).toBe('notXlsx');
    const xxe = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><worksheet><sheetData><row r="1"><c t="inlineStr"><is><t>&e;</t></is></c></row></sheetData></worksheet>`;
    expect(await refusal(xlsxWith({ data: xxe }))).toBe('parseFailed');
    const entity = `${SHEET_HEAD}<row r="1"><c t="inlineStr"><is><t>&e;</t></is></c></row>${SHEET_TAIL}`;
    expect(await refusal(xlsxWith({ data: entity }))).toBe('parseFailed');
    expect(await refusal(xlsxWith({ data: `${SHEET_HEAD}<row r="1">` }))).toBe('parseFailed');
    expect(await refusal(xlsxWith({ data: 'x' }, [{ name: '../evil.txt', data: 'x' }]))).toBe('notXlsx');
    expect(await refusal(xlsxWith({ data: 'x' }, [{ name: '/etc/evil', data: 'x' }]))).toBe('notXlsx');
  });

  it('stops a bomb by its declared size before inflating, and a lying one while inflating', async () => {
    const honest = bombXlsx(400);
    expect(honest.length).toBeLessThan(1024 * 1024);
    let t = performance.now();
    expect(await refusal(honest, IMPORT_SHEET_LIMITS)).toBe('tooLarge');
    expect(performance.now() - t).toBeLessThan(500);
    // declares 2 KB, unpacks to 200 MB: stopped when the counted bytes pass the declared size
    t = performance.now();
    expect(await refusal(bombXlsx(200, { declaredSize: 2048 }), IMPORT_SHEET_LIMITS)).toBe('tooLarge');
    expect(performance.now() - t).toBeLessThan(2000);
    // declares a size within the limit but inflates beyond it: stopped at the declared size
    expect(await refusal(bombXlsx(100, { declaredSize: 30 * 1024 * 1024 }), IMPORT_SHEET_LIMITS)).toBe('tooLarge');
  });

  it('prints numbers as JavaScript does, reads prefixed and out-of-order cells, and hands out the same rows in batches', async () => {
    const nums = [
      '13800138000',
      '1.5',
      '1.10',
      '0.000001',
      '0.0000001',
      '-0',
      '007',
      '12345678901234567',
      '1E3',
      ' 42',
      '-12.25',
      '0.30000000000000004',
    ];
    const cells = nums.map((v, i) => `<c r="${String.fromCharCode(65 + i)}1"><v>${v}</v></c>`).join('');
    const data = `${SHEET_HEAD}<row r="1">${cells}</row><x:row r="3"><x:c r="C3" t="s"><x:v>0</x:v></x:c><x:c r="A3" t="str"><x:v>a&amp;b</x:v></x:c></x:row>${SHEET_TAIL}`;
    const book = xlsxWith({ data }, [
      {
        name: 'xl/sharedStrings.xml',
        data: '<sst xmlns="x"><si><r><t>富</t></r><r><t>文本</t></r><rPh><t>フ</t></rPh></si></sst>',
      },
    ]);
    const got = await rows(book);
    expect(got[0]).toEqual({ row: 1, cells: nums.map((v) => String(Number(v))) });
    expect(got[1]).toEqual({ row: 3, cells: ['a&b', '', '富文本'] });
    const many = xlsxWith({
      bomb: {
        head: SHEET_HEAD,
        unit: '<row><c t="inlineStr"><is><t>x</t></is></c><c><v>1</v></c></row>',
        times: 30_000,
        tail: SHEET_TAIL,
      },
    });
    const batches: SheetRow[][] = [];
    for await (const b of readSheetBatches(many)) batches.push(b);
    expect(batches.length).toBeGreaterThan(1);
    expect(batches.flat()).toEqual(await rows(many));
    expect(batches.flat().at(-1)).toEqual({ row: 30_000, cells: ['x', '1'] });
  });

  it('refuses a part read to its end that inflates to less than it declares, and one that inflates to more', async () => {
    const data = `${SHEET_HEAD}<row r="1"><c t="s"><v>0</v></c></row>${SHEET_TAIL}`;
    const sst = '<sst xmlns="x"><si><t>x</t></si></sst>';
    expect(await rows(xlsxWith({ data }, [{ name: 'xl/sharedStrings.xml', data: sst }]))).toEqual([
      { row: 1, cells: ['x'] },
    ]);
    expect(
      await refusal(xlsxWith({ data }, [{ name: 'xl/sharedStrings.xml', data: sst, declaredSize: sst.length + 100 }])),
    ).toBe('parseFailed');
    expect(
      await refusal(xlsxWith({ data }, [{ name: 'xl/sharedStrings.xml', data: sst, declaredSize: sst.length - 10 }])),
    ).toBe('tooLarge');
    expect(await refusal(xlsxWith({ data, declaredSize: data.length - 10 }))).toBe('tooLarge');
  });

  it('limits rows, cells per row, columns, cell length, node size and nesting depth', async () => {
    const row = (i: number) => `<row r="${i}"><c r="A${i}" t="inlineStr"><is><t>x</t></is></c></row>`;
    const many = xlsxWith({ bomb: { head: SHEET_HEAD, unit: row(2), times: 20_000, tail: SHEET_TAIL } });
    expect(await refusal(many, { maxRows: 5001 })).toBe('tooManyRows');
    const wide = `${SHEET_HEAD}<row r="1">${'<c t="inlineStr"><is><t>x</t></is></c>'.repeat(2000)}</row>${SHEET_TAIL}`;
    expect(await refusal(xlsxWith({ data: wide }), IMPORT_SHEET_LIMITS)).toBe('tooManyCells');
    const far = `${SHEET_HEAD}<row r="1"><c r="ZZZ1" t="inlineStr"><is><t>x</t></is></c></row>${SHEET_TAIL}`;
    expect(await refusal(xlsxWith({ data: far }), IMPORT_SHEET_LIMITS)).toBe('tooLarge');
    const long = `${SHEET_HEAD}<row r="1"><c t="inlineStr"><is>${'<t>xxxxxxxxxx</t>'.repeat(4000)}</is></c></row>${SHEET_TAIL}`;
    expect(await refusal(xlsxWith({ data: long }))).toBe('tooLarge');
    const node = `${SHEET_HEAD}<row r="1"><c t="inlineStr"><is><t>${'x'.repeat(2 * 1024 * 1024)}</t></is></c></row>${SHEET_TAIL}`;
    expect(await refusal(xlsxWith({ data: node }))).toBe('tooLarge');
    const tooDeep = async (src: Buffer, limits = {}) => {
      const e: unknown = await rows(src, limits).catch((err: unknown) => err);
      return e instanceof SpreadsheetError && e.reason === 'tooLarge' && e.detail.endsWith('nested too deeply');
    };
    const deep = `${SHEET_HEAD}<row r="1"><c t="inlineStr"><is><t>x</t></is></c></row>${'<x:y>'.repeat(300)}${'</x:y>'.repeat(300)}${SHEET_TAIL}`;
    expect(await tooDeep(xlsxWith({ data: deep }))).toBe(true);
    expect(await rows(xlsxWith({ data: deep }), { maxXmlDepth: 400 })).toEqual([{ row: 1, cells: ['x'] }]);
    // a GB of open tags (a MB zipped, let past the compression ratio): refused at the 257th, not stacked up
    const t = performance.now();
    expect(
      await tooDeep(xlsxWith({ bomb: { head: SHEET_HEAD, unit: '<row>', times: 200_000_000, tail: SHEET_TAIL } }), {
        maxRatio: 1e6,
      }),
    ).toBe(true);
    expect(performance.now() - t).toBeLessThan(2000);
  });
});

describe('readSheetRows: workbook.xml and its rels', () => {
  const WS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet';
  const SST = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings';
  /** a package of the given workbook.xml, its rels and other parts */
  const book = (workbook: string, rels: string, parts: Record<string, string> = {}) =>
    writeZip([
      { name: '[Content_Types].xml', data: '<Types/>' },
      { name: 'xl/workbook.xml', data: workbook },
      { name: 'xl/_rels/workbook.xml.rels', data: rels },
      ...Object.entries(parts).map(([name, data]) => ({ name, data })),
    ]);
  const sheet = (cell: string) => `<worksheet><sheetData><row r="1">${cell}</row></sheetData></worksheet>`;
  const WORKBOOK = `<x:workbook xmlns:x="main" xmlns:rel="rels"><x:sheets><x:sheet name="first" sheetId="2" id="rId1" rel:id="rId&#50;"/><x:sheet name="second" sheetId="1" rel:id="rId1"/></x:sheets></x:workbook>`;
  const RELS =
    `<Relationships xmlns="p"><Relationship Id="rId1" Type="${WS}" Target="worksheets/sheet1.xml"/>` +
    `<Relationship Id="rId2" Type="${WS}" Target="/xl/worksheets/d&#97;ta.xml"/><Relationship Type="${SST}" Target="strs.xml" Id="rId3"/></Relationships>`;
  const PARTS = {
    'xl/worksheets/sheet1.xml': sheet('<c t="inlineStr"><is><t>second sheet</t></is></c>'),
    'xl/worksheets/data.xml': sheet('<c t="s"><v>0</v></c>'),
    'xl/strs.xml': '<sst><si><t>first sheet</t></si></sst>',
  };

  it('finds the first sheet by its relationship id, whatever its prefix, and the shared strings by their relationship type', async () => {
    expect(await rows(book(WORKBOOK, RELS, PARTS))).toEqual([{ row: 1, cells: ['first sheet'] }]);
    // without a relationship id: the first worksheet part's usual name
    expect(await rows(book('<workbook><sheets><sheet name="s"/></sheets></workbook>', RELS, PARTS))).toEqual([
      { row: 1, cells: ['second sheet'] },
    ]);
  });

  it('refuses a DTD, an unknown entity, malformed XML and an oversized node in the small parts', async () => {
    expect(await refusal(book(`<!DOCTYPE w [<!ENTITY e "rId1">]>${WORKBOOK}`, RELS, PARTS))).toBe('parseFailed');
    expect(await refusal(book(WORKBOOK.replace('rId&#50;', '&e;'), RELS, PARTS))).toBe('parseFailed');
    expect(await refusal(book('<workbook><sheets></workbook>', RELS, PARTS))).toBe('parseFailed');
    expect(await refusal(book(WORKBOOK, RELS.replace('strs.xml', '&e;'), PARTS))).toBe('parseFailed');
    expect(await refusal(book(WORKBOOK, `<!DOCTYPE r>${RELS}`, PARTS))).toBe('parseFailed');
    expect(await refusal(book(WORKBOOK, RELS.replace('</Relationships>', ''), PARTS))).toBe('parseFailed');
    expect(await refusal(book(`<!--${'-'.repeat(2 * 1024 * 1024)} -->${WORKBOOK}`, RELS, PARTS))).toBe('tooLarge');
  });
});

describe('XmlScanner (the tokenizer of every part read)', () => {
  const VOCABULARY = ['a', 'b', 'row', 'c', 'v', 't'];
  const WATCH = { a: ['x', 'y'], c: ['r', 't'] };
  /**
   * The scanner's events as text, fed `size` characters at a time: `<el` and its watched attributes
   * (`-` when absent; `?` for an element outside the vocabulary), `=text` (pieces joined), `</el`,
   * and `!kind` when it refuses the document with an XmlError.
   */
  const scan = (
    doc: string,
    size: number,
    vocabulary: readonly string[] = VOCABULARY,
    watch: Record<string, string[]> = WATCH,
    maxNodeChars = 64,
    maxDepth = 16,
  ) => {
    const ev: string[] = [];
    let inText = false;
    const name = (e: number) => (e < 0 ? '?' : vocabulary[e]);
    const sc: XmlScanner = new XmlScanner(
      {
        wantsText: true,
        open: (e) => {
          inText = false;
          ev.push(`<${name(e)} ${(watch[name(e)] ?? []).map((w, k) => `${w}=${sc.attrValue(k) ?? '-'}`).join(' ')}`);
        },
        close: (e) => ((inText = false), ev.push(`</${name(e)}`)),
        text: (t) => (inText ? (ev[ev.length - 1] += t) : ev.push(`=${t}`), (inText = true)),
      },
      vocabulary,
      watch,
      maxNodeChars,
      maxDepth,
    );
    try {
      for (let i = 0; i < doc.length; i += size) sc.write(doc.slice(i, i + size));
      sc.end();
    } catch (e) {
      if (e instanceof XmlError) return `${ev.join('|')}!${e.kind}`;
      throw e;
    }
    return ev.join('|');
  };
  const SIZES = [1, 2, 3, 5, 7, 13];
  /** `expected` for the whole document at once and in every chunking */
  const expectScan = (doc: string, expected: string) => {
    for (const size of [doc.length || 1, ...SIZES]) expect([doc, size, scan(doc, size)]).toEqual([doc, size, expected]);
  };

  it('gives the same events whatever the chunking, attributes decoded, prefixed names as written', () => {
    const doc = `<?xml version="1.0"?><!-- c --><a x="1" y='&lt;2&gt;'><b/>t&amp;u&#x4E2D;&#25991;<![CDATA[<raw>]]><c:d e:f="g">h</c:d></a>\n`;
    for (const size of [doc.length, ...SIZES])
      expect(scan(doc, size, ['a', 'b', 'd'], { a: ['x', 'y'], d: ['e:f', 'f'] }, 1e6)).toBe(
        '<a x=1 y=<2>|<b |</b|=t&u中文<raw>|<d e:f=g f=-|=h|</d|</a',
      );
  });

  it('reads valid documents: declarations, comments, CDATA, references, prefixes, spaces in tags', () => {
    const VALID: [string, string][] = [
      [
        `<?xml version="1.0"?><!-- c --><a x="1" y='&lt;2&gt;' z="&amp;"><b/>t&amp;u&#x4E2D;&#25991;<![CDATA[<raw&>]]><c:d e:f="g">h</c:d></a>\n`,
        '<a x=1 y=<2>|<b |</b|=t&u中文<raw&>|<? |=h|</?|</a',
      ],
      [
        `<w:a xmlns:w="u"><w:row r="7" spans="1:2"><w:c r="B7" t="s" r="C7"><w:v>3</w:v></w:c><c t='inlineStr'><is><t xml:space="preserve"> x </t></is></c></w:row></w:a>`,
        '<a x=- y=-|<row |<c r=C7 t=s|<v |=3|</v|</c|<c r=- t=inlineStr|<? |<t |= x |</t|</?|</c|</row|</a',
      ],
      [
        `<a  x = "1 > 2" ><row  ><c\tr="A1"\n/><c/></row ></a >`,
        '<a x=1 > 2 y=-|<row |<c r=A1 t=-|</c|<c r=- t=-|</c|</row|</a',
      ],
      [`<a x="&#x1F600;"><v>&#128512;</v><v>a&gt;b</v></a>`, '<a x=😀 y=-|<v |=😀|</v|<v |=a>b|</v|</a'],
      [`<a><ab/><abc>t</abc><rows/><v2/></a>`, '<a x=- y=-|<? |</?|<? |=t|</?|<? |</?|<? |</?|</a'],
    ];
    for (const [doc, expected] of VALID) expectScan(doc, expected);
  });

  it('refuses DTDs, unknown entities, bad references, malformed or unbalanced tags, anything outside the root, with its XmlError kind', () => {
    const REFUSED: [string, string][] = [
      [`<!DOCTYPE a><a/>`, '!malformed'],
      [`<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><a>&e;</a>`, '!malformed'],
      [`<!DOCTYPE lol [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><a>&lol2;</a>`, '!malformed'],
      [`<a><!DOCTYPE a></a>`, '<a x=- y=-!malformed'],
      [`<a><!ELEMENT a></a>`, '<a x=- y=-!malformed'],
      [`<a>&e;</a>`, '<a x=- y=-!malformed'],
      [`<a>x &amp y</a>`, '<a x=- y=-!malformed'],
      [`<a><q z="&e;"/></a>`, '<a x=- y=-!malformed'],
      [`<a><q z="&#0;"/></a>`, '<a x=- y=-!malformed'],
      [`<a><b>&#xD800;</b></a>`, '<a x=- y=-|<b !malformed'],
      [`<a x="<"/>`, '!malformed'],
      [`<a x=1/>`, '!malformed'],
      [`<a x/>`, '!malformed'],
      [`<a x"1"/>`, '!malformed'],
      [`<a></b>`, '<a x=- y=-!malformed'],
      [`<a><b></a></b>`, '<a x=- y=-|<b !malformed'],
      [`</a>`, '!malformed'],
      [`x<a/>`, '!malformed'],
      [`<a/>x`, '<a x=- y=-|</a!malformed'],
      [`<a/><b/>`, '<a x=- y=-|</a!malformed'],
      [`<a>`, '<a x=- y=-!malformed'],
      [`<a/ >`, '!malformed'],
      [`< a/>`, '!malformed'],
      [`<a<b/>`, '!malformed'],
      [`<![CDATA[x]]><a/>`, '!malformed'],
      [``, '!malformed'],
    ];
    for (const [doc, expected] of REFUSED) expectScan(doc, expected);
  });

  it('refuses a node longer than maxNodeChars as tooLarge once it has to be carried to the next chunk', () => {
    const OVERSIZED: [string, string, string][] = [
      [`<a>${'x'.repeat(100)}</a>`, `<a x=- y=-|=${'x'.repeat(100)}|</a`, '<a x=- y=-!tooLarge'],
      [`<a x="${'y'.repeat(100)}"/>`, `<a x=${'y'.repeat(100)} y=-|</a`, '!tooLarge'],
      [`<a><!--${'-'.repeat(100)} --></a>`, '<a x=- y=-|</a', '<a x=- y=-!tooLarge'],
    ];
    for (const [doc, whole, chunked] of OVERSIZED) {
      // a node inside one chunk is not buffered: only what is carried over is bounded
      expect(scan(doc, doc.length)).toBe(whole);
      for (const size of SIZES) expect([doc, size, scan(doc, size)]).toEqual([doc, size, chunked]);
    }
  });

  it('refuses an element nested deeper than maxDepth as tooLarge, self-closing or not', () => {
    const nest = (n: number, inner = '') => `${'<row>'.repeat(n)}${inner}${'</row>'.repeat(n)}`;
    const opened = (n: number) => Array.from({ length: n }, () => '<row ').join('|');
    for (const size of [1, 2, 3, 5, 7, 13, 1000]) {
      expect(scan(nest(3), size, VOCABULARY, WATCH, 64, 3)).toBe(`${opened(3)}|</row|</row|</row`);
      expect(scan(nest(2, '<v/>'), size, VOCABULARY, WATCH, 64, 3)).toBe(`${opened(2)}|<v |</v|</row|</row`);
      expect(scan(nest(3, '<v/>'), size, VOCABULARY, WATCH, 64, 3)).toBe(`${opened(3)}!tooLarge`);
      expect(scan(nest(4), size, VOCABULARY, WATCH, 64, 3)).toBe(`${opened(3)}!tooLarge`);
      expect(scan(`<a>${nest(100)}</a>`, size)).toBe(`<a x=- y=-|${opened(15)}!tooLarge`);
    }
  });

  it('watches `*:name` attributes by the local part of a prefixed name, whatever the prefix, the first one counting', () => {
    const watch = { sheet: ['*:id', 'id', 'name'] };
    const doc =
      `<w xmlns:r="rels"><sheet name="S" id="plain" r:id="rId2" x:id="rId3"/><sheet ns0:id="&amp;1" id=""/>` +
      `<sheet r:idx="a" idr="b" :id="c"/><sheet a:b:id="z" name="n"/><sheet/></w>`;
    const expected =
      '<? |<sheet *:id=rId2 id=plain name=S|</sheet|<sheet *:id=&1 id= name=-|</sheet|<sheet *:id=c id=- name=-|</sheet|<sheet *:id=- id=- name=n|</sheet|<sheet *:id=- id=- name=-|</sheet|</?';
    for (const size of [doc.length, ...SIZES])
      expect([size, scan(doc, size, ['sheet'], watch)]).toEqual([size, expected]);
  });
});

/** multipart/form-data with one file part */
function multipart(content: Buffer) {
  const boundary = `----smsp${randomBytes(8).toString('hex')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="excel"; filename="bomb.xlsx"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

describe.each(backends)('import routes under a zip bomb (%s)', (backend) => {
  const t = useServer(backend);

  const post = async (c: Client, url: string, file: Buffer) => {
    const m = multipart(file);
    const raw = await t.server.app.inject({
      method: 'POST',
      url,
      headers: {
        host: 'localhost:8080',
        'content-type': m.contentType,
        cookie: [...c.jar].map(([k, v]) => `${k}=${v}`).join('; '),
        'x-xsrf-token': c.jar.get('XSRF-TOKEN')!,
      },
      payload: m.body,
      remoteAddress: c.ip,
    });
    return raw.json();
  };

  /** runs `work` while polling liveness and RSS; returns the slowest liveness answer and the RSS growth */
  async function underLoad<T>(work: () => Promise<T>): Promise<{ result: T; slowestMs: number; rssGrowthMb: number }> {
    const probe = await t.server.client().init();
    global.gc?.();
    const rss0 = process.memoryUsage().rss;
    let peak = rss0;
    let slowest = 0;
    let running = true;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 10);
    const liveness = (async () => {
      while (running) {
        const t0 = performance.now();
        const r = await probe.get('/api/login/timeout');
        expect(r.status).toBe(200);
        slowest = Math.max(slowest, performance.now() - t0);
        await new Promise((res) => setTimeout(res, 20));
      }
    })();
    try {
      const result = await work();
      return { result, slowestMs: slowest, rssGrowthMb: (peak - rss0) / 1024 / 1024 };
    } finally {
      running = false;
      clearInterval(sampler);
      await liveness;
    }
  }

  it('answers 文件内容过大 to a 400 MB bomb posted to both imports at once, memory bounded, other requests answered', async () => {
    const agent = await t.server.client().init();
    await agent.login('agent1');
    const bomb = bombXlsx(400);
    const { result, slowestMs, rssGrowthMb } = await underLoad(() =>
      Promise.all([post(agent, '/api/sign/addsignBatch', bomb), post(agent, '/api/autoTemplate/addBatch', bomb)]),
    );
    expect(result).toEqual([
      { code: 400, msg: '文件内容过大' },
      { code: 400, msg: '文件内容过大' },
    ]);
    expect(rssGrowthMb).toBeLessThan(300);
    expect(slowestMs).toBeLessThan(1000);
  });

  it('stops bombs that lie about their size while inflating, still answering others', async () => {
    const client = await t.server.client().init();
    await client.login('client1');
    const liar = bombXlsx(200, { declaredSize: 4096 });
    const within = bombXlsx(150, { declaredSize: 20 * 1024 * 1024 });
    const { result, slowestMs, rssGrowthMb } = await underLoad(() =>
      Promise.all([
        post(client, '/api/sign/addsignBatch', liar),
        post(client, '/api/autoTemplate/addBatch', within),
        post(client, '/api/sign/addsignBatch', within),
      ]),
    );
    expect(result.map((r) => r.msg)).toEqual(['文件内容过大', '文件内容过大', '文件内容过大']);
    expect(rssGrowthMb).toBeLessThan(300);
    expect(slowestMs).toBeLessThan(1000);
  });

  it('refuses a file of 20,000 rows at the row limit and a DTD as a broken file', async () => {
    const agent = await t.server.client().init();
    await agent.login('agent1');
    const cell = (t: string) => `<c t="inlineStr"><is><t>${t}</t></is></c>`;
    const rowsBomb = (h1: string, h2: string) =>
      xlsxWith({
        bomb: {
          head: `${SHEET_HEAD}<row r="1">${cell(h1)}${cell(h2)}</row>`,
          unit: `<row>${cell('client1')}${cell('好易购签名')}</row>`,
          times: 20_000,
          tail: SHEET_TAIL,
        },
      });
    expect(await post(agent, '/api/sign/addsignBatch', rowsBomb('子账户', '签名'))).toEqual({
      code: 400,
      msg: '单次导入不能超过5000行',
    });
    expect(await post(agent, '/api/autoTemplate/addBatch', rowsBomb('签名', '模板内容'))).toEqual({
      code: 400,
      msg: '单次最多导入1000条模板',
    });
    const xxe = xlsxWith({
      data: `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><worksheet><sheetData/></worksheet>`,
    });
    expect((await post(agent, '/api/sign/addsignBatch', xxe)).code).toBe(400);
    expect(await post(agent, '/api/autoTemplate/addBatch', xxe)).toEqual({
      code: 400,
      msg: '文件格式不正确，请使用模板文件（xlsx）',
    });
  });
});
