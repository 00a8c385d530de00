/**
 * One configuration (issue 37 item 2): the environment is described once (schemas/config/env.json),
 * read once per process by loadConfig() (server/config.ts) and checked by the project's ajv; a bad
 * value stops the start naming the variable; nothing else in server/ reads process.env; the
 * reference docs/configuration.md is rendered from the schema and must match it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_CONFIG, ENV_DEFAULTS, configFromEnv, loadConfig } from '../../server/config';
import { accepts, ENV_NAMES, ENV_SCHEMA } from '../../server/env';
import { CONFIG_DOC, renderConfigDoc } from '../../scripts/gen-config-doc';
import type { JsonSchema } from '../../common/schema';
import { backends, useServer, type ApiResponse, type Client } from './harness';
import { png } from '../fixtures/images';
import { runCli } from '../../server/cli';

const root = path.resolve(import.meta.dirname, '../..');
const PROPS = ENV_SCHEMA.properties as Record<string, JsonSchema>;

/** the ConfigError loadConfig(env) throws (fails when it throws none) */
function refusal(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error(`accepted: ${JSON.stringify(env)}`);
}

describe('the schema', () => {
  it('describes every variable: a description, a group, and bounds on every number', () => {
    expect(ENV_NAMES.length).toBeGreaterThan(90);
    for (const [name, p] of Object.entries(PROPS)) {
      expect(name, name).toMatch(/^[A-Z][A-Z0-9_]*$/);
      expect(p.description?.length, `${name}: description`).toBeGreaterThan(10);
      expect(typeof p['x-group'], `${name}: x-group`).toBe('string');
      if (p.type === 'integer' || p.type === 'number') {
        expect(typeof p.minimum, `${name}: minimum`).toBe('number');
        expect(typeof p.maximum, `${name}: maximum`).toBe('number');
      }
      // a pattern is explained in words to the operator
      if (p.pattern) expect(typeof p['x-accepts'], `${name}: x-accepts`).toBe('string');
    }
  });

  it('lists as required exactly the variables with a default (so the loaded type has them)', () => {
    const withDefault = Object.entries(PROPS)
      .filter(([, p]) => p.default !== undefined)
      .map(([n]) => n);
    expect([...(ENV_SCHEMA.required ?? [])].sort()).toEqual(withDefault.sort());
  });

  it('gives the defaults of an empty environment', () => {
    const c = loadConfig({});
    expect(c.http).toEqual({ port: 8080, host: '0.0.0.0', reusePort: false });
    expect(c.dataDir).toBe(path.resolve('./data'));
    expect(c.logLevel).toBe('info');
    expect(c.db).toEqual({
      url: undefined,
      schema: undefined,
      poolSize: 10,
      statementTimeoutMs: 30_000,
      prepare: { threshold: 3, max: 256 },
    });
    expect(c.dispatch).toMatchObject({ enabled: true, channelsFile: undefined, reloadMs: 2000 });
    expect(c.dispatch.options).toEqual({
      batchSize: 1000,
      lanes: 3,
      leaseMs: 120_000,
      sourcePrefix: '106900',
      markSubmittedMs: 10_000,
      matchUnconfirmedMs: 60_000,
      throttleFailoverMs: 10_000,
    });
    expect(c.simulator).toEqual({
      protocol: 'smpp',
      settings: {},
      countsFile: path.resolve('smsc-sim-counts.json'),
      countsRefs: true,
    });
    expect(c.app).toMatchObject({
      sessionCheckCacheMs: 2000,
      cachedSessionMs: 1000,
      smppServerPort: 2775,
      cmppServerPort: 7890,
      smgpServerPort: 8890,
      sgipServerPort: 8801,
      sgipNodeId: 3000000000,
      smsSourcePrefix: '106900',
      autoReview: false,
      secureCookies: false,
      registerAutoLogin: true,
      codeDailyPerCountry: { '86': 5000, '*': 200 },
      longPartsMaxBytes: 1024 * 1024,
      openapiUnverifiedBytes: 64 * 1024 * 1024,
      alarmCooldownMs: 24 * 3600_000,
      pay: {
        open: true,
        sandbox: true,
        orderTtlMs: 15 * 60_000,
        localUrl: 'http://localhost:8080',
        alipay: null,
        wechat: null,
      },
    });
  });

  it("buildApp's defaults are the environment's, with the caches, listeners and sandbox off", () => {
    expect(DEFAULT_CONFIG).toEqual({
      ...configFromEnv(ENV_DEFAULTS),
      sessionCheckCacheMs: 0,
      cachedSessionMs: 0,
      smppServerPort: 0,
      cmppServerPort: 0,
      smgpServerPort: 0,
      sgipServerPort: 0,
      pay: { ...configFromEnv(ENV_DEFAULTS).pay, sandbox: false },
    });
  });
});

describe('a bad value stops the start, naming the variable and what it accepts', () => {
  it.each([
    ['not a number', { PORT: 'abc' }, 'PORT="abc" is not accepted: expected an integer from 0 to 65535'],
    [
      'not an integer',
      { DISPATCH_LANES: '1.5' },
      'DISPATCH_LANES="1.5" is not accepted: expected an integer from 1 to 16',
    ],
    ['out of range', { PORT: '70000' }, 'PORT="70000" is not accepted: expected an integer from 0 to 65535'],
    [
      'below the range',
      { MAX_FAILED_LOGINS: '0' },
      'MAX_FAILED_LOGINS="0" is not accepted: expected an integer from 1 to 1000',
    ],
    [
      'a number out of range',
      { SMSC_SIM_DELIVERED: '1.5' },
      'SMSC_SIM_DELIVERED="1.5" is not accepted: expected a number from 0 to 1',
    ],
    [
      'not a boolean',
      { SECURE_COOKIES: 'maybe' },
      'SECURE_COOKIES="maybe" is not accepted: expected 1, true, yes, on (or 0, false, no, off)',
    ],
    [
      'not in the enum',
      { LOG_LEVEL: 'loud' },
      'LOG_LEVEL="loud" is not accepted: expected one of fatal, error, warn, info, debug, trace, silent',
    ],
    [
      'not matching its pattern',
      { DATABASE_URL: 'mysql://db/sms' },
      'DATABASE_URL is not accepted: expected a postgres:// (or postgresql://) URL',
    ],
    ['a URL the SMPP parser refuses', { SMPP_URL: 'smpp://a:toolongpassword@h:2775' }, 'SMPP_URL: '],
    ['an unreadable list', { CODE_DAILY_PER_COUNTRY: '86=5000,=3' }, 'CODE_DAILY_PER_COUNTRY: cannot read "=3"'],
    ['a reversed range', { SMSC_SIM_LATENCY_MS: '500-50' }, 'SMSC_SIM_LATENCY_MS="500-50" is not accepted'],
    [
      'half of a key set',
      { ALIPAY_APP_ID: '2021000000000000', ALIPAY_PRIVATE_KEY: 'k' },
      'ALIPAY_PUBLIC_KEY is not set, but ALIPAY_APP_ID is',
    ],
    [
      'a listener without its files',
      { SMPP_SERVER_TLS_PORT: '2776' },
      'SMPP_SERVER_TLS_CERT is not set: SMPP_SERVER_TLS_PORT needs SMPP_SERVER_TLS_CERT and SMPP_SERVER_TLS_KEY',
    ],
  ])('%s', (_kind, env, message) => {
    const e = refusal(env);
    expect(e.problems.length, e.message).toBeGreaterThanOrEqual(1);
    expect(e.problems[0]).toContain(message);
    expect(e.message).toMatch(/^Bad configuration \(see docs\/configuration.md\):\n {2}/);
  });

  it('one line per bad variable, all of them at once', () => {
    const e = refusal({ PORT: 'x', AUTO_REVIEW: 'y', CACHED_SESSION_MS: '9999', HOST: '127.0.0.1' });
    expect(e.problems.map((p) => p.split(/[=: ]/)[0]).sort()).toEqual(['AUTO_REVIEW', 'CACHED_SESSION_MS', 'PORT']);
  });

  it('never repeats the value of a text variable (a URL or a key may hold a password)', () => {
    const e = refusal({ DATABASE_URL: 'mysql://root:s3cret@db/sms', PAY_PUBLIC_URL: 'ftp://u:hunter2@x' });
    expect(e.message).not.toMatch(/s3cret|hunter2/);
    expect(e.problems).toHaveLength(2);
  });

  it('CACHED_SESSION_MS=abc is refused (it used to turn the cache off silently), as is a value above 5000 (it used to be clamped)', () => {
    expect(refusal({ CACHED_SESSION_MS: 'abc' }).problems).toEqual([
      'CACHED_SESSION_MS="abc" is not accepted: expected an integer from 0 to 5000',
    ]);
    expect(refusal({ CACHED_SESSION_MS: '6000' }).problems[0]).toMatch(/^CACHED_SESSION_MS="6000"/);
    expect(loadConfig({ CACHED_SESSION_MS: '0' }).app.cachedSessionMs).toBe(0);
    expect(loadConfig({ CACHED_SESSION_MS: '250' }).app.cachedSessionMs).toBe(250);
  });

  it('an empty value, or one of spaces, is an unset one: the default applies', () => {
    expect(loadConfig({ CACHED_SESSION_MS: '', SESSION_CHECK_CACHE_MS: '  ', AUTO_REVIEW: '' }).app).toMatchObject({
      cachedSessionMs: 1000,
      sessionCheckCacheMs: 2000,
      autoReview: false,
    });
    expect(loadConfig({ PORT: ' 9090 ' }).http.port).toBe(9090);
  });

  it('what it accepts is said in words for every variable', () => {
    for (const [name, p] of Object.entries(PROPS))
      expect(accepts(p), name).toMatch(/^(an? |one of |text|1, true|[`a-z0-9])/);
  });
});

describe('booleans: one rule for every variable', () => {
  const flags = Object.entries(PROPS)
    .filter(([, p]) => p.type === 'boolean')
    .map(([n]) => n);

  it.each(['1', 'true', 'TRUE', 'Yes', 'on', 'ON'])('%s is on', (word) => {
    for (const name of flags)
      expect(loadConfig({ [name]: word }).env[name as keyof typeof ENV_DEFAULTS], name).toBe(true);
  });

  it.each(['0', 'false', 'False', 'no', 'off', 'OFF'])('%s is off', (word) => {
    for (const name of flags)
      expect(loadConfig({ [name]: word }).env[name as keyof typeof ENV_DEFAULTS], name).toBe(false);
  });

  it.each(['y', 'n', '2', 'enabled', 'true!'])('%s is refused', (word) => {
    for (const name of flags)
      expect(refusal({ [name]: word }).problems[0], name).toMatch(new RegExp(`^${name}=".*" is not accepted`));
  });

  it('AUTO_REVIEW=y is refused: it can no longer approve signs but not certifications', () => {
    expect(refusal({ AUTO_REVIEW: 'y' }).problems).toEqual([
      'AUTO_REVIEW="y" is not accepted: expected 1, true, yes, on (or 0, false, no, off)',
    ]);
    expect(loadConfig({ AUTO_REVIEW: 'yes' }).app.autoReview).toBe(true);
    expect(loadConfig({ AUTO_REVIEW: 'off' }).app.autoReview).toBe(false);
    expect(loadConfig({ HTTP_REUSE_PORT: 'true', DISPATCH: 'false' })).toMatchObject({
      http: { reusePort: true },
      dispatch: { enabled: false },
    });
  });
});

describe('SMS_SOURCE_PREFIX: read once, one default', () => {
  it('the dispatcher and the listeners get the same value, checked once', () => {
    const c = loadConfig({ SMS_SOURCE_PREFIX: '10690123' });
    expect(c.app.smsSourcePrefix).toBe('10690123');
    expect(c.dispatch.options.sourcePrefix).toBe('10690123');
    expect(loadConfig({}).app.smsSourcePrefix).toBe(ENV_DEFAULTS.SMS_SOURCE_PREFIX);
    expect(ENV_DEFAULTS.SMS_SOURCE_PREFIX).toBe('106900');
    // both reads used to differ: one threw, the other fell back to the default
    expect(refusal({ SMS_SOURCE_PREFIX: '10690a' }).problems).toEqual([
      'SMS_SOURCE_PREFIX is not accepted: expected 1 to 12 digits',
    ]);
    expect(refusal({ SMS_SOURCE_PREFIX: '1234567890123' }).problems[0]).toMatch(/^SMS_SOURCE_PREFIX/);
  });

  it('no server file spells its default or reads the variable itself', () => {
    const files = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) =>
          e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
        );
    // server/config.ts maps the checked value; the CMPP carrier link keeps a fallback of its own for links made without the pipeline
    const allowed = ['server/config.ts', 'server/modules/smsc/cmpp-client.ts'];
    const offenders = files(path.join(root, 'server'))
      .map((f) => path.relative(root, f))
      .filter(
        (f) =>
          !allowed.includes(f) &&
          /'106900'|(?<!ENV_DEFAULTS)\.SMS_SOURCE_PREFIX\b|\[['"]SMS_SOURCE_PREFIX/.test(
            fs.readFileSync(path.join(root, f), 'utf8'),
          ),
      );
    expect(offenders).toEqual([]);
  });
});

describe.each(backends)('what a server does with it (%s)', (backend) => {
  const loaded = loadConfig({ AUTO_REVIEW: 'on', SMS_SOURCE_PREFIX: '1069555', SECURE_COOKIES: 'yes' }).app;
  const t = useServer(backend, {
    config: {
      autoReview: loaded.autoReview,
      smsSourcePrefix: loaded.smsSourcePrefix,
      secureCookies: loaded.secureCookies,
      smppServerPort: -1,
      smppServerHost: '127.0.0.1',
      cmppServerPort: -1,
      cmppServerHost: '127.0.0.1',
    },
  });

  async function loggedIn(clientid: string): Promise<Client> {
    const c = await t.server.client().init();
    const r = await c.login(clientid, 'Demo1234');
    if (r.body.code !== 0) throw new Error(`login ${clientid}: ${r.body.msg}`);
    return c;
  }

  it('AUTO_REVIEW approves a sign and a certification alike', async () => {
    const client1 = await loggedIn('client1');
    expect((await client1.post('/api/sign/add', { sign: '好易购自营店' })).body).toMatchObject({
      code: 0,
      data: { state: 1 },
    });

    const agent = await loggedIn('newagent');
    const boundary = '----cfg' + Math.random().toString(16).slice(2);
    const upload = await t.server.app.inject({
      method: 'POST',
      url: '/api/file/upload',
      headers: {
        host: 'localhost:8080',
        'content-type': `multipart/form-data; boundary=${boundary}`,
        cookie: [...agent.jar].map(([k, v]) => `${k}=${v}`).join('; '),
        'x-xsrf-token': agent.jar.get('XSRF-TOKEN') ?? '',
      },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="photoFile"; filename="licence.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        png(),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
      remoteAddress: agent.ip,
    });
    const img = upload.json().data.path;
    const r = await agent.post('/api/admin/cer/add', {
      id_type: '7',
      company: '测试企业',
      id_nbr: 'ABC123',
      imgUrl: img,
    });
    expect(r.body).toEqual({ code: 0, msg: '认证已通过', data: { oauth_status: 3 } });
  });

  it("the SMPP and CMPP listeners take SMS_SOURCE_PREFIX from the app's config", () => {
    expect(t.server.app.services.smppServer?.opts.sourcePrefix).toBe('1069555');
    expect(t.server.app.services.cmppServer?.opts.sourcePrefix).toBe('1069555');
  });

  it('SECURE_COOKIES marks every cookie the server sets Secure', async () => {
    const c = t.server.client();
    const headers = (r: ApiResponse) => ([] as string[]).concat(r.raw.headers['set-cookie'] ?? []);
    const cookies = [
      ...headers(await c.get('/api/login/timeout')),
      ...headers(await c.get('/api/captcha.jpg')),
      ...headers(await c.login('client1', 'Demo1234', { remember: true })),
    ];
    const names = new Set(cookies.map((k) => k.split('=')[0]));
    // the CSRF pair, the captcha, the session and the remember-me token
    expect(names.size, cookies.join('\n')).toBeGreaterThanOrEqual(4);
    for (const cookie of cookies) expect(cookie, cookie).toMatch(/;\s*Secure/i);
  });
});

describe('process.env is read in one place', () => {
  const eslint = new ESLint({
    cwd: root,
    overrideConfig: {
      languageOptions: { parserOptions: { projectService: false } },
      rules: {
        '@typescript-eslint/no-floating-promises': 'off',
        '@typescript-eslint/no-misused-promises': 'off',
        '@typescript-eslint/await-thenable': 'off',
        '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      },
    },
  });
  const refused = async (code: string, filePath: string) =>
    (await eslint.lintText(code, { filePath }))[0].messages.filter((m) => m.ruleId === 'no-restricted-properties')
      .length;

  it('ESLint refuses it in server/ and common/ but in server/config.ts', async () => {
    expect(
      await refused('export const a = process.env.AUTO_REVIEW;', path.join(root, 'server/modules/account/x.ts')),
    ).toBe(1);
    expect(await refused('const { env } = process; export const a = env;', path.join(root, 'server/main-x.ts'))).toBe(
      1,
    );
    expect(await refused("export const a = process['env'];", path.join(root, 'common/x.ts'))).toBe(1);
    expect(await refused('export const a = process.env.AUTO_REVIEW;', path.join(root, 'server/config.ts'))).toBe(0);
    expect(await refused('export const a = process.env.CI;', path.join(root, 'tests/server/x.ts'))).toBe(0);
  }, 60_000);
});

describe('docs/configuration.md', () => {
  it('is the rendering of the schema (run `npm run docs:config` after changing it)', () => {
    expect(fs.readFileSync(CONFIG_DOC, 'utf8')).toBe(renderConfigDoc());
  });

  it('names every variable, with its default', () => {
    const doc = renderConfigDoc();
    for (const name of ENV_NAMES) expect(doc, name).toContain(`### \`${name}\``);
    expect(doc).toContain('### `CACHED_SESSION_MS`\n');
  });
});

describe('the entry points print the message and exit with 1', () => {
  const BAD = { CACHED_SESSION_MS: 'abc', AUTO_REVIEW: 'y' };
  const expectMessage = (err: string) => {
    expect(err).toContain('Bad configuration (see docs/configuration.md):');
    expect(err).toContain('CACHED_SESSION_MS="abc" is not accepted: expected an integer from 0 to 5000');
    expect(err).toContain('AUTO_REVIEW="y" is not accepted');
    // a message, not a stack trace
    expect(err, err).not.toMatch(/\n\s+at /);
  };
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  function run(script: string): Promise<{ code: number | null; err: string }> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'config-entry-'));
    dirs.push(dataDir);
    const c = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, ...BAD },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    c.stderr.on('data', (d: Buffer) => (err += d.toString()));
    return new Promise((resolve) => c.once('exit', (code) => resolve({ code, err })));
  }

  it('npm start and npm run smsc-sim, before opening anything', async () => {
    const results = await Promise.all([
      run(path.join(root, 'server/main.ts')),
      run(path.join(root, 'server/modules/smsc/sim-main.ts')),
    ]);
    for (const { code, err } of results) {
      expect(code, err).toBe(1);
      expectMessage(err);
    }
    // nothing was made in the data folder (the database was never opened)
    for (const d of dirs) expect(fs.readdirSync(d)).toEqual([]);
  }, 120_000);

  it('npm run cli', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, BAD);
    let err = '';
    try {
      expect(
        await runCli(
          ['alarm-stats'],
          () => undefined,
          (s) => (err += `${s}\n`),
        ),
      ).toBe(1);
    } finally {
      for (const k of Object.keys(BAD)) if (saved[k] === undefined) delete process.env[k];
      Object.assign(process.env, saved);
    }
    expectMessage(err);
  });

  it('npm run worker and npm run smpp-server read it first, with the same function', () => {
    for (const f of ['server/worker.ts', 'server/smpp-server.ts', 'server/main.ts']) {
      const text = fs.readFileSync(path.join(root, f), 'utf8');
      const first = text.search(/^const \w+ = configOrExit\(\);$/m);
      expect(first, f).toBeGreaterThan(0);
      expect(first, f).toBeLessThan(text.search(/\bawait\b/));
    }
  });
});
