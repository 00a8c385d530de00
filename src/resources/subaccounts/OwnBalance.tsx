/**
 * 账户余额 (/customer/finance/balance, sub-accounts): the account's own balance and its ledger; a
 * postpaid account is told it is billed through its agent (its balance is not what pays), a
 * direct-charge one that it pays per message from this balance.
 */
import { useEffect, useState } from 'react';
import { Alert, Card, Statistic, Table } from 'antd';
import { EnumTag } from '@/components/EnumTag/EnumTag';
import { Money } from '@/components/Money/Money';
import { ApiError } from '@/providers/http';
import { billingNote } from '@/providers/access';
import { OperationMode, UserType } from '@/generated/schemas';
import { useCurrentUser } from '@/layout/hooks';
import { subAccountApi } from './api';
import { useScreen } from '@/layout/screens';

interface Own {
  clientid: string;
  name: string;
  balance: string;
  paytype?: number;
  paytype_str: string;
  list: {
    id: number;
    amount: string;
    balance_after: string;
    kind: number;
    kind_str: string;
    remark: string;
    created_at: string;
  }[];
}

export default function OwnBalance() {
  const ownBalanceScreen = useScreen();
  const [own, setOwn] = useState<Own>();
  const [error, setError] = useState<string>();
  const { user } = useCurrentUser();
  useEffect(() => {
    subAccountApi
      .ownLedger()
      .then((b) => setOwn(b.data as Own))
      .catch((e) => setError(e instanceof ApiError ? e.body.msg : '接口异常'));
  }, []);
  if (error) return <Alert type="error" showIcon message={error} />;
  // this page is a sub-account's own: its paytype is in the answer, the mode in the session
  const note =
    own &&
    billingNote({
      operation_mode: user?.operation_mode ?? OperationMode.Package,
      userType: UserType.SubAccount,
      paytype: own.paytype ?? user?.paytype,
    });
  return (
    <Card title={ownBalanceScreen.label} loading={!own} data-testid="own-balance">
      {own && (
        <>
          <Statistic
            title={`${own.name}（${own.clientid}）· ${own.paytype_str}`}
            valueRender={() => <Money value={own.balance} />}
          />
          {note && <Alert style={{ marginTop: 16 }} type="info" showIcon data-testid="billing-note" message={note} />}
          <Table
            style={{ marginTop: 16 }}
            rowKey="id"
            size="middle"
            dataSource={own.list}
            pagination={false}
            locale={{ emptyText: '暂无数据' }}
            columns={[
              { title: '时间', dataIndex: 'created_at' },
              {
                title: '类型',
                dataIndex: 'kind',
                render: (v, r) => <EnumTag enumName="bill-payment-type" value={v} fallback={r.kind_str} plain />,
              },
              { title: '金额(元)', dataIndex: 'amount', align: 'right', render: (v) => <Money value={v} signed /> },
              { title: '余额(元)', dataIndex: 'balance_after', align: 'right', render: (v) => <Money value={v} /> },
              { title: '备注', dataIndex: 'remark', render: (v) => v || '-' },
            ]}
          />
        </>
      )}
    </Card>
  );
}
