/** Every area's operator commands. Areas add their list here (one line each). */
import { accountCommands } from './accounts';
import { ledgerCommands } from './ledger';
import type { Command } from './registry';

export const COMMANDS: Command[] = [...accountCommands];
COMMANDS.push(...ledgerCommands);
