/**
 * 帮助文档: the HTTP API document generated from the routes' own declarations (OpenAPI), the
 * customer doors' documents generated from the doors' descriptions (door-doc.ts: a door module
 * registers its `DoorDocSource` with `app.services.docs.addDoor`), and the operator's document
 * files in DOCS_DIR.
 */
import path from 'node:path';
import { defineModule } from '../module';
import { HelpDocs } from './docs';
import { helpRoutes } from './routes';

export { HelpDocs, HELP_DOCS, DOC_TYPES, type HelpDoc } from './docs';
export { registerOpenApi } from './openapi';
export { esc } from './html';
export {
  DOOR_TOPICS,
  codeRows,
  codeText,
  hexDump,
  renderDoorHtml,
  type CodeEntry,
  type CodeTable,
  type DocTable,
  type DoorDescription,
  type DoorDocRequest,
  type DoorDocSource,
  type DoorExample,
  type DoorSection,
  type DoorTopic,
} from './door-doc';

declare module '../../context' {
  interface Services {
    docs: HelpDocs;
  }
}

export default defineModule({ name: 'help' }, async (app, ctx) => {
  const docs = (app.services.docs = new HelpDocs(ctx.config.docsDir || path.join(ctx.dataDir, 'docs')));
  await app.register(helpRoutes(ctx, docs));
});
