/**
 * The resource registry: what the data provider needs to know about each Refine resource.
 *
 * The spec's endpoints do not share one convention, so each resource says, in data:
 * - which endpoint lists it, with which HTTP method (GET query, POST form, POST JSON);
 * - how Refine's pagination maps onto the endpoint's own parameter names
 *   (`currentPage` + `pageRowCount`, or `page` + `rows`), default page size 15;
 * - (filters need no declaration: a list screen's filter schema names the parameters, with
 *   `x-param` where the API's name differs; useSchemaList sends them as they are);
 * - which endpoints read, create, update and delete one record.
 *
 * Feature folders add their resources here (one entry each); the list-shape normalisation
 * ({list,totalCount,...} | {data,totalRecord,...} | {entityList,totalCount}) is the data
 * provider's job and needs no declaration.
 */
import type { CrudSort } from '@refinedev/core';
import { SignState } from '@/generated/schemas';

/** How a call sends its parameters: GET query string, POST form (urlencoded) or POST JSON. */
export type CallMethod = 'get' | 'form' | 'json';

/**
 * Paging parameter convention of an endpoint:
 * - `currentPage`: `currentPage` (1-based) + `pageRowCount`
 * - `page`: `page` (1-based) + `rows`
 * - `none`: the endpoint is not paged (returns everything)
 */
export type PagingStyle = 'currentPage' | 'page' | 'none';

export const DEFAULT_PAGE_SIZE = 15;

/** A filter mapping: the endpoint's parameter name, or a function returning the parameters to send. */
export type FilterMapping = string | ((value: any) => Record<string, unknown>);

export interface Endpoint {
  /** path under /api; `:id` is replaced with the record id */
  url: string;
  method?: CallMethod;
  /** name of the parameter carrying the record id (when the id is not in the path) */
  idParam?: string;
  /** fixed parameters sent with every call */
  params?: Record<string, unknown>;
}

export interface ListEndpoint extends Endpoint {
  paging?: PagingStyle;
  /** page size when the screen does not choose one (default 15) */
  pageSize?: number;
  /**
   * Refine filter field -> endpoint parameter(s); unmapped fields are sent under their own name.
   * The console's lists need none (their filter schemas say the parameter names: schemaFilters).
   */
  filters?: Record<string, FilterMapping>;
  /** Refine sorters -> endpoint parameters (sorting is not sent unless the resource says how) */
  sorters?: (sorters: CrudSort[]) => Record<string, unknown>;
}

export interface ResourceDefinition {
  list?: ListEndpoint;
  one?: Endpoint;
  create?: Endpoint;
  update?: Endpoint;
  deleteOne?: Endpoint;
  /** record field holding the id (Refine expects `id`); copied to `id` when absent */
  idField?: string;
}

export type ResourceRegistry = Record<string, ResourceDefinition>;

/** The console's resources. */
export const resources: ResourceRegistry = {
  /** 在线客服联系人 (support panel) */
  supportContacts: {
    list: { url: '/supportInfo', method: 'get', paging: 'none' },
  },
  /** 公告: POST /agent/noticePage (page + rows, searchContent), GET /agent/notice/detail?noticeId= */
  notices: {
    list: { url: '/agent/noticePage', method: 'form', paging: 'page' },
    one: { url: '/agent/notice/detail', method: 'get', idParam: 'noticeId' },
  },
  /** 签名报备 (src/resources/signs): delete is POST /sign/update with state 4 */
  signs: { list: { url: '/sign/list', method: 'form' }, create: { url: '/sign/add' }, deleteOne: { url: '/sign/update', idParam: 'id', params: { state: SignState.Deleted } } },
  /** 智能模板 (docs/api-templates.md) */
  templates: { list: { url: '/autoTemplate/list', method: 'form' }, create: { url: '/autoTemplate/add' }, update: { url: '/autoTemplate/edit', idParam: 'templateId' }, deleteOne: { url: '/autoTemplate/del', idParam: 'templateId' }, idField: 'templateId' },
  /** 通用模板 */
  generalTemplates: { list: { url: '/autoTemplate/commonlist', method: 'form' }, idField: 'templateId' },
  /** 子账户管理 (POST /client/accounts) */
  subAccounts: { list: { url: '/client/accounts', method: 'form' }, one: { url: '/client/account/detail', method: 'get', idParam: 'client_id' }, idField: 'client_id' },
  /** 发送任务 (POST /send/sendTask, page + rows) */
  sendTasks: { list: { url: '/send/sendTask', method: 'form', paging: 'page' } },
  /** 定时任务 (POST /send/smsTimerSend/list) */
  timedTasks: { list: { url: '/send/smsTimerSend/list', method: 'form', paging: 'page' }, idField: 'taskId' },
  /** 发送记录 (POST /send/getrecords, 10 a page) */
  sendRecords: { list: { url: '/send/getrecords', method: 'form', paging: 'page', pageSize: 10 } },
  /** 回复记录 (POST /send/getmologs) */
  moRecords: { list: { url: '/send/getmologs', method: 'form', paging: 'page' } },
  /** 定时任务的号码 (POST /send/getAllPhone/list, uid + submitTime as meta params) */
  timedTaskPhones: { list: { url: '/send/getAllPhone/list', method: 'form', paging: 'page' }, idField: 'phone' },
  payOrders: { list: { url: '/onlinePay/queryPayOrder', method: 'form', paging: 'page' }, idField: 'paymentId' },
  /** 客户财务 (POST /recharge/rollback/getAccounts) */
  subAccountFinance: { list: { url: '/recharge/rollback/getAccounts', method: 'form' }, idField: 'client_id' },
  // ---- purchase and bills (issue 12, docs/api-purchase.md)
  /** 购买短信 (POST /sms/products) */
  products: { list: { url: '/sms/products', method: 'form' }, idField: 'product_id' },
  /** 剩余条数：代理商 (POST /agent/newpools)、子账户 (GET /client/pools) */
  agentPools: { list: { url: '/agent/newpools', method: 'form' } },
  clientPools: { list: { url: '/client/pools', method: 'get' } },
  /** 短信账单 (POST /finance/bill/sms) */
  smsBills: { list: { url: '/finance/bill/sms', method: 'form' } },
  /** 返点账单 (GET /finance/bill/rebate) */
  rebateBills: { list: { url: '/finance/bill/rebate', method: 'get' } },
  /** 消费记录：套餐模式 (POST /finance/bill/purchaseHistory)、直充模式 (POST /finance/bill/direct/purchaseHistory) */
  purchaseRecords: { list: { url: '/finance/bill/purchaseHistory', method: 'form' }, idField: 'rownum' },
  directPurchaseRecords: { list: { url: '/finance/bill/direct/purchaseHistory', method: 'form' } },
  /** 自有账单 (POST /finance/bill/self) and 额度记录 (GET /finance/creditHistories/list), docs/api-bills.md */
  ownBill: { list: { url: '/finance/bill/self', method: 'form' } },
  creditHistories: { list: { url: '/finance/creditHistories/list', method: 'get' } },
  /** 发票申请记录 (POST /invoice/invoiceList, page + rows) */
  invoices: { list: { url: '/invoice/invoiceList', method: 'form', paging: 'page' }, one: { url: '/invoice/invoiceDetailed', method: 'form', idParam: 'id' } },
  // 消费报表 (docs/api-reports.md): pre = 子账户(预付费) / 普通短信, suf = 子账户(后付费) / 国际短信
  reportsPre: { list: { url: '/client/report/consume/pretotal', method: 'form' }, idField: 'rownum' },
  reportsSuf: { list: { url: '/client/report/consume/suftotal', method: 'form' }, idField: 'rownum' },
  reportsPreDay: { list: { url: '/client/report/consume/preday', method: 'get' }, idField: 'rownum' },
  reportsSufDay: { list: { url: '/client/report/consume/sufday', method: 'get' }, idField: 'rownum' },
  remain: { list: { url: '/index/clientsmsdetail', method: 'get', paging: 'none' }, idField: 'rownum' },
};
