/**
 * THE charge confirmation of the three send pages (POST /send/chargeInfo, /send/chargeInfoVariable,
 * /send/chargeInfoInternational): the numbers, the characters and pieces of a message when the
 * answer gives them, the pieces charged, then the amount and balance (direct charge, operation_mode
 * 0), the amount taken from the international pools and what they hold (an international send of a
 * package account), or the pieces left in the product pools (package mode 1); the time of a
 * scheduled send; an international send's countries (count × price per piece).
 */
import { ChargeMode } from '@/generated/schemas';
import { Descriptions, Modal, Table } from 'antd';
import { Money } from '@/components/Money/Money';
import type { ChargeInfo, IntlCharge, VariableCharge } from '@/generated/schemas';
import { formatCount } from '@/components/Money/money';

/**
 * What the charge answers of the three pages carry (responses/charge-info.json, variable-charge.json,
 * intl-charge.json): the figures all have, the others where the kind has them.
 */
export type ChargeFigures = Pick<ChargeInfo, 'chargeMode' | 'chargeNum'> &
  Partial<Omit<ChargeInfo & VariableCharge & IntlCharge, 'chargeMode' | 'chargeNum'>>;

export interface ChargeDialogProps {
  info: ChargeFigures | null;
  /** the numbers the send goes to, when the answer does not say (submitTotal) */
  numbers?: number;
  /** when the send is scheduled, its time */
  sendtime?: string;
  sending: boolean;
  /** the variable and international dialogs are wider (their countries table) */
  wide?: boolean;
  onOk: () => void;
  onCancel: () => void;
}

export function ChargeDialog({ info, numbers, sendtime, sending, wide, onOk, onCancel }: ChargeDialogProps) {
  const byAmount = Number(info?.chargeMode) === ChargeMode.Money;
  return (
    <Modal
      open={!!info}
      title="发送确认"
      width={wide ? 620 : undefined}
      okText={sendtime ? '确认定时发送' : '确认发送'}
      cancelText="取消"
      onOk={onOk}
      onCancel={onCancel}
      confirmLoading={sending}
      destroyOnHidden
    >
      {info && (
        <>
          <Descriptions column={1} size="small" bordered data-testid="charge-info">
            <Descriptions.Item label="发送号码数">{info.submitTotal ?? numbers} 个</Descriptions.Item>
            {!!info.blacklistNum && (
              <Descriptions.Item label="黑名单号码">
                <span data-testid="charge-blacklist">{info.blacklistNum} 个（营销短信不发送、不计费）</span>
              </Descriptions.Item>
            )}
            {info.chars !== undefined && (
              <Descriptions.Item label="短信字数">{info.chars} 字（内容 + 签名 + 2）</Descriptions.Item>
            )}
            {info.smsNum !== undefined && <Descriptions.Item label="单条短信计费">{info.smsNum} 条</Descriptions.Item>}
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
            ) : info.remainAmount !== undefined ? (
              <>
                <Descriptions.Item label="扣除国际短信余额">
                  <Money value={info.amount ?? '0'} />
                </Descriptions.Item>
                <Descriptions.Item label="国际短信余额">
                  <Money value={info.remainAmount} />
                </Descriptions.Item>
              </>
            ) : (
              info.remainPieces !== undefined && (
                <Descriptions.Item label="剩余条数">{formatCount(info.remainPieces)} 条</Descriptions.Item>
              )
            )}
            {sendtime && <Descriptions.Item label="定时发送时间">{sendtime}</Descriptions.Item>}
          </Descriptions>
          {info.countries && info.countries.length > 0 && (
            <Table
              style={{ marginTop: 12 }}
              size="small"
              rowKey="intercode"
              pagination={false}
              data-testid="charge-countries"
              dataSource={info.countries}
              columns={[
                { title: '国家/地区', dataIndex: 'countryName' },
                { title: '国际区号', dataIndex: 'countryCode', render: (v: string) => `+${v}` },
                { title: '号码数', dataIndex: 'num' },
                { title: '单价（元/条）', dataIndex: 'fee' },
              ]}
            />
          )}
        </>
      )}
    </Modal>
  );
}
