/**
 * 通道 (/ops/channels, GET /operator/channels/list): every channel with its settings and the live
 * counters of every worker (entities/operator-channel.json), asked again every 10 s (the workers
 * write their counters that often) and on 刷新. 新增 / 编辑 (ChannelDialog), 暂停 (asked first) /
 * 恢复, 删除 (asked first): the server's answer is toasted and the list asked again whatever it
 * was. A channel of the SMPP_CHANNELS file and the default link (listed while no channel is
 * enabled) are read-only: their row says why instead of offering actions. Below, 路由预览.
 */
import { useState, type ReactNode } from 'react';
import { Alert, App, Button, Card, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import { LockOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { ChannelSource, type OperatorChannel } from '@/generated/schemas';
import { SchemaTable, type SchemaColumn } from '@/components/SchemaTable/SchemaTable';
import { useSchemaList } from '@/components/SchemaTable/useSchemaList';
import { EnumTag } from '@/components/EnumTag/EnumTag';
import { schemas } from '@/schema';
import { businessNow } from '@/lib/businessTime';
import { ChannelDialog } from './ChannelDialog';
import { RoutePreview } from './RoutePreview';
import { channelName } from './channelName';
import { channelsApi } from './api';
import { CHANNELS_REFRESH_MS, operatorChannels } from './data';
import { useScreen } from '@/layout/screens';

const messages = schemas.get(operatorChannels.entity)['x-messages'] as { fromFile: string; defaultLink: string };
/** why a row offers no action */
const readOnlyReason = (c: OperatorChannel) =>
  c.source === ChannelSource.File
    ? messages.fromFile
    : c.source === ChannelSource.Default
      ? messages.defaultLink
      : undefined;

const tags = (enumName: string, values: number[], all: string) =>
  values.length ? (
    <Space size={4} wrap={false}>
      {values.map((v) => (
        <EnumTag key={v} enumName={enumName} value={v} />
      ))}
    </Space>
  ) : (
    <Typography.Text type="secondary">{all}</Typography.Text>
  );

/** a cell with a second, smaller line under it */
const stacked = (main: ReactNode, sub: ReactNode) => (
  <Space direction="vertical" size={0}>
    {main}
    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
      {sub}
    </Typography.Text>
  </Space>
);

/** a time of today (北京时间) as HH:mm:ss, another day's in full */
const shortTime = (at: string) => (at.slice(0, 10) === businessNow().format('YYYY-MM-DD') ? at.slice(11) : at);

const count = (v: number) => v.toLocaleString('zh-CN');

const columns: (string | SchemaColumn<OperatorChannel>)[] = [
  {
    field: 'name',
    fixed: 'left',
    render: (v: string, r) =>
      stacked(
        <Space size={6}>
          <Typography.Text strong>{channelName(v)}</Typography.Text>
          {r.source === ChannelSource.File && <EnumTag enumName="channel-source" value={r.source} />}
        </Space>,
        r.where,
      ),
  },
  {
    field: 'enabled',
    title: '状态',
    render: (v: boolean, r) =>
      stacked(
        <Space size={6}>
          {v ? <Tag color="green">启用</Tag> : <Tag color="orange">已暂停</Tag>}
          <Tooltip title="最近一分钟报告已连接的工作进程 / 报告计数的工作进程">
            <span data-testid="channel-bound">
              已连接 {r.bound}/{r.workers}
            </span>
          </Tooltip>
        </Space>,
        r.statsAt ? <span title={r.statsAt}>计数于 {shortTime(r.statsAt)}</span> : '尚无计数',
      ),
  },
  {
    field: 'carriers',
    title: '路由',
    render: (v: number[], r) =>
      stacked(
        r.source === ChannelSource.Default ? (
          <Typography.Text type="secondary">全部</Typography.Text>
        ) : (
          <Space size={4}>
            {tags('carrier', v, r.international ? '' : '全部国内')}
            {r.international && <Tag color="geekblue">国际</Tag>}
          </Space>
        ),
        <Space size={4} data-testid="channel-routing">
          {tags('sms-type', r.smsTypes, '全部类型')}
          <span>
            · 优先级 {r.priority} · 权重 {r.weight} · {r.maxPerSecond ? `限速 ${count(r.maxPerSecond)}/秒` : '不限速'}
          </span>
        </Space>,
      ),
  },
  {
    field: 'submitted',
    align: 'right',
    render: (v: number) => <span data-testid="channel-submitted">{count(v)}</span>,
  },
  { field: 'accepted', align: 'right', render: (v: number) => count(v) },
  {
    field: 'refused',
    align: 'right',
    render: (v: number) => (v ? <Typography.Text type="danger">{count(v)}</Typography.Text> : 0),
  },
  { field: 'retried', align: 'right', render: (v: number) => count(v) },
  {
    field: 'unconfirmed',
    align: 'right',
    render: (v: number) => (v ? <Typography.Text type="warning">{count(v)}</Typography.Text> : 0),
  },
  { field: 'receipts', align: 'right', render: (v: number) => count(v) },
  {
    field: 'latencyMs',
    title: '时延(ms)',
    align: 'right',
    render: (v: number | null) => (v === null ? '-' : count(v)),
  },
];

function ChannelActions({ channel, onEdit, done }: { channel: OperatorChannel; onEdit: () => void; done: () => void }) {
  const { message } = App.useApp();
  const [busy, setBusy] = useState<string>();
  const reason = readOnlyReason(channel);
  if (reason)
    return (
      <Tooltip title={reason}>
        <Typography.Text type="secondary" data-testid="channel-read-only">
          <LockOutlined /> 只读
        </Typography.Text>
      </Tooltip>
    );
  const run = async (what: string, call: () => Promise<string | undefined>) => {
    setBusy(what);
    try {
      const msg = await call();
      if (msg) message.success(msg);
    } catch {
      // toasted by the HTTP client
    } finally {
      setBusy(undefined);
      done();
    }
  };
  const name = channel.name;
  return (
    <Space size={0}>
      <Button type="link" size="small" onClick={onEdit}>
        编辑
      </Button>
      {channel.enabled ? (
        <Popconfirm
          title={`确定暂停通道 ${name} 吗？`}
          description="各工作进程数秒内不再向它分配短信"
          okText="暂停"
          cancelText="取消"
          onConfirm={() => run('pause', () => channelsApi.pause(name))}
        >
          <Button type="link" size="small" loading={busy === 'pause'}>
            暂停
          </Button>
        </Popconfirm>
      ) : (
        <Button
          type="link"
          size="small"
          loading={busy === 'resume'}
          onClick={() => void run('resume', () => channelsApi.resume(name))}
        >
          恢复
        </Button>
      )}
      <Popconfirm
        title={`确定删除通道 ${name} 吗？`}
        description="删除后不可恢复；各工作进程数秒内不再使用它"
        okText="删除"
        okButtonProps={{ danger: true }}
        cancelText="取消"
        onConfirm={() => run('remove', () => channelsApi.remove(name))}
      >
        <Button type="link" size="small" danger loading={busy === 'remove'}>
          删除
        </Button>
      </Popconfirm>
    </Space>
  );
}

export default function ChannelList() {
  const channelsScreen = useScreen();
  const { tableProps, tableQuery } = useSchemaList<OperatorChannel>(operatorChannels, {
    pagination: { mode: 'off' },
    // live state: asked again while the page is open, in a background tab too (a wall display)
    queryOptions: { refetchInterval: CHANNELS_REFRESH_MS, refetchIntervalInBackground: true },
  });
  const [editing, setEditing] = useState<{ channel?: OperatorChannel }>();
  const rows = (tableProps.dataSource ?? []) as OperatorChannel[];
  const refresh = () => void tableQuery.refetch();
  const at = tableQuery.dataUpdatedAt
    ? new Date(tableQuery.dataUpdatedAt).toLocaleTimeString('zh-CN', { hour12: false })
    : undefined;

  return (
    <>
      <Card
        title={channelsScreen.label}
        extra={
          <Space>
            <Typography.Text type="secondary" data-testid="channels-updated">
              每 {CHANNELS_REFRESH_MS / 1000} 秒自动刷新{at ? `，更新于 ${at}` : ''}
            </Typography.Text>
            <Button
              icon={<ReloadOutlined />}
              onClick={refresh}
              loading={tableQuery.isFetching && !tableQuery.isLoading}
            >
              刷新
            </Button>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({})}>
              新增通道
            </Button>
          </Space>
        }
      >
        {rows.some((r) => r.source === ChannelSource.Default) && (
          <Alert
            type="info"
            showIcon
            message={messages.defaultLink}
            style={{ marginBottom: 16 }}
            data-testid="default-link"
          />
        )}
        <div data-testid="channels-table">
          <SchemaTable<OperatorChannel>
            {...tableProps}
            rowKey="name"
            entity={operatorChannels.entity}
            columns={columns}
            extraColumns={[
              {
                key: 'actions',
                title: '操作',
                fixed: 'right',
                width: 150,
                render: (_: unknown, r: OperatorChannel) => (
                  <ChannelActions channel={r} onEdit={() => setEditing({ channel: r })} done={refresh} />
                ),
              },
            ]}
          />
        </div>
      </Card>
      <RoutePreview />
      <ChannelDialog
        open={!!editing}
        channel={editing?.channel}
        onClose={() => setEditing(undefined)}
        onDone={refresh}
      />
    </>
  );
}
