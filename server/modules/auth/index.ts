/**
 * 会话与登录: login (password, slider token, lockout per name and address), logout, the session
 * check. The sessions themselves (`SessionService`, `sessionOf`) are the app's core — the access
 * guard of every route reads them — so they live in server/http/session.ts, built by
 * server/app.ts; every module reads the caller through `sessionOf(req)` from there.
 */
import { defineModule } from '../module';
import { authRoutes } from './routes';
import { AuthService } from './service';

export {
  AuthService,
  LOGIN_MESSAGES,
  loginNameHash,
  accountNameHashes,
  liftLoginLocks,
  type OperatorLogin,
} from './service';

declare module '../../context' {
  interface Services {
    auth: AuthService;
  }
}

export default defineModule({ name: 'auth', dependencies: ['captcha', 'profile'] }, async (app, ctx) => {
  const auth = (app.services.auth = new AuthService(ctx, app.services.captcha));
  await app.register(
    authRoutes(ctx, {
      auth,
      sessions: app.services.sessions,
      operatorSessions: app.services.operatorSessions,
      profile: app.services.profile,
      // the operator module (loaded after this one) records its logins
      operatorLoggedIn: (o, ip) => auth.operatorLoggedIn?.(o, ip) ?? Promise.resolve(),
    }),
  );
});
