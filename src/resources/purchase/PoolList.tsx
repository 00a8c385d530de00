/**
 * 剩余条数: an agent's pools and its sub-accounts' (POST /agent/newpools, filters of
 * filters/pool.json), a sub-account's own (GET /client/pools). Unexpired pools with pieces left
 * (international: yuan); 即将过期 within 7 days.
 */
import { Card } from 'antd';
import type { Pool } from '@/generated/schemas';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaTable } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { useCurrentUser } from '@/layout/hooks';
import { isAgent } from '@/providers/access';
import { agentPools, clientPools, poolScreen } from '.';

function Pools({ agent }: { agent: boolean }) {
  const { tableProps, searchFormProps } = useSchemaList<Pool>(agent ? agentPools : clientPools);
  return (
    <>
      {agent && <SchemaFilterBar filter={agentPools.filter} agent formProps={searchFormProps} />}
      <SchemaTable<Pool>
        {...tableProps}
        entity={agentPools.entity}
        columns={[
          ...(agent ? ['client_id', 'client_name'] : []),
          'product_type_str',
          'operator_code_str',
          'area_code_str',
          { field: 'sms_unitprice', align: 'right' },
          { field: 'account_balance', align: 'right' },
          'due_time',
          'dead',
        ]}
        locale={{ emptyText: '暂无数据' }}
      />
    </>
  );
}

export function PoolList() {
  const { user } = useCurrentUser();
  return <Card title={poolScreen.label}>{user && <Pools agent={isAgent(user)} />}</Card>;
}

export default PoolList;
