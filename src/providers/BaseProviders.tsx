/**
 * What every page sits in, /login included: antd in Chinese (zh_CN + dayjs zh-cn), the pickers'
 * today in Asia/Shanghai (src/lib/businessTime.ts), and the text style antd's App gives its
 * children (colour, font, line height, links). antd's App itself (the message / modal / notification
 * hooks, ~14 KB gzip) is ./AntAppLayer, loaded around every page but /login, and in the background
 * on /login (App.tsx). Storybook and component tests use ./AppProviders (both at once).
 *
 * A user whose system asks for reduced motion (prefers-reduced-motion) gets antd without its
 * animations: dialogs, menus and messages appear and go at once. The browser tests ask for it too
 * (playwright.config.ts, vitest.config.ts), so they do not wait on animations frame by frame.
 */
import { useContext, useMemo, type ReactNode } from 'react';
import { ConfigProvider, type ThemeConfig } from 'antd';
// antd App's own style hook (its `.ant-app` rule and antd's link reset), without App's hooks
import useAppStyle from 'antd/es/app/style';
// the ES module: antd/locale/zh_CN is a CommonJS re-export whose default import the production
// build resolved to a wrapper, so every antd text (pickers, pagination, empty, modals) fell back
// to English (issue 27 item 2; tests/e2e/antd-locale.spec.ts). It is data only (~3 KB gzip).
import zhCN from 'antd/es/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import './antdReact19';
import '@/lib/businessTime';
import { useMediaQuery } from '@/lib/useMediaQuery';

dayjs.locale('zh-cn');

export function BaseProviders({ children }: { children: ReactNode }) {
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  const theme = useMemo<ThemeConfig>(
    () => ({ token: { colorPrimary: '#1677ff', motion: !reducedMotion } }),
    [reducedMotion],
  );
  return (
    <ConfigProvider locale={zhCN} theme={theme}>
      {children}
    </ConfigProvider>
  );
}

/** antd App's container (`.ant-app`: text style, link reset) without its message/modal hooks, for /login. */
export function AppText({ children }: { children: ReactNode }) {
  const prefixCls = useContext(ConfigProvider.ConfigContext).getPrefixCls('app');
  const [wrapCSSVar, hashId, cssVarCls] = useAppStyle(prefixCls);
  return wrapCSSVar(<div className={[hashId, prefixCls, cssVarCls].filter(Boolean).join(' ')}>{children}</div>);
}
