/**
 * What shows instead of a blank page when a page cannot be shown (issue 41 item 1): its code chunk
 * failed to load (the network dropped, or a new release replaced the files the open page asked
 * for) or it threw while rendering. The user is told which, and offered a reload; the menu and the
 * rest of the shell stay. Navigating to another path tries again (`resetKey`).
 *
 * Plain elements and inline styles only: it must show even when antd's own chunk is what failed.
 */
import { Component, type CSSProperties, type ReactNode } from 'react';

export const PAGE_ERROR_TEXTS = {
  chunkTitle: '页面加载失败',
  chunkDetail: '网络连接异常，或系统已更新。请检查网络后刷新页面。',
  crashTitle: '页面出错了',
  crashDetail: '页面显示时出现异常，刷新页面后可继续使用。',
  reload: '刷新页面',
} as const;

/** A failed dynamic import, as each browser words it. */
export function isChunkLoadError(error: unknown): boolean {
  const text = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|ChunkLoadError|Loading chunk [\w-]+ failed|Unable to preload CSS/i.test(
    text,
  );
}

const box: CSSProperties = {
  minHeight: '50vh',
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  justifyContent: 'center',
  gap: 12,
  padding: 24,
  textAlign: 'center',
};
const button: CSSProperties = {
  marginTop: 8,
  padding: '6px 20px',
  fontSize: 14,
  color: '#fff',
  background: '#1677ff',
  border: 'none',
  borderRadius: 6,
  cursor: 'pointer',
};

/** The error state itself (stories show it directly). */
export function PageErrorView({
  chunk,
  onReload = () => window.location.reload(),
}: {
  chunk: boolean;
  onReload?: () => void;
}) {
  return (
    <div role="alert" style={box} data-testid="page-error">
      <div style={{ fontSize: 20, fontWeight: 600, color: 'rgba(0,0,0,0.88)' }}>
        {chunk ? PAGE_ERROR_TEXTS.chunkTitle : PAGE_ERROR_TEXTS.crashTitle}
      </div>
      <div style={{ fontSize: 14, color: 'rgba(0,0,0,0.45)' }}>
        {chunk ? PAGE_ERROR_TEXTS.chunkDetail : PAGE_ERROR_TEXTS.crashDetail}
      </div>
      <button type="button" style={button} onClick={onReload}>
        {PAGE_ERROR_TEXTS.reload}
      </button>
    </div>
  );
}

interface Props {
  children: ReactNode;
  /** a new value (the path) clears a caught error and renders the children again */
  resetKey?: string;
}

interface State {
  error: unknown;
  key?: string;
}

export class PageErrorBoundary extends Component<Props, State> {
  state: State = { error: null, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error ?? new Error('unknown') };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.key ? { error: null, key: props.resetKey } : null;
  }

  componentDidCatch(error: unknown) {
    console.error('页面无法显示', error);
  }

  render() {
    if (this.state.error) return <PageErrorView chunk={isChunkLoadError(this.state.error)} />;
    return this.props.children;
  }
}
