export * from './registry';
export * from './ajv';
export * from './trim';
