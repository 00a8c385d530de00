/**
 * 号码来源 of the variable and international pages: numbers typed in the page (fileType 0, 手动输入)
 * or read from an uploaded file (fileType 1, number-input-mode), the page giving both parts.
 */
import type { ReactNode } from 'react';
import { Form, Radio } from 'antd';
import { NumberInputMode } from '@/generated/schemas';

export type NumberMode = typeof NumberInputMode.Manual | typeof NumberInputMode.File;

export interface NumberSourceProps {
  value: NumberMode;
  onChange: (v: NumberMode) => void;
  /** the label of the file choice (导入文件, 导入变量文件) */
  fileLabel: string;
  /** the file choice comes first (the variable page) */
  fileFirst?: boolean;
  /** what the typed choice shows */
  typed: ReactNode;
  /** what the file choice shows */
  file: ReactNode;
}

export function NumberSource({ value, onChange, fileLabel, fileFirst, typed, file }: NumberSourceProps) {
  const manual = { value: NumberInputMode.Manual, label: '手动输入' };
  const upload = { value: NumberInputMode.File, label: fileLabel };
  return (
    <>
      <Form.Item label="号码来源">
        <Radio.Group
          value={value}
          onChange={(e) => onChange(e.target.value as NumberMode)}
          options={fileFirst ? [upload, manual] : [manual, upload]}
          data-testid="number-mode"
        />
      </Form.Item>
      {value === NumberInputMode.File ? file : typed}
    </>
  );
}
