/**
 * ajv's runtime helpers, for the validators compiled at build time (src/generated/forms): the
 * generated code imports these where ajv's standalone output would `require` them.
 */
import ucs2lengthModule from 'ajv/dist/runtime/ucs2length.js';

/** string length in code points (ajv's; the module is CommonJS: the function under bundlers, its exports object under Node) */
export const ucs2length: (s: string) => number =
  typeof ucs2lengthModule === 'function'
    ? ucs2lengthModule
    : (ucs2lengthModule as unknown as { default: (s: string) => number }).default;
