/** Every area's operator commands. Areas add their list here (one line each). */
import { accountCommands } from './accounts';
import { certificationCommands } from './certification';
import type { Command } from './registry';

export const COMMANDS: Command[] = [...accountCommands, ...certificationCommands];
