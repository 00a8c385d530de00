import fs from 'node:fs';
import path from 'node:path';
import { GENERATED_FILE, generateSchemaTypes } from './schema-types';

const ts = await generateSchemaTypes();
fs.mkdirSync(path.dirname(GENERATED_FILE), { recursive: true });
const old = fs.existsSync(GENERATED_FILE) ? fs.readFileSync(GENERATED_FILE, 'utf8') : '';
if (old !== ts) {
  fs.writeFileSync(GENERATED_FILE, ts);
  console.log(`gen: wrote ${path.relative(process.cwd(), GENERATED_FILE)}`);
} else {
  console.log('gen: src/generated is up to date');
}
