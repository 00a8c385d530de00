/**
 * A server module as one room: `server/modules/<area>/index.ts` default-exports `defineModule(...)`,
 * a Fastify plugin that builds the area's service, publishes it on `app.services` for the modules
 * that depend on it, registers the area's routes (under /api) and its own timers. `server/app.ts`
 * loads every module's index.ts with @fastify/autoload, in the order their `dependencies` give.
 *
 *   declare module '../../context' { interface Services { signs: SignService } }
 *   export default defineModule({ name: 'sign', dependencies: ['clients'] }, async (app, ctx) => {
 *     const signs = (app.services.signs = new SignService(ctx, app.services.clients));
 *     await app.register(signRoutes(ctx, signs));
 *   });
 *
 * A module imports another module only through that module's index.ts (its service types and
 * helpers re-exported there), never its inner files.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';

declare module 'fastify' {
  interface FastifyInstance {
    /** the app itself, without the /api prefix (`routesOutsideApi`; set by server/app.ts) */
    appRoot: FastifyInstance;
  }
}

export interface ModuleMeta {
  /** the area's name, as other modules list it in `dependencies` */
  name: string;
  /** modules whose services this one uses (loaded first) */
  dependencies?: string[];
}

/**
 * Adds routes on the app itself, outside /api (e.g. a static file of the console the module
 * serves): `add` receives the app without the /api prefix (a plugin registered from a module would
 * still land under /api, so the routes are added directly).
 */
export function routesOutsideApi(app: FastifyInstance, add: (root: FastifyInstance) => void) {
  add(app.appRoot);
}

export function defineModule(meta: ModuleMeta, setup: (app: FastifyInstance, ctx: AppContext) => Promise<void> | void) {
  return fp(async (app) => setup(app, app.ctx), {
    name: meta.name,
    dependencies: meta.dependencies ?? [],
    fastify: '5.x',
  });
}

/**
 * A timer of a module: `fn` every `everyMs` (0: never), never two runs at once, stopped (and its
 * last run awaited) when the app closes. `firstMs` runs the first one earlier.
 */
export function moduleTimer(
  app: FastifyInstance,
  everyMs: number,
  fn: () => Promise<unknown>,
  what: string,
  firstMs?: number,
) {
  if (!(everyMs > 0)) return;
  let running: Promise<unknown> | null = null;
  const run = () => {
    running ??= fn()
      .catch((err) => app.log.warn({ err }, `${what} failed`))
      .finally(() => (running = null));
  };
  const first = firstMs !== undefined ? setTimeout(run, firstMs) : undefined;
  const timer = setInterval(run, everyMs);
  first?.unref();
  timer.unref();
  app.addHook('onClose', async () => {
    if (first) clearTimeout(first);
    clearInterval(timer);
    await running;
  });
}
