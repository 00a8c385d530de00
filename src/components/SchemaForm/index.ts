// Only what needs no ajv: run-time schema validation is in ./validation (loaded on demand).
export { SchemaForm, schemaWidgets, type SchemaFormHandle, type SchemaFormProps } from './SchemaForm';
export { checkCompiled, compiledValidator, isCompiledForm, type CompiledForm } from './compiled';
export { transformErrors, toErrorSchema } from './errors';
export { useStableCallback } from './useStableCallback';
export { SchemaFormDialog, type SchemaFormDialogProps } from './SchemaFormDialog';
