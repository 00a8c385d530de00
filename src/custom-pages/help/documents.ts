/**
 * The downloadable help documents, in the order the page lists them. `key` is the server's
 * systemInfoShow key (GET /loginInfo): a link shows only when its flag is 1, which the server sets
 * only when the document exists. The CMPP and SMPP documents exist while their door is on: the
 * server generates them from the door's own description for the logged-in account (its login,
 * host and port), unless the operator placed a file of theirs. The user guide is the platform's own
 * (docs/user-guide.md, rendered by the server), always there. The FAQ document is for agents only.
 */
export interface HelpDocument {
  key: string;
  title: string;
  description: string;
  href: string;
  agentOnly?: boolean;
}

export const HELP_DOCUMENTS: HelpDocument[] = [
  {
    key: 'guide',
    title: '用户使用手册',
    description:
      '控制台使用说明：资质认证，普通、变量与国际短信的发送，发送任务、发送记录与报表的查看，购买短信套餐与充值，子账户管理',
    href: '/api/help/userguide',
  },
  {
    key: 'https',
    title: 'HTTP接口文档',
    description: '控制台 HTTP 接口说明（登录会话，由平台接口描述自动生成）；客户系统接入请见下方「客户 HTTP API 接入」',
    href: '/api/help/httpsdoc',
  },
  {
    key: 'httpDemo',
    title: 'HTTP接口示例代码',
    description: 'Java、PHP、Python、C# 等语言调用 HTTP 接口的示例工程',
    href: '/api/help/demoFilePath',
  },
  {
    key: 'cmpp',
    title: 'CMPP接口文档',
    description:
      '中国移动 CMPP 2.0/3.0 协议接入说明：登录认证、提交、状态报告、错误码与报文示例（接口开通时由平台生成，含您的登录名与端口）',
    href: '/api/help/cmppdoc',
  },
  {
    key: 'smpp',
    title: 'SMPP接口文档',
    description:
      'SMPP 3.4 协议接入说明：绑定、提交、状态报告、错误码与报文示例（接口开通时由平台生成，含您的登录名与端口）',
    href: '/api/help/smppdoc',
  },
  { key: 'sgip', title: 'SGIP接口文档', description: '中国联通 SGIP 1.2 协议接入说明', href: '/api/help/sgipdoc' },
  {
    key: 'smgp',
    title: 'SMGP接口文档',
    description:
      '中国电信 SMGP 3.0 协议接入说明：登录认证、提交、状态报告、错误码与报文示例（接口开通时由平台生成，含您的登录名与端口）',
    href: '/api/help/smgpdoc',
  },
  {
    key: 'template',
    title: '模板短信接口文档',
    description: '模板报备、变量替换与模板短信提交接口说明',
    href: '/api/help/smstemplatedoc',
  },
  {
    key: 'faq',
    title: '常见问题文档',
    description: '代理商常见问题汇总（开户、计费、通道与售后）',
    href: '/api/help/faqdoc',
    agentOnly: true,
  },
];
