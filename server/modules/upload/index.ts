/**
 * 文件: uploaded images (POST /file/upload) and serving them to their owner and the owner's agent
 * (GET /files/*), stored by the service (service.ts). Depends on no other module.
 */
import { defineModule } from '../module';
import { uploadRoutes } from './routes';
import { UploadService } from './service';

export { UploadService, UPLOAD_MAX_BYTES, UPLOAD_MESSAGES, FILES_BASE_URL, STORED_PATH } from './service';
export { UPLOAD_FIELD } from './routes';

declare module '../../context' {
  interface Services {
    uploads: UploadService;
  }
}

export default defineModule({ name: 'upload' }, async (app, ctx) => {
  const uploads = (app.services.uploads = new UploadService(ctx));
  await app.register(uploadRoutes(ctx, uploads));
});
