/**
 * What every screen sits in: antd in Chinese (zh_CN + dayjs zh-cn), antd's App context
 * (message/modal hooks), the pickers' today in Asia/Shanghai (src/lib/businessTime.ts). Used by the
 * app, by Storybook and by component tests.
 */
import type { ReactNode } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
// the ES module: antd/locale/zh_CN is a CommonJS re-export whose default import the production
// build resolved to a wrapper, so every antd text (pickers, pagination, empty, modals) fell back
// to English (issue 27 item 2; tests/e2e/antd-locale.spec.ts). It is data only (~3 KB gzip).
import zhCN from 'antd/es/locale/zh_CN';
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
