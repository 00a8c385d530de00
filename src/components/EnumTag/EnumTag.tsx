/**
 * An enumeration value shown as its Chinese label, as a coloured tag where the schema gives a
 * colour (`x-color` in schemas/enums/*.json). Unknown values show as they are.
 */
import { Tag } from 'antd';
import { schemas } from '@/schema';
import type { SchemaRegistry } from '../../../common/schema/registry';

/** schema colour names -> antd Tag colours */
const TAG_COLOURS: Record<string, string> = { grey: 'default', yellow: 'gold' };

export interface EnumTagProps {
  /** enum file name under schemas/enums, e.g. "sign-state" */
  enumName: string;
  value: unknown;
  /** label from the server (e.g. stateStr) when it has one; the schema's label wins when it knows the value */
  fallback?: string;
  /** plain text instead of a tag */
  plain?: boolean;
  /** the schemas to read (an edited copy in tests); the console's registry by default */
  registry?: SchemaRegistry;
}

export function EnumTag({ enumName, value, fallback, plain, registry = schemas }: EnumTagProps) {
  const label =
    registry.enumLabel(enumName, value) ?? fallback ?? (value === undefined || value === null ? '' : String(value));
  if (!label) return <span>-</span>;
  const colour = registry.enumColor(enumName, value);
  if (plain || !colour) return <span data-enum={enumName}>{label}</span>;
  return (
    <Tag color={TAG_COLOURS[colour] ?? colour} data-enum={enumName} style={{ marginInlineEnd: 0 }}>
      {label}
    </Tag>
  );
}

export default EnumTag;
