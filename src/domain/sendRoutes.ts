/** Where the sending screens send the user: the paths their folders declare (no retyped path, no look-up in the whole table). */
import { deliverScreen } from '@/custom-pages/send/screens';
import { sendTaskScreen } from '@/resources/send-tasks';
import { timedTaskScreen } from '@/resources/timed-tasks';

/** 普通短信发送 (sms_deliver; edit with ?id=) */
export const deliverPath = () => deliverScreen.path;
/** 发送任务 */
export const smsTaskPath = () => sendTaskScreen.path;
/** 定时任务 */
export const timingDeliverPath = () => timedTaskScreen.path;
