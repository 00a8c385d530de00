/**
 * 短信模板: the lists of smart and general templates, add / edit / delete, the Excel import
 * (routes.ts, batch.ts), the service and the operators' review (service.ts). A template's sign
 * must be an approved sign of its account (the sign module's approvedSigns).
 */
import { defineModule } from '../module';
import { templateRoutes } from './routes';
import { TemplateService } from './service';

export { TemplateService, TEMPLATE_FORM, reviewTemplate } from './service';

declare module '../../context' {
  interface Services {
    template: TemplateService;
  }
}

export default defineModule({ name: 'template' }, async (app, ctx) => {
  const template = (app.services.template = new TemplateService(ctx));
  await app.register(templateRoutes(ctx, template));
});
