/**
 * 发票记录 (/finance/invoice/add/list, finance_invoice_list, POST /invoice/invoiceList): the
 * filters of filters/invoice.json (date pickers forbid the days after now − 8.64e6 ms, as coded in
 * the original), the table of entities/invoice, and per row:
 * - 详情: the detail dialog (POST /invoice/invoiceDetailed, SchemaDescriptions of entities/invoice:
 *   the rejection / return reason and the express info when present);
 * - 取消: only at status 0 (待审核), after a confirmation; posts id, invoiceId, status, updateTime;
 * - 快递信息: a mailed (4) VAT invoice's express company and number.
 * An agent's list also has the invoices it applied for on behalf of its sub-accounts: agents see the
 * 开票账户 column (the invoice's account, `accountStr`).
 */
import { useState } from 'react';
import { App, Button, Card, Modal, Space, Typography } from 'antd';
import { useNavigate } from 'react-router';
import type { Dayjs } from 'dayjs';
import { InvoiceStatus, InvoiceType, type Invoice } from '@/generated/schemas';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaTable, type SchemaColumn } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { SchemaDescriptions } from '@/components/SchemaDescriptions';
import { Money } from '@/components/Money/Money';
import { useCurrentUser } from '@/layout/hooks';
import { isAgent } from '@/providers/access';
import { INVOICE_MESSAGES, invoiceApi, invoiceDateDisabled } from './api';
import { invoices } from './data';
import { useScreen } from '@/layout/screens';

const dateProps = { disabledDate: (d: Dayjs) => invoiceDateDisabled(d) };

const hasExpress = (r: Invoice) =>
  r.status === InvoiceStatus.Mailed && r.invoiceType === InvoiceType.ElectronicVatSpecial;

export function ExpressInfo({ invoice }: { invoice: Invoice }) {
  return (
    <Space direction="vertical" size={4} data-testid="express-info">
      <span>快递公司：{invoice.expressCompanyStr || '-'}</span>
      <span>
        快递单号：{invoice.expressOrder ? <Typography.Text copyable>{invoice.expressOrder}</Typography.Text> : '-'}
      </span>
    </Space>
  );
}

export default function InvoiceList() {
  const invoiceListScreen = useScreen();
  const invoiceApplyScreen = useScreen('finance_invoice_add');
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const { user } = useCurrentUser();
  const agent = isAgent(user);
  const [detail, setDetail] = useState<Invoice | null>(null);
  const { tableProps, searchFormProps, tableQuery } = useSchemaList<Invoice>(invoices);

  const openDetail = async (r: Invoice) => {
    const body = await invoiceApi.detail(r.id, r.invoiceType);
    setDetail(body.data ?? null);
  };

  const cancel = (r: Invoice) =>
    modal.confirm({
      title: '提示',
      content: INVOICE_MESSAGES.cancelConfirm,
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        try {
          const body = await invoiceApi.cancel(r);
          message.success(body.msg || INVOICE_MESSAGES.cancelled);
        } finally {
          void tableQuery.refetch();
        }
      },
    });

  const express = (r: Invoice) =>
    modal.info({ title: '快递信息', content: <ExpressInfo invoice={r} />, okText: '关闭' });

  const columns: (string | SchemaColumn<Invoice>)[] = [
    { field: 'rowNum', width: 64 },
    'invoiceId',
    ...(agent ? ['accountStr'] : []),
    'invoiceType',
    { field: 'invoiceAmount', render: (v: string) => <Money value={v} /> },
    'invoiceProject',
    'invoiceBody',
    'invoiceHead',
    { field: 'status', labelField: 'statusStr' },
    'createTimeStr',
    'updateTimeStr',
  ];

  return (
    <Card title={invoiceListScreen.label}>
      <SchemaFilterBar
        filter={invoices.filter}
        formProps={searchFormProps}
        fieldProps={{ startTime: dateProps, endTime: dateProps }}
        extra={
          <Button type="primary" onClick={() => navigate(invoiceApplyScreen.path)}>
            申请发票
          </Button>
        }
      />
      <SchemaTable<Invoice>
        {...tableProps}
        rowKey="id"
        entity={invoices.entity}
        columns={columns}
        locale={{ emptyText: '暂无数据' }}
        extraColumns={[
          {
            key: 'actions',
            title: '操作',
            fixed: 'right',
            render: (_: unknown, r: Invoice) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => void openDetail(r)}>
                  详情
                </Button>
                {r.status === InvoiceStatus.Pending && (
                  <Button type="link" size="small" danger onClick={() => cancel(r)}>
                    取消
                  </Button>
                )}
                {hasExpress(r) && (
                  <Button type="link" size="small" onClick={() => express(r)}>
                    快递信息
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={!!detail}
        title="发票详情"
        width={720}
        footer={null}
        onCancel={() => setDetail(null)}
        destroyOnHidden
      >
        {detail && (
          <SchemaDescriptions<Invoice>
            entity={invoices.entity}
            record={detail}
            column={2}
            size="small"
            data-testid="invoice-detail"
          />
        )}
      </Modal>
    </Card>
  );
}
