/**
 * What every page sits in, /login included: antd in Chinese (zh_CN + dayjs zh-cn), the pickers'
 * today in Asia/Shanghai (src/lib/businessTime.ts), and the text style antd's App gives its
 * children (colour, font, line height). antd's App itself (the message / modal / notification
 * hooks, ~14 KB gzip) is ./AntAppLayer, loaded around every page but /login, and in the background
 * on /login (App.tsx). Storybook and component tests use ./AppProviders (both at once).
 */
import type { ReactNode } from 'react';
import { ConfigProvider, theme } from 'antd';
// the ES module: antd/locale/zh_CN is a CommonJS re-export whose default import the production
// build resolved to a wrapper, so every antd text (pickers, pagination, empty, modals) fell back
// to English (issue 27 item 2; tests/e2e/antd-locale.spec.ts). It is data only (~3 KB gzip).
import zhCN from 'antd/es/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import './antdReact19';
import '@/lib/businessTime';

dayjs.locale('zh-cn');

export function BaseProviders({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider locale={zhCN} theme={{ token: { colorPrimary: '#1677ff' } }}>
      {children}
    </ConfigProvider>
  );
}

/** The text style of antd's App container (its `.ant-app` rule), for a page shown without it. */
export function AppText({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  return <div style={{ color: token.colorText, fontSize: token.fontSize, lineHeight: token.lineHeight, fontFamily: token.fontFamily }}>{children}</div>;
}
