/**
 * The charge confirmation before a send (POST /send/chargeInfo): pieces per message (smsNum), the
 * numbers and the pieces charged (chargeNum), and the amount (direct charge, operation_mode 0) or
 * the pieces taken from the product pools (package mode 1).
 */
import { Descriptions, Modal } from 'antd';
import type { ChargeInfo } from '@/domain/send';
import { Money } from '@/components/Money/Money';
import { ChargeMode } from '@/generated/schemas';

export interface ChargeConfirmDialogProps {
  info: ChargeInfo | null;
  /** numbers the send goes to */
  numbers: number;
  /** when the send is scheduled, its time */
  sendtime?: string;
  sending: boolean;
  onOk: () => void;
  onCancel: () => void;
}

export function ChargeConfirmDialog({ info, numbers, sendtime, sending, onOk, onCancel }: ChargeConfirmDialogProps) {
  const byAmount = Number(info?.chargeMode) === ChargeMode.Money;
  return (
    <Modal open={!!info} title="发送确认" okText={sendtime ? '确认定时发送' : '确认发送'} cancelText="取消" onOk={onOk} onCancel={onCancel} confirmLoading={sending} destroyOnHidden>
      {info && (
        <Descriptions column={1} size="small" bordered data-testid="charge-info">
          <Descriptions.Item label="发送号码数">{info.submitTotal ?? numbers} 个</Descriptions.Item>
          <Descriptions.Item label="单条短信计费">{info.smsNum} 条</Descriptions.Item>
          <Descriptions.Item label="计费总条数">{info.chargeNum} 条</Descriptions.Item>
          {byAmount ? (
            <>
              <Descriptions.Item label="扣费金额">
                <Money value={info.amount ?? '0'} />
              </Descriptions.Item>
              {info.balance !== undefined && (
                <Descriptions.Item label="账户余额">
                  <Money value={info.balance} />
                </Descriptions.Item>
              )}
            </>
          ) : (
            info.remainPieces !== undefined && <Descriptions.Item label="剩余条数">{info.remainPieces} 条</Descriptions.Item>
          )}
          {sendtime && <Descriptions.Item label="定时发送时间">{sendtime}</Descriptions.Item>}
        </Descriptions>
      )}
    </Modal>
  );
}
