/** 接口信息 of a sub-account (POST /account/getAccountInfo): address, account, masked password, type, speed, protocol, node. */
import { Card, Descriptions } from 'antd';
import { useCustom } from '@refinedev/core';
import type { AccountInfo } from './api';

export function ApiInfo() {
  const { result, query } = useCustom<AccountInfo>({ url: '/account/getAccountInfo', method: 'post', meta: { silent: true } });
  const a = result.data as AccountInfo | undefined;
  return (
    <Card title="接口信息" style={{ marginTop: 16 }} loading={query.isLoading} data-testid="api-info">
      {a && (
        <Descriptions column={{ xs: 1, sm: 2, lg: 4 }} size="small">
          <Descriptions.Item label="接口地址">{`${a.ipAddress}:${a.port}`}</Descriptions.Item>
          <Descriptions.Item label="账号">{a.clientid}</Descriptions.Item>
          <Descriptions.Item label="密码">{a.password}</Descriptions.Item>
          <Descriptions.Item label="短信类型">{a.smstype_str}</Descriptions.Item>
          <Descriptions.Item label="速度">{`${a.accessSpeed} 条/秒`}</Descriptions.Item>
          <Descriptions.Item label="协议">{a.smsfrom_str}</Descriptions.Item>
          <Descriptions.Item label="接入号">{a.nodenum || '-'}</Descriptions.Item>
        </Descriptions>
      )}
    </Card>
  );
}

export default ApiInfo;
