/** ajv-formats' checks (email, uri ...) and our own (money, business-date-time), for compiled validators with `format` rules. */
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { CUSTOM_FORMATS } from '../../../../common/schema/formats';

export const formats = { ...fullFormats, ...CUSTOM_FORMATS };
