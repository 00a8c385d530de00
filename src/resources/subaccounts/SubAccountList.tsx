/**
 * 子账户管理 (/customer/selfsevicelayout/manager): search, date range, stats, actions, export, log in
 * as. Its key columns (in view at 1024 and 1440 px): 状态, 认证状态, 付费方式, 余额, 备注.
 */
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { App, Button, Card, Col, Popconfirm, Row, Space, Statistic, Tag, Tooltip } from 'antd';
import { DownloadOutlined, PlusOutlined } from '@ant-design/icons';
import { Link, useNavigate } from 'react-router';
import { AccountStatus, AgentOwned, OauthStatus, PayType, type SubAccountRow } from '@/generated/schemas';
import { Money } from '@/components/Money/Money';
import { SchemaFilterBar } from '@/components/SchemaFilterBar/SchemaFilterBar';
import { SchemaTable, type SchemaColumn } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { isDirectChargeMode, isPackageMode } from '@/providers/access';
import { useCurrentUser } from '@/layout/hooks';
import { downloadExport, subAccountApi, type SubAccountStat } from './api';
import { InterfaceInfoDialog, RemarkDialog, ResetPasswordDialog, TransferDialog } from './dialogs';
import { CreateTestAccountButton, useTestAccountGate } from './TestAccount';
import { MESSAGES } from '../../../common/schema/messages';
import { agentAuthPath, subAccounts } from './data';
import { useScreen } from '@/layout/screens';
import { FINANCE_PATH } from '@/pages/dashboard/AgentOverview';

type DialogKind = 'recharge' | 'rollback' | 'remark' | 'info' | 'password';

export function useStat() {
  const [stat, setStat] = useState<SubAccountStat>();
  const reload = useCallback(() => {
    subAccountApi
      .stat()
      .then((b) => setStat(b.data))
      .catch(() => undefined);
  }, []);
  useEffect(reload, [reload]);
  return { stat, reload };
}

/** what happens after 登录成功: the console reloads as the sub-account (stories replace it) */
export const afterLoginAs = { reload: () => window.location.assign('/') };

/** Opens a session of the sub-account (one-time token), then reloads the console as that account. */
export async function loginAsSubAccount(
  clientId: string,
  notify: (msg: string) => void,
  reload: () => void = () => afterLoginAs.reload(),
) {
  const { data } = await subAccountApi.loginAs(clientId);
  const body = await subAccountApi.enterAs(data!.token);
  notify(body.msg ?? MESSAGES.loggedIn);
  setTimeout(reload, 600);
}

export default function SubAccountList() {
  const openScreen = useScreen('service_open');
  const managerScreen = useScreen();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const { user } = useCurrentUser();
  const { tableProps, searchFormProps, tableQuery, params } = useSchemaList<SubAccountRow>(subAccounts);
  const { stat, reload: reloadStat } = useStat();
  const [dialog, setDialog] = useState<{ kind: DialogKind; row: SubAccountRow } | null>(null);
  const [exporting, setExporting] = useState(false);
  const done = () => {
    void tableQuery.refetch();
    reloadStat();
  };
  const testAccounts = useTestAccountGate(isPackageMode(user));
  const open = (kind: DialogKind, row: SubAccountRow) => setDialog({ kind, row });
  const close = () => setDialog(null);
  const rowOf = (k: DialogKind) => (dialog?.kind === k ? dialog.row : null);

  const setStatus = async (row: SubAccountRow) => {
    const frozen = row.status === AccountStatus.Frozen;
    const body = await (frozen ? subAccountApi.unfreeze : subAccountApi.freeze)(row.client_id);
    message.success(body.msg ?? (frozen ? MESSAGES.unfrozen : MESSAGES.frozen));
    done();
  };

  /** 转为正式账户: a refusal is the server's message (toasted by the http layer) */
  const convert = async (row: SubAccountRow) => {
    const body = await subAccountApi.convertTestAccount(row.client_id);
    message.success(body.msg ?? MESSAGES.testAccountConverted);
    done();
  };

  const columns: (string | SchemaColumn<SubAccountRow>)[] = [
    { field: 'client_id', render: (v: string) => <Link to={`/customer/manager/${v}/info`}>{v}</Link> },
    {
      field: 'client_name',
      // a test account (docs "Test accounts"): tagged, with its end
      render: (_v: unknown, r: SubAccountRow, _i: number, cell: ReactNode) =>
        r.test_expire_time ? (
          <Space size={4}>
            {cell}
            <Tooltip title={`测试账户，${r.test_expire_time} 到期`}>
              <Tag color="orange" data-testid="test-account-tag">
                测试
              </Tag>
            </Tooltip>
          </Space>
        ) : (
          cell
        ),
    },
    ...(isDirectChargeMode(user)
      ? [{ field: 'smstype', labelField: 'smstype_str' } as SchemaColumn<SubAccountRow>]
      : []),
    { field: 'status', labelField: 'status_str' },
    {
      field: 'oauth_status',
      labelField: 'oauth_status_str',
      // spec 01: 未认证 leads to the agent-auth screen (the agent certifies the customer's account)
      render: (v: unknown, r: SubAccountRow, _i: number, cell: ReactNode) =>
        v === OauthStatus.Uncertified && r.agent_owned !== AgentOwned.AgentOwned ? (
          <Link to={agentAuthPath(r.client_id)} title="为该子账户提交资质认证" data-testid="agent-auth-link">
            {cell}
          </Link>
        ) : (
          cell
        ),
    },
    'mobile',
    'email',
    {
      field: 'balance',
      isKey: true,
      align: 'right',
      // issue 27: the sub-account's alerts (the agent overview's rules, from the list answer) with the way to act on them
      render: (v: string, r: SubAccountRow) => (
        <Space direction="vertical" size={2} align="end">
          <Money value={v} />
          {r.lowBalance && (
            <Tooltip title={`余额低于提醒金额 ${r.lowBalanceThreshold ?? ''} 元，点击充值`}>
              <Tag
                color="red"
                style={{ cursor: 'pointer', marginInlineEnd: 0 }}
                onClick={() => open('recharge', r)}
                data-testid="low-balance-tag"
              >
                余额不足 · 充值
              </Tag>
            </Tooltip>
          )}
          {r.poolExpireDate && (
            <Link to={FINANCE_PATH} title="到客户财务为该子账户续费充值" data-testid="pool-expiring-tag">
              <Tag color="orange" style={{ cursor: 'pointer', marginInlineEnd: 0 }}>
                套餐将于 {r.poolExpireDate} 到期 · 续费
              </Tag>
            </Link>
          )}
        </Space>
      ),
    },
    { field: 'paytype', labelField: 'paytype_str', isKey: true },
    // the manager's key columns beside the statuses (issue 41 item 2): 余额, 付费方式 and 备注 in view
    // at 1024 and 1440 px; the creation time, key on other lists of the entity, is not the first
    // thing looked for here
    { field: 'create_time', isKey: false },
    { field: 'remarks', isKey: true },
  ];

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="subaccount-manager">
      <Row gutter={16}>
        {[
          ['子账户总数', stat?.total],
          ['本月新增', stat?.thisMonth],
          ['已冻结', stat?.frozen],
          ['已认证', stat?.certified],
        ].map(([title, v]) => (
          <Col key={title as string} xs={12} md={6}>
            <Card size="small">
              <Statistic title={title as string} value={(v as number | undefined) ?? '-'} loading={!stat} />
            </Card>
          </Col>
        ))}
      </Row>
      <Card
        title={managerScreen.label}
        extra={
          <Space>
            {stat && (
              <span>
                可用余额：
                <Money value={stat.agentBalance} />
              </span>
            )}
            {testAccounts.allowed && (
              <CreateTestAccountButton terms={testAccounts.terms} mobile={user?.mobile} onCreated={done} />
            )}
            {isPackageMode(user) && (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(openScreen.path)}>
                {openScreen.label}
              </Button>
            )}
          </Space>
        }
      >
        <SchemaFilterBar
          filter={subAccounts.filter}
          formProps={searchFormProps}
          agent
          extra={
            <Button
              icon={<DownloadOutlined />}
              loading={exporting}
              onClick={async () => {
                setExporting(true);
                try {
                  await downloadExport('/client/account/export', params, '子账户列表.xlsx');
                } finally {
                  setExporting(false);
                }
              }}
            >
              导出
            </Button>
          }
        />
        <SchemaTable<SubAccountRow>
          {...tableProps}
          rowKey="client_id"
          entity={subAccounts.entity}
          columns={columns}
          extraColumns={[
            {
              key: 'actions',
              title: '操作',
              fixed: 'right',
              render: (_: unknown, row: SubAccountRow) => (
                <Space size={0} wrap>
                  <Popconfirm
                    title={row.status === AccountStatus.Frozen ? '确定解冻该账户？' : '确定冻结该账户？'}
                    onConfirm={() => setStatus(row)}
                  >
                    <Button type="link" size="small" danger={row.status !== AccountStatus.Frozen}>
                      {row.status === AccountStatus.Frozen ? '解冻' : '冻结'}
                    </Button>
                  </Popconfirm>
                  {row.paytype !== PayType.Postpaid && (
                    <Button type="link" size="small" onClick={() => open('recharge', row)}>
                      充值
                    </Button>
                  )}
                  <Button type="link" size="small" onClick={() => open('rollback', row)}>
                    回退
                  </Button>
                  <Button type="link" size="small" onClick={() => open('remark', row)}>
                    备注
                  </Button>
                  <Button type="link" size="small" onClick={() => open('info', row)}>
                    接口信息
                  </Button>
                  <Button type="link" size="small" onClick={() => open('password', row)}>
                    重置密码
                  </Button>
                  {row.test_expire_time && (
                    <Popconfirm
                      title="确定将该测试账户转为正式账户？剩余赠送条数将由平台收回"
                      onConfirm={() => convert(row).catch(() => undefined)}
                    >
                      <Button type="link" size="small">
                        转为正式账户
                      </Button>
                    </Popconfirm>
                  )}
                  {row.status === AccountStatus.Active && (
                    <Popconfirm
                      title="确定以该子账户身份登录？"
                      onConfirm={() => void loginAsSubAccount(row.client_id, (m) => void message.success(m))}
                    >
                      <Button type="link" size="small">
                        登录
                      </Button>
                    </Popconfirm>
                  )}
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <TransferDialog
        op="recharge"
        account={rowOf('recharge')}
        agentBalance={stat?.agentBalance}
        onClose={close}
        onDone={done}
      />
      <TransferDialog
        op="rollback"
        account={rowOf('rollback')}
        agentBalance={stat?.agentBalance}
        onClose={close}
        onDone={done}
      />
      <RemarkDialog account={rowOf('remark')} onClose={close} onDone={done} />
      <InterfaceInfoDialog account={rowOf('info')} onClose={close} />
      <ResetPasswordDialog account={rowOf('password')} onClose={close} />
    </Space>
  );
}
