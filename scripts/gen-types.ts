/**
 * `npm run gen`: the TypeScript types and enum constants of schemas/ and the forms' compiled
 * validators (see scripts/generate.ts). `npm run gen -- --force` regenerates unconditionally.
 */
import { generate } from './generate';

const written = await generate({ force: process.argv.includes('--force') });
if (!written.length) console.log('gen: generated files are up to date');
