/**
 * 内容检测: the one sensitive-word matcher (`ctx.words`, built by the app: templates and sending use
 * it too) and the content-test route.
 */
import { defineModule } from '../module';
import { contentRoutes } from './routes';

export * from './sensitive-words';

export default defineModule({ name: 'content' }, async (app, ctx) => {
  await app.register(contentRoutes(ctx));
});
