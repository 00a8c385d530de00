/**
 * 签名报备: the sign list, add, delete, export and batch import (routes.ts), the service and its
 * review by operators (service.ts). Depends on the clients module (the accounts a session reaches).
 */
import { defineModule } from '../module';
import { signRoutes } from './routes';
import { SignService } from './service';

export { SignService, MSG as SIGN_MSG, reviewSign } from './service';
export { approvedSigns, assertApprovedSign, SIGN_NOT_APPROVED } from './approved';

declare module '../../context' {
  interface Services {
    signs: SignService;
  }
}

export default defineModule({ name: 'sign', dependencies: ['clients'] }, async (app, ctx) => {
  const signs = (app.services.signs = new SignService(ctx, app.services.clients));
  await app.register(signRoutes(ctx, signs));
});
