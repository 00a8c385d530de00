/**
 * The invoice address picker (ui:widget `region` of forms/invoice.json): province / city / district
 * from the division tree the server serves at /static/scripts/city.json (scripts/gen-city.ts). The
 * form value is the names joined by "/" ("上海市/市辖区/浦东新区"), as the server stores and checks it.
 */
import { useEffect, useState } from 'react';
import { Cascader } from 'antd';
import type { WidgetProps } from '@rjsf/utils';
import { loadCityTree, type CityNode } from './api';

export function useCityTree() {
  const [tree, setTree] = useState<CityNode[]>([]);
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    let live = true;
    loadCityTree()
      .then((t) => live && setTree(t))
      .catch(() => undefined)
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, []);
  return { tree, loading };
}

export function RegionCascaderWidget({ id, value, onChange, onBlur, disabled, readonly, placeholder }: WidgetProps) {
  const { tree, loading } = useCityTree();
  const path = typeof value === 'string' && value ? value.split('/') : undefined;
  return (
    <Cascader
      id={id}
      data-testid="region-cascader"
      options={tree}
      loading={loading}
      value={path}
      placeholder={placeholder || '请选择省/市/区'}
      disabled={disabled || readonly}
      showSearch={{ filter: (input, nodes) => nodes.some((n) => String(n.label).includes(input.trim())) }}
      onChange={(v) => onChange(Array.isArray(v) && v.length ? v.join('/') : undefined)}
      onBlur={() => onBlur(id, value)}
      style={{ width: '100%' }}
    />
  );
}

export default RegionCascaderWidget;
