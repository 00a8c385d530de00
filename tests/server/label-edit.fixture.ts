/**
 * A copy of schemas/ with one edit of each kind a product person makes: a field title
 * (entities/sign.json `sign`, entities/template.json `content`), an enum label and an enum colour (enums/sign-state.json, value 1)
 * and a validation message (forms/sign-add.json, `sign` too short), a filter's API name (x-param of
 * filters/sign.json `sign`) and a new enum value (enums/sign-state.json). Created once per test file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_SCHEMA_DIR } from '../../server/schemas';

export const EDITED = {
  fieldTitle: { was: '签名', now: '短信签名（新）' },
  templateTitle: { was: '模板内容', now: '短信模板内容（新）' },
  enumLabel: { was: '审核通过', now: '已通过（新）' },
  enumColour: { was: 'green', now: 'purple' },
  message: { was: '签名长度为2-12之间', now: '签名须为2到12个字（新）' },
  /** a filter's API name (x-param of filters/sign.json `sign`) */
  filterParam: { was: 'sign', now: 'signName' },
  /** a new enum value (enums/sign-state.json) */
  enumValue: { value: 5, name: 'Archived', label: '已归档（新）' },
};

export const editedSchemaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smsp-label-edit-'));
fs.cpSync(DEFAULT_SCHEMA_DIR, editedSchemaDir, { recursive: true });

function edit(file: string, change: (json: any) => void) {
  const p = path.join(editedSchemaDir, file);
  const json = JSON.parse(fs.readFileSync(p, 'utf8'));
  change(json);
  fs.writeFileSync(p, JSON.stringify(json, null, 2));
}

edit('entities/sign.json', (s) => {
  if (s.properties.sign.title !== EDITED.fieldTitle.was)
    throw new Error('entities/sign.json changed: update the fixture');
  s.properties.sign.title = EDITED.fieldTitle.now;
});
edit('entities/template.json', (s) => {
  if (s.properties.content.title !== EDITED.templateTitle.was)
    throw new Error('entities/template.json changed: update the fixture');
  s.properties.content.title = EDITED.templateTitle.now;
});
edit('enums/sign-state.json', (s) => {
  const approved = s.oneOf.find((o: any) => o.const === 1);
  if (approved.title !== EDITED.enumLabel.was || approved['x-color'] !== EDITED.enumColour.was)
    throw new Error('enums/sign-state.json changed: update the fixture');
  approved.title = EDITED.enumLabel.now;
  approved['x-color'] = EDITED.enumColour.now;
});
edit('forms/sign-add.json', (s) => {
  if (s.properties.sign.errorMessage.minLength !== EDITED.message.was)
    throw new Error('forms/sign-add.json changed: update the fixture');
  s.properties.sign.errorMessage.minLength = EDITED.message.now;
});

edit('filters/sign.json', (s) => {
  if (!s.properties.sign || s.properties.sign['x-param'])
    throw new Error('filters/sign.json changed: update the fixture');
  s.properties.sign['x-param'] = EDITED.filterParam.now;
});
edit('enums/sign-state.json', (s) => {
  if (s.oneOf.some((o: any) => o.const === EDITED.enumValue.value))
    throw new Error('enums/sign-state.json changed: update the fixture');
  s.oneOf.push({
    const: EDITED.enumValue.value,
    'x-name': EDITED.enumValue.name,
    title: EDITED.enumValue.label,
    'x-color': 'cyan',
  });
});

export function removeEditedSchemas() {
  fs.rmSync(editedSchemaDir, { recursive: true, force: true });
}
