/**
 * Story fixtures said once (issue 37 item 3): a list's rows as one call each with its values in
 * the order of the columns the rows differ by, built by the entity's row builder (rows.ts rowOf:
 * its defaults and its enum labels), instead of an object literal per row with each key typed again.
 * Stories only.
 *
 *   const sign = positional(rowOf<ReviewSign>('review-sign')({ state: SignState.Pending }))('id', 'sign', 'createTime');
 *   export const signRows = [sign(112, '云讯优选', '2026-11-24 09:30:00'), sign(104, '易购优选', '2026-11-10 16:03:11', { state: SignState.Rejected })];
 */

/**
 * `positional(make)(...fields)`: a builder taking the values of `fields` in their order (`undefined`, or fewer values, keeps the
 * default of `make`), then optionally an object of further fields.
 */
export const positional =
  <T extends object>(make: (diff: never) => T) =>
  <const K extends readonly (keyof T)[]>(...fields: K) =>
  (...values: [...{ [I in keyof K]?: T[K[I]] }, more?: Partial<T>]): T => {
    const diff: Record<PropertyKey, unknown> = {};
    fields.forEach((f, i) => {
      if (values[i] !== undefined) diff[f] = values[i];
    });
    return make({ ...diff, ...(values[fields.length] as Partial<T> | undefined) } as never);
  };
