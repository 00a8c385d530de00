/**
 * 发送时间 of the send pages: now or scheduled (send-time-type), and for a scheduled send the
 * picker (Shanghai's wall clock, seconds shown) offering the days of the send's window
 * (common/send: to the end of next year for an ordinary send, today and tomorrow for a variable or
 * international one). The rule itself is checked by useSendForm on submit.
 */
import type { ReactNode } from 'react';
import type { Dayjs } from 'dayjs';
import { DatePicker, Form, Radio, Space } from 'antd';
import { SendTimeType } from '@/generated/schemas';
import { enumOptions } from '@/schema';
import { SEND_TIME_FORMAT, sendDateDisabled, type SendTimeKind } from '@/domain/send';
import { businessTime } from '@/lib/businessTime';
import type { FieldStatus } from './useSendForm';

export interface SendTimeFieldProps {
  kind: SendTimeKind;
  sendType: number;
  sendtime: Dayjs;
  onType: (v: number) => void;
  onTime: (d: Dayjs) => void;
  status?: FieldStatus;
  /** shown under a scheduled send (the international page: it cannot be cancelled) */
  scheduledNote?: ReactNode;
}

export function SendTimeField({ kind, sendType, sendtime, onType, onTime, status, scheduledNote }: SendTimeFieldProps) {
  const scheduled = sendType === SendTimeType.Scheduled;
  return (
    <>
      <Form.Item label="发送时间" {...status}>
        <Space wrap>
          <Radio.Group
            value={sendType}
            onChange={(e) => onType(e.target.value)}
            options={enumOptions<number>('send-time-type').map((o) => ({ value: o.value, label: o.label }))}
            data-testid="send-type"
          />
          {scheduled && (
            <DatePicker
              showTime
              inputReadOnly
              allowClear={false}
              value={sendtime}
              format={SEND_TIME_FORMAT}
              disabledDate={(d) => sendDateDisabled(d, undefined, kind)}
              onChange={(d) => d && onTime(businessTime(d))}
              data-testid="sendtime"
            />
          )}
        </Space>
      </Form.Item>
      {scheduled && scheduledNote && (
        <Form.Item colon={false} label=" " style={{ marginTop: -16 }}>
          {scheduledNote}
        </Form.Item>
      )}
    </>
  );
}
