/**
 * What every screen sits in: antd in Chinese (zh_CN + dayjs zh-cn), antd's App context
 * (message/modal hooks), the pickers' today in Asia/Shanghai (src/lib/businessTime.ts). Used by the
 * app, by Storybook and by component tests.
 */
import type { ReactNode } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import './antdReact19';
import '@/lib/businessTime';

dayjs.locale('zh-cn');

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider locale={zhCN} theme={{ token: { colorPrimary: '#1677ff' } }}>
      <AntApp>{children}</AntApp>
    </ConfigProvider>
  );
}
