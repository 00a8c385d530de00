/**
 * Screening of the variable page (POST /send/screenPhones): keep carriers, keep provinces, block
 * cities (lists from the number data: POST /send/provinceList, /send/cityList). The answer's
 * submitTotal (and the screened file) replace the page's.
 */
import { useEffect, useState } from 'react';
import { App, Button, Checkbox, Select, Space } from 'antd';
import { FilterOutlined } from '@ant-design/icons';
import { ApiError } from '@/providers/http';
import { cityList, provinceList, screenPhones, type Screened } from './api';
import { MESSAGES } from '../../../common/schema/messages';

export interface ScreeningPanelProps {
  /** type 2: the parsed file's sendFilePath; type 1: the typed numbers */
  source: { type: 2; importFilePath: string; variateNum: number } | { type: 1; phones: string };
  onScreened: (r: Screened) => void;
}

const CARRIER_OPTIONS = [
  { value: 1, label: '移动' },
  { value: 2, label: '联通' },
  { value: 3, label: '电信' },
];

export function ScreeningPanel({ source, onScreened }: ScreeningPanelProps) {
  const { message } = App.useApp();
  const [operators, setOperators] = useState<number[]>([1, 2, 3]);
  const [provinces, setProvinces] = useState<number[]>([]);
  const [removeCitys, setRemoveCitys] = useState<number[]>([]);
  const [provinceOptions, setProvinceOptions] = useState<{ value: number; label: string }[]>([]);
  const [cityOptions, setCityOptions] = useState<{ value: number; label: string }[]>([]);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    provinceList()
      .then((r) => setProvinceOptions(r.data.map((p) => ({ value: p.provinceId, label: p.provinceName }))))
      .catch(() => undefined);
  }, []);
  useEffect(() => {
    let live = true;
    const ids = provinces.length ? provinces : [];
    Promise.all(ids.map((id) => cityList(id).then((r) => r.data)))
      .then((lists) => live && setCityOptions(lists.flat().map((c) => ({ value: c.cityId, label: c.cityName }))))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [provinces]);

  const run = async () => {
    setBusy(true);
    try {
      const r = await screenPhones({ ...source, operators, provinces, removeCitys });
      onScreened(r.data);
      message.success(`筛选完成：${r.data.submitTotal} 个号码`);
    } catch (e) {
      message.error(e instanceof ApiError ? e.message : '筛选失败');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="screening">
      <Space wrap>
        <span>运营商：</span>
        <Checkbox.Group
          options={CARRIER_OPTIONS}
          value={operators}
          onChange={(v) => setOperators(v)}
          data-testid="screen-operators"
        />
      </Space>
      <Space wrap>
        <span>发送省份：</span>
        <Select<number[]>
          mode="multiple"
          allowClear
          placeholder="全部省份"
          style={{ minWidth: 320 }}
          options={provinceOptions}
          value={provinces}
          onChange={setProvinces}
          optionFilterProp="label"
          data-testid="screen-provinces"
        />
      </Space>
      <Space wrap>
        <span>屏蔽城市：</span>
        <Select<number[]>
          mode="multiple"
          allowClear
          placeholder={provinces.length ? '选择要屏蔽的城市' : '请先选择省份'}
          style={{ minWidth: 320 }}
          options={cityOptions}
          value={removeCitys}
          onChange={setRemoveCitys}
          optionFilterProp="label"
          data-testid="screen-cities"
        />
        <Button icon={<FilterOutlined />} loading={busy} onClick={run} data-testid="screen-run">
          {busy ? MESSAGES.statusScreening : '号码筛选'}
        </Button>
      </Space>
    </Space>
  );
}
