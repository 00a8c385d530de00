/**
 * 返点账单 (/finance/rebate; GET /finance/bill/rebate, export POST /finance/bill/rebate/export):
 * usable rebate, accumulated income and pay, and the rebate rows (income / deduction).
 */
import { useEffect, useState } from 'react';
import { Button, Card, Space, Statistic } from 'antd';
import { ExportOutlined } from '@ant-design/icons';
import type { RebateBill } from '@/generated/schemas';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaTable } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { Money } from '@/components/Money/Money';
import { get } from '@/providers/http';
import { useExport } from './useExport';
import { rebateBills } from './data';
import { useScreen } from '@/layout/screens';

interface Figures {
  rebate_income: string;
  accumulated_rebate_income: string;
  accumulated_rebate_pay: string;
}

export function RebateBillList() {
  const rebateBillScreen = useScreen();
  const { tableProps, searchFormProps, params } = useSchemaList<RebateBill>(rebateBills);
  const { exporting, run } = useExport('/finance/bill/rebate/export', '返点账单.xlsx');
  const [figures, setFigures] = useState<Figures>();
  useEffect(() => {
    get<Figures>('/finance/bill/rebate', { pageRowCount: 1 })
      .then((b) => setFigures(b.data))
      .catch(() => undefined);
  }, []);
  return (
    <Card title={rebateBillScreen.label}>
      <Space size={48} style={{ marginBottom: 16 }} data-testid="rebate-figures">
        <Statistic title="可用返点" valueRender={() => <Money value={figures?.rebate_income} />} />
        <Statistic title="累计返点收入" valueRender={() => <Money value={figures?.accumulated_rebate_income} />} />
        <Statistic title="累计返点支出" valueRender={() => <Money value={figures?.accumulated_rebate_pay} />} />
      </Space>
      <SchemaFilterBar
        filter={rebateBills.filter}
        agent
        formProps={searchFormProps}
        extra={
          <Button icon={<ExportOutlined />} loading={exporting} onClick={() => run(params)}>
            导出
          </Button>
        }
      />
      <SchemaTable<RebateBill>
        {...tableProps}
        entity={rebateBills.entity}
        columns={[
          'create_time',
          'financial_type',
          'payment_type_str',
          { field: 'balance', align: 'right', render: (v: string) => <Money value={v} signed /> },
          { field: 'balance_after', align: 'right', render: (v: string) => <Money value={v} /> },
          'order_id',
          'remark',
        ]}
        locale={{ emptyText: '暂无数据' }}
      />
    </Card>
  );
}

export default RebateBillList;
