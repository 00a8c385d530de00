/**
 * What the OpenAPI description says about each /api route: a Chinese summary, a tag (the area)
 * and, where the route has one, the schemas/ form its payload follows. Routes validate their
 * payloads with the shared schemas themselves (server/http/validation.ts); these entries feed
 * only the document (@fastify/swagger `transform`), never Fastify's own validation.
 * A route missing here is still listed, tagged by its first path segment.
 */
export interface RouteDoc {
  summary: string;
  tag: string;
  description?: string;
  /** form schema key of the body (POST) */
  form?: string;
  /** query parameters: name -> description */
  query?: Record<string, string>;
  /** agent-only call */
  agentOnly?: boolean;
  /** no session needed */
  public?: boolean;
}

export const ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /api/login/timeout': { tag: '会话与登录', summary: '会话检查：data 为 true 表示已登录', public: true },
  'POST /api/login': { tag: '会话与登录', summary: '登录（密码为 SHA-256 十六进制摘要，需先通过滑块验证）', form: 'forms/login', public: true },
  'POST /api/logout': { tag: '会话与登录', summary: '退出登录', public: true },
  'GET /api/captcha/slider': { tag: '会话与登录', summary: '获取滑块验证挑战', public: true },
  'POST /api/captcha/slider/verify': { tag: '会话与登录', summary: '校验滑块轨迹，返回一次性令牌', form: 'forms/slider-verify', public: true },
  'GET /api/captcha.jpg': { tag: '会话与登录', summary: '图形验证码（找回密码用）', public: true },
  'GET /api/loginInfo': { tag: '站点', summary: '品牌信息（版权、标志、帮助文档开关 systemInfoShow）', public: true },
  'GET /api/supportInfo': { tag: '站点', summary: '在线客服联系人', public: true },
  'POST /api/userCenter/getCountryCodeList': { tag: '站点', summary: '国家/地区电话代码列表', public: true },
  'POST /api/userCenter/sendCode': { tag: '注册', summary: '发送注册手机验证码', form: 'forms/send-code', public: true },
  'POST /api/userCenter/agentRegister': { tag: '注册', summary: '代理商注册', form: 'forms/register', public: true },
  'POST /api/userCenter/sendNoPicCode': { tag: '账户', summary: '发送更换手机号验证码', form: 'forms/send-code' },
  'POST /api/password/email': { tag: '找回密码', summary: '发送找回密码验证码（邮箱或手机）', form: 'forms/password-code', public: true },
  'POST /api/password/change': { tag: '找回密码', summary: '以验证码重设密码', form: 'forms/password-reset', public: true },
  'GET /api/admin/info': { tag: '账户', summary: '当前用户信息' },
  'GET /api/admin/baseinfo': { tag: '账户', summary: '代理商基本信息与认证状态' },
  'GET /api/client/oauth': { tag: '账户', summary: '当前账户认证状态' },
  'POST /api/agent/noticePage': {
    tag: '公告',
    summary: '公告分页列表（置顶在前，最新在前）',
    query: { searchContent: '按标题或内容搜索', page: '页码，从 1 开始', rows: '每页条数（默认 15）' },
  },
  'GET /api/agent/notice': { tag: '公告', summary: '最新公告（首页，最多 10 条）' },
  'GET /api/agent/notice/detail': { tag: '公告', summary: '公告详情', query: { noticeId: '公告编号' } },
  'POST /api/content/content/test': {
    tag: '内容检测',
    summary: '敏感内容检测：{"200":"ok"} 或 {"500":"起,止", "501": …}（UTF-16 偏移，止不含）',
    form: 'forms/content-test',
  },
  'GET /api/help/httpsdoc': { tag: '帮助文档', summary: 'HTTP 接口文档（由本接口描述生成的 HTML）' },
  'GET /api/help/openapi.json': { tag: '帮助文档', summary: 'HTTP 接口的 OpenAPI 描述（JSON）' },
  'GET /api/help/cmppdoc': { tag: '帮助文档', summary: 'CMPP 接口文档下载' },
  'GET /api/help/sgipdoc': { tag: '帮助文档', summary: 'SGIP 接口文档下载' },
  'GET /api/help/smgpdoc': { tag: '帮助文档', summary: 'SMGP 接口文档下载' },
  'GET /api/help/smppdoc': { tag: '帮助文档', summary: 'SMPP 接口文档下载' },
  'GET /api/help/smstemplatedoc': { tag: '帮助文档', summary: '模板短信接口文档下载' },
  'GET /api/help/demoFilePath': { tag: '帮助文档', summary: 'HTTP 接口示例代码下载' },
  'GET /api/help/faqdoc': { tag: '帮助文档', summary: '常见问题文档下载（仅代理商）', agentOnly: true },
};

export function routeDocFor(method: string, url: string): RouteDoc {
  const doc = ROUTE_DOCS[`${method} ${url}`];
  if (doc) return doc;
  const seg = url.replace(/^\/api\//, '').split('/')[0] || 'api';
  return { tag: seg, summary: `${method} ${url}` };
}
