/**
 * The shape of a folder's screen declarations: each src/resources/<x>/index.ts and
 * src/custom-pages/<x>/index.ts exports its screens (path, label, access, lazy page, menu place)
 * and the data resources its pages read (list endpoint, entity and filter schema keys);
 * src/screens.tsx only concatenates them. The data provider reads the endpoints from the same
 * declarations (resourceRegistry), the pages read their labels and schema keys from them.
 *
 * No run-time import of the table here: pages import this module and their own folder's
 * data.ts, never src/screens.tsx nor their folder's index.ts (tests/unit/importBoundaries.test.ts,
 * tests/unit/import-cycles.test.ts); they read screens through useScreen() (layout/screens.tsx).
 */
import type { ComponentType, LazyExoticComponent } from 'react';
import type { RuleName } from '@/providers/access';
import type { ResourceDefinition, ResourceRegistry } from '@/providers/dataProvider';
import type { MenuIconName } from './menuIcons';

/**
 * A Refine data resource: which endpoint lists (and reads, creates, updates, deletes) it, and
 * the schemas its list screen lays out. The pages pass it to useSchemaList / SchemaFilterBar /
 * SchemaTable, the data provider finds its endpoints by `name`.
 */
export interface DataResource extends ResourceDefinition {
  /** the Refine resource name the hooks use ('signs'); unique across the console */
  name: string;
  /** entity schema of a row ('entities/sign'): the table's column titles and enum tags */
  entity?: string;
  /** filter schema of the filter bar ('filters/sign'): the request's parameters */
  filter?: string;
}

/** One screen of the console. */
export interface Screen {
  /** route name (the spec's where it names one): Refine resource name, access-control resource, React key */
  name: string;
  /** absolute path for a top-level screen ('/customer/finance'), relative to its parent for a child ('base/auth') */
  path: string;
  /** Chinese label: menu entry, home quick link, Refine's meta.label, the page's card title and tab */
  label: string;
  icon?: MenuIconName;
  /** named rule from src/providers/access.ts; a child must also pass its parents' rules. None: any logged-in account */
  access?: RuleName;
  /** the page (lazy, so each page stays its own chunk) */
  page: LazyExoticComponent<ComponentType> | ComponentType;
  /** side menu: `true` at the top level, a group key (MenuGroup.key) inside that group; absent: not in the menu */
  menu?: true | string;
  /** where the menu entry and the quick link go when not `path` (a tab layout opens its first tab) */
  link?: string;
  /** a quick link on the home page */
  home?: boolean;
  /**
   * a count the side menu shows beside the entry: the key of the layout's counts (the operator
   * console's 审核 entries: the keys of GET /operator/review/counts, entities/review-counts.json)
   */
  badge?: string;
  /** child path the screen's own path redirects to (a tab layout without content of its own) */
  index?: string;
  /** screens rendered in this page's <Outlet/> (tabs) */
  children?: Screen[];
  /** the data resources the page reads and writes (their endpoints go to the data provider) */
  data?: DataResource[];
  /**
   * the page states the account's own certification status itself (the certification screen, the
   * send pages' notice): the layout's certification banner stays away there, so the same 未认证
   * prompt never shows twice (issue 41 item 4); a child inherits it from its parent
   */
  showsCertification?: boolean;
}

/** A titled group of the side menu (has no page of its own). */
export interface MenuGroup {
  key: string;
  label: string;
  icon?: MenuIconName;
}

/**
 * A path the spec names that has no page of its own and opens a screen (a layout's parent path,
 * an older name of a screen): /customer/report opens /customer/report/pre. `to` is absolute, or
 * relative to `path` ('info' under /customer/manager/:id); the query string is kept.
 */
export interface ScreenAlias {
  path: string;
  to: string;
}

export interface ScreenTable {
  screens: Screen[];
  groups: MenuGroup[];
  /** the table's home page: where 返回首页 of the 无权访问 and Not Found pages leads (default "/") */
  home?: string;
  /** paths that open another screen (ScreenAlias) */
  aliases?: ScreenAlias[];
  /** data resources no screen owns (the layout's support contacts) */
  data?: DataResource[];
}

/** A child's absolute path: a relative path is joined to its parent's. */
export const joinPath = (parent: string, child: string) =>
  child.startsWith('/') ? child : `${parent.replace(/\/+$/, '')}/${child}`;

/** A tab layout's tab strip: one tab per child screen (its name, label and absolute path). */
export const tabsOf = (parent: Screen): { key: string; label: string; path: string }[] =>
  (parent.children ?? []).map((c) => ({ key: c.name, label: c.label, path: joinPath(parent.path, c.path) }));

/** The absolute path of a child of a (top-level) screen, by name. */
export function childPath(parent: Screen, name: string): string {
  const child = parent.children?.find((c) => c.name === name);
  if (!child) throw new Error(`${parent.name} has no child ${name}`);
  return joinPath(parent.path, child.path);
}

/**
 * The data provider's registry: every data resource of the table's screens (children included)
 * and the table's own, by name. A name declared twice must be the same declaration (a page
 * shared by several screens declares its data once).
 */
export function resourceRegistry(table: ScreenTable): ResourceRegistry {
  const out: ResourceRegistry = {};
  const add = (d: DataResource, where: string) => {
    if (out[d.name] && out[d.name] !== d) throw new Error(`data resource ${d.name} declared twice (${where})`);
    out[d.name] = d;
  };
  const walk = (screens: Screen[]) =>
    screens.forEach((s) => {
      s.data?.forEach((d) => add(d, s.name));
      if (s.children) walk(s.children);
    });
  walk(table.screens);
  table.data?.forEach((d) => add(d, 'the table'));
  return out;
}
