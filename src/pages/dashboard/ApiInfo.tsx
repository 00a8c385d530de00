/** 接口信息 of the account itself (POST /account/getAccountInfo): the real doors, account, masked interface password with reset, settings. */
import { Card } from 'antd';
import { useCustom } from '@refinedev/core';
import { InterfaceInfoView, type InterfaceInfoData } from '@/resources/subaccounts/InterfaceInfo';

export function ApiInfo() {
  const { result, query } = useCustom<InterfaceInfoData>({ url: '/account/getAccountInfo', method: 'post', meta: { silent: true } });
  const a = result.data as InterfaceInfoData | undefined;
  return (
    <Card title="接口信息" style={{ marginTop: 16 }} loading={query.isLoading} data-testid="api-info">
      {a && <InterfaceInfoView info={{ ...a, editable: false }} />}
    </Card>
  );
}

export default ApiInfo;
