/**
 * SMPP for customers (issue 24, docs/api-smpp.md; CMPP docs/api-cmpp.md, SMGP docs/api-smgp.md): the interface password of an account
 * (interface-password.ts, its reset route in routes.ts) and the SMPP 3.4 listener (server.ts) on
 * config.smppServerPort (0: off): it listens when the app is ready and closes with the app.
 * Submits go through the send module's acceptance (send/interface.ts). Depends on clients (whose
 * accounts an agent reaches), send, and help: each door's interface document (smpp-doc.ts,
 * cmpp-doc.ts) is registered there (`DOOR_DOCS` below) and generated while the door listens.
 */
import type { AppContext } from '../../context';
import type { SendService } from '../send';
import { defineModule, moduleTimer } from '../module';
import { RECEIPT_KEEP_MS } from './receipts';
import { MO_KEEP_MS } from './mo';
import { acceptInterfaceMessage, InterfaceRefusal, type InterfaceRefusalReason } from '../send';
import { InterfacePasswordService } from './interface-password';
import { smppServerRoutes } from './routes';
import { SMPP_REFUSAL_STATUS, SMPP_SERVER_DEFAULTS, SmppServer, type SmppPlatform } from './server';
import { CMPP_REFUSAL_RESULT, CMPP_SERVER_DEFAULTS, CmppServer } from './cmpp-server';
import { SMGP_REFUSAL_STATUS, SMGP_SERVER_DEFAULTS, SmgpServer } from './smgp-server';
import { SGIP_REFUSAL_RESULT, SGIP_SERVER_DEFAULTS, SgipServer } from './sgip-server';
import { loadInterfaceSecretKey } from '../../lib/interface-secret';
import { sealDemoSecret } from './interface-password';
import { openInterfaceSecret } from '../../lib/interface-secret';
import type { DoorDocSource } from '../help';
import { describeSmppDoor } from './smpp-doc';
import { describeCmppDoor } from './cmpp-doc';
import { describeSmgpDoor } from './smgp-doc';
import { describeSgipDoor } from './sgip-doc';

export { InterfacePasswordService } from './interface-password';
export {
  SmppServer,
  SMPP_STATUS,
  SMPP_REFUSAL_STATUS,
  SMPP_SERVER_DEFAULTS,
  extensionOf,
  receiptWanted,
} from './server';
export {
  CmppServer,
  CMPP_RESULT,
  CMPP_REFUSAL_RESULT,
  CMPP_SERVER_DEFAULTS,
  cmppLoginOf,
  cmppMessageId,
} from './cmpp-server';
export {
  SmgpServer,
  SMGP_RESULT,
  SMGP_REFUSAL_STATUS,
  SMGP_SERVER_DEFAULTS,
  smgpLoginOf,
  smgpMessageId,
} from './smgp-server';
export { SgipServer, SGIP_RESULT, SGIP_REFUSAL_RESULT, SGIP_SERVER_DEFAULTS } from './sgip-server';
export { DoorCore, SharedBuckets } from './door-core';
export { enqueueSmppReceipts, RECEIPT_KEEP_MS } from './receipts';
export { enqueueSmppMo, MO_KEEP_MS } from './mo';

declare module '../../context' {
  interface Services {
    interfacePasswords: InterfacePasswordService;
    /** the listener (null when smppServerPort is 0) */
    smppServer: SmppServer | null;
    /** the CMPP listener (null when cmppServerPort is 0) */
    cmppServer: CmppServer | null;
    /** the SMGP listener (null when smgpServerPort is 0) */
    smgpServer: SmgpServer | null;
    /** the SGIP listener and its bind-backs (null when sgipServerPort is 0) */
    sgipServer: SgipServer | null;
  }
}

/** how long the part ids of an accepted long message are kept for its receipts */
const PART_IDS_KEEP_MS = 7 * 24 * 3600_000;

/** A door's platform: submits accepted by the send module's interface acceptance (refusals as the door's statuses: SMPP's by default). */
export function interfacePlatform(
  ctx: AppContext,
  send: Pick<SendService, 'pricesOf' | 'payerOf'>,
  statusOf: Record<InterfaceRefusalReason, number> = SMPP_REFUSAL_STATUS,
): SmppPlatform {
  return {
    async submit(account, m) {
      try {
        const r = await acceptInterfaceMessage(ctx, send, account, {
          phone: m.phone,
          text: m.text,
          extension: m.extension,
          registeredDelivery: m.registeredDelivery,
          partIds: m.partIds,
          partIdsWhole: m.partIdsWhole,
        });
        return { ok: true, msgId: r.msgId, createdAt: r.createdAt };
      } catch (err) {
        if (err instanceof InterfaceRefusal) return { ok: false, status: statusOf[err.reason], message: err.message };
        throw err;
      }
    },
  };
}

export default defineModule({ name: 'smpp-server', dependencies: ['clients', 'send', 'help'] }, async (app, ctx) => {
  // the key sealing interface passwords for CMPP's MD5 authentication (lib/interface-secret.ts)
  const secretKey = loadInterfaceSecretKey(ctx.config.interfaceSecretKey, ctx.dataDir);
  const passwords = (app.services.interfacePasswords = new InterfacePasswordService(
    ctx,
    app.services.clients,
    secretKey,
  ));
  await app.register(smppServerRoutes(ctx, passwords));
  app.services.smppServer = null;
  app.services.cmppServer = null;
  app.services.smgpServer = null;
  app.services.sgipServer = null;
  // the doors' interface documents (GET /help/smppdoc, /help/cmppdoc, /help/smgpdoc, /help/sgipdoc): on while the door listens in this process
  const DOOR_DOCS: DoorDocSource[] = [
    {
      key: 'smpp',
      available: () => (app.services.smppServer?.port ?? 0) > 0,
      describe: (req) => {
        const s = app.services.smppServer!;
        return describeSmppDoor(ctx, { opts: s.opts, port: s.port, tlsPort: s.tlsPort }, req);
      },
    },
    {
      key: 'cmpp',
      available: () => (app.services.cmppServer?.port ?? 0) > 0,
      describe: (req) => {
        const s = app.services.cmppServer!;
        const secretUsable = openInterfaceSecret(secretKey, req.account.id, req.account.interface_secret) !== null;
        return describeCmppDoor(ctx, { opts: s.opts, port: s.port, secretUsable }, req);
      },
    },
    {
      key: 'smgp',
      available: () => (app.services.smgpServer?.port ?? 0) > 0,
      describe: (req) => {
        const s = app.services.smgpServer!;
        const secretUsable = openInterfaceSecret(secretKey, req.account.id, req.account.interface_secret) !== null;
        return describeSmgpDoor(ctx, { opts: s.opts, port: s.port, secretUsable }, req);
      },
    },
    {
      key: 'sgip',
      available: () => (app.services.sgipServer?.port ?? 0) > 0,
      describe: (req) => {
        const s = app.services.sgipServer!;
        const secretUsable = openInterfaceSecret(secretKey, req.account.id, req.account.interface_secret) !== null;
        return describeSgipDoor(ctx, { opts: s.opts, port: s.port, secretUsable }, req);
      },
    },
  ];
  for (const d of DOOR_DOCS) app.services.docs.addDoor(d);
  // receipts no receiver took within 72 h are dropped (every process; a DELETE is safe to repeat)
  // so are uplinks, and session rows of processes that stopped without removing them (an hour without heartbeat)
  moduleTimer(
    app,
    ctx.options.purgeEveryMs,
    async () => {
      await ctx.db
        .deleteFrom('smpp_receipts')
        .where('created_at', '<', new Date(ctx.now().getTime() - RECEIPT_KEEP_MS))
        .execute();
      await ctx.db
        .deleteFrom('smpp_mo')
        .where('created_at', '<', new Date(ctx.now().getTime() - MO_KEEP_MS))
        .execute();
      // the part ids of long messages: their receipts are queued when the message ends (within days)
      await ctx.db
        .deleteFrom('interface_part_ids')
        .where('created_at', '<', new Date(ctx.now().getTime() - PART_IDS_KEEP_MS))
        .execute();
      await ctx.db
        .deleteFrom('smpp_sessions')
        .where('heartbeat_at', '<', new Date(Date.now() - 3600_000))
        .execute();
    },
    'purge of old SMPP receipts, uplinks and sessions',
  );
  // SMS_SOURCE_PREFIX, the dispatcher's too
  const sourcePrefix = ctx.config.smsSourcePrefix;
  const cmppPort = ctx.config.cmppServerPort;
  if (cmppPort) {
    // the demo account's password sealed under this server's key (the seed cannot: it has no key)
    await sealDemoSecret(ctx, secretKey);
    const cmpp = (app.services.cmppServer = new CmppServer(
      ctx,
      interfacePlatform(ctx, app.services.send, CMPP_REFUSAL_RESULT),
      secretKey,
      {
        ...CMPP_SERVER_DEFAULTS,
        host: ctx.config.cmppServerHost,
        port: cmppPort,
        partsMaxBytes: ctx.config.longPartsMaxBytes,
        sourcePrefix,
      },
    ));
    app.addHook('onReady', async () => {
      const p = await cmpp.listen();
      ctx.log.info(`CMPP server for customers listening on ${ctx.config.cmppServerHost}:${p}`);
    });
    app.addHook('onClose', async () => cmpp.close());
  }
  const smgpPort = ctx.config.smgpServerPort;
  if (smgpPort) {
    await sealDemoSecret(ctx, secretKey);
    const smgp = (app.services.smgpServer = new SmgpServer(
      ctx,
      interfacePlatform(ctx, app.services.send, SMGP_REFUSAL_STATUS),
      secretKey,
      {
        ...SMGP_SERVER_DEFAULTS,
        host: ctx.config.smgpServerHost,
        port: smgpPort,
        partsMaxBytes: ctx.config.longPartsMaxBytes,
        sourcePrefix,
      },
    ));
    app.addHook('onReady', async () => {
      const p = await smgp.listen();
      ctx.log.info(`SMGP server for customers listening on ${ctx.config.smgpServerHost}:${p}`);
    });
    app.addHook('onClose', async () => smgp.close());
  }
  const sgipPort = ctx.config.sgipServerPort;
  if (sgipPort) {
    if (!cmppPort && !smgpPort) await sealDemoSecret(ctx, secretKey);
    const sgip = (app.services.sgipServer = new SgipServer(
      ctx,
      interfacePlatform(ctx, app.services.send, SGIP_REFUSAL_RESULT),
      secretKey,
      {
        ...SGIP_SERVER_DEFAULTS,
        host: ctx.config.sgipServerHost,
        port: sgipPort,
        nodeId: ctx.config.sgipNodeId,
        partsMaxBytes: ctx.config.longPartsMaxBytes,
        sourcePrefix,
      },
    ));
    app.addHook('onReady', async () => {
      const p = await sgip.listen();
      ctx.log.info(`SGIP server for customers listening on ${ctx.config.sgipServerHost}:${p}`);
    });
    app.addHook('onClose', async () => sgip.close());
  }
  const port = ctx.config.smppServerPort;
  if (!port) return;
  const platform = interfacePlatform(ctx, app.services.send);
  const server = (app.services.smppServer = new SmppServer(ctx, platform, {
    ...SMPP_SERVER_DEFAULTS,
    host: ctx.config.smppServerHost,
    port,
    tlsPort: ctx.config.smppServerTlsPort,
    tlsCert: ctx.config.smppServerTlsCert,
    tlsKey: ctx.config.smppServerTlsKey,
    partsMaxBytes: ctx.config.longPartsMaxBytes,
    sourcePrefix,
  }));
  app.addHook('onReady', async () => {
    const p = await server.listen();
    ctx.log.info(
      `SMPP server for customers listening on ${ctx.config.smppServerHost}:${p}${server.tlsPort ? `, TLS on ${server.tlsPort}` : ''}`,
    );
  });
  app.addHook('onClose', async () => server.close());
});
