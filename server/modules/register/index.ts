/** 注册: the anonymous registration code (slider first), agent registration, the mobile-change code. */
import { defineModule } from '../module';
import { registerRoutes } from './routes';
import { RegisterService } from './service';

export { RegisterService, REGISTER_MESSAGES, type RegisterForm, type SendCodeForm } from './service';
export { checkMobile, MOBILE_MESSAGES } from './mobile';

declare module '../../context' {
  interface Services {
    register: RegisterService;
  }
}

export default defineModule({ name: 'register', dependencies: ['captcha'] }, async (app, ctx) => {
  const register = (app.services.register = new RegisterService(ctx, app.services.codes, app.services.captcha));
  await app.register(registerRoutes(ctx, { register, sessions: app.services.sessions }));
});
