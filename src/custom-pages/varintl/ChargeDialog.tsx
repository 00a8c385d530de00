/**
 * The character and charge confirmation of the variable and international pages: numbers, the
 * pieces charged (each variable row its own), the characters and pieces of an international
 * message with its countries (count × price per piece), the amount and balance (by amount), the
 * remaining pieces (product pools) or, for an international send of a package account, the amount
 * taken from its international pools and what they hold.
 */
import { Descriptions, Modal, Table } from 'antd';
import { Money } from '@/components/Money/Money';
import type { VarIntlCharge } from './api';
import { ChargeMode } from '@/generated/schemas';

export interface ChargeDialogProps {
  info: VarIntlCharge | null;
  sendtime?: string;
  sending: boolean;
  onOk: () => void;
  onCancel: () => void;
}

export function ChargeDialog({ info, sendtime, sending, onOk, onCancel }: ChargeDialogProps) {
  const byAmount = Number(info?.chargeMode) === ChargeMode.Money;
  return (
    <Modal open={!!info} title="发送确认" width={620} okText={sendtime ? '确认定时发送' : '确认发送'} cancelText="取消" onOk={onOk} onCancel={onCancel} confirmLoading={sending} destroyOnHidden>
      {info && (
        <>
          <Descriptions column={1} size="small" bordered data-testid="charge-info">
            <Descriptions.Item label="发送号码数">{info.submitTotal} 个</Descriptions.Item>
            {info.chars !== undefined && <Descriptions.Item label="短信字数">{info.chars} 字（内容 + 签名 + 2）</Descriptions.Item>}
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
              info.remainPieces !== undefined && <Descriptions.Item label="剩余条数">{info.remainPieces} 条</Descriptions.Item>
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
