/**
 * The server's own OpenAPI description (@fastify/swagger, dynamic mode: built from the routes
 * as registered) and the HTTP API document rendered from it: one self-contained HTML page
 * listing every /api path with its method, summary, parameters and the answer convention.
 */
import operatorRoles from '../../../schemas/enums/operator-role.json';
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import type { Access } from '../../http/route';
import { DOC_STYLE, esc } from './html';

type Json = Record<string, unknown>;

/** The parts of an OpenAPI 3 document the HTML page reads (what @fastify/swagger writes). */
interface SchemaView {
  type?: string | string[];
  enum?: unknown[];
  oneOf?: SchemaView[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  format?: string;
  title?: string;
  description?: string;
  properties?: Record<string, SchemaView>;
  required?: string[];
}
interface OperationView {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: SchemaView }[];
  requestBody?: { content?: Record<string, { schema?: SchemaView }> };
}
export interface OpenApiView {
  info?: { title?: string; version?: string; description?: string };
  paths?: Record<string, Record<string, OperationView>>;
}

/** Drops ajv-errors messages, ids and our annotations from a route schema so it reads as plain JSON Schema. */
function plainSchema(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(plainSchema);
  if (!s || typeof s !== 'object') return s;
  const out: Json = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'errorMessage' || k === '$id' || k === '$schema' || k.startsWith('x-')) continue;
    out[k] = plainSchema(v);
  }
  return out;
}

const OPERATOR_ROLE_TITLES: Record<number, string> = Object.fromEntries(
  operatorRoles.oneOf.map((o) => [o.const, o.title]),
);

const ACCESS_NOTES: Record<Access, string> = {
  public: '无需登录',
  session: '需要登录',
  agent: '需要登录；仅代理商（userType 1）',
  subAccount: '需要登录；仅子账户（userType 2）',
  operator: '需要登录；仅运营人员（账户不可调用）',
};

/**
 * Registers @fastify/swagger (call before any route is registered). Everything the document says
 * about a route comes from the route's own declaration (server/http/route.ts): summary, tag,
 * access, and the body / query schemas Fastify validates with.
 */
export async function registerOpenApi(app: FastifyInstance, platformName: string) {
  await app.register(swagger, {
    mode: 'dynamic',
    openapi: {
      openapi: '3.0.3',
      info: {
        title: `${platformName}短信平台 HTTP 接口`,
        version: '1.0.0',
        description:
          '所有接口位于 /api 之下，应答为 JSON `{ code, msg, data }`，code 为 0 表示成功，否则 msg 为中文错误说明。' +
          '表单接口使用 application/x-www-form-urlencoded（也接受 JSON）。需要登录的接口凭会话 Cookie（sid）访问；' +
          '改变状态的请求（POST 等）须在 X-XSRF-TOKEN 头中回传 XSRF-TOKEN Cookie 的值。',
      },
    },
    transform: ({ schema, url, route }) => {
      if (!url.startsWith('/api/')) return { schema: { ...(schema as Json), hide: true }, url };
      const own = (schema ?? {}) as Json;
      const access = route.config?.access ?? 'session';
      const s: Json = { summary: own.summary, tags: own.tags };
      const roles = (route.config as { roles?: readonly number[] } | undefined)?.roles;
      const roleNote =
        roles && roles.length < 3 ? `角色：${roles.map((r) => OPERATOR_ROLE_TITLES[r] ?? r).join('、')}` : '';
      s.description = [ACCESS_NOTES[access], roleNote, own.description ?? ''].filter(Boolean).join('；');
      if (own.querystring) s.querystring = plainSchema(own.querystring);
      if (own.body) {
        s.body = plainSchema(own.body);
        s.consumes = ['application/x-www-form-urlencoded', 'application/json'];
      }
      // the answer the route declares (server/http/contract.ts): {code, msg, data} or a file
      if (own.response) s.response = plainSchema(own.response);
      return { schema: s, url };
    },
  });
}

/** The description of the /api routes (the routes outside /api are hidden). */
export function openApiDocument(app: FastifyInstance): OpenApiView {
  return (app as unknown as { swagger(): OpenApiView }).swagger();
}

function typeText(s: SchemaView | undefined): string {
  if (!s) return '';
  if (s.enum) return `${s.type ?? ''} (${s.enum.map(String).join(' | ')})`;
  if (s.oneOf) return s.oneOf.map((o) => (o.const !== undefined ? String(o.const) : typeText(o))).join(' | ');
  const limits = [
    s.minLength !== undefined ? `≥${s.minLength}` : '',
    s.maxLength !== undefined ? `≤${s.maxLength}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return [
    Array.isArray(s.type) ? s.type.join('|') : (s.type ?? ''),
    s.format ? `(${s.format})` : '',
    limits ? `长度 ${limits}` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

interface ParamRow {
  name: string;
  where: string;
  required: boolean;
  type: string;
  description: string;
}

function paramsOf(op: OperationView): ParamRow[] {
  const rows: ParamRow[] = (op.parameters ?? []).map((p) => ({
    name: p.name,
    where: p.in,
    required: !!p.required,
    type: typeText(p.schema),
    description: p.description ?? p.schema?.description ?? p.schema?.title ?? '',
  }));
  const content = op.requestBody?.content ?? {};
  const body = Object.values(content)[0]?.schema;
  if (body?.properties) {
    const req = new Set<string>(body.required ?? []);
    for (const [name, p] of Object.entries(body.properties)) {
      rows.push({
        name,
        where: 'body',
        required: req.has(name),
        type: typeText(p),
        description: p.title ?? p.description ?? '',
      });
    }
  }
  return rows;
}

/** The HTTP API document: a self-contained HTML page (no script, inline style only). */
export function renderApiHtml(doc: OpenApiView, generatedAt: string): string {
  const ops: { method: string; path: string; op: OperationView }[] = [];
  for (const [p, item] of Object.entries(doc.paths ?? {})) {
    for (const [m, op] of Object.entries(item)) {
      if (['get', 'post', 'put', 'patch', 'delete'].includes(m)) ops.push({ method: m.toUpperCase(), path: p, op });
    }
  }
  const byTag = new Map<string, typeof ops>();
  for (const o of ops) {
    const tag = o.op.tags?.[0] ?? '其他';
    if (!byTag.has(tag)) byTag.set(tag, []);
    byTag.get(tag)!.push(o);
  }
  const anchor = (o: { method: string; path: string }) => `${o.method}-${o.path}`.replace(/[^A-Za-z0-9]+/g, '-');
  const sections = [...byTag].map(([tag, list]) => {
    const items = list.map((o) => {
      const params = paramsOf(o.op);
      const table = params.length
        ? `<table><thead><tr><th>参数</th><th>位置</th><th>必填</th><th>类型</th><th>说明</th></tr></thead><tbody>${params
            .map(
              (r) =>
                `<tr><td><code>${esc(r.name)}</code></td><td>${esc(r.where)}</td><td>${r.required ? '是' : '否'}</td><td>${esc(r.type)}</td><td>${esc(r.description)}</td></tr>`,
            )
            .join('')}</tbody></table>`
        : '<p class="none">无参数</p>';
      return `<section class="op" id="${anchor(o)}"><h3><span class="m ${o.method.toLowerCase()}">${o.method}</span> <code>${esc(o.path)}</code></h3>
<p>${esc(o.op.summary ?? '')}</p>${o.op.description ? `<p class="note">${esc(o.op.description)}</p>` : ''}${table}</section>`;
    });
    return `<h2>${esc(tag)}</h2>\n${items.join('\n')}`;
  });
  const toc = [...byTag]
    .map(
      ([tag, list]) =>
        `<li>${esc(tag)}<ul>${list.map((o) => `<li><a href="#${anchor(o)}">${o.method} ${esc(o.path)}</a> ${esc(o.op.summary ?? '')}</li>`).join('')}</ul></li>`,
    )
    .join('');
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>${esc(doc.info?.title)}</title>
<style>
${DOC_STYLE}
.op{margin:16px 0 28px}.m{display:inline-block;min-width:56px;text-align:center;color:#fff;border-radius:4px;font-size:13px;padding:1px 6px}
.get{background:#52c41a}.post{background:#1677ff}.put,.patch{background:#fa8c16}.delete{background:#f5222d}
</style></head><body>
<h1>${esc(doc.info?.title)}</h1>
<p>版本 ${esc(doc.info?.version)} · 生成于 ${esc(generatedAt)} · 共 ${ops.length} 个接口</p>
<p>${esc(doc.info?.description)}</p>
<h2>通用应答</h2>
<table><thead><tr><th>code</th><th>含义</th></tr></thead><tbody>
<tr><td>0</td><td>成功，结果在 data 中</td></tr>
<tr><td>400</td><td>参数校验失败：msg 为第一条错误说明，data.errors 列出 {field, message}</td></tr>
<tr><td>401</td><td>登录超时（响应头 x-session-timeout: 1），请重新登录</td></tr>
<tr><td>403</td><td>无权访问，或 CSRF 校验失败（非法请求，请刷新页面后重试）</td></tr>
<tr><td>404</td><td>记录不存在（如 公告不存在、文档不存在），或接口不存在（HTTP 404）</td></tr>
<tr><td>429</td><td>请求过于频繁，请稍后再试</td></tr>
<tr><td>500 及以上</td><td>业务拒绝（msg 说明原因），或服务器繁忙（HTTP 500）</td></tr>
</tbody></table>
<p>列表接口的分页参数为 currentPage + pageRowCount 或 page + rows（默认每页 15 条），应答为 {list,totalCount,…} 或 {data,totalRecord,page,rows,totalPage}。</p>
<h2>目录</h2><ul>${toc}</ul>
${sections.join('\n')}
</body></html>
`;
}
