/**
 * 客户 (/ops/customers, POST /operator/customers/list): the agents and sub-accounts, newest first,
 * with the filter bar of filters/operator-customer.json and the columns of
 * entities/operator-customer.json (a login lock shows beside the status). The row actions:
 * - 冻结 (an active account) / 解冻 (a frozen one): a dialog with a remark for the audit log;
 * - 解除锁定 (a locked login): asked first;
 * - 调整额度 (agents): a signed amount and a remark, asked once more;
 * - 重置密码 (更多): asked first, saying where the new password is mailed;
 * - 以该账户登录 (更多, an active account): its reason, then the account's console in this browser
 *   (the operator's session ends: the dialog says so first).
 * Each shows the server's answer (its success, or its refusal: in the dialog, else toasted by the
 * HTTP client), then the list is asked again.
 */
import { useCallback, useState } from 'react';
import { App, Button, Card, Dropdown, Popconfirm, Space, Tag } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import { AccountStatus, UserType, type OperatorCustomer } from '@/generated/schemas';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaTable, type SchemaColumn } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { enumOptions, schemas } from '@/schema';
import { CreditDialog, FreezeDialog, LoginAsDialog } from './CustomerDialogs';
import { customerApi } from './api';
import { operatorCustomers } from './data';
import { useScreen } from '@/layout/screens';

type DialogKind = 'freeze' | 'unfreeze' | 'credit' | 'loginAs';

/** 用户类型 offers the accounts' kinds only (an operator is never a customer) */
const userTypeOptions = () =>
  enumOptions('user-type')
    .filter((o) => String(o.value) !== UserType.Operator)
    .map((o) => ({ value: o.value, label: o.label }));

const lockedTitle = () => schemas.field(operatorCustomers.entity, 'locked')?.title ?? '';

const columns: (string | SchemaColumn<OperatorCustomer>)[] = [
  'clientid',
  'userType',
  'agent',
  'name',
  'mobile',
  'email',
  'operationMode',
  'balance',
  {
    field: 'status',
    render: (_v, r, _i, cell) => (
      <Space size={4}>
        {cell}
        {r.locked && (
          <Tag color="orange" data-testid="login-locked">
            {lockedTitle()}
          </Tag>
        )}
      </Space>
    ),
  },
  'oauthStatus',
  'createTime',
];

export default function CustomerList() {
  const customersScreen = useScreen();
  const { message, modal } = App.useApp();
  const { tableProps, searchFormProps, tableQuery } = useSchemaList<OperatorCustomer>(operatorCustomers);
  const [dialog, setDialog] = useState<{ kind: DialogKind; row: OperatorCustomer } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const done = useCallback(() => void tableQuery.refetch(), [tableQuery]);
  const close = () => setDialog(null);
  const rowOf = (kind: DialogKind) => (dialog?.kind === kind ? dialog.row : null);

  /** a confirmed action: its answer toasted (a refusal by the HTTP client), then the list again */
  const run = async (key: string, call: () => Promise<string | undefined>) => {
    setBusy(key);
    try {
      const msg = await call();
      if (msg) message.success(msg);
    } catch {
      // toasted by the HTTP client
    } finally {
      setBusy(null);
      done();
    }
  };

  const resetPassword = (r: OperatorCustomer) => {
    modal.confirm({
      title: `重置账户 ${r.clientid} 的密码？`,
      content: (
        <span data-testid="reset-confirm">{`系统生成新密码（10 位字母和数字）并发送至该账户的邮箱${r.email ? ` ${r.email}` : ''}，该账户的所有登录随即结束。`}</span>
      ),
      okText: '重置密码',
      cancelText: '取消',
      onOk: () => run(`reset:${r.clientid}`, () => customerApi.resetPassword(r.clientid)),
    });
  };

  const actions = (r: OperatorCustomer) => (
    <Space size={0}>
      {r.status === AccountStatus.Active && (
        <Button type="link" size="small" danger onClick={() => setDialog({ kind: 'freeze', row: r })}>
          冻结
        </Button>
      )}
      {r.status === AccountStatus.Frozen && (
        <Button type="link" size="small" onClick={() => setDialog({ kind: 'unfreeze', row: r })}>
          解冻
        </Button>
      )}
      {r.locked && (
        <Popconfirm
          title={`确定解除账户 ${r.clientid} 的登录锁定吗？`}
          okText="解除锁定"
          cancelText="取消"
          onConfirm={() => void run(`unlock:${r.clientid}`, () => customerApi.unlock(r.clientid))}
        >
          <Button type="link" size="small" loading={busy === `unlock:${r.clientid}`}>
            解除锁定
          </Button>
        </Popconfirm>
      )}
      {r.userType === UserType.Agent && (
        <Button type="link" size="small" onClick={() => setDialog({ kind: 'credit', row: r })}>
          调整额度
        </Button>
      )}
      <Dropdown
        trigger={['click']}
        menu={{
          items: [
            { key: 'reset', label: '重置密码', onClick: () => resetPassword(r) },
            {
              key: 'loginAs',
              label: '以该账户登录',
              disabled: r.status !== AccountStatus.Active,
              onClick: () => setDialog({ kind: 'loginAs', row: r }),
            },
          ],
        }}
      >
        <Button type="link" size="small" loading={busy === `reset:${r.clientid}`}>
          更多 <DownOutlined />
        </Button>
      </Dropdown>
    </Space>
  );

  return (
    <Card title={customersScreen.label}>
      <SchemaFilterBar
        filter={operatorCustomers.filter}
        formProps={searchFormProps}
        fieldProps={{ userType: { options: userTypeOptions() } }}
      />
      <SchemaTable<OperatorCustomer>
        {...tableProps}
        entity={operatorCustomers.entity}
        columns={columns}
        extraColumns={[
          {
            key: 'actions',
            title: '操作',
            fixed: 'right',
            width: 260,
            render: (_: unknown, r: OperatorCustomer) => actions(r),
          },
        ]}
      />
      <FreezeDialog row={rowOf('freeze')} freeze onClose={close} done={done} />
      <FreezeDialog row={rowOf('unfreeze')} freeze={false} onClose={close} done={done} />
      <CreditDialog row={rowOf('credit')} onClose={close} done={done} />
      <LoginAsDialog row={rowOf('loginAs')} onClose={close} done={done} />
    </Card>
  );
}
