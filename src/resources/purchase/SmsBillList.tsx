/**
 * 短信账单 (/finance/bill; POST /finance/bill/sms, export POST /finance/bill/sms/export): the order
 * lines of the account (an agent: and its sub-accounts), filters of filters/sms-bill.json. The
 * balance change is in yuan for international products, otherwise in pieces.
 */
import { Button, Card, Tooltip, Typography } from 'antd';
import { ExportOutlined } from '@ant-design/icons';
import type { SmsBill } from '@/generated/schemas';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaTable } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { Money } from '@/components/Money/Money';
import { useExport } from './useExport';
import { smsBills } from './data';
import { useScreen } from '@/layout/screens';

export function SmsBillList() {
  const smsBillScreen = useScreen();
  const { tableProps, searchFormProps, params } = useSchemaList<SmsBill>(smsBills);
  const { exporting, run } = useExport('/finance/bill/sms/export', '短信账单.xlsx');
  return (
    <Card title={smsBillScreen.label}>
      <SchemaFilterBar
        filter={smsBills.filter}
        agent
        formProps={searchFormProps}
        extra={
          <Button icon={<ExportOutlined />} loading={exporting} onClick={() => run(params)}>
            导出
          </Button>
        }
      />
      <SchemaTable<SmsBill>
        {...tableProps}
        rowKey={(r) => `${r.order_id}-${r.rownum ?? ''}-${r.product_code ?? ''}`}
        entity={smsBills.entity}
        columns={[
          'order_id',
          'client_id',
          'name',
          'product_name',
          'product_type_str',
          'operator_code_str',
          'area_code_str',
          {
            field: 'unit_price',
            align: 'right',
            // the price charged; the list price and the discount it came from beside it
            render: (v: string, r: SmsBill) =>
              r.list_price && r.list_price !== v ? (
                <Tooltip title={`原价 ${r.list_price} 元 × 折扣 ${r.discount ?? ''}%`}>
                  <span data-testid="bill-unit-price">{v}</span>
                </Tooltip>
              ) : (
                <span data-testid="bill-unit-price">{v}</span>
              ),
          },
          { field: 'order_amount', align: 'right', render: (v: string) => <Money value={v} /> },
          {
            field: 'sms_balance_change_amount',
            align: 'right',
            render: (v: string, r: SmsBill) => (
              <Typography.Text
                type={r.sms_balance_change_flag === '-' ? 'danger' : 'success'}
              >{`${r.sms_balance_change_flag ?? ''}${v ?? ''}`}</Typography.Text>
            ),
          },
          'order_type_str',
          'create_time',
          'due_time',
        ]}
        locale={{ emptyText: '暂无数据' }}
      />
    </Card>
  );
}

export default SmsBillList;
