/**
 * Prints the full path of every screen of the console (src/screens.tsx) as JSON. The end-to-end
 * tests run it with tsx (Playwright's loader cannot import the screen table's JSON schema imports):
 *   node --import tsx tests/e2e/screen-paths.ts
 */
import { consoleScreens } from '../../src/screens';
import { screenEntries } from '../../src/layout/screens';

process.stdout.write(JSON.stringify(screenEntries(consoleScreens).map((e) => e.fullPath)));
