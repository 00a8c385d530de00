/** The countries of the checked international numbers: count and price per piece. */
import { Table } from 'antd';
import type { CountryCount } from './api';

export function CountryTable({ countries }: { countries: CountryCount[] }) {
  return (
    <Table
      size="small"
      rowKey="intercode"
      pagination={countries.length > 10 ? { pageSize: 10 } : false}
      dataSource={countries}
      data-testid="country-table"
      columns={[
        { title: '国家/地区', dataIndex: 'countryName' },
        { title: '国际区号', dataIndex: 'countryCode', render: (v: string) => `+${v}` },
        { title: '号码数', dataIndex: 'num' },
        { title: '单价（元/条）', dataIndex: 'fee' },
      ]}
    />
  );
}
