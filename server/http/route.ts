/**
 * One declaration per route: what it takes (schema from schemas/forms, schemas/filters or
 * server/http/params.ts), who may call it (`access`) and how the OpenAPI document describes it
 * (summary, tag). Fastify validates the payload from `schema`, @fastify/swagger documents it,
 * and `installAccess` turns `config.access` into one guard per route — so a route group needs no
 * checks of its own.
 *
 *   app.post('/login', route({ tag: TAG, summary: '登录', access: 'public', body: form('forms/login') }), handler)
 */
import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { JsonSchema } from '../../common/schema';
import { sessionOf, type SessionService } from './session';
import type { Account } from '../db/types';
import { errors } from './errors';
import type { TypeOfSchema } from './contract';
import { UserType, type OperatorRole } from '../../common/generated/schemas';
import type { OperatorSessions } from './operator-session';
import type { RefusalProtocol } from './refusals';

/**
 * public: no session; session: any logged-in account; agent: userType 1; subAccount: userType 2;
 * operator: the platform's staff (operator-session.ts), of one of the route's `roles` (all when
 * none are named). An account never passes 'operator', an operator never passes the others.
 */
export type Access = 'public' | 'session' | 'agent' | 'subAccount' | 'operator';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** access 'operator': the roles (enums/operator-role.json) that may call the route */
    roles?: readonly OperatorRole[];
    accountIdOnly?: boolean;
    cachedSession?: boolean;
  }
}

export interface RouteDecl<
  B extends JsonSchema | undefined = JsonSchema | undefined,
  Q extends JsonSchema | undefined = JsonSchema | undefined,
> {
  tag: string;
  summary: string;
  access: Access;
  /** access 'operator' only: the roles that may call it (default: every role) */
  roles?: readonly OperatorRole[];
  description?: string;
  /** `request(ctx, 'forms/x')` (server/http/contract.ts): the handler's `req.body` gets its type */
  body?: B;
  /** `request(ctx, 'filters/x')` / a params schema: the handler's `req.query` gets its type */
  querystring?: Q;
  /**
   * The answer: `okOf` / `listOf` / `okEmpty` / `fileReply` of server/http/contract.ts (the 200
   * answer; documented in the OpenAPI document and checked against every answer in the tests).
   */
  response?: JsonSchema;
  /** more route options (e.g. `ipRateLimit(config)`); their `config` is merged */
  with?: RouteShorthandOptions;
  /**
   * the body as the caller's account makes it, before its schema runs (a sub-account's `clientId`
   * is its own, whatever it posted): runs after the access guard, so the session is there
   */
  payload?: (me: Account, body: unknown) => Record<string, unknown>;
  /**
   * access 'session' only: the handler needs the caller's account id and nothing else (a hot
   * route: file chunks). The guard checks the session in the database as for every route, with
   * one statement that reads no account row; the handler reads `accountIdOf(req)` (sessionOf(req)
   * is not set and answers 登录超时).
   */
  accountIdOnly?: boolean;
  /**
   * A read-only list under load (send records, tasks, sub-accounts): the guard may take the
   * session and its account row from the in-process cache of sessions checked in the database
   * within `config.cachedSessionMs` (CACHED_SESSION_MS, 1 s by default) — no statement for the
   * session on most requests. A logout or freeze in another API process takes effect on the route
   * within that bound; in this process at once. Only for routes that change nothing and read the
   * account's id, type and scope.
   */
  cachedSession?: boolean;
  /**
   * A route that accepts messages: its refused answers are counted for 监控 (server/http/refusals.ts)
   * as `console` (the console's send routes) or `http` (the HTTP API's send).
   */
  refusals?: RefusalProtocol;
}

type Untyped<S> = unknown extends TypeOfSchema<S> ? true : false;
/**
 * The route options one declaration makes: with typed schemas (server/http/contract.ts) the schema
 * keeps the payload types for the module's type provider (`api(app)`); plain schemas give plain options.
 */
export type RouteOptions<B, Q> = [Untyped<B>, Untyped<Q>] extends [true, true]
  ? RouteShorthandOptions
  : RouteShorthandOptions & { schema: { body: B; querystring: Q; summary: string; tags: string[] } };

/** Route options from one declaration. */
export function route<B extends JsonSchema | undefined = undefined, Q extends JsonSchema | undefined = undefined>(
  d: RouteDecl<B, Q>,
): RouteOptions<B, Q> {
  const schema: Record<string, unknown> = { summary: d.summary, tags: [d.tag] };
  if (d.description) schema.description = d.description;
  if (d.body) schema.body = d.body;
  if (d.querystring) schema.querystring = d.querystring;
  if (d.response) schema.response = { 200: d.response };
  if (d.roles && d.access !== 'operator') throw new Error(`roles need access 'operator' (${d.summary})`);
  if (d.payload && (d.access === 'public' || d.access === 'operator' || d.accountIdOnly))
    throw new Error(`payload needs an account's session (${d.summary})`);
  const config = {
    ...d.with?.config,
    access: d.access,
    ...(d.roles ? { roles: d.roles } : {}),
    ...(d.accountIdOnly ? { accountIdOnly: true } : {}),
    ...(d.cachedSession ? { cachedSession: true } : {}),
    ...(d.refusals ? { refusals: d.refusals } : {}),
  };
  const shape = d.payload;
  const before = d.with?.preValidation;
  const preValidation = shape
    ? [
        ...(before ? (Array.isArray(before) ? before : [before]) : []),
        async (req: FastifyRequest) => void (req.body = shape(sessionOf(req).account, req.body)),
      ]
    : before;
  return { ...d.with, ...(preValidation ? { preValidation } : {}), schema, config } as unknown as RouteOptions<B, Q>;
}

/** The user types of the two account kinds (schemas/enums/user-type.json). */
const AGENT = UserType.Agent;
const SUB_ACCOUNT = UserType.SubAccount;

/**
 * One guard for every route under /api, from its `config.access`: runs before validation (a
 * caller without the right session gets 401 登录超时 or 403 无权访问, never a message about its
 * payload). A route that declares no access refuses to register.
 */
export function installAccess(app: FastifyInstance, sessions: SessionService, operators: OperatorSessions) {
  app.addHook('onRoute', (opts) => {
    const access = opts.config?.access;
    if (!access) throw new Error(`route ${String(opts.method)} ${opts.url} declares no access`);
    const idOnly = (opts.config as { accountIdOnly?: boolean }).accountIdOnly === true;
    if (idOnly && access !== 'session')
      throw new Error(`route ${String(opts.method)} ${opts.url}: accountIdOnly needs access 'session'`);
    if (access === 'public') return;
    if (access === 'operator') {
      const roles = (opts.config as { roles?: readonly OperatorRole[] }).roles;
      const operatorGuard = async (req: Parameters<OperatorSessions['resolve']>[0]) => {
        const s = await operators.resolve(req);
        if (!s) throw errors.timeout();
        if (roles && !roles.includes(s.operator.role)) throw errors.forbidden();
      };
      const before = opts.preValidation;
      opts.preValidation = [
        operatorGuard,
        ...(before ? (Array.isArray(before) ? before : [before]) : []),
      ] as typeof opts.preValidation;
      return;
    }
    const cached = (opts.config as { cachedSession?: boolean }).cachedSession === true;
    if (cached && idOnly)
      throw new Error(`route ${String(opts.method)} ${opts.url}: cachedSession and accountIdOnly exclude each other`);
    const guard = async (
      req: Parameters<SessionService['resolve']>[0],
      reply: Parameters<SessionService['resolve']>[1],
    ) => {
      if (idOnly) {
        if ((await sessions.resolveAccountId(req, reply)) === null) throw errors.timeout();
        return;
      }
      const s = await (cached ? sessions.resolveCached(req, reply) : sessions.resolve(req, reply));
      if (!s) throw errors.timeout();
      if (access === 'agent' && s.account.user_type !== AGENT) throw errors.forbidden();
      if (access === 'subAccount' && s.account.user_type !== SUB_ACCOUNT) throw errors.forbidden();
    };
    const prev = opts.preValidation;
    opts.preValidation = [guard, ...(prev ? (Array.isArray(prev) ? prev : [prev]) : [])] as typeof opts.preValidation;
  });
}
