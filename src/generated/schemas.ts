/* eslint-disable */
/**
 * Generated from schemas/ by `npm run gen` (json-schema-to-typescript). Do not edit by hand:
 * change the schema and regenerate. A test fails when this file is stale.
 */

/**
 * 账户状态
 */
export type AccountStatus = number & (0 | 1 | 5 | 6 | 7);
/**
 * 证件类型；认证可选 6、7、3、1，开户另可选 4、5、8
 */
export type IdType = number & (6 | 7 | 3 | 1 | 4 | 5 | 8);
/**
 * 认证类型
 */
export type CertType = number & (1 | 2);
/**
 * 认证状态（oauth_status）；接口也以“未认证”“待认证”文字返回 1、2
 */
export type OauthStatus = number & (1 | 2 | 3 | 4);
/**
 * 用户类型（userType）
 */
export type UserType = ('1' | '2') & string;
/**
 * 运营模式（operation_mode）
 */
export type OperationMode = ('0' | '1') & string;
/**
 * 收发范围（phone_inout_type）
 */
export type PhoneInoutType = number & (0 | 1 | 2);
/**
 * 付费方式（paytype）
 */
export type PayType = number & (0 | 1 | 3);
/**
 * 状态报告（needreport）
 */
export type NeedReport = number & (0 | 1 | 2 | 3);
/**
 * 审核方式（needaudit）
 */
export type NeedAudit = number & (0 | 1 | 2 | 3);
/**
 * 上行（needmo）
 */
export type NeedMo = number & (0 | 1 | 3);
/**
 * 扩展号（needextend）
 */
export type NeedExtend = number & (0 | 1);
/**
 * 是否
 */
export type YesNo = number & (1 | 0);
/**
 * 签名审核状态
 */
export type SignState = number & (0 | 1 | 2 | 4);
/**
 * 客户类型（client_type）
 */
export type ClientType = number & (2 | 1);
/**
 * 账户归属（agentOwned）
 */
export type AgentOwned = number & (1 | 0);
/**
 * 资质审核状态
 */
export type AuthStatus = number & (2 | 3 | 4);
/**
 * 短信类型
 */
export type SmsType = number & (0 | 4 | 5 | 7 | 8);
/**
 * 计价方式（SMSUnitPrice）
 */
export type PriceType = number & (0 | 1);
/**
 * 模板属性（smsType）
 */
export type TemplateCategory = number & (10 | 11);
/**
 * 模板类型（templateType）
 */
export type TemplateType = number & (0 | 1);
/**
 * 业务类型（business）
 */
export type TemplateBusiness = number & (0 | 1);
/**
 * 模板审核状态
 */
export type TemplateAuditState = number & (0 | 1 | 3);
/**
 * 账单业务类型；12-15 仅直充模式
 */
export type BillPaymentType = number & (0 | 1 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15);
/**
 * 运营商
 */
export type Carrier = number & (0 | 1 | 2 | 3 | 4);
/**
 * 收支方向
 */
export type FinancialType = number & (0 | 1);
/**
 * 开票主体
 */
export type InvoiceBody = number & (2 | 1);
/**
 * 发票状态
 */
export type InvoiceStatus = number & (0 | 1 | 2 | 3 | 4 | 5);
/**
 * 发票类型
 */
export type InvoiceType = number & (1 | 2);
/**
 * 号码输入方式（fileType）
 */
export type NumberInputMode = number & (0 | 1);
/**
 * 支付订单状态；2 与 5 均为支付成功
 */
export type PayOrderState = number & (0 | 1 | 2 | 3 | 4 | 5);
/**
 * 支付方式
 */
export type PaymentMode = number & (0 | 1);
/**
 * 产品类型（product_type）
 */
export type ProductType = number & (0 | 1 | 2 | 3 | 4);
/**
 * 返点类型
 */
export type RebateType = number & (0 | 1);
/**
 * 找回密码方式（sendType）
 */
export type RecoveryWay = number & (1 | 2);
/**
 * 到期提示（dead）
 */
export type RemainDead = number & (0 | 1);
/**
 * 报表类型（clickType）
 */
export type ReportClickType = ('normal' | 'inter') & string;
/**
 * 报表付费类型
 */
export type ReportPayType = number & (0 | 1);
/**
 * 筛选号码来源（type）
 */
export type ScreeningType = number & (1 | 2);
/**
 * 发送记录状态，颜色按规格
 */
export type SendRecordStatus = number & (0 | 1 | 3 | 4 | 6 | 7 | 8 | 9 | 11 | 12 | 13 | 14 | 15 | 16);
/**
 * 发送时间
 */
export type SendTimeType = number & (0 | 1);
/**
 * 短信账单订单类型
 */
export type SmsBillOrderType = number & (0 | 1 | 2 | 3);
/**
 * 子账户记录操作类型
 */
export type SubAccountOperationType = number & (1 | 2 | 3);
/**
 * 任务详情发送结果
 */
export type TaskDetailOutcome = number & (1 | 2 | 3 | 4 | 5);
/**
 * 发送任务状态
 */
export type TaskStatus = number & (0 | 1 | 2 | 3 | 4);
/**
 * 定时任务时间类型
 */
export type TimedTaskTimeType = number & (0 | 1);
/**
 * 上传状态
 */
export type UploadState = ('pending' | 'uploading' | 'paused' | 'done') & string;
/**
 * 自助开户（POST /client/account/addUser）。非代理商自有时另需 idType、idNbr、imgUrl。
 */
export type OpenAccountForm = {
  /**
   * 账户名称
   */
  name: string;
  agentOwned: AgentOwned;
  needreport: NeedReport;
  /**
   * 状态报告回调地址
   */
  deliveryurl?: string;
  needmo: NeedMo;
  /**
   * 上行回调地址
   */
  mourl?: string;
  /**
   * 邮箱
   */
  email?: {
    [k: string]: unknown;
  } & string;
  /**
   * 手机号
   */
  mobile?: {
    [k: string]: unknown;
  } & string;
  idType?: IdType;
  /**
   * 证件号码
   */
  idNbr?: string;
  /**
   * 证件图片
   */
  imgUrl?: string;
  /**
   * 备注
   */
  remarks?: string;
};
/**
 * 找回密码第一步：发送验证码（POST /password/email）。sendType 1 邮箱、2 手机；email 字段携带邮箱或手机号；captcha 为图形验证码。
 */
export type PasswordCodeForm = {
  sendType: RecoveryWay;
  /**
   * 国家代码
   */
  countryCode?: string;
  /**
   * 邮箱/手机号
   */
  email: string;
  /**
   * 图形验证码
   */
  captcha: string;
};
/**
 * 代理商修改子账户基本信息（POST /account/updateClient，带 clientid）。needreport 为 1 时须填状态报告回调地址，needmo 为 1 时须填上行回调地址，否则地址被清空。
 */
export type SubAccountEditForm = {
  /**
   * 子账户
   */
  clientid: string;
  /**
   * 账户名称
   */
  name: string;
  /**
   * 联系人
   */
  realname?: string;
  /**
   * 邮箱
   */
  email?: {
    [k: string]: unknown;
  } & string;
  /**
   * 手机号
   */
  mobile?: {
    [k: string]: unknown;
  } & string;
  /**
   * 地址
   */
  address?: string;
  needreport?: NeedReport;
  needmo?: NeedMo;
  /**
   * 状态报告回调地址
   */
  deliveryurl?: string;
  /**
   * 上行回调地址
   */
  mourl?: string;
};
/**
 * 代理商重置子账户密码（POST /client/account/resetPsd）。way 为 email：生成新密码发送到 email；为 password：直接设为 password（confirmPassword 须一致）。不带 way 的调用按旧约定：有 password 即直接设置，否则发送邮件。
 */
export type SubAccountPasswordForm = {
  /**
   * 子账户
   */
  clientId: string;
  /**
   * 重置方式
   */
  way: ('email' | 'password') & string;
  /**
   * 接收邮箱
   */
  email?: string;
  /**
   * 新密码
   */
  password?: string;
  /**
   * 确认密码
   */
  confirmPassword?: {$data: '1/password'};
};
/**
 * 子账户价格设置（POST /client/price）。单价为元/条的十进制字符串，最多四位小数；国际短信折扣 0-100（%）。
 */
export type SubAccountPriceForm = {
  /**
   * 子账户
   */
  clientId: string;
  priceType: PriceType;
  /**
   * 统一价格(元/条)
   */
  unifiedPrice?: string;
  /**
   * 移动(元/条)
   */
  mobilePrice?: string;
  /**
   * 联通(元/条)
   */
  unicomPrice?: string;
  /**
   * 电信(元/条)
   */
  telecomPrice?: string;
  /**
   * 国际短信折扣(%)
   */
  gjSmsDiscount?: string;
};

/**
 * Every schema of schemas/, by path. Generated: do not edit.
 */
export interface SchemaIndex {
  'entities/agent-base-info.json'?: AgentBaseInfo;
  'entities/branding.json'?: Branding;
  'entities/certification-info.json'?: CertificationInfo;
  'entities/country-code.json'?: CountryCode;
  'entities/current-user.json'?: CurrentUser;
  'entities/enterprise-base-info.json'?: EnterpriseBaseInfo;
  'entities/notice.json'?: Notice;
  'entities/opened-account.json'?: OpenedAccount;
  'entities/sign.json'?: Sign;
  'entities/sub-account-detail.json'?: SubAccountDetail;
  'entities/sub-account.json'?: SubAccountRow;
  'entities/support-contact.json'?: SupportContact;
  'entities/template.json'?: SmsTemplate;
  'enums/account-status.json'?: AccountStatus;
  'enums/agent-owned.json'?: AgentOwned;
  'enums/auth-status.json'?: AuthStatus;
  'enums/bill-payment-type.json'?: BillPaymentType;
  'enums/carrier.json'?: Carrier;
  'enums/cert-type.json'?: CertType;
  'enums/client-type.json'?: ClientType;
  'enums/financial-type.json'?: FinancialType;
  'enums/id-type.json'?: IdType;
  'enums/invoice-body.json'?: InvoiceBody;
  'enums/invoice-status.json'?: InvoiceStatus;
  'enums/invoice-type.json'?: InvoiceType;
  'enums/need-audit.json'?: NeedAudit;
  'enums/need-extend.json'?: NeedExtend;
  'enums/need-mo.json'?: NeedMo;
  'enums/need-report.json'?: NeedReport;
  'enums/number-input-mode.json'?: NumberInputMode;
  'enums/oauth-status.json'?: OauthStatus;
  'enums/operation-mode.json'?: OperationMode;
  'enums/pay-order-state.json'?: PayOrderState;
  'enums/payment-mode.json'?: PaymentMode;
  'enums/paytype.json'?: PayType;
  'enums/phone-inout-type.json'?: PhoneInoutType;
  'enums/price-type.json'?: PriceType;
  'enums/product-type.json'?: ProductType;
  'enums/rebate-type.json'?: RebateType;
  'enums/recovery-way.json'?: RecoveryWay;
  'enums/remain-dead.json'?: RemainDead;
  'enums/report-click-type.json'?: ReportClickType;
  'enums/report-paytype.json'?: ReportPayType;
  'enums/screening-type.json'?: ScreeningType;
  'enums/send-record-status.json'?: SendRecordStatus;
  'enums/send-time-type.json'?: SendTimeType;
  'enums/sign-state.json'?: SignState;
  'enums/sms-bill-order-type.json'?: SmsBillOrderType;
  'enums/sms-type.json'?: SmsType;
  'enums/sub-account-operation-type.json'?: SubAccountOperationType;
  'enums/task-detail-outcome.json'?: TaskDetailOutcome;
  'enums/task-status.json'?: TaskStatus;
  'enums/template-audit-state.json'?: TemplateAuditState;
  'enums/template-business.json'?: TemplateBusiness;
  'enums/template-category.json'?: TemplateCategory;
  'enums/template-type.json'?: TemplateType;
  'enums/timed-task-time-type.json'?: TimedTaskTimeType;
  'enums/upload-state.json'?: UploadState;
  'enums/user-type.json'?: UserType;
  'enums/yes-no.json'?: YesNo;
  'filters/notice.json'?: NoticeFilter;
  'filters/sign.json'?: SignFilter;
  'filters/sub-account-finance.json'?: SubAccountFinanceFilter;
  'filters/sub-account.json'?: SubAccountFilter;
  'filters/template-general.json'?: GeneralTemplateFilter;
  'filters/template-smart.json'?: SmartTemplateFilter;
  'forms/agent-base-info.json'?: AgentBaseInfoForm;
  'forms/balance-reminder.json'?: BalanceReminderForm;
  'forms/certification.json'?: CertificationForm;
  'forms/content-test.json'?: ContentTestForm;
  'forms/enterprise-base-info.json'?: EnterpriseBaseInfoForm;
  'forms/login.json'?: LoginForm;
  'forms/open-account.json'?: OpenAccountForm;
  'forms/password-change.json'?: PasswordChangeForm;
  'forms/password-code.json'?: PasswordCodeForm;
  'forms/password-reset.json'?: PasswordResetForm;
  'forms/recharge.json'?: RechargeForm;
  'forms/register.json'?: RegisterForm;
  'forms/send-code.json'?: SendCodeForm;
  'forms/sign-add.json'?: SignAddForm;
  'forms/slider-verify.json'?: SliderVerifyForm;
  'forms/sub-account-edit.json'?: SubAccountEditForm;
  'forms/sub-account-password.json'?: SubAccountPasswordForm;
  'forms/sub-account-price.json'?: SubAccountPriceForm;
  'forms/sub-account-remark.json'?: SubAccountRemarkForm;
  'forms/template.json'?: TemplateForm;
  'forms/user-info.json'?: UserInfoForm;
  'messages/messages.json'?: Messages;
}
/**
 * 代理商基本信息（GET /admin/baseinfo）。oauth_status 以“未认证”“待认证”文字或数字 3、4 返回。
 */
export interface AgentBaseInfo {
  /**
   * 代理商ID
   */
  agent_id?: string;
  /**
   * 代理商名称
   */
  agent_name?: string;
  status?: AccountStatus;
  /**
   * 认证状态
   */
  oauth_status?: string | number;
  /**
   * 认证时间
   */
  oauth_date?: string;
  /**
   * 驳回原因
   */
  oauth_remark?: string;
  /**
   * 地址
   */
  address?: string;
  id_type?: IdType;
  /**
   * 证件号码
   */
  id_nbr?: string;
  /**
   * 手机号
   */
  mobile?: string;
  /**
   * 邮箱
   */
  email?: string;
  /**
   * 创建时间
   */
  create_time?: string;
  /**
   * 更新时间
   */
  update_time?: string;
  /**
   * 智能模板审核回调地址
   */
  auto_template_callback_url?: string;
}
/**
 * 品牌信息（GET /loginInfo）
 */
export interface Branding {
  /**
   * 版权信息
   */
  copyright_text: string;
  /**
   * 公司标志
   */
  company_logo_url?: string;
  /**
   * 平台名称
   */
  company_name?: string;
  /**
   * ICP备案号
   */
  icp_text?: string;
  /**
   * HTTP 示例下载地址
   */
  demo_file_path?: string;
  /**
   * 每个帮助文档是否显示：1 显示。由服务器按文档是否存在计算（https 为自动生成的 HTTP 接口文档，始终为 1）；键：https、cmpp、sgip、smgp、smpp、template、httpDemo、faq（仅代理商）
   */
  systemInfoShow?: {
    [k: string]: 0 | 1;
  };
}
/**
 * 资质认证信息（GET /admin/cer/info 自己；GET /client/cer/info?clientId= 子账户自己或代理商的子账户）。img_url 为以竖线分隔的文件路径，显示地址为 smsp_img_url + 路径。
 */
export interface CertificationInfo {
  /**
   * 账户
   */
  clientid?: string;
  /**
   * 所属代理商
   */
  agent_id?: string;
  /**
   * 认证类型
   */
  cert_type?: CertType | null;
  /**
   * 证件类型
   */
  id_typeNum?: IdType | null;
  /**
   * 证件类型名称
   */
  id_type?: string;
  /**
   * 公司名称
   */
  company?: string;
  /**
   * 证件号码
   */
  id_nbr?: string;
  /**
   * 证件图片
   */
  img_url?: string;
  /**
   * 图片服务地址
   */
  smsp_img_url?: string;
  oauth_status?: OauthStatus;
  /**
   * 认证时间
   */
  oauth_date?: string;
  /**
   * 驳回原因
   */
  remark?: string;
  /**
   * 提交时间
   */
  submitted_at?: string;
  /**
   * 审核时间
   */
  reviewed_at?: string;
}
/**
 * 国家代码（POST /userCenter/getCountryCodeList）
 */
export interface CountryCode {
  /**
   * 国家代码
   */
  countryCode: string;
  /**
   * 国家/地区
   */
  countryName: string;
}
/**
 * 当前登录用户（GET /admin/info）
 */
export interface CurrentUser {
  userType: UserType;
  /**
   * 账户
   */
  clientid: string;
  /**
   * 所属代理商
   */
  agent_id?: string;
  operation_mode: OperationMode;
  /**
   * 邮箱
   */
  email?: string;
  /**
   * 联系人
   */
  realname?: string;
  /**
   * 手机号
   */
  mobile?: string;
  /**
   * 名称
   */
  name?: string;
  /**
   * 省份
   */
  province?: string;
  /**
   * 城市
   */
  city?: string;
  /**
   * 区县
   */
  area?: string;
  /**
   * 地址
   */
  address?: string;
  /**
   * 状态报告回调地址
   */
  deliveryurl?: string;
  /**
   * 上行回调地址
   */
  mourl?: string;
  oauth_status: OauthStatus;
  status?: AccountStatus;
  phone_inout_type?: PhoneInoutType;
  paytype?: PayType;
}
/**
 * 企业（子账户）基本信息（GET /account/clientinfo，子账户查看自己）。oauth_status 与代理商基本信息同样编码。
 */
export interface EnterpriseBaseInfo {
  /**
   * 账户
   */
  clientid?: string;
  /**
   * 账户名称
   */
  name?: string;
  status?: AccountStatus;
  /**
   * 创建时间
   */
  createtime?: string;
  /**
   * 认证状态
   */
  oauth_status?: string | number;
  /**
   * 认证时间
   */
  oauth_date?: string;
  /**
   * 驳回原因
   */
  oauth_remark?: string;
  /**
   * 手机号
   */
  mobile?: string;
  /**
   * 邮箱
   */
  email?: string;
  /**
   * 联系人
   */
  realname?: string;
  /**
   * 省份
   */
  province?: string;
  /**
   * 城市
   */
  city?: string;
  /**
   * 区县
   */
  area?: string;
  /**
   * 地址
   */
  address?: string;
  /**
   * 所属代理商
   */
  agent_id?: string;
  needreport?: NeedReport;
  needaudit?: NeedAudit;
  needmo?: NeedMo;
  /**
   * IP白名单
   */
  ip?: string;
  /**
   * 状态报告回调地址
   */
  deliveryurl?: string;
  /**
   * 上行回调地址
   */
  mourl?: string;
  needextend?: NeedExtend;
  /**
   * 备注
   */
  remarks?: string;
}
/**
 * 公告（/agent/noticePage 的 data 行；noticeContent 为已净化的 HTML）
 */
export interface Notice {
  /**
   * 编号
   */
  id: number;
  /**
   * 公告名称
   */
  noticeName: string;
  isTop?: YesNo;
  /**
   * 发布时间
   */
  releaseTime?: string;
  /**
   * 发布时间
   */
  releaseTimeToStr?: string;
  /**
   * 公告内容
   */
  noticeContent?: string;
}
/**
 * 自助开户成功的回答（POST /client/account/addUser 的 data）。密码只显示这一次。
 */
export interface OpenedAccount {
  /**
   * 账户
   */
  clientid: string;
  /**
   * 密码
   */
  password: string;
  /**
   * 手机号
   */
  mobile: string;
  /**
   * 邮箱
   */
  email: string;
}
/**
 * 短信签名（POST /sign/list 的行）
 */
export interface Sign {
  /**
   * 序号
   */
  rownum?: number;
  /**
   * 编号
   */
  id: number;
  /**
   * 子账户
   */
  clientid: string;
  /**
   * 账户名称
   */
  clientName?: string;
  /**
   * 签名
   */
  sign: string;
  /**
   * 创建人
   */
  userName?: string;
  /**
   * 创建时间
   */
  createDate?: string;
  /**
   * 备注
   */
  remarks?: string;
  state: SignState;
  /**
   * 状态
   */
  stateStr?: string;
  /**
   * 驳回原因
   */
  cause?: string;
}
/**
 * 子账户详情（GET /client/account/detail?client_id=，代理商查看自己的子账户；POST /account/updateClient 的回答）。余额为十进制字符串。
 */
export interface SubAccountDetail {
  /**
   * 账户
   */
  clientid: string;
  /**
   * 账户名称
   */
  name: string;
  status: AccountStatus;
  /**
   * 余额
   */
  balance: string;
  /**
   * 联系人
   */
  realname: string;
  /**
   * 手机号
   */
  mobile: string;
  /**
   * 邮箱
   */
  email: string;
  /**
   * 地址
   */
  address: string;
  needreport: NeedReport;
  /**
   * 状态报告回调地址
   */
  deliveryurl: string;
  needmo: NeedMo;
  /**
   * 上行回调地址
   */
  mourl: string;
  paytype: PayType;
  /**
   * 创建时间
   */
  create_time: string;
  /**
   * 备注
   */
  remarks: string;
  /**
   * 1 未认证；2、3、4 见 enums/auth-status.json
   */
  oauth_status: number;
  /**
   * 认证时间
   */
  oauth_date?: string;
  client_type?: ClientType;
  agentOwned: AgentOwned;
  /**
   * 证件类型
   */
  idType?: IdType | null;
  /**
   * 证件号码
   */
  idNbr?: string;
  /**
   * 证件图片
   */
  imgUrl?: string;
}
/**
 * 子账户（管理列表 POST /client/accounts 与财务列表 POST /recharge/rollback/getAccounts 的行）。金额与单价为十进制字符串。
 */
export interface SubAccountRow {
  /**
   * 账户
   */
  client_id?: string;
  /**
   * 账户名称
   */
  client_name?: string;
  status?: AccountStatus;
  /**
   * 状态
   */
  status_str?: string;
  oauth_status?: AuthStatus;
  /**
   * 认证状态
   */
  oauth_status_str?: string;
  client_type?: ClientType;
  agent_owned?: AgentOwned;
  /**
   * 邮箱
   */
  email?: string;
  /**
   * 手机号
   */
  mobile?: string;
  /**
   * 联系人
   */
  realname?: string;
  /**
   * 创建时间
   */
  create_time?: string;
  /**
   * 余额(元)
   */
  balance?: string;
  /**
   * 代理商余额(元)
   */
  agentBalance?: string;
  /**
   * 使用主账户余额
   */
  balanceOfAgent?: number;
  smstype?: SmsType;
  /**
   * 短信类型
   */
  smstype_str?: string;
  paytype?: PayType;
  /**
   * 付费方式
   */
  paytype_str?: string;
  priceType?: PriceType;
  /**
   * 统一价格(元/条)
   */
  unifiedPrice?: string;
  /**
   * 移动(元/条)
   */
  mobilePrice?: string;
  /**
   * 联通(元/条)
   */
  unicomPrice?: string;
  /**
   * 电信(元/条)
   */
  telecomPrice?: string;
  /**
   * 国际短信折扣(%)
   */
  gjSmsDiscount?: string;
  /**
   * 余额提醒(元)
   */
  balanceAlarm?: string;
  /**
   * 提醒手机号
   */
  alarmMobile?: string;
  /**
   * 到期日期
   */
  expireDate?: string;
  /**
   * 备注
   */
  remarks?: string;
}
/**
 * 在线客服联系人（GET /api/supportInfo）
 */
export interface SupportContact {
  /**
   * 职位名称
   */
  name: string;
  /**
   * QQ
   */
  qq?: string;
  /**
   * 手机
   */
  mobile?: string;
  /**
   * 邮箱
   */
  email?: string;
}
/**
 * 短信模板（/autoTemplate/list、/autoTemplate/commonlist 的 entityList 行）
 */
export interface SmsTemplate {
  /**
   * 模板ID
   */
  templateId: number;
  /**
   * 子账户
   */
  clientId?: string;
  smsType: TemplateCategory;
  templateType: TemplateType;
  business?: TemplateBusiness;
  smstype?: SmsType;
  /**
   * 模板内容
   */
  content: string;
  /**
   * 变量个数
   */
  varibleCount?: number;
  /**
   * 签名
   */
  sign?: string;
  state: TemplateAuditState;
  /**
   * 审核原因
   */
  remark?: string;
  /**
   * 创建人
   */
  userName?: string;
  /**
   * 创建时间
   */
  createTimeStr?: string;
  /**
   * 更新时间
   */
  updateTimeStr?: string;
  /**
   * 序号
   */
  orderNo?: number;
  isCreateor?: YesNo;
}
/**
 * 公告列表筛选（POST /agent/noticePage），参数名与接口一致
 */
export interface NoticeFilter {
  /**
   * 公告内容
   */
  searchContent?: string;
}
/**
 * 签名列表筛选（POST /sign/list），参数名与接口一致
 */
export interface SignFilter {
  /**
   * 子账户
   */
  clientid?: string;
  state?: SignState;
  /**
   * 签名
   */
  sign?: string;
  /**
   * 开始时间
   */
  start_time?: string;
  /**
   * 结束时间
   */
  end_time?: string;
}
/**
 * 客户财务列表筛选（POST /recharge/rollback/getAccounts、/recharge/rollback/export）
 */
export interface SubAccountFinanceFilter {
  /**
   * 账户/名称/手机号/邮箱
   */
  customerInfo?: string;
}
/**
 * 子账户列表筛选（POST /client/accounts、/client/account/export），参数名与接口一致
 */
export interface SubAccountFilter {
  /**
   * 账户/名称/手机号/邮箱
   */
  customerInfo?: string;
  status?: AccountStatus;
  /**
   * 开始日期
   */
  start_time_day?: string;
  /**
   * 结束日期
   */
  end_time_day?: string;
}
/**
 * 通用模板筛选（POST /autoTemplate/commonlist）
 */
export interface GeneralTemplateFilter {
  smsType?: TemplateCategory;
  templateType?: TemplateType;
  /**
   * 模板内容
   */
  content?: string;
}
/**
 * 智能模板筛选（POST /autoTemplate/list）
 */
export interface SmartTemplateFilter {
  /**
   * 子账户
   */
  clientId?: string;
  smsType?: TemplateCategory;
  state?: TemplateAuditState;
  templateType?: TemplateType;
  /**
   * 模板ID
   */
  templateId?: string;
  /**
   * 签名
   */
  sign?: string;
  /**
   * 模板内容
   */
  content?: string;
  /**
   * 创建开始日期
   */
  createStartTime?: string;
  /**
   * 创建结束日期
   */
  createEndTime?: string;
}
/**
 * 代理商基本信息修改（POST /admin/baseinfo/edit）
 */
export interface AgentBaseInfoForm {
  /**
   * 代理商名称
   */
  agent_name: string;
  /**
   * 地址
   */
  address: string;
  /**
   * 手机号
   */
  mobile: string;
  /**
   * 智能模板审核回调地址
   */
  auto_template_callback_url?: {
    [k: string]: unknown;
  } & string;
}
/**
 * 子账户余额提醒（POST /client/remind）：余额低于 balanceAlarm 元时短信提醒 alarmMobile；0 表示不提醒
 */
export interface BalanceReminderForm {
  /**
   * 子账户
   */
  clientId: string;
  /**
   * 余额低于(元)时提醒
   */
  balanceAlarm: string;
  /**
   * 提醒手机号
   */
  alarmMobile?: string;
}
/**
 * 资质认证（POST /admin/cer/add、/admin/cer/edit）。imgUrl 为 1-5 个图片路径，以竖线分隔。
 */
export interface CertificationForm {
  /**
   * 证件类型
   */
  id_type: 6 | 7 | 3 | 1;
  /**
   * 公司名称
   */
  company: string;
  /**
   * 证件号码
   */
  id_nbr: string;
  /**
   * 证件图片
   */
  imgUrl: string;
}
/**
 * 敏感内容检测（POST /content/content/test）
 */
export interface ContentTestForm {
  /**
   * 短信内容
   */
  content: string;
}
/**
 * 企业（子账户）基本信息修改（POST /account/updateClient）
 */
export interface EnterpriseBaseInfoForm {
  /**
   * 账户名称
   */
  name: string;
  /**
   * 联系人
   */
  realName?: string;
  /**
   * 手机号
   */
  mobile: string;
  /**
   * 邮箱
   */
  email: string;
  /**
   * 地址
   */
  address: string;
  /**
   * 状态报告回调地址
   */
  deliveryurl?: string;
  /**
   * 上行回调地址
   */
  mourl?: string;
}
/**
 * 登录（POST /login）。password 为 SHA-256 十六进制摘要；server、token 来自滑块验证。
 */
export interface LoginForm {
  /**
   * 帐户名
   */
  username: string;
  /**
   * 密码
   */
  password: string;
  /**
   * 记住我（7天内自动登录）
   */
  remember?: boolean;
  /**
   * 验证服务
   */
  server?: string;
  /**
   * 验证令牌
   */
  token?: string;
}
/**
 * 修改密码（POST /password/save）。代理商（userType 1）提交的是 SHA-256 摘要，服务器校验原密码。
 */
export interface PasswordChangeForm {
  /**
   * 原密码
   */
  oldPassword: string;
  /**
   * 新密码
   */
  newPassword: string;
  /**
   * 确认新密码
   */
  confirmPassword: {$data: '1/newPassword'};
}
/**
 * 找回密码第二步（POST /password/change） 邮箱/手机号的格式在第一步（forms/password-code）检查；服务器在此再按 sendType 检查一次。
 */
export interface PasswordResetForm {
  sendType: RecoveryWay;
  /**
   * 国家代码
   */
  countryCode?: string;
  /**
   * 邮箱/手机号
   */
  email: string;
  /**
   * 验证码
   */
  validateCode: string;
  /**
   * 新密码
   */
  password: string;
  /**
   * 确认密码
   */
  confirmPassword: {$data: '1/password'};
}
/**
 * 子账户充值/回退。amount 为十进制字符串，最多两位小数，大于 0；requestId 用于幂等。
 */
export interface RechargeForm {
  /**
   * 子账户
   */
  clientId: string;
  /**
   * 金额
   */
  amount: string;
  /**
   * 备注
   */
  remark?: string;
  /**
   * 请求编号
   */
  requestId?: string;
}
/**
 * 代理商注册（POST /userCenter/agentRegister）。flag=1 表示确认 501 提示后再次提交。
 */
export interface RegisterForm {
  /**
   * 个人/公司名称
   */
  realName: string;
  /**
   * 登录邮箱
   */
  email: string;
  /**
   * 国家代码
   */
  countryCode: string;
  /**
   * 手机号
   */
  mobile: string;
  /**
   * 手机验证码
   */
  validateCode: string;
  /**
   * 密码
   */
  password: string;
  /**
   * 确认密码
   */
  confirmPassword: {$data: '1/password'};
  /**
   * 省份
   */
  province?: string;
  /**
   * 城市
   */
  city?: string;
  /**
   * 区县
   */
  area?: string;
  /**
   * 地址
   */
  address?: string;
  /**
   * 邀请码
   */
  inviteCode?: string;
  /**
   * 备注
   */
  remark?: string;
  server?: string;
  token?: string;
  /**
   * 确认标记
   */
  flag?: '0' | '1';
}
/**
 * 注册获取手机验证码（POST /userCenter/sendCode）
 */
export interface SendCodeForm {
  /**
   * 国家代码
   */
  countryCode?: string;
  /**
   * 手机号
   */
  mobile: string;
}
/**
 * 新增签名（POST /sign/add）。主账户必须选择子账户。
 */
export interface SignAddForm {
  /**
   * 子账户
   */
  clientid?: string;
  /**
   * 签名
   */
  sign: string;
  /**
   * 备注
   */
  remarks?: string;
}
/**
 * 滑块验证（POST /captcha/slider/verify）：server 为 GET /captcha/slider 发放的挑战编号，track 为拖动轨迹 [x, 毫秒]。
 */
export interface SliderVerifyForm {
  server: string;
  width: number;
  /**
   * @minItems 2
   * @maxItems 2000
   */
  track: [[number, number], [number, number], ...[number, number][]];
}
/**
 * 子账户备注（POST /client/account/remark）
 */
export interface SubAccountRemarkForm {
  /**
   * 子账户
   */
  clientId: string;
  /**
   * 备注
   */
  remarks?: string;
}
/**
 * 新增/编辑智能模板（POST /autoTemplate/add、/autoTemplate/edit）。变量以 {变量名} 或 {1} 标记。x-rules 是表单校验之外、控制台和服务器共用的规则与提示。
 */
export interface TemplateForm {
  /**
   * 模板ID
   */
  templateId?: number;
  /**
   * 子账户
   */
  clientId?: string;
  smsType: TemplateCategory;
  templateType: TemplateType;
  business: TemplateBusiness;
  smstype?: SmsType;
  /**
   * 签名
   */
  sign: string;
  /**
   * 模板内容
   */
  content: string;
}
/**
 * 用户信息：以短信验证码修改手机号（POST /admin/info/save）
 */
export interface UserInfoForm {
  /**
   * 邮箱
   */
  email?: string;
  /**
   * 联系人
   */
  realName?: string;
  /**
   * 国家代码
   */
  countryCode: string;
  /**
   * 手机号
   */
  mobile: string;
  /**
   * 验证码
   */
  valcode: string;
}
/**
 * 控制台与服务器共用的提示语（成功提示、业务拒绝）：服务器以它们回答，控制台在服务器未给出时显示同一句。字段规则的提示在各表单 schema 的 errorMessage 中。两边都经 common/schema/messages.ts 读取 x-messages。
 */
export interface Messages {}
