// The public pages (/login) import this: only what they need. No ajv (run-time validation is
// ./validation, loaded on demand) and nothing console-only (./SchemaFormDialog: import it directly).
// `npm run test:e2e` checks the /login budget (bench/login-bundle.ts).
export { SchemaForm, schemaWidgets, type SchemaFormHandle, type SchemaFormProps } from './SchemaForm';
export {
  checkCompiled,
  checkForm,
  compiledValidator,
  isCompiledForm,
  withShownFields,
  type CompiledForm,
  type FormCheck,
} from './compiled';
export { transformErrors, toErrorSchema } from './errors';
export { useStableCallback } from './useStableCallback';
