/** 客户管理: sub-account manager, self-service opening, detail, customer finance, own balance. */
export { default as SubAccountList } from './SubAccountList';
export { default as OpenAccount } from './OpenAccount';
export { default as SubAccountDetail } from './SubAccountDetail';
export { default as FinanceList } from './FinanceList';
export { default as OwnBalance } from './OwnBalance';
