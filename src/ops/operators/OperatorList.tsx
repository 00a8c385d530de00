/**
 * 运营人员 (/ops/operators): every operator with its role, status, second factor, creation and last
 * login (entities/operator.json). Adding one is `npm run cli -- operator-add` (the card says so).
 */
import { Card, Typography } from 'antd';
import type { Operator } from '@/generated/schemas';
import { SchemaTable } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { operators, operatorsScreen } from '.';

export default function OperatorList() {
  const { tableProps } = useSchemaList<Operator>(operators, { pagination: { mode: 'off' } });
  return (
    <Card title={operatorsScreen.label}>
      <Typography.Paragraph type="secondary">
        新增运营人员：在服务器上执行 <Typography.Text code>npm run cli -- operator-add 登录名 密码 角色</Typography.Text>
        （管理员默认开启动态验证码）。
      </Typography.Paragraph>
      <SchemaTable<Operator> {...tableProps} entity={operators.entity} columns={['name', 'role', 'status', 'totpEnabled', 'lastLoginAt', 'createdAt']} />
    </Card>
  );
}
