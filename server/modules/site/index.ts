/** 站点: branding of the domain's agent, support contacts, the calling-code list (public). */
import { defineModule } from '../module';
import { siteRoutes } from './routes';
import { SiteService } from './service';

export {
  SiteService,
  countryCodes,
  isKnownCallingCode,
  UNBOUND_DOMAIN,
  type BrandingInfo,
  type CountryCode,
  type SupportContact,
} from './service';

declare module '../../context' {
  interface Services {
    site: SiteService;
  }
}

export default defineModule({ name: 'site', dependencies: ['help'] }, async (app, ctx) => {
  const site = (app.services.site = new SiteService(ctx));
  await app.register(siteRoutes(ctx, site, app.services.docs));
});
