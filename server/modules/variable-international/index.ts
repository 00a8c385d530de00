/**
 * 变量短信与国际短信 (docs/api-variable-international.md): the international price table and number
 * check (international.ts, phone-plans.ts, prices-seed.ts), variable files (variable.ts), number
 * screening (screening.ts), the pages' working files (work-files.ts), the acceptance of variable
 * and international sends through the send module's pieces (service.ts) and the routes
 * (routes.ts). Depends on the send module (target account, submit lock, prices) and on the files
 * module, whose POST /send/parsefile hands a variable file (templateType 1) to this module's parser.
 */
import { defineModule } from '../module';
import { varIntlRoutes } from './routes';
import { VarIntlService } from './service';

export { VarIntlService, type AcceptProbe } from './service';

declare module '../../context' {
  interface Services {
    variableInternational: VarIntlService;
  }
}

export default defineModule({ name: 'variable-international', dependencies: ['send', 'files'] }, async (app, ctx) => {
  const svc = (app.services.variableInternational = new VarIntlService(ctx, app.services.send));
  // POST /send/parsefile with templateType 1 parses a variable file with the variable SMS rules
  // (its payload is the files route's: the same fields as params/variable-parse)
  app.services.files.variableParser = (me, file, body) =>
    svc.parseVariable(me, {
      clientId: body.clientId,
      templateId: body.templateId,
      sign: body.sign,
      fileName: body.fileName,
      importFilePath: file.importFilePath,
    });
  await app.register(varIntlRoutes(ctx, svc));
});
