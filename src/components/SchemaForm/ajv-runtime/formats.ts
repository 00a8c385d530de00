/** ajv-formats' checks (email, uri ...), for compiled validators with `format` rules. */
import { fullFormats } from 'ajv-formats/dist/formats.js';

export const formats = fullFormats;
