export { SchemaForm, schemaWidgets, type SchemaFormHandle, type SchemaFormProps } from './SchemaForm';
export { validator, transformErrors, validateBySchema, resolveSchema, toErrorSchema } from './validation';
export { CountryCodeWidget, useCountryCodes, loadCountryCodes, countryCodeLabel, type CountryCode } from './widgets/CountryCodeWidget';
export { useStableCallback } from './useStableCallback';
