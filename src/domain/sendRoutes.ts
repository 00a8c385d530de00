/** Where the sending screens send the user: paths read from the screen table (src/screens.tsx), by route name. */
import { consoleScreens } from '@/screens';
import { screenByName } from '@/layout/screens';

const pathOf = (name: string) => {
  const entry = screenByName(consoleScreens, name);
  if (!entry) throw new Error(`no screen named ${name}`);
  return entry.fullPath;
};

/** 普通短信发送 (sms_deliver; edit with ?id=) */
export const deliverPath = () => pathOf('sms_deliver');
/** 发送任务 */
export const smsTaskPath = () => pathOf('sms_smstask');
/** 定时任务 */
export const timingDeliverPath = () => pathOf('sms_timingdeliver');
