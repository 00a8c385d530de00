/** Country calling code select ("+86 中国"), searchable by code or name; list from POST /userCenter/getCountryCodeList. */
import { useEffect, useState } from 'react';
import { Select } from 'antd';
import type { WidgetProps } from '@rjsf/utils';
import type { CountryCode } from '@/generated/schemas';
import { postForm } from '../../../providers/http';

let cache: Promise<CountryCode[]> | null = null;

/** The list is the same for everyone: fetched once per page load (a failed fetch is retried next time). */
export function loadCountryCodes(): Promise<CountryCode[]> {
  cache ??= postForm<CountryCode[]>('/userCenter/getCountryCodeList', undefined, { silent: true }).then(
    (b) => b.data ?? [],
  );
  cache.catch(() => (cache = null));
  return cache;
}

export function useCountryCodes() {
  const [list, setList] = useState<CountryCode[]>([]);
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    let live = true;
    loadCountryCodes()
      .then((l) => live && setList(l))
      .catch(() => undefined)
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, []);
  return { list, loading };
}

export const countryCodeLabel = (c: CountryCode) => `+${c.countryCode} ${c.countryName}`;

export function CountryCodeWidget({
  id,
  value,
  onChange,
  onBlur,
  onFocus,
  disabled,
  readonly,
  placeholder,
}: WidgetProps) {
  const { list, loading } = useCountryCodes();
  const options = list.map((c) => ({ value: c.countryCode, label: countryCodeLabel(c) }));
  // until the list arrives, show the current value the way the list would
  if (value && !options.some((o) => o.value === value)) options.unshift({ value, label: `+${value}` });
  return (
    <Select
      id={id}
      showSearch
      optionFilterProp="label"
      loading={loading}
      value={value || undefined}
      options={options}
      placeholder={placeholder || '请选择国家/地区'}
      disabled={disabled || readonly}
      onChange={(v) => onChange(v ?? undefined)}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
    />
  );
}
