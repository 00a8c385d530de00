/**
 * 内容检测: the one sensitive-word matcher (`ctx.words`, built by the app: templates and sending use
 * it too) and the content-test route; the words operators add in the console join the list file's
 * in every process (words-sync.ts).
 */
import { defineModule, moduleTimer } from '../module';
import { contentRoutes } from './routes';
import { syncWords, WORDS_SYNC_MS } from './words-sync';

export * from './sensitive-words';
export { syncWords, WORDS_SYNC_MS } from './words-sync';

export default defineModule({ name: 'content' }, async (app, ctx) => {
  await app.register(contentRoutes(ctx));
  // the words operators added (sensitive_words) join the file's: read at once (the app starts even
  // when the database does not answer yet: /readyz says so), then whenever they change
  moduleTimer(app, WORDS_SYNC_MS, () => syncWords(ctx), 'sensitive words sync', 0);
});
