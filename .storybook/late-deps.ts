// Modules reached only through lazy imports (widgets, run-time validation) or deep paths: optimized
// up front, so the browser-mode dev server does not discover them mid-run and reload the page.
export const lateDeps = [
  '@rjsf/antd/lib/widgets/CheckboxWidget/index.js',
  '@rjsf/antd/lib/widgets/RadioWidget/index.js',
  '@rjsf/antd/lib/widgets/SelectWidget/index.js',
  '@rjsf/antd/lib/widgets/TextareaWidget/index.js',
  '@rjsf/validator-ajv8',
  'ajv',
  'ajv-errors',
  'ajv-formats',
  'ajv-formats/dist/formats.js',
  'ajv/dist/runtime/ucs2length.js',
  'fast-deep-equal',
  'antd/es/app/style',
  'antd/es/checkbox/Checkbox',
  'antd/es/table',
  'antd/es/input/Input',
  'antd/es/input/Password',
  'antd/es/input-number',
];
