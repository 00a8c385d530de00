/** Credit-alarm figures for the operator: the day's alarm SMS against the system budget (ALARM_SMS_DAILY). */
import { alarmStatsOf } from '../modules/bills';
import { defineCommands, table } from './registry';

export const alarmCommands = defineCommands({
  name: 'alarm-stats',
  usage: 'alarm-stats',
  description: '今日额度提醒短信：已发送 / 系统预算（ALARM_SMS_DAILY），冷却或超预算未发送的次数',
  async run({ db, out, now, config }) {
    const budget = config.alarmSmsDaily;
    const s = await alarmStatsOf(db, now(), budget);
    out(
      table([
        ['日期', '已发短信', '预算', '剩余', '已发提醒', '冷却未发', '超预算未发', '无有效号码', '待发送'],
        [
          s.day,
          String(s.sms),
          String(s.budget),
          String(s.left),
          String(s.alarmsSent),
          String(s.skipped.cooldown),
          String(s.skipped.budget),
          String(s.skipped['no-phone']),
          String(s.pending),
        ],
      ]).join('\n'),
    );
  },
});
