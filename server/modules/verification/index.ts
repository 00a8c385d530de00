/**
 * 验证码 (verification codes by SMS and mail): the codes of registration, password reset and
 * mobile change (service.ts); the mail and SMS channels they go out by (mail.ts, sms.ts) are built
 * by server/app.ts. Not a plugin: the app builds the service (`app.services.codes`).
 */
export { VerificationService, CODE_MESSAGES, codeBudgetOf, mailTarget, smsTarget, type CodePurpose } from './service';
