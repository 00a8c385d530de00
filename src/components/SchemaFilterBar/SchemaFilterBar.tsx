/**
 * A list's filter bar, drawn from its filter schema (schemas/filters/*.json): enum properties
 * become selects with the enum's Chinese options, `format: date` becomes a date picker,
 * `format: date-time` one with the time, a date range (`type: array` of dates) a range picker,
 * `x-widget: client-select` the sub-account picker (agents only, `x-agent-only`),
 * `x-widget: enum-multi` a multi-select of the enum named by `x-enum` (sent as a comma list),
 * `province-select` / `city-select` the region pickers, a boolean a switch (a yes / no filter such
 * as 只看待审核: switching it searches at once), other strings text inputs.
 * `fieldProps` adds props to one field's control (a date picker's `disabledDate`, ...).
 *
 * Use with `searchFormProps` of useSchemaList, which turns the values into the request's parameters
 * by the same schema (schemaFilters: date formats, `x-trim`, `x-param` renames).
 *
 * 查询 searches, 重置 puts back the list's first values and searches (the form's reset, then
 * `formProps.onReset`: useSchemaList's). On a phone (< 576 px) every filter takes the full width,
 * and the buttons (the page's exports among them) wrap instead of overflowing.
 */
import type { ReactNode } from 'react';
import { Button, DatePicker, Form, Input, Select, Space, Switch, type FormProps } from 'antd';
import { SearchOutlined, UndoOutlined } from '@ant-design/icons';
import { enumOptions, schemas } from '@/schema';
import { ClientSelect } from '@/components/ClientSelect/ClientSelect';
import { CitySelect, ProvinceSelect } from '@/components/RegionSelect/RegionSelect';
import type { FieldInfo, JsonSchema } from '../../../common/schema';
import './SchemaFilterBar.css';

export interface SchemaFilterBarProps<V> {
  /** filter schema key, e.g. "filters/sign" */
  filter: string;
  /** Refine's searchFormProps */
  formProps: FormProps<V>;
  /** whether the viewer is an agent (agent-only filters are hidden otherwise) */
  agent?: boolean;
  /** fields to leave out */
  omit?: string[];
  /** renders a field the schema marks with an x-widget (e.g. client-select) */
  widgets?: Record<string, FilterWidget>;
  /** extra props of a field's control, by field name (e.g. `{ beginDate: { disabledDate } }`) */
  fieldProps?: Record<string, Record<string, unknown>>;
  /** extra buttons after 查询 */
  extra?: ReactNode;
}

/** A filter control for an `x-widget` name: gets the field, its raw schema and the bar's fieldProps for it. */
export type FilterWidget = (field: FieldInfo, schema: JsonSchema, props: Record<string, unknown>) => ReactNode;

/** Widgets every filter bar knows (a bar's own `widgets` override them). */
export const defaultFilterWidgets: Record<string, FilterWidget> = {
  'client-select': (_f, _s, props) => <ClientSelect allOption placeholder="全部账户" {...props} />,
  'enum-multi': (field, schema, props) => (
    <Select
      mode="multiple"
      allowClear
      maxTagCount="responsive"
      placeholder={`全部${field.title}`}
      style={{ minWidth: 200 }}
      options={enumOptions(String(schema['x-enum'])).map((o) => ({ value: o.value, label: o.label }))}
      {...props}
    />
  ),
  'province-select': (_f, _s, props) => <ProvinceSelect {...props} />,
  'city-select': (field, _s, props) => <CitySelect field={field.name} {...props} />,
};

function control(
  field: FieldInfo,
  schema: JsonSchema,
  widgets: SchemaFilterBarProps<unknown>['widgets'],
  props: Record<string, unknown> = {},
): ReactNode {
  const widget = field.widget ? (widgets?.[field.widget] ?? defaultFilterWidgets[field.widget]) : undefined;
  if (widget) return widget(field, schema, props);
  const items = schema?.items as { format?: string } | undefined;
  if (field.enumName) {
    return (
      <Select
        allowClear
        placeholder={`全部${field.title}`}
        style={{ minWidth: 140 }}
        options={enumOptions(field.enumName).map((o) => ({ value: o.value, label: o.label }))}
        {...props}
      />
    );
  }
  if (field.format === 'date') return <DatePicker placeholder={field.title} inputReadOnly {...props} />;
  if (field.format === 'date-time' || field.format === 'business-date-time')
    return <DatePicker showTime placeholder={field.title} inputReadOnly {...props} />;
  if (items?.format === 'date' || items?.format === 'date-time')
    return <DatePicker.RangePicker showTime={items.format === 'date-time'} inputReadOnly {...props} />;
  return <Input allowClear placeholder={field.title} maxLength={field.maxLength} style={{ width: 180 }} {...props} />;
}

const isBoolean = (field: FieldInfo) => field.type === 'boolean';

export function SchemaFilterBar<V>({
  filter,
  formProps,
  agent,
  omit = [],
  widgets,
  fieldProps,
  extra,
}: SchemaFilterBarProps<V>) {
  const fields = schemas.fields(filter).filter((f) => !omit.includes(f.name) && (agent || !f.agentOnly));
  const props = schemas.get(filter).properties ?? {};
  const [ownForm] = Form.useForm<V>();
  const form = formProps.form ?? ownForm;
  const { onReset } = formProps;
  const reset = () => {
    form.resetFields();
    onReset?.(undefined as never);
  };
  return (
    <Form
      layout="inline"
      {...formProps}
      form={form}
      className="schema-filter-bar"
      style={{ rowGap: 12, marginBottom: 16 }}
    >
      {fields.map((f) =>
        isBoolean(f) ? (
          <Form.Item key={f.name} name={f.name} label={f.title} valuePropName="checked">
            <Switch aria-label={f.title} onChange={() => form.submit()} {...fieldProps?.[f.name]} />
          </Form.Item>
        ) : (
          <Form.Item key={f.name} name={f.name} label={f.title}>
            {control(f, props[f.name] ?? {}, widgets, fieldProps?.[f.name])}
          </Form.Item>
        ),
      )}
      <Form.Item>
        <Space wrap>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
            查询
          </Button>
          <Button icon={<UndoOutlined />} onClick={reset}>
            重置
          </Button>
          {extra}
        </Space>
      </Form.Item>
    </Form>
  );
}

export default SchemaFilterBar;
