/** `npm run gen`: the TypeScript types of schemas/ and the forms' compiled validators, under src/generated. */
import fs from 'node:fs';
import path from 'node:path';
import { GENERATED_FILE, generateSchemaTypes } from './schema-types';
import { FORMS_DIR, generateFormModules } from './form-validators';

let written = 0;
function write(file: string, text: string) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  if (old === text) return;
  fs.writeFileSync(file, text);
  written++;
  console.log(`gen: wrote ${path.relative(process.cwd(), file)}`);
}

write(GENERATED_FILE, await generateSchemaTypes());
const forms = generateFormModules();
for (const [name, text] of Object.entries(forms)) write(path.join(FORMS_DIR, name), text);
for (const f of fs.readdirSync(FORMS_DIR)) {
  if (!(f in forms)) {
    fs.rmSync(path.join(FORMS_DIR, f));
    written++;
    console.log(`gen: removed ${path.relative(process.cwd(), path.join(FORMS_DIR, f))} (its schema is gone)`);
  }
}
if (!written) console.log('gen: src/generated is up to date');
