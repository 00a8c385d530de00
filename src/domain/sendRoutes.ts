/** Where the sending screens send the user: the paths their folders declare (no retyped path, no look-up in the whole table). */
import { deliverScreen } from '@/custom-pages/send/screens';
import { sendTaskScreen } from '@/resources/send-tasks';
import { timedTaskScreen } from '@/resources/timed-tasks';
import { signReport } from '@/resources/signs';
import { smartTemplatesTab, templateTabs } from '@/resources/templates';

/** 普通短信发送 (sms_deliver; edit with ?id=) */
export const deliverPath = () => deliverScreen.path;
/** 发送任务 */
export const smsTaskPath = () => sendTaskScreen.path;
/** 定时任务 */
export const timingDeliverPath = () => timedTaskScreen.path;
/** 签名报备 (where a sign is applied for: the send pages link there when no sign is approved) */
export const signReportPath = () => signReport.path;
/** 智能模板 (where a template is applied for) */
export const templatesPath = () => `${templateTabs.path}/${smartTemplatesTab.path}`;
