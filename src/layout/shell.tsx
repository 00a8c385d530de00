/**
 * What both consoles' shells share (the accounts' ConsoleLayout, the operators' OpsLayout): the
 * side menu's items from the screen table's menu (with a count beside an entry that declares a
 * badge), the entry of the current page, the menu collapsed on narrow windows, and the session
 * asked again before each page after the first.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useActiveAuthProvider } from '@refinedev/core';
import type { MenuProps } from 'antd';
import type { CheckParams } from '@/providers/authProvider';
import { useMediaQuery } from '@/lib/useMediaQuery';
import { iconOf } from './menuIcons';
import type { MenuNode } from './screens';

/**
 * Below this width the side menu starts collapsed (icons only, 80 px), so a list keeps ~850 px
 * at 1024: the toggle at its foot still opens it; crossing the width sets it again.
 */
export const MENU_COLLAPSE_BELOW = 1280;
const NARROW = `(max-width: ${MENU_COLLAPSE_BELOW - 0.02}px)`;

export type MenuItem = Required<MenuProps>['items'][number];

/**
 * The menu's items; `badge(node)` draws a count beside an entry or a group (what the node's
 * `badge` key counts; a group: its entries' together).
 */
export function menuItems(nodes: MenuNode[], badge?: (node: MenuNode) => ReactNode): MenuItem[] {
  const label = (e: MenuNode, text: ReactNode) => {
    const b = badge?.(e);
    return b ? (
      // a group's count clear of its arrow
      <span
        style={{
          display: 'inline-flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          width: '100%',
          gap: 8,
          paddingInlineEnd: e.children ? 20 : 0,
        }}
      >
        <span>{text}</span>
        {b}
      </span>
    ) : (
      text
    );
  };
  return nodes.map((e) =>
    e.children
      ? { key: e.key, icon: iconOf(e.icon), label: label(e, e.label), children: menuItems(e.children, badge) }
      : {
          key: e.link ?? e.key,
          icon: iconOf(e.icon),
          label: label(e, e.link ? <Link to={e.link}>{e.label}</Link> : e.label),
        },
  );
}

/** Leaf links of the menu, to highlight the entry of the current page (longest prefix). */
export function selectedKey(nodes: MenuNode[], pathname: string): string[] {
  const routes: string[] = [];
  const walk = (es: MenuNode[]) => es.forEach((e) => (e.children ? walk(e.children) : e.link && routes.push(e.link)));
  walk(nodes);
  const hit = routes
    .filter((r) => (r === '/' ? pathname === '/' : pathname === r || pathname.startsWith(`${r}/`)))
    .sort((a, b) => b.length - a.length)[0];
  return hit ? [hit] : [];
}

/** The side menu's collapsed state: collapsed below MENU_COLLAPSE_BELOW px (or as given), following the window across that width. */
export function useMenuCollapsed(initial?: boolean) {
  const narrow = useMediaQuery(NARROW);
  const [collapsed, setCollapsed] = useState(initial ?? narrow);
  // the window crossed MENU_COLLAPSE_BELOW: the menu follows (set during render, React's way to
  // adjust state to a changed input)
  const [wasNarrow, setWasNarrow] = useState(narrow);
  if (narrow !== wasNarrow) {
    setWasNarrow(narrow);
    setCollapsed(narrow);
  }
  return [collapsed, setCollapsed] as const;
}

/** Asks the server whether the session is still valid before each protected page after the first. */
export function useSessionCheckOnNavigate() {
  const auth = useActiveAuthProvider();
  const location = useLocation();
  const navigate = useNavigate();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false; // <Authenticated> checked the first page
      return;
    }
    let cancelled = false;
    const target = `${location.pathname}${location.search}`;
    void auth?.check?.({ target } satisfies CheckParams).then((r) => {
      if (!cancelled && !r.authenticated && r.redirectTo) void navigate(r.redirectTo, { replace: true });
    });
    return () => {
      cancelled = true;
    };
  }, [location.pathname, location.search]); // eslint-disable-line react-hooks/exhaustive-deps
}
