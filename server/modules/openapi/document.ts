/**
 * The OpenAPI 3 document of the customers' HTTP API (/openapi/v1/openapi.json), built from the
 * routes' own declarations (request and answer schemas of routes.ts), with the signing headers as
 * security schemes and every error of schemas/messages/openapi.json. The contract in prose:
 * docs/api-openapi.md.
 */
import type { JsonSchema } from '../../../common/schema';
import { OPENAPI_ERRORS } from './errors';
import { HEADERS } from './signing';

export interface DocRoute {
  method: 'get' | 'post';
  path: string;
  summary: string;
  body?: JsonSchema;
  querystring?: JsonSchema;
  response: JsonSchema;
  idempotency?: boolean;
}

/** JSON Schema keywords of ours that OpenAPI does not know (kept: x-*). */
const DROP = new Set(['errorMessage', '$schema', '$id', 'x-request', 'x-schema-key']);

function clean(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(clean);
  if (!v || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (DROP.has(k)) continue;
    // OpenAPI 3.0 has no type arrays: ["integer","null"] → integer + nullable
    if (k === 'type' && Array.isArray(x)) {
      const types = x.filter((t) => t !== 'null');
      out.type = types[0];
      if (types.length < x.length) out.nullable = true;
      continue;
    }
    out[k] = clean(x);
  }
  return out;
}

const ERROR_BODY = {
  type: 'object',
  required: ['code', 'error', 'msg'],
  properties: { code: { type: 'integer', description: '数字错误码' }, error: { type: 'string', description: '错误名（稳定）' }, msg: { type: 'string', description: '中文说明' } },
};

export function buildDocument(platformName: string, prefix: string, routes: readonly DocRoute[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  const errorList = Object.entries(OPENAPI_ERRORS)
    .map(([name, e]) => `| ${e.status} | ${e.code} | ${name} | ${e.msg} |`)
    .join('\n');
  for (const r of routes) {
    const op: Record<string, unknown> = { summary: r.summary, tags: ['客户HTTP接口'], security: [{ clientid: [], timestamp: [], nonce: [], signature: [] }] };
    const params: unknown[] = [];
    if (r.querystring) {
      const q = clean(r.querystring) as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, schema] of Object.entries(q.properties ?? {}))
        params.push({ name, in: 'query', required: (q.required ?? []).includes(name), schema, description: (schema as { title?: string }).title });
    }
    if (r.idempotency)
      params.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        schema: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,64}$' },
        description: '幂等键：同一键的重试返回首次结果，不会重复发送（保留24小时）',
      });
    if (params.length) op.parameters = params;
    if (r.body) op.requestBody = { required: true, content: { 'application/json': { schema: clean(r.body) } } };
    op.responses = {
      200: { description: '成功：code 为 0', content: { 'application/json': { schema: clean(r.response) } } },
      default: { description: '错误（HTTP 400/401/403/404/409/422/429/500）', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    };
    (paths[`${prefix}${r.path}`] ??= {})[r.method] = op;
  }
  const apiKey = (name: string, description: string) => ({ type: 'apiKey', in: 'header', name, description });
  return {
    openapi: '3.0.3',
    info: {
      title: `${platformName} 客户HTTP接口`,
      version: '1',
      description:
        '客户系统调用的 JSON 接口（与控制台的 /api 分开）。每个请求带四个请求头签名：' +
        `${HEADERS.clientid}、${HEADERS.timestamp}（Unix 秒或毫秒）、${HEADERS.nonce}（8-64 位，5 分钟内不可重复）、${HEADERS.signature}。\n\n` +
        'apiSecret = hex(HMAC-SHA256(接口密码, clientid))；signature = hex(HMAC-SHA256(apiSecret, METHOD\\nPATH\\nSORTED_QUERY\\nTIMESTAMP\\nNONCE\\nhex(SHA256(body))))。' +
        '详见 docs/api-openapi.md（含 curl、Node.js、Python 示例）。\n\n| HTTP | code | error | msg |\n|---|---|---|---|\n' +
        errorList,
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: { Error: ERROR_BODY },
      securitySchemes: {
        clientid: apiKey(HEADERS.clientid, '账户（clientid）'),
        timestamp: apiKey(HEADERS.timestamp, 'Unix 时间戳（秒或毫秒），与服务器相差不超过5分钟'),
        nonce: apiKey(HEADERS.nonce, '随机串（8-64位字母数字 _ . : -），5分钟内不可重复'),
        signature: apiKey(HEADERS.signature, '签名（64位十六进制）'),
      },
    },
  };
}
