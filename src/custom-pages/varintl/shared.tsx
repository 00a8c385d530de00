/** Pieces shared by the variable and international pages: SMS types of the account, the send-time field. */
import { DatePicker, Radio, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { useCustom } from '@refinedev/core';
import { SendTimeType } from '@/generated/schemas';
import { enumOptions } from '@/schema';
import { SEND_TIME_FORMAT, type SmsTypeOption } from '@/domain/send';
import { businessTime } from '@/lib/businessTime';
import { pageDateDisabled } from './api';

export function useSmsTypeOptions(clientId: string | undefined) {
  const { result, query } = useCustom<SmsTypeOption[]>({
    url: '/send/getsmstypes',
    method: 'post',
    config: { payload: { clientid: clientId } },
    queryOptions: { enabled: !!clientId, staleTime: 60_000 },
  });
  const types: SmsTypeOption[] = clientId && Array.isArray(result?.data) ? (result.data as SmsTypeOption[]) : [];
  const options = types.length ? types.map((t) => ({ value: Number(t.value), label: t.label })) : enumOptions<number>('sms-type').map((o) => ({ value: o.value, label: o.label }));
  return { options, loading: query.isFetching && !!clientId };
}

export function SendTimeField({ sendType, sendtime, onType, onTime }: { sendType: number; sendtime: Dayjs; onType: (v: number) => void; onTime: (d: Dayjs) => void }) {
  return (
    <Space wrap>
      <Radio.Group value={sendType} onChange={(e) => onType(e.target.value)} options={enumOptions<number>('send-time-type').map((o) => ({ value: o.value, label: o.label }))} data-testid="send-type" />
      {sendType === SendTimeType.Scheduled && (
        <DatePicker showTime inputReadOnly allowClear={false} value={sendtime} format={SEND_TIME_FORMAT} disabledDate={(d) => pageDateDisabled(d)} onChange={(d) => d && onTime(businessTime(d))} data-testid="sendtime" />
      )}
    </Space>
  );
}
