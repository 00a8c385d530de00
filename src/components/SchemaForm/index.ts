export { SchemaForm, schemaWidgets, type SchemaFormHandle, type SchemaFormProps } from './SchemaForm';
export { validator, transformErrors, validateBySchema, resolveSchema, toErrorSchema } from './validation';
export { useStableCallback } from './useStableCallback';
