/**
 * 接口信息 (issues 24, 36): what a customer's system connects to — the doors this server really has
 * (SMPP, CMPP, SMGP and SGIP on their real ports or 未开通, the SGIP listener the platform binds back to, the HTTP API's base URL), the login of each (CMPP's
 * is at most 6 characters: a longer clientid has a short login of its own), the masked interface
 * password with its reset (shown once), the whitelist, speed and report modes — and the agent's edit
 * of a sub-account's interface settings (forms/sub-account-interface, POST /client/account/interface).
 * Used by the agent's dialog in 子账户管理 and by the account's own home card.
 */
import { useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Descriptions, Popconfirm, Space, Tag, Typography } from 'antd';
import { SchemaFormDialog } from '@/components/SchemaForm/SchemaFormDialog';
import interfaceForm from '@/generated/forms/sub-account-interface';
import { NeedMo, NeedReport, type NeedExtend, type SubAccountInterfaceForm } from '@/generated/schemas';
import { postForm } from '@/providers/http';
import { schemaUi } from '@/schema';
import { MESSAGES } from '../../../common/schema/messages';

export interface InterfaceDoor {
  protocol: 'SMPP' | 'CMPP' | 'SMGP' | 'SGIP' | 'HTTP';
  enabled: boolean;
  host: string;
  port: number;
  url: string;
  /** what the account logs in with on this door ('' when it has none yet: a reset of the interface password gives one) */
  login: string;
}

/** POST /account/getAccountInfo (docs/api-subaccounts.md "Interface settings") */
export interface InterfaceInfoData {
  clientid: string;
  ipAddress: string;
  port: number;
  smsfrom_str: string;
  smsfromEnabled: boolean;
  smstype_str: string;
  nodenum: string;
  accessSpeed: number;
  password: string;
  passwordSet: boolean;
  doors: InterfaceDoor[];
  ip: string;
  needreport: NeedReport;
  needreport_str: string;
  deliveryurl: string;
  needmo: NeedMo;
  needmo_str: string;
  mourl: string;
  needextend: NeedExtend;
  needextend_str: string;
  /** the customer's SGIP listener the platform binds back to ('' host: none) */
  sgipCallbackHost: string;
  sgipCallbackPort: number;
  sgipCallbackUser: string;
  sgipCallbackPassword: string;
  editable: boolean;
}

export const interfaceApi = {
  info: (clientId?: string) => postForm<InterfaceInfoData>('/account/getAccountInfo', clientId ? { clientId } : {}),
  resetPassword: (clientId?: string) =>
    postForm<{ clientid: string; password: string }>(
      '/client/account/resetInterfacePassword',
      clientId ? { clientId } : {},
    ),
  save: (v: SubAccountInterfaceForm) =>
    postForm<InterfaceInfoData>('/client/account/interface', { ...v, ip: v.ip ?? '' }, { silent: true }),
};

const OFF = '未开通';

/** the label of a door's address */
export const doorLabel = (d: InterfaceDoor) => (d.protocol === 'HTTP' ? 'HTTP接口地址' : `${d.protocol}接入地址`);

/** "地址：端口" of a door, its URL for HTTP, or 未开通 */
export function doorText(d: InterfaceDoor): string {
  if (!d.enabled) return OFF;
  return d.protocol === 'HTTP' ? d.url : `${d.host}:${d.port}`;
}

/** The lines 复制 copies (never the password). */
export function interfaceCopyText(info: InterfaceInfoData): string {
  const lines = [
    ...info.doors.map((d) => `${doorLabel(d)}：${doorText(d)}`),
    `账号：${info.clientid}`,
    ...info.doors
      .filter((d) => d.enabled && d.login && d.login !== info.clientid)
      .map((d) => `${d.protocol}登录名：${d.login}`),
    `速率(条/秒)：${info.accessSpeed}`,
  ];
  if (info.ip) lines.push(`IP白名单：${info.ip}`);
  return lines.join('\n');
}

/**
 * The interface info as read; 重置接口密码 (confirmed) shows the new password once. `clientId`:
 * the agent's sub-account (none: the caller's own account).
 */
export function InterfaceInfoView({
  info,
  clientId,
  onEdit,
  extra,
}: {
  info: InterfaceInfoData;
  clientId?: string;
  onEdit?: () => void;
  extra?: ReactNode;
}) {
  const [fresh, setFresh] = useState<string>();
  const [resetting, setResetting] = useState(false);
  const reset = async () => {
    setResetting(true);
    try {
      setFresh((await interfaceApi.resetPassword(clientId)).data?.password);
    } catch {
      /* toasted */
    } finally {
      setResetting(false);
    }
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="interface-info">
      {fresh && (
        <Alert
          type="success"
          showIcon
          data-testid="interface-password-fresh"
          message={MESSAGES.interfacePasswordReset}
          description={
            <Typography.Text copyable strong>
              {fresh}
            </Typography.Text>
          }
        />
      )}
      <Descriptions column={1} bordered size="small">
        {info.doors.map((d) => (
          <Descriptions.Item key={d.protocol} label={doorLabel(d)}>
            {d.enabled ? (
              <Space size="small" wrap>
                <Typography.Text copyable>{doorText(d)}</Typography.Text>
                {d.protocol !== 'HTTP' && d.login !== info.clientid && (
                  <Typography.Text type="secondary" data-testid={`${d.protocol.toLowerCase()}-login`}>
                    {d.login ? `登录名 ${d.login}` : '登录名：重置接口密码后生成'}
                  </Typography.Text>
                )}
              </Space>
            ) : (
              <Tag data-testid={`${d.protocol.toLowerCase()}-off`}>{OFF}</Tag>
            )}
          </Descriptions.Item>
        ))}
        <Descriptions.Item label="协议">
          {info.smsfrom_str}
          {!info.smsfromEnabled && (
            <Tag color="warning" style={{ marginLeft: 8 }}>
              本平台{OFF}，请使用已开通的接入方式
            </Tag>
          )}
        </Descriptions.Item>
        <Descriptions.Item label="账号">{info.clientid}</Descriptions.Item>
        <Descriptions.Item label="接口密码">
          <Space>
            <span data-testid="interface-password">{info.passwordSet ? info.password : '未设置'}</span>
            <Popconfirm title="重置后旧的接口密码立即失效（已连接的会话不受影响），确定重置？" onConfirm={reset}>
              <Button type="link" size="small" loading={resetting}>
                重置接口密码
              </Button>
            </Popconfirm>
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label="短信类型">{info.smstype_str}</Descriptions.Item>
        <Descriptions.Item label="速率(条/秒)">{info.accessSpeed}</Descriptions.Item>
        <Descriptions.Item label="最大连接数">{info.nodenum || '不限'}</Descriptions.Item>
        <Descriptions.Item label="IP白名单">{info.ip || '不限制'}</Descriptions.Item>
        <Descriptions.Item label="状态报告">
          {info.needreport_str}
          {info.needreport === NeedReport.SimplePush && info.deliveryurl ? `（${info.deliveryurl}）` : ''}
        </Descriptions.Item>
        <Descriptions.Item label="上行">
          {info.needmo_str}
          {info.needmo === NeedMo.Push && info.mourl ? `（${info.mourl}）` : ''}
        </Descriptions.Item>
        <Descriptions.Item label="扩展号">{info.needextend_str}</Descriptions.Item>
        <Descriptions.Item label="SGIP回调">
          <span data-testid="sgip-callback">
            {info.sgipCallbackHost
              ? `${info.sgipCallbackHost}:${info.sgipCallbackPort}（登录名 ${info.sgipCallbackUser || '无'}）`
              : '不推送'}
          </span>
        </Descriptions.Item>
      </Descriptions>
      {(onEdit || extra) && (
        <Space>
          {onEdit && info.editable && (
            <Button type="primary" onClick={onEdit}>
              修改接口设置
            </Button>
          )}
          {extra}
        </Space>
      )}
    </Space>
  );
}

const EDIT_FIELDS = [
  'ip',
  'accessSpeed',
  'nodenum',
  'needreport',
  'deliveryurl',
  'needmo',
  'mourl',
  'needextend',
  'sgipCallbackHost',
  'sgipCallbackPort',
  'sgipCallbackUser',
  'sgipCallbackPassword',
];

/** The agent edits a sub-account's interface settings; `onSaved` gets the new info. */
export function InterfaceEditDialog({
  info,
  open,
  onClose,
  onSaved,
}: {
  info: InterfaceInfoData | undefined;
  open: boolean;
  onClose: () => void;
  onSaved: (info: InterfaceInfoData) => void;
}) {
  const saved = useRef<InterfaceInfoData>(undefined);
  return (
    <SchemaFormDialog<SubAccountInterfaceForm>
      open={open && !!info}
      title="修改接口设置"
      form={interfaceForm}
      fields={EDIT_FIELDS}
      uiSchema={schemaUi('forms/sub-account-interface')}
      initial={
        info
          ? {
              clientId: info.clientid,
              ip: info.ip,
              accessSpeed: info.accessSpeed,
              nodenum: info.nodenum,
              needreport: info.needreport,
              deliveryurl: info.deliveryurl,
              needmo: info.needmo,
              mourl: info.mourl,
              needextend: info.needextend,
              sgipCallbackHost: info.sgipCallbackHost,
              sgipCallbackPort: info.sgipCallbackPort || undefined,
              sgipCallbackUser: info.sgipCallbackUser,
              sgipCallbackPassword: info.sgipCallbackPassword,
            }
          : {}
      }
      save={async (v) => {
        const body = await interfaceApi.save(v);
        saved.current = body.data;
        return body.msg ?? MESSAGES.interfaceSaved;
      }}
      onClose={onClose}
      onDone={() => saved.current && onSaved(saved.current)}
      errorTestId="interface-edit-error"
    />
  );
}
