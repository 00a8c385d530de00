/**
 * 消费记录 (/finance/record): package mode (operation_mode 1) lists the package orders (POST
 * /finance/bill/purchaseHistory, filters/purchase-record.json; unit price for agents only); direct
 * mode (0) lists the ledger rows of sub-account recharge, rollback, failure return and consumption
 * (POST /finance/bill/direct/purchaseHistory, filters/direct-purchase-record.json). Both export.
 */
import { Button, Card } from 'antd';
import { ExportOutlined } from '@ant-design/icons';
import type { DirectPurchaseRecord, PurchaseRecord } from '@/generated/schemas';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaTable } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { Money } from '@/components/Money/Money';
import { useCurrentUser } from '@/layout/hooks';
import { isAgent, isDirectChargeMode } from '@/providers/access';
import { useExport } from './useExport';
import { directPurchaseRecords, purchaseRecords } from './data';
import { useScreen } from '@/layout/screens';

function PackageRecords({ agent }: { agent: boolean }) {
  const { tableProps, searchFormProps, params } = useSchemaList<PurchaseRecord>(purchaseRecords);
  const { exporting, run } = useExport('/finance/bill/purchaseHistory/export', '消费记录.xlsx');
  return (
    <>
      <SchemaFilterBar
        filter={purchaseRecords.filter}
        agent={agent}
        formProps={searchFormProps}
        extra={
          <Button icon={<ExportOutlined />} loading={exporting} onClick={() => run(params)}>
            导出
          </Button>
        }
      />
      <SchemaTable<PurchaseRecord>
        {...tableProps}
        rowKey="rownum"
        entity={purchaseRecords.entity}
        columns={[
          { field: 'rownum', width: 64 },
          'client_id',
          'name',
          'orderTypeStr',
          'productTypeStr',
          'operatorCodeStr',
          'areaCodeStr',
          ...(agent ? [{ field: 'unit_price', align: 'right' as const }] : []),
          { field: 'order_number', align: 'right' },
          'due_time',
          'consumer_date',
          'create_time',
        ]}
        locale={{ emptyText: '暂无数据' }}
      />
    </>
  );
}

function DirectRecords({ agent }: { agent: boolean }) {
  const { tableProps, searchFormProps, params } = useSchemaList<DirectPurchaseRecord>(directPurchaseRecords);
  const { exporting, run } = useExport('/finance/bill/direct/purchaseHistory/export', '消费记录.xlsx');
  return (
    <>
      <SchemaFilterBar
        filter={directPurchaseRecords.filter}
        agent={agent}
        formProps={searchFormProps}
        extra={
          <Button icon={<ExportOutlined />} loading={exporting} onClick={() => run(params)}>
            导出
          </Button>
        }
      />
      <SchemaTable<DirectPurchaseRecord>
        {...tableProps}
        rowKey={(r) => String((r as { id?: number }).id ?? r.rownum)}
        entity={directPurchaseRecords.entity}
        columns={[
          { field: 'rownum', width: 64 },
          'clientid',
          'realname',
          'payment_type_str',
          { field: 'amount', align: 'right', render: (v: string) => <Money value={v} signed /> },
          'consumerDate',
          'create_time',
          'remark',
        ]}
        locale={{ emptyText: '暂无数据' }}
      />
    </>
  );
}

export function PurchaseRecordList() {
  const purchaseRecordScreen = useScreen();
  const { user } = useCurrentUser();
  return (
    <Card title={purchaseRecordScreen.label}>
      {user &&
        (isDirectChargeMode(user) ? <DirectRecords agent={isAgent(user)} /> : <PackageRecords agent={isAgent(user)} />)}
    </Card>
  );
}

export default PurchaseRecordList;
