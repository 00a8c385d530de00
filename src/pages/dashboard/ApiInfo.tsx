/** 接口信息 of the account itself (POST /account/getAccountInfo): the real doors, account, masked interface password with reset, settings. */
import { Card } from 'antd';
import { useCustom } from '@refinedev/core';
import { InterfaceInfoView, type InterfaceInfoData } from '@/resources/subaccounts/InterfaceInfo';

export function ApiInfo() {
  const { result, query } = useCustom<InterfaceInfoData>({
    url: '/account/getAccountInfo',
    method: 'post',
    meta: { silent: true },
  });
  // an answer without the doors (a proxy's error page, an older server) shows nothing rather than crashing the home page
  const a = result.data as Partial<InterfaceInfoData> | undefined;
  const info = a && Array.isArray(a.doors) ? (a as InterfaceInfoData) : undefined;
  return (
    <Card title="接口信息" style={{ marginTop: 16 }} loading={query.isLoading} data-testid="api-info">
      {info && <InterfaceInfoView info={{ ...info, editable: false }} />}
    </Card>
  );
}

export default ApiInfo;
