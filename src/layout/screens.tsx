/**
 * What a console does with its screen table (the accounts' src/screens.tsx, the operators'
 * src/ops/screens.tsx: the folders' declarations put together): the routes, the side menu, the
 * home quick links, Refine's resources and the rules the route guard applies are all read from it
 * here. The types the declarations are written in are in ./declarations.ts (which pages may
 * import); pages read their screens through useScreen() / useScreenPath(name) below. The table
 * in use comes from <ScreensProvider> (ConsoleRoutes, OpsRoutes): this file imports no table, so
 * each console's chunk carries only its own.
 *
 * Loaded with the app's entry (the routes need it), so it imports no Refine and no icons at run
 * time: what needs them (ConsoleRefine, the layout) passes them in.
 */
import { createContext, Suspense, useContext, type ReactElement, type ReactNode } from 'react';
import { matchRoutes, Navigate, Route, useLocation, type RouteObject } from 'react-router';
import type { ResourceProps } from '@refinedev/core';
import { allowsAll, type AccessUser, type RuleName } from '@/providers/access';
import { PageLoading } from '@/pages/PageLoading';
import type { MenuIconName } from './menuIcons';
import { joinPath as join, type Screen, type ScreenAlias, type ScreenTable } from './declarations';

export type { DataResource, MenuGroup, Screen, ScreenAlias, ScreenTable } from './declarations';

/** A screen with its absolute path and its ancestors (outermost first, the screen itself last). */
export interface ScreenEntry {
  screen: Screen;
  fullPath: string;
  chain: Screen[];
}

const indexCache = new WeakMap<
  ScreenTable,
  { byName: Map<string, ScreenEntry>; list: ScreenEntry[]; routes: RouteObject[] }
>();

/** Every screen of the table, by name, plus the route objects used to match a location. */
function indexOf(table: ScreenTable) {
  let idx = indexCache.get(table);
  if (idx) return idx;
  const byName = new Map<string, ScreenEntry>();
  const list: ScreenEntry[] = [];
  const walk = (screens: Screen[], parentPath: string, parents: Screen[]): RouteObject[] =>
    screens.map((screen) => {
      const fullPath = join(parentPath, screen.path);
      const entry: ScreenEntry = { screen, fullPath, chain: [...parents, screen] };
      if (byName.has(screen.name)) throw new Error(`screen name declared twice: ${screen.name}`);
      byName.set(screen.name, entry);
      list.push(entry);
      const children = screen.children ? walk(screen.children, fullPath, entry.chain) : undefined;
      return {
        path: screen.path,
        handle: entry,
        children: screen.index ? [{ index: true, handle: entry }, ...(children ?? [])] : children,
      };
    });
  const routes = walk(table.screens, '/', []);
  idx = { byName, list, routes };
  indexCache.set(table, idx);
  return idx;
}

export const screenEntries = (table: ScreenTable): ScreenEntry[] => indexOf(table).list;
export const screenByName = (table: ScreenTable, name: string): ScreenEntry | undefined =>
  indexOf(table).byName.get(name);

/** The screen showing at this pathname (the deepest matching one), or undefined (Not Found). */
export function screenAt(table: ScreenTable, pathname: string): ScreenEntry | undefined {
  const matches = matchRoutes(indexOf(table).routes, pathname);
  return matches?.[matches.length - 1]?.route.handle as ScreenEntry | undefined;
}

/** The rules a user must pass to open a screen: its own and its parents'. Undefined: no such screen. */
export function rulesOf(table: ScreenTable, name: string): RuleName[] | undefined {
  const entry = screenByName(table, name);
  return entry?.chain.flatMap((s) => (s.access ? [s.access] : []));
}

/** May this user open the screen? (The same decision the route guard's `can` makes.) */
export const screenAllowed = (entry: ScreenEntry, user?: AccessUser | null) =>
  allowsAll(
    entry.chain.map((s) => s.access),
    user,
  );

/** Where a screen's menu entry / quick link goes. */
export const linkOf = (entry: ScreenEntry) => entry.screen.link ?? entry.fullPath;

/** A side-menu node: a group with children, or a screen with its link. */
export interface MenuNode {
  key: string;
  label: string;
  icon?: MenuIconName;
  link?: string;
  /** the key of a count the menu shows beside the entry (Screen.badge) */
  badge?: string;
  children?: MenuNode[];
}

/** The side menu this user sees, in table order (a group sits where its first screen is); empty groups dropped. */
export function menuFor(table: ScreenTable, user?: AccessUser | null): MenuNode[] {
  if (!user) return [];
  const out: MenuNode[] = [];
  const groups = new Map<string, MenuNode>();
  for (const entry of screenEntries(table)) {
    const { screen } = entry;
    if (!screen.menu || !screenAllowed(entry, user)) continue;
    const leaf: MenuNode = {
      key: screen.name,
      label: screen.label,
      icon: screen.icon,
      link: linkOf(entry),
      ...(screen.badge ? { badge: screen.badge } : {}),
    };
    if (screen.menu === true) {
      out.push(leaf);
      continue;
    }
    let group = groups.get(screen.menu);
    if (!group) {
      const g = table.groups.find((x) => x.key === screen.menu);
      if (!g) throw new Error(`screen ${screen.name}: unknown menu group ${screen.menu}`);
      group = { key: g.key, label: g.label, icon: g.icon, children: [] };
      groups.set(g.key, group);
      out.push(group);
    }
    group.children!.push(leaf);
  }
  return out;
}

/** The home page's quick links this user may open (icon: the screen's, else its menu group's). */
export function quickLinksFor(table: ScreenTable, user?: AccessUser | null): MenuNode[] {
  if (!user) return [];
  return screenEntries(table)
    .filter((e) => e.screen.home && screenAllowed(e, user))
    .map((e) => {
      const groupKey = typeof e.screen.menu === 'string' ? e.screen.menu : undefined;
      return {
        key: e.screen.name,
        label: e.screen.label,
        link: linkOf(e),
        icon: e.screen.icon ?? table.groups.find((g) => g.key === groupKey)?.icon,
        ...(e.screen.badge ? { badge: e.screen.badge } : {}),
      };
    });
}

/**
 * Refine's `resources`: each screen (name, list path, meta label / icon / parent) and each menu
 * group, so Refine knows the screens (breadcrumbs, useResourceParams, access control by name).
 */
export function refineResources(table: ScreenTable, icon: (name?: MenuIconName) => ReactNode): ResourceProps[] {
  const groups: ResourceProps[] = table.groups.map((g) => ({
    name: g.key,
    meta: { label: g.label, icon: icon(g.icon) },
  }));
  const screens: ResourceProps[] = screenEntries(table).map(({ screen, fullPath, chain }) => {
    const parent =
      chain.length > 1 ? chain[chain.length - 2].name : typeof screen.menu === 'string' ? screen.menu : undefined;
    return {
      name: screen.name,
      list: fullPath.replace(/\/\*$/, ''),
      meta: { label: screen.label, icon: icon(screen.icon), parent },
    };
  });
  return [...groups, ...screens];
}

const ScreensContext = createContext<ScreenTable | undefined>(undefined);

/** The screen table in use (the console's or the operators'; tests pass their own to <AppRoutes screens>). */
export function useScreens(): ScreenTable {
  const table = useContext(ScreensContext);
  if (!table)
    throw new Error(
      "no screen table: render inside <ScreensProvider> (ConsoleRoutes, OpsRoutes, the stories' withApp)",
    );
  return table;
}
export const ScreensProvider = ScreensContext.Provider;

const CurrentScreenContext = createContext<ScreenEntry | undefined>(undefined);

/**
 * Which screen the page below is rendered as: routeElements wraps each page in it (a tab
 * layout's page and the tab in its <Outlet/> each get their own); the stories' withApp gives the
 * screen at the story's path.
 */
export const CurrentScreenProvider = CurrentScreenContext.Provider;

/**
 * A page's screen declaration (label, data resources, children): without a name, the screen the
 * page is rendered as; with one, that screen of the table in use (a typo, or a screen of the other
 * console's table, throws). Pages read their screens here rather than importing their folder's
 * index.ts, which lazily imports them back (tests/unit/import-cycles.test.ts).
 */
export function useScreen(name?: string): Screen {
  const current = useContext(CurrentScreenContext);
  const table = useContext(ScreensContext);
  const entry = name === undefined ? current : table && screenByName(table, name);
  if (!entry)
    throw new Error(
      name === undefined
        ? 'no current screen: render the page through routeElements (or withApp in a story)'
        : `no screen named ${name} in the screen table`,
    );
  return entry.screen;
}

/**
 * The absolute path of a screen, by its declared name: where a page links or navigates to another
 * screen (a screen with parameters gives its pattern, '/sms/purchase/:id').
 */
export function useScreenPath(name: string): string {
  const entry = screenByName(useScreens(), name);
  if (!entry) throw new Error(`no screen named ${name} in the screen table`);
  return entry.fullPath;
}

/**
 * The <Route>s of every screen (children nested, a tab layout's index redirect), each page in its
 * own Suspense. Rendered inside the console's layout route by App.tsx.
 */
export function routeElements(table: ScreenTable): ReactElement[] {
  const toRoute = (screen: Screen): ReactElement => {
    const Page = screen.page;
    return (
      <Route
        key={screen.name}
        path={screen.path}
        element={
          <CurrentScreenProvider value={screenByName(table, screen.name)}>
            <Suspense fallback={<PageLoading />}>
              <Page />
            </Suspense>
          </CurrentScreenProvider>
        }
      >
        {screen.index && <Route index element={<Navigate to={screen.index} replace />} />}
        {screen.children?.map(toRoute)}
      </Route>
    );
  };
  const toAlias = (a: ScreenAlias): ReactElement => (
    <Route key={`alias:${a.path}`} path={a.path} element={<AliasRedirect to={a.to} />} />
  );
  return [...table.screens.map(toRoute), ...(table.aliases ?? []).map(toAlias)];
}

/** An alias opens its screen with the same query string (the screen's own guard then applies). */
function AliasRedirect({ to }: { to: string }) {
  const { search } = useLocation();
  return <Navigate to={`${to}${search}`} replace />;
}
