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
  /** the call in prose (Chinese first: the console and its users are Chinese; docs/api-openapi.md) */
  description?: string;
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
  // tools (Swagger UI, Postman, code generators) show a property's description, not its title
  if (typeof out.title === 'string' && out.description === undefined) out.description = out.title;
  return out;
}

const ERROR_BODY = {
  type: 'object',
  required: ['code', 'error', 'msg'],
  properties: {
    code: { type: 'integer', description: '数字错误码（稳定）' },
    error: { type: 'string', description: '错误名（稳定，如 SIGNATURE_INVALID）' },
    msg: { type: 'string', description: '中文说明' },
    data: {
      type: 'object',
      description:
        '部分错误附带的详情：参数错误的 errors；SIGNATURE_INVALID 的 canonical（服务器按收到的请求算出的待签名串，用于核对签名，不含密钥）；' +
        'NO_VALID_NUMBER 的 invalidNum、invalidNumbers；NOT_PULL_MODE 的 needreport / needmo 及其说明',
      additionalProperties: true,
    },
  },
};

/** The usual mistakes behind SIGNATURE_INVALID (also in docs/api-openapi.md "签名错误排查"). */
export const SIGNATURE_MISTAKES = [
  'API 密钥不是接口密码本身：apiSecret = hex(HMAC-SHA256(key=接口密码, message=clientid))，再用 apiSecret 做签名密钥',
  'PATH 须含前缀 /openapi/v1 且不含查询串；METHOD 大写',
  'SORTED_QUERY 按名称再按值排序，RFC 3986 编码（空格为 %20 而不是 +），没有查询串时为空行',
  '请求体的 SHA-256 须对实际发出的字节计算（JSON 序列化后再签名，签名后不得再改动；GET 为空串的哈希 e3b0c442…b855）',
  '各部分以单个 \\n 连接（不是 \\r\\n），末尾没有换行；时间戳、nonce 与请求头中的完全一致',
  '签名为 64 位十六进制（hex），不是 Base64',
];

export function buildDocument(platformName: string, prefix: string, routes: readonly DocRoute[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  const errorList = Object.entries(OPENAPI_ERRORS)
    .map(([name, e]) => `| ${e.status} | ${e.code} | ${name} | ${e.msg} |`)
    .join('\n');
  for (const r of routes) {
    const op: Record<string, unknown> = {
      summary: r.summary,
      ...(r.description ? { description: r.description } : {}),
      tags: ['客户HTTP接口'],
      security: [{ clientid: [], timestamp: [], nonce: [], signature: [] }],
    };
    const params: unknown[] = [];
    if (r.querystring) {
      const q = clean(r.querystring) as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, schema] of Object.entries(q.properties ?? {}))
        params.push({
          name,
          in: 'query',
          required: (q.required ?? []).includes(name),
          schema,
          description: (schema as { title?: string }).title,
        });
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
      default: {
        description: '错误（HTTP 400/401/403/404/409/422/429/500）',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
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
        '详见 docs/api-openapi.md（含 curl、Node.js、Python 示例）。\n\n' +
        '成功：HTTP 200，{ "code": 0, "msg": "成功", "data": … }。错误：HTTP 4xx/5xx，{ "code", "error", "msg", "data"? }，code 与 error 稳定不变。\n\n' +
        '签名错误（SIGNATURE_INVALID）时 data.canonical 为服务器按收到的请求算出的待签名串，请与您签名的串逐字节比对。常见原因：\n' +
        SIGNATURE_MISTAKES.map((m) => `- ${m}`).join('\n') +
        '\n\n| HTTP | code | error | msg |\n|---|---|---|---|\n' +
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
