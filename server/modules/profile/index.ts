/** 账户信息: the current user, the agent's base information and certification state. */
import { defineModule } from '../module';
import { profileRoutes } from './routes';
import { ProfileService } from './service';

export { ProfileService, oauthStatusForApi, effectiveStatus, type CurrentUser, type AgentBaseInfo } from './service';

declare module '../../context' {
  interface Services {
    profile: ProfileService;
  }
}

export default defineModule({ name: 'profile' }, async (app, ctx) => {
  const profile = (app.services.profile = new ProfileService(ctx));
  await app.register(profileRoutes(ctx, profile));
});
