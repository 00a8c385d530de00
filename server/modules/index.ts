/**
 * Every server module that is a plugin (server/modules/module.ts), one line each; `server/app.ts`
 * registers them under /api in the order their `dependencies` give (`inDependencyOrder`). A new area
 * adds its `index.ts` and one line here.
 *
 * (Not @fastify/autoload: its file scan imports the modules with Node's own loader, which the test
 * runner's and the benchmarks' TypeScript loaders do not serve the same way; one list works everywhere.)
 */
import type { FastifyPluginAsync } from 'fastify';
import account from './account';
import auth from './auth';
import bills from './bills';
import blacklist from './blacklist';
import captcha from './captcha';
import clients from './clients';
import content from './content';
import files from './files';
import help from './help';
import invoice from './invoice';
import ledger from './ledger';
import metrics from './metrics';
import notice from './notice';
import numbers from './numbers';
import openapi from './openapi';
import operator from './operator';
import password from './password';
import pay from './pay';
import profile from './profile';
import purchase from './purchase';
import records from './records';
import register from './register';
import reports from './reports';
import retention from './retention';
import send from './send';
import sign from './sign';
import subaccount from './subaccount';
import site from './site';
import smppServer from './smpp-server';
import template from './template';
import upload from './upload';
import variableInternational from './variable-international';

export const MODULES: FastifyPluginAsync[] = [
  account,
  auth,
  bills,
  blacklist,
  captcha,
  clients,
  content,
  files,
  help,
  invoice,
  ledger,
  metrics,
  notice,
  numbers,
  openapi,
  operator,
  password,
  pay,
  profile,
  purchase,
  records,
  register,
  reports,
  retention,
  send,
  sign,
  site,
  smppServer,
  subaccount,
  template,
  upload,
  variableInternational,
];

interface PluginMeta {
  name?: string;
  dependencies?: string[];
}
const metaOf = (p: FastifyPluginAsync): PluginMeta =>
  (p as unknown as Record<symbol, PluginMeta | undefined>)[Symbol.for('plugin-meta')] ?? {};

/** The modules with every one after those it depends on (a cycle or a missing dependency throws). */
export function inDependencyOrder(
  modules: FastifyPluginAsync[],
  provided: readonly string[] = [],
): FastifyPluginAsync[] {
  const byName = new Map(modules.map((m) => [metaOf(m).name ?? '', m]));
  const done = new Set<string>(provided);
  const visiting = new Set<string>();
  const out: FastifyPluginAsync[] = [];
  const visit = (m: FastifyPluginAsync) => {
    const { name = '', dependencies = [] } = metaOf(m);
    if (done.has(name)) return;
    if (visiting.has(name)) throw new Error(`module ${name}: dependency cycle`);
    visiting.add(name);
    for (const d of dependencies) {
      if (done.has(d)) continue;
      const dep = byName.get(d);
      if (!dep) throw new Error(`module ${name} depends on ${d}, which is not a module`);
      visit(dep);
    }
    visiting.delete(name);
    done.add(name);
    out.push(m);
  };
  modules.forEach(visit);
  return out;
}
