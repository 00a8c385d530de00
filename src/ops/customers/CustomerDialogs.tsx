/**
 * The 客户 dialogs: 冻结 / 解冻 with a remark for the audit log (forms/operator-customer-action.json)
 * and 调整额度 for an agent (forms/operator-credit.json: a signed amount, a remark required, asked
 * once more before the money moves), and 以该账户登录 with its reason (forms/operator-login-as.json).
 * Each shows the row's essentials above its form; the server's refusal stays in the dialog, its
 * success is toasted; the list refreshes whatever the answer (`done`), but after 以该账户登录: this
 * browser's session is the account's then, and the accounts' console opens.
 */
import { Alert } from 'antd';
import customerActionForm from '@/generated/forms/operator-customer-action';
import creditForm from '@/generated/forms/operator-credit';
import loginAsForm from '@/generated/forms/operator-login-as';
import type {
  OperatorCreditForm,
  OperatorCustomer,
  OperatorCustomerAction,
  OperatorLoginAsForm,
} from '@/generated/schemas';
import { SchemaFormDialog } from '@/components/SchemaForm/SchemaFormDialog';
import { SchemaDescriptions } from '@/components/SchemaDescriptions';
import { schemaUi } from '@/schema';
import { accountConsole, customerApi, loginAsAccount } from './api';
import { operatorCustomers } from './data';

interface DialogProps {
  /** the account acted on; null: closed */
  row: OperatorCustomer | null;
  onClose: () => void;
  /** refreshes the list (after any answer) */
  done: () => void;
}

/** the row's essentials above a dialog's form */
export function CustomerSummary({ row, fields }: { row: OperatorCustomer; fields: (keyof OperatorCustomer)[] }) {
  return (
    <SchemaDescriptions
      entity={operatorCustomers.entity}
      record={row}
      fields={fields}
      column={2}
      size="small"
      style={{ marginBottom: 16 }}
    />
  );
}

const actionUi = schemaUi('forms/operator-customer-action');

/** 冻结 (every login of the account ends) or 解冻, with a remark the audit log keeps. */
export function FreezeDialog({ row, freeze, onClose, done }: DialogProps & { freeze: boolean }) {
  const what = freeze ? '冻结' : '解冻';
  const save = async (v: OperatorCustomerAction) => {
    try {
      return await customerApi.setFrozen(row!.clientid, freeze, v.remark);
    } finally {
      done();
    }
  };
  return (
    <SchemaFormDialog<OperatorCustomerAction>
      open={!!row}
      title={`${what}账户 ${row?.clientid ?? ''}`}
      form={customerActionForm}
      fields={['remark']}
      uiSchema={actionUi}
      initial={{ clientid: row?.clientid }}
      save={save}
      onClose={onClose}
      okText={what}
      errorTestId="customer-refusal"
    >
      {row && <CustomerSummary row={row} fields={['clientid', 'name', 'userType', 'status']} />}
      {row && freeze && <p data-testid="freeze-note">冻结后该账户的所有登录立即结束，且不能再登录或发送，直到解冻。</p>}
    </SchemaFormDialog>
  );
}

const creditUi = schemaUi('forms/operator-credit');

/** 提升额度 / 降低额度 of the signed amount, the word and the figure of an amount as the question says it */
export function creditQuestion(clientid: string, amount: string): string {
  const cut = amount.trim().startsWith('-');
  const figure = cut ? amount.trim().slice(1) : amount.trim();
  return `确定为代理商 ${clientid} ${cut ? '降低' : '提升'}额度 ${figure} 元吗？`;
}

/** 调整额度 of an agent: through the ledger (提升额度 / 降低额度 in its credit history), never below 0. */
export function CreditDialog({ row, onClose, done }: DialogProps) {
  const save = async (v: OperatorCreditForm) => {
    try {
      return await customerApi.credit(v);
    } finally {
      done();
    }
  };
  return (
    <SchemaFormDialog<OperatorCreditForm>
      open={!!row}
      title={`调整额度：${row?.clientid ?? ''}`}
      form={creditForm}
      fields={['amount', 'remark']}
      uiSchema={creditUi}
      initial={{ clientid: row?.clientid }}
      save={save}
      confirm={(v) => <span data-testid="credit-confirm">{creditQuestion(v.clientid, v.amount)}</span>}
      onClose={onClose}
      errorTestId="credit-refusal"
    >
      {row && <CustomerSummary row={row} fields={['clientid', 'name', 'balance', 'status']} />}
    </SchemaFormDialog>
  );
}

const loginAsUi = schemaUi('forms/operator-login-as');

/**
 * 以该账户登录: the reason (audited) first, and what happens said before: the account's console
 * opens in this browser, and this operator's login ends (one kind of session per browser).
 */
export function LoginAsDialog({ row, onClose, done }: DialogProps) {
  const save = async (v: OperatorLoginAsForm) => {
    let msg: string | undefined;
    try {
      msg = await loginAsAccount(v.clientid, v.remark);
    } catch (e) {
      // refused: still this operator's session; the row may have changed (frozen meanwhile)
      done();
      throw e;
    }
    setTimeout(() => accountConsole.open(), 600);
    return msg;
  };
  return (
    <SchemaFormDialog<OperatorLoginAsForm>
      open={!!row}
      title={`以该账户登录：${row?.clientid ?? ''}`}
      form={loginAsForm}
      fields={['remark']}
      uiSchema={loginAsUi}
      initial={{ clientid: row?.clientid }}
      save={save}
      onClose={onClose}
      okText="登录"
      errorTestId="login-as-refusal"
    >
      {row && <CustomerSummary row={row} fields={['clientid', 'name', 'userType', 'agent']} />}
      {row && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="login-as-note"
          message={`将在本浏览器打开账户 ${row.clientid} 的控制台，并以该账户身份操作；本浏览器的运营人员登录随即结束（同一浏览器只保持一种登录），返回运营后台需重新登录。登录原因记入审计日志。`}
        />
      )}
    </SchemaFormDialog>
  );
}
