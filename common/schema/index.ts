export * from './registry';
export * from './ajv';
export * from './trim';
export * from './display';
