/**
 * Online recharge (spec 01 layout shell, spec 02 /finance/own): the 在线充值 button (agents, when
 * isOpenPay is 1), the recharge dialog (amount and payment mode, rules of forms/online-recharge)
 * and the pay dialog (the order's QR code, a live countdown, polling until it is paid, closed or
 * out of time; 我已完成支付 asks for the order's state: paid closes the dialog with 支付成功, not
 * paid keeps it open saying 尚未收到付款). /finance/own and the pay order list reuse the dialogs.
 */
import { useEffect, useEffectEvent, useRef, useState, type ReactNode } from 'react';
import { MESSAGES } from '../../../common/schema/messages';
import { Alert, App, Button, Descriptions, Modal, QRCode, Result, Space, Typography } from 'antd';
import { WalletOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { keys } from '@refinedev/core';
import { PaymentMode, PayOrderState, type OnlineRechargeForm, type PayOrder } from '@/generated/schemas';
import onlineRechargeForm from '@/generated/forms/online-recharge';
import { SchemaFormDialog } from '@/components/SchemaForm/SchemaFormDialog';
import { ApiError } from '@/providers/http';
import { isAgent, type AccessUser } from '@/providers/access';
import { cancelPay, createPay, payStatus, useOnlinePayConfig } from './api';
import { formatCountdown, secondsLeft, useNow } from './countdown';

const OPEN_STATES: number[] = [PayOrderState.Unpaid, PayOrderState.Submitted];
const PAID_STATES: number[] = [PayOrderState.Paid, PayOrderState.PaidAlt];
export const isPaid = (o?: Pick<PayOrder, 'paymentState'> | null) =>
  !!o && PAID_STATES.includes(Number(o.paymentState));
export const isOpenOrder = (o?: Pick<PayOrder, 'paymentState'> | null) =>
  !!o && OPEN_STATES.includes(Number(o.paymentState));

// ---------------------------------------------------------------------------------------------

export interface RechargeDialogProps {
  open: boolean;
  onClose: () => void;
  /** the order was created: show the pay dialog */
  onCreated: (order: PayOrder) => void;
}

/** 在线充值: amount (1 – 1,000,000 yuan, 2 decimals) and payment mode, then 去支付 creates the order. */
export function RechargeDialog({ open, onClose, onCreated }: RechargeDialogProps) {
  const created = useRef<PayOrder | null>(null);
  const queryClient = useQueryClient();
  const save = async (v: OnlineRechargeForm) => {
    created.current = await createPay(String(v.amount).trim(), Number(v.paymentMode));
    // a pay order list on screen shows the new order
    void queryClient.invalidateQueries({ queryKey: keys().data().get() }).catch(() => undefined);
  };
  return (
    <SchemaFormDialog<OnlineRechargeForm>
      open={open}
      title="在线充值"
      form={onlineRechargeForm}
      fields={['amount', 'paymentMode']}
      uiSchema={{
        amount: { 'ui:placeholder': '请输入充值金额', 'ui:help': '单笔1元至100万元，最多保留两位小数' },
        paymentMode: { 'ui:widget': 'radio' },
      }}
      initial={{ paymentMode: 0 }}
      save={save}
      okText="去支付"
      lockMs={3000}
      onClose={onClose}
      onDone={() => created.current && onCreated(created.current)}
      errorTestId="recharge-error"
    />
  );
}

// ---------------------------------------------------------------------------------------------

export interface PayDialogProps {
  /** the order to pay (null: closed) */
  order: PayOrder | null;
  onClose: () => void;
  /** the order changed state (paid, cancelled, closed): lists reload */
  onChanged?: (order: PayOrder) => void;
  /** how often the dialog asks for the order's state (2 s) */
  pollMs?: number;
}

const modeName = (o: PayOrder) =>
  o.paymentModeStr || (Number(o.paymentMode) === PaymentMode.WeChatPay ? '微信支付' : '支付宝');
const appName = (o: PayOrder) => (Number(o.paymentMode) === PaymentMode.WeChatPay ? '微信' : '支付宝');

/**
 * 扫码支付: the QR code and countdown; polls the order until it is paid, closed or out of time.
 * 我已完成支付 asks the server at once: paid → 支付成功 and the dialog closes (lists and balances
 * refresh, as when the poll sees it); still unpaid → the dialog stays, saying 尚未收到付款.
 */
export function PayDialog({ order, onClose, onChanged, pollMs = 2000 }: PayDialogProps) {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  // the order as last polled, with the time of the answer (countdowns count from there)
  const [polled, setPolled] = useState<{ order: PayOrder; at: number } | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const [checking, setChecking] = useState(false);
  // 我已完成支付 found this order unpaid: 尚未收到付款 stays shown until the order changes
  const [notReceived, setNotReceived] = useState<string | null>(null);
  // the order whose end (paid, closed) was reported through onChanged: once, by the poll or the button
  const reported = useRef<string | null>(null);
  // a new order handed in (also the same order opened again): forget the previous one's answers (adjusted while rendering)
  const [shown, setShown] = useState(order);
  if (order !== shown) {
    setShown(order);
    setPolled(null);
    setNotReceived(null);
  }
  const current = polled && polled.order.paymentId === order?.paymentId ? polled : null;
  const o = current?.order ?? order;
  const open = isOpenOrder(o);
  const now = useNow(!!order && open);
  const left =
    !o || !open ? 0 : current ? secondsLeft(o.countDownStr, current.at, now) : secondsLeft(o.countDownStr, now, now);
  /** An answer of payStatus: shown; an order that ended is reported once and, paid, refreshes the data. */
  const settle = async (next: PayOrder) => {
    setPolled({ order: next, at: Date.now() });
    if (isOpenOrder(next) || reported.current === next.paymentId) return;
    reported.current = next.paymentId;
    onChanged?.(next);
    // balances and lists shown elsewhere (not the session: the header stays as it is)
    if (isPaid(next)) await queryClient.invalidateQueries({ queryKey: keys().data().get() }).catch(() => undefined);
  };
  const settled = useEffectEvent((next: PayOrder) => settle(next));

  const paymentId = order?.paymentId;
  // poll (at once, then every pollMs) while the order can still be paid
  useEffect(() => {
    if (!paymentId || !open) return;
    let stop = false;
    const tick = async () => {
      try {
        const next = await payStatus(paymentId);
        if (stop) return;
        await settled(next);
      } catch {
        /* the next tick asks again */
      }
    };
    void tick();
    const t = setInterval(() => void tick(), pollMs);
    return () => {
      stop = true;
      clearInterval(t);
    };
  }, [paymentId, open, pollMs]);

  /** 我已完成支付: the order's state from the server, not the user's word. */
  const confirmPaid = async () => {
    if (!o) return;
    setChecking(true);
    try {
      const next = await payStatus(o.paymentId);
      await settle(next);
      if (isPaid(next)) {
        message.success(MESSAGES.paySuccess);
        onClose();
      } else if (isOpenOrder(next)) {
        setNotReceived(next.paymentId);
      }
      // closed or out of time meanwhile: the dialog shows it
    } catch (e) {
      if (!(e instanceof ApiError && e.timedOut)) message.error(e instanceof Error ? e.message : '接口异常');
    } finally {
      setChecking(false);
    }
  };

  const cancel = () =>
    modal.confirm({
      title: '提示',
      content: '确定取消该支付订单吗？',
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        if (!o) return;
        setCancelling(true);
        try {
          const msg = await cancelPay(o.paymentId);
          message.success(msg || MESSAGES.payOrderCancelled);
          const next = await payStatus(o.paymentId).catch(() => ({
            ...o,
            paymentState: PayOrderState.Cancelled,
            paymentStateStr: '已取消',
            countDownStr: '',
          }));
          await settle(next);
        } catch (e) {
          if (!(e instanceof ApiError)) message.error('接口异常');
        } finally {
          setCancelling(false);
        }
      },
    });

  let body: ReactNode = null;
  if (o && isPaid(o)) {
    body = (
      <div data-testid="pay-result">
        <Result status="success" title={MESSAGES.paySuccess} subTitle={`已充值 ${o.paymentAmountStr} 元，余额已更新`} />
      </div>
    );
  } else if (o && open && left > 0) {
    body = (
      <Space direction="vertical" align="center" style={{ width: '100%' }}>
        <Typography.Text>请使用{appName(o)}扫描二维码完成支付</Typography.Text>
        <QRCode value={o.qrCode || o.paymentId} size={200} data-testid="pay-qrcode" />
        <Typography.Text type="danger" data-testid="pay-countdown">
          剩余支付时间 {formatCountdown(left)}
        </Typography.Text>
        {notReceived === o.paymentId && (
          <Alert type="warning" showIcon message={MESSAGES.payNotReceived} data-testid="pay-not-received" />
        )}
        {o.qrCode && /\/onlinePay\/sandbox\/scan\?/.test(o.qrCode) && (
          <Typography.Link href={o.qrCode} target="_blank" rel="noopener" data-testid="pay-link">
            沙箱环境：在新窗口打开支付页
          </Typography.Link>
        )}
      </Space>
    );
  } else if (o) {
    const timedOut = open || /超时/.test(o.remark ?? '');
    body = (
      <div data-testid="pay-result">
        <Result
          status={timedOut ? 'warning' : 'error'}
          title={timedOut ? '订单已超时' : o.paymentStateStr || '订单已关闭'}
          subTitle={timedOut ? '订单已超时，请重新下单' : o.remark || MESSAGES.payOrderClosed}
        />
      </div>
    );
  }

  return (
    <Modal
      open={!!order}
      title="扫码支付"
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Space>
          {o && open && (
            <Button onClick={cancel} loading={cancelling} disabled={left <= 0} data-testid="pay-cancel">
              取消订单
            </Button>
          )}
          {o && open && left > 0 ? (
            <Button type="primary" onClick={() => void confirmPaid()} loading={checking} data-testid="pay-done">
              我已完成支付
            </Button>
          ) : (
            <Button type="primary" onClick={onClose}>
              关闭
            </Button>
          )}
        </Space>
      }
    >
      {o && (
        <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
          <Descriptions.Item label="支付订单号">{o.paymentId}</Descriptions.Item>
          <Descriptions.Item label="支付方式">{modeName(o)}</Descriptions.Item>
          <Descriptions.Item label="支付金额">
            <Typography.Text strong data-testid="pay-amount">
              ¥ {o.paymentAmountStr}
            </Typography.Text>
          </Descriptions.Item>
        </Descriptions>
      )}
      {body}
    </Modal>
  );
}

// ---------------------------------------------------------------------------------------------

export interface RechargeButtonProps {
  user: AccessUser | null | undefined;
  /** after an order was paid (e.g. reload balances) */
  onPaid?: (order: PayOrder) => void;
  children?: ReactNode;
  type?: 'primary' | 'default' | 'link';
}

/** 在线充值: agents only, and only when isOpenPay is 1; opens the recharge dialog, then the pay dialog. */
export function RechargeButton({ user, onPaid, children = '在线充值', type = 'primary' }: RechargeButtonProps) {
  const agent = isAgent(user);
  const { data: config } = useOnlinePayConfig(agent);
  const [rechargeOpen, setRechargeOpen] = useState(false);
  const [order, setOrder] = useState<PayOrder | null>(null);
  if (!agent || Number(config?.isOpenPay) !== 1) return null;
  return (
    <>
      <Button type={type} icon={<WalletOutlined />} onClick={() => setRechargeOpen(true)} data-testid="online-recharge">
        {children}
      </Button>
      <RechargeDialog open={rechargeOpen} onClose={() => setRechargeOpen(false)} onCreated={setOrder} />
      <PayDialog order={order} onClose={() => setOrder(null)} onChanged={(o) => isPaid(o) && onPaid?.(o)} />
    </>
  );
}
