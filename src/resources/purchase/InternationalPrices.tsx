/**
 * 国际短信价格 (/sms/smspurchaselayout/purchase/international, route service_international):
 * GET /sms/gj/prices (the international send's price table) with a search field over the
 * country / area names, prefix and codes. The list is small and unpaged: searched in the browser.
 */
import { useEffect, useMemo, useState } from 'react';
import { Card, Input, Table } from 'antd';
import type { InternationalPrice } from '@/generated/schemas';
import { schemaColumns } from '@/components/SchemaTable/SchemaTable';
import { get } from '@/providers/http';
import { useScreen } from '@/layout/screens';

const listOf = (data: unknown): InternationalPrice[] => {
  if (Array.isArray(data)) return data as InternationalPrice[];
  const d = data as { list?: InternationalPrice[]; data?: InternationalPrice[] } | undefined;
  return d?.list ?? d?.data ?? [];
};

export function InternationalPrices() {
  const internationalPricesTab = useScreen();
  const [rows, setRows] = useState<InternationalPrice[]>();
  const [search, setSearch] = useState('');
  useEffect(() => {
    get('/sms/gj/prices', undefined, { silent: true })
      .then((b) => setRows(listOf(b.data)))
      .catch(() => setRows([]));
  }, []);
  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    if (!rows || !q) return rows ?? [];
    return rows.filter((r) =>
      [r.intername, r.areaname, r.prefix, r.intercode, r.countryCode, r.countryName].some((v) =>
        String(v ?? '')
          .toLowerCase()
          .includes(q),
      ),
    );
  }, [rows, search]);
  return (
    <Card title={internationalPricesTab.label}>
      <Input.Search
        allowClear
        placeholder="国家/地区、国际代码"
        style={{ width: 320, marginBottom: 16 }}
        onSearch={setSearch}
        onChange={(e) => !e.target.value && setSearch('')}
        aria-label="搜索国家/地区"
      />
      <Table<InternationalPrice>
        rowKey={(r) => `${r.intercode ?? ''}-${r.prefix ?? ''}-${r.intername}`}
        size="middle"
        loading={!rows}
        dataSource={shown}
        pagination={{ pageSize: 15, hideOnSinglePage: true, showSizeChanger: false }}
        columns={schemaColumns<InternationalPrice>('entities/international-price', [
          'areaname',
          'intername',
          'intercode',
          'prefix',
          { field: 'fee', align: 'right' },
        ])}
        locale={{ emptyText: '暂无数据' }}
      />
    </Card>
  );
}

export default InternationalPrices;
