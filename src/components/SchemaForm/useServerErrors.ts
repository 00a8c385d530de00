/** Server answers on their fields (`data.errors`), each until the user changes its field (<SchemaForm>, <PlainSchemaForm>). */
import { useMemo, useState } from 'react';
import type { FieldError } from '../../../common/schema';

const NONE_DISMISSED: ReadonlySet<string> = new Set();

/** Field errors minus those whose field the user has changed since. */
export function useServerErrors(serverErrors: FieldError[] | undefined) {
  // the dismissed fields belong to the errors they were dismissed from: new errors start with none dismissed
  const [state, setState] = useState<{ of: FieldError[] | undefined; fields: ReadonlySet<string> }>({
    of: serverErrors,
    fields: NONE_DISMISSED,
  });
  const dismissed = state.of === serverErrors ? state.fields : NONE_DISMISSED;
  const shown = useMemo(() => serverErrors?.filter((e) => !dismissed.has(e.field)), [serverErrors, dismissed]);
  const dismissChanged = (prev: object | undefined, next: object) => {
    const value = (o: object | undefined, f: string) => (o as Record<string, unknown> | undefined)?.[f];
    const changed = (serverErrors ?? []).filter(
      (e) => !dismissed.has(e.field) && value(prev, e.field) !== value(next, e.field),
    );
    if (!changed.length) return;
    setState((s) => ({
      of: serverErrors,
      fields: new Set([...(s.of === serverErrors ? s.fields : []), ...changed.map((e) => e.field)]),
    }));
  };
  return { shown, dismissChanged };
}
