/**
 * 运营人员 (/ops/operators): every operator with its role, status, second factor, creation and last
 * login (entities/operator.json). 新增运营人员 opens its dialog (OperatorDialogs: the TOTP secret of
 * the one added is shown once); each row may be 停用 (its logins end at once) or 启用, asked first.
 * The server's answer is shown (状态已更新, or its refusal: 不能停用自己 for one's own row), then the
 * list is asked again.
 */
import { useState } from 'react';
import { App, Button, Card, Popconfirm } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { OperatorStatus, type Operator, type OperatorAdded } from '@/generated/schemas';
import { SchemaTable } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { OperatorAddDialog, OperatorAddedDialog } from './OperatorDialogs';
import { operatorApi } from './api';
import { operators } from './data';
import { useScreen } from '@/layout/screens';

export default function OperatorList() {
  const operatorsScreen = useScreen();
  const { message } = App.useApp();
  const { tableProps, tableQuery } = useSchemaList<Operator>(operators, { pagination: { mode: 'off' } });
  const [adding, setAdding] = useState(false);
  const [added, setAdded] = useState<{ added: OperatorAdded; msg?: string } | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const refresh = () => void tableQuery.refetch();

  const setStatus = async (o: Operator, status: OperatorStatus) => {
    setBusy(o.id);
    try {
      const msg = await operatorApi.setStatus(o.id, status);
      if (msg) message.success(msg);
    } catch {
      // toasted by the HTTP client (不能停用自己)
    } finally {
      setBusy(null);
      refresh();
    }
  };

  const action = (o: Operator) => {
    const disable = o.status === OperatorStatus.Active;
    return (
      <Popconfirm
        title={disable ? `确定停用 ${o.name} 吗？其登录立即结束，且不能再登录。` : `确定启用 ${o.name} 吗？`}
        okText={disable ? '停用' : '启用'}
        cancelText="取消"
        onConfirm={() => void setStatus(o, disable ? OperatorStatus.Disabled : OperatorStatus.Active)}
      >
        <Button type="link" size="small" danger={disable} loading={busy === o.id}>
          {disable ? '停用' : '启用'}
        </Button>
      </Popconfirm>
    );
  };

  return (
    <Card
      title={operatorsScreen.label}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
          新增运营人员
        </Button>
      }
    >
      <SchemaTable<Operator>
        {...tableProps}
        entity={operators.entity}
        columns={['name', 'role', 'status', 'totpEnabled', 'lastLoginAt', 'createdAt']}
        extraColumns={[
          { key: 'actions', title: '操作', fixed: 'right', width: 90, render: (_: unknown, o: Operator) => action(o) },
        ]}
      />
      <OperatorAddDialog
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={(a, msg) => {
          setAdding(false);
          setAdded({ added: a, msg });
          refresh();
        }}
      />
      <OperatorAddedDialog added={added?.added ?? null} msg={added?.msg} onClose={() => setAdded(null)} />
    </Card>
  );
}
