/**
 * Prints the full path of every screen of the console (src/screens.tsx), or with `--ops` of the
 * operator console (src/ops/screens.tsx), as JSON. The end-to-end tests run it with tsx
 * (Playwright's loader cannot import the screen table's JSON schema imports):
 *   node --import tsx tests/e2e/screen-paths.ts [--ops]
 */
import { consoleScreens } from '../../src/screens';
import { opsScreens } from '../../src/ops/screens';
import { screenEntries } from '../../src/layout/screens';

const table = process.argv.includes('--ops') ? opsScreens : consoleScreens;
process.stdout.write(JSON.stringify(screenEntries(table).map((e) => e.fullPath)));
