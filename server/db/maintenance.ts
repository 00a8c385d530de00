/** Removes rows nobody can use any more (expired sessions, tokens, captchas, old codes, orphaned staged chunks). */
import type { Db } from './index';

export async function purgeExpired(db: Db, now: Date): Promise<void> {
  const dayAgo = new Date(now.getTime() - 2 * 86_400_000); // codes stay two days: the daily limits count them
  await db.deleteFrom('sessions').where('expires_at', '<', now).execute();
  await db.deleteFrom('remember_tokens').where('expires_at', '<', dayAgo).execute();
  await db.deleteFrom('captcha_challenges').where('expires_at', '<', now).execute();
  await db.deleteFrom('verification_codes').where('created_at', '<', dayAgo).execute();
  // chunks staged by an accept whose process died before it placed or dropped them (send/messages.ts)
  await db.deleteFrom('sms_chunk_staging').where('created_at', '<', dayAgo).execute();
  // failure counts start again a day after the last failure (config.failureResetMs); two days is safely past it
  await db
    .deleteFrom('login_failures')
    .where('last_failed_at', '<', dayAgo)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
    .execute();
}
