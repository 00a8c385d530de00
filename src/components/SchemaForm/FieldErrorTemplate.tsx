import { errorId, type FieldErrorProps } from '@rjsf/utils';

/** One message per field: the first (a rule's own message, or the server's when only it has one). */
export function FieldErrorTemplate({ errors = [], fieldPathId }: FieldErrorProps) {
  const first = errors.find((e) => e !== '' && e != null);
  if (first === undefined) return null;
  return <div id={errorId(fieldPathId)}>{first}</div>;
}
