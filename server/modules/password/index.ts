/** 找回密码: a code to the account's e-mail or mobile (image captcha first), then a new password. */
import { defineModule } from '../module';
import { passwordRoutes } from './routes';
import { PasswordService } from './service';

export { PasswordService, PASSWORD_MESSAGES, type PasswordCodeForm, type PasswordResetForm } from './service';
export { storePassword } from './store';

declare module '../../context' {
  interface Services {
    password: PasswordService;
  }
}

export default defineModule({ name: 'password', dependencies: ['captcha'] }, async (app, ctx) => {
  const password = (app.services.password = new PasswordService(ctx, {
    codes: app.services.codes,
    captcha: app.services.captcha,
    sessions: app.services.sessions,
  }));
  await app.register(passwordRoutes(ctx, password));
});
