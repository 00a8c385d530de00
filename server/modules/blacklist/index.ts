/**
 * 黑名单 (issue 27; docs/api-blacklist.md): the accounts' and the platform's blacklists — the
 * console's list, add, delete and export (routes.ts, service.ts), the unsubscribe hook of the
 * uplink store (`blacklistUnsubscribes`, called by dispatch/mo.ts), and the acceptance's look-up
 * (lookup.ts: the send paths skip blacklisted numbers of marketing sends). Depends on the clients
 * module (the accounts a session reaches).
 */
import { defineModule } from '../module';
import { blacklistRoutes } from './routes';
import { BlacklistService } from './service';

export {
  BlacklistService,
  BLACKLIST_MSG,
  blacklistUnsubscribes,
  platformAdd,
  platformList,
  platformRemove,
} from './service';
export { blacklistedOf, honoursBlacklist, keepOf, keptIndexes, LOOKUP_BATCH, withoutBlocked } from './lookup';
export { isUnsubscribe, UNSUBSCRIBE_WORDS } from './words';

declare module '../../context' {
  interface Services {
    blacklist: BlacklistService;
  }
}

export default defineModule({ name: 'blacklist', dependencies: ['clients'] }, async (app, ctx) => {
  const blacklist = (app.services.blacklist = new BlacklistService(ctx, app.services.clients));
  await app.register(blacklistRoutes(ctx, blacklist));
});
