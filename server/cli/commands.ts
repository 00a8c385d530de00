/** Every area's operator commands. Areas add their list here (one entry each). */
import { accountCommands } from './accounts';
import { alarmCommands } from './alarms';
import { archiveCommands } from './archives';
import { blacklistCommands } from './blacklist';
import { certificationCommands } from './certification';
import { channelCommands } from './channels';
import { invoiceCommands } from './invoices';
import { ledgerCommands } from './ledger';
import { noticeCommands } from './notices';
import { operatorCommands } from './operators';
import type { Command } from './registry';
import { sendCommands } from './send';
import { signCommands } from './signs';
import { templateCommands } from './templates';
import { testAccountCommands } from './test-accounts';

export const COMMANDS: Command[] = [
  ...accountCommands,
  ...alarmCommands,
  ...archiveCommands,
  ...blacklistCommands,
  ...certificationCommands,
  ...channelCommands,
  ...invoiceCommands,
  ...ledgerCommands,
  ...noticeCommands,
  ...operatorCommands,
  ...sendCommands,
  ...signCommands,
  ...templateCommands,
  ...testAccountCommands,
];
