/** Every area's operator commands. Areas add their list here (one line each). */
import { accountCommands } from './accounts';
import type { Command } from './registry';
import { templateCommands } from './templates';

export const COMMANDS: Command[] = [...accountCommands];
COMMANDS.push(...templateCommands);
