/**
 * 客户 HTTP API (issue 24; docs/api-openapi.md): how a customer's system calls /openapi/v1 — the
 * OpenAPI document (served by the API itself, no signature needed), the four signing headers, the
 * canonical string, and a curl and a Node.js example filled in with the account's clientid.
 */
import { Card, Descriptions, Space, Tabs, Typography } from 'antd';
import { ApiOutlined, LinkOutlined } from '@ant-design/icons';

export const OPENAPI_BASE = '/openapi/v1';
export const OPENAPI_DOCUMENT = `${OPENAPI_BASE}/openapi.json`;

const pre = {
  background: '#f6f8fa',
  padding: 12,
  borderRadius: 6,
  overflowX: 'auto',
  fontSize: 12,
  margin: 0,
} as const;

export function curlExample(origin: string, clientid: string): string {
  return [
    `CLIENTID=${clientid}; PASSWORD='接口密码'; BASE=${origin}`,
    `SECRET=$(printf '%s' "$CLIENTID" | openssl dgst -sha256 -hmac "$PASSWORD" | sed 's/^.*= //')`,
    `BODY='{"content":"【签名】您的订单已发货，请注意查收。","mobiles":["13800138000","13900139000"]}'`,
    `TS=$(date +%s); NONCE=$(openssl rand -hex 16)`,
    `BODY_HASH=$(printf '%s' "$BODY" | openssl dgst -sha256 | sed 's/^.*= //')`,
    `SIG=$(printf 'POST\\n${OPENAPI_BASE}/sms/send\\n\\n%s\\n%s\\n%s' "$TS" "$NONCE" "$BODY_HASH" \\`,
    `      | openssl dgst -sha256 -hmac "$SECRET" | sed 's/^.*= //')`,
    `curl -s -X POST "$BASE${OPENAPI_BASE}/sms/send" -H 'content-type: application/json' \\`,
    `  -H "x-sms-clientid: $CLIENTID" -H "x-sms-timestamp: $TS" -H "x-sms-nonce: $NONCE" \\`,
    `  -H "x-sms-signature: $SIG" -H "Idempotency-Key: order-0001" --data-binary "$BODY"`,
  ].join('\n');
}

export function nodeExample(origin: string, clientid: string): string {
  return [
    `const crypto = require('node:crypto');`,
    `const hmac = (key, msg) => crypto.createHmac('sha256', key).update(msg).digest('hex');`,
    `const sha256 = (s) => crypto.createHash('sha256').update(s).digest('hex');`,
    `const clientid = '${clientid}';`,
    `const secret = hmac('接口密码', clientid); // API 密钥：以接口密码对 clientid 做 HMAC-SHA256`,
    `const path = '${OPENAPI_BASE}/sms/send';`,
    `const body = JSON.stringify({ content: '【签名】您的订单已发货，请注意查收。', mobiles: ['13800138000'] });`,
    `const ts = String(Math.floor(Date.now() / 1000)), nonce = crypto.randomUUID();`,
    `const signature = hmac(secret, ['POST', path, '', ts, nonce, sha256(body)].join('\\n'));`,
    `const res = await fetch('${origin}' + path, { method: 'POST', body, headers: {`,
    `  'content-type': 'application/json', 'x-sms-clientid': clientid, 'x-sms-timestamp': ts,`,
    `  'x-sms-nonce': nonce, 'x-sms-signature': signature, 'idempotency-key': nonce } });`,
    `console.log(await res.json());`,
  ].join('\n');
}

/** the protocol the address is reached with, as said beside it (issue 41 item 10: not "HTTPS" beside an http:// address) */
export const schemeOf = (origin: string) => (/^https:/i.test(origin) ? 'HTTPS' : 'HTTP');

export default function OpenApiGuide({
  clientid,
  origin = window.location.origin,
}: {
  clientid: string;
  origin?: string;
}) {
  return (
    <Card
      data-testid="openapi-guide"
      title={
        <Space>
          <ApiOutlined />
          客户 HTTP API 接入（{OPENAPI_BASE}）
        </Space>
      }
      style={{ marginTop: 16 }}
    >
      <Typography.Paragraph>
        客户系统通过 {schemeOf(origin)} 调用 <Typography.Text code>{origin + OPENAPI_BASE}</Typography.Text>{' '}
        下的接口：发送短信（同一内容发往多个号码或逐号码内容，最多 60,000
        个号码，可定时、带扩展号、幂等键防重复提交）、查询发送状态、拉取状态报告与上行短信、查询余额与产品包、签名与模板。
        每个请求以账户的接口密码派生的 API 密钥签名，与上方「HTTP接口文档」所述的控制台接口（登录会话）不同。
      </Typography.Paragraph>
      <Typography.Paragraph>
        <a href={OPENAPI_DOCUMENT} target="_blank" rel="noreferrer">
          <LinkOutlined /> OpenAPI 接口描述（openapi.json，可导入 Postman、Swagger UI 等工具）
        </a>
      </Typography.Paragraph>
      <Descriptions size="small" column={1} bordered title="签名（每个请求的四个请求头）">
        <Descriptions.Item label="x-sms-clientid">账户 ID（{clientid}）</Descriptions.Item>
        <Descriptions.Item label="x-sms-timestamp">Unix 时间（秒），与服务器时间相差不超过 5 分钟</Descriptions.Item>
        <Descriptions.Item label="x-sms-nonce">8-64 位随机串，窗口内不得重复（可用 UUID）</Descriptions.Item>
        <Descriptions.Item label="x-sms-signature">
          hex(HMAC-SHA256(API 密钥, 方法 + &quot;\n&quot; + 路径 + &quot;\n&quot; + 排序后的查询串 + &quot;\n&quot; +
          时间戳 + &quot;\n&quot; + nonce + &quot;\n&quot; + hex(SHA-256(请求体))))
        </Descriptions.Item>
        <Descriptions.Item label="API 密钥">
          hex(HMAC-SHA256(接口密码, clientid))；重置接口密码后随之改变
        </Descriptions.Item>
      </Descriptions>
      <Tabs
        style={{ marginTop: 16 }}
        items={[
          {
            key: 'curl',
            label: 'curl 示例',
            children: (
              <pre style={pre} data-testid="openapi-curl">
                {curlExample(origin, clientid)}
              </pre>
            ),
          },
          {
            key: 'node',
            label: 'Node.js 示例',
            children: (
              <pre style={pre} data-testid="openapi-node">
                {nodeExample(origin, clientid)}
              </pre>
            ),
          },
        ]}
      />
    </Card>
  );
}
