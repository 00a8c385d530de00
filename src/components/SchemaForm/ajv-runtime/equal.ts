/** ajv's deep equality (fast-deep-equal), for compiled validators with `const` / `enum` rules. */
import equal from 'fast-deep-equal';

export { equal };
