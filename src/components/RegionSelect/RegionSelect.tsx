/**
 * Province and city pickers of the record filters (x-widget `province-select` / `city-select`):
 * provinces from POST /send/provinceList, the chosen province's cities from POST /send/cityList
 * (the segment table's ids, docs/api-send.md). The city picker sits in the same antd form as the
 * province field: it lists that province's cities and is cleared when the province changes.
 */
import { useEffect, useRef } from 'react';
import { useCustom } from '@refinedev/core';
import { Form, Select, type SelectProps } from 'antd';

export interface ProvinceOption {
  provinceId: number;
  provinceName: string;
}
export interface CityOption {
  cityId: number;
  cityName: string;
  label?: string;
}

const listOf = <T,>(data: unknown): T[] => (Array.isArray(data) ? (data as T[]) : []);

export function ProvinceSelect(props: SelectProps<number>) {
  const { result, query } = useCustom<ProvinceOption[]>({
    url: '/send/provinceList',
    method: 'post',
    queryOptions: { staleTime: Infinity },
  });
  return (
    <Select<number>
      allowClear
      showSearch
      optionFilterProp="label"
      placeholder="全部省份"
      style={{ minWidth: 120 }}
      loading={query.isLoading}
      data-testid="province-select"
      options={listOf<ProvinceOption>(result?.data).map((p) => ({ value: p.provinceId, label: p.provinceName }))}
      {...props}
    />
  );
}

export interface CitySelectProps extends SelectProps<number> {
  /** the province field of the same form */
  provinceField?: string;
  /** this field's own name (cleared when the province changes) */
  field?: string;
}

export function CitySelect({ provinceField = 'province', field = 'city', ...props }: CitySelectProps) {
  const form = Form.useFormInstance();
  const provinceId = Form.useWatch(provinceField, form) as number | undefined;
  const { result, query } = useCustom<CityOption[]>({
    url: '/send/cityList',
    method: 'post',
    config: { payload: { provinceId } },
    queryOptions: { enabled: provinceId !== undefined && provinceId !== null, staleTime: Infinity },
  });
  const previous = useRef(provinceId);
  useEffect(() => {
    if (previous.current !== provinceId) form.setFieldValue(field, undefined);
    previous.current = provinceId;
  }, [provinceId, form, field]);
  const cities = provinceId === undefined || provinceId === null ? [] : listOf<CityOption>(result?.data);
  return (
    <Select<number>
      allowClear
      showSearch
      optionFilterProp="label"
      placeholder="全部城市"
      style={{ minWidth: 120 }}
      disabled={provinceId === undefined || provinceId === null}
      loading={query.isFetching && provinceId !== undefined}
      data-testid="city-select"
      options={cities.map((c) => ({ value: c.cityId, label: c.cityName }))}
      {...props}
    />
  );
}
