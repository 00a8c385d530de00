/**
 * Demo certifications: the certified demo accounts get the submission that was approved
 * (realistic licence numbers and company names). Idempotent. Their image paths point into
 * DATA_DIR/files; the demo ships no image files, so the console shows its preview fallback.
 */
import type { Db } from '../../db';
import { OauthStatus } from '../../../common/generated/schemas';

const DEMO_CERTS: {
  clientid: string;
  id_type: number;
  company: string;
  id_nbr: string;
  img: string;
  submitted: string;
  reviewed: string;
}[] = [
  {
    clientid: 'agent1',
    id_type: 6,
    company: '上海云讯通信科技有限公司',
    id_nbr: '91310115MA1K4ABCD1',
    img: 'agent1/demo-business-licence.png',
    submitted: '2026-01-14T16:20:00+08:00',
    reviewed: '2026-01-15T10:30:00+08:00',
  },
  {
    clientid: 'agent0',
    id_type: 6,
    company: '杭州讯达网络有限公司',
    id_nbr: '91330106MA2B7EFGH2',
    img: 'agent0/demo-business-licence.png',
    submitted: '2026-02-02T11:05:00+08:00',
    reviewed: '2026-02-03T14:00:00+08:00',
  },
  {
    clientid: 'client1',
    id_type: 6,
    company: '苏州好易购电子商务有限公司',
    id_nbr: '91320594MA1N8JKLM3',
    img: 'client1/demo-business-licence.png',
    submitted: '2026-02-28T15:40:00+08:00',
    reviewed: '2026-03-01T09:00:00+08:00',
  },
];

export async function seedCertifications(db: Db): Promise<void> {
  for (const c of DEMO_CERTS) {
    const a = await db
      .selectFrom('accounts')
      .select(['id', 'oauth_status'])
      .where('clientid', '=', c.clientid)
      .executeTakeFirst();
    if (!a || a.oauth_status !== OauthStatus.Certified) continue;
    const has = await db
      .selectFrom('certifications')
      .select('id')
      .where('account_id', '=', a.id)
      .limit(1)
      .executeTakeFirst();
    if (has) continue;
    await db
      .insertInto('certifications')
      .values({
        account_id: a.id,
        cert_type: 2,
        id_type: c.id_type,
        company: c.company,
        id_nbr: c.id_nbr,
        img_url: c.img,
        state: 3,
        submitted_at: c.submitted,
        reviewed_at: new Date(c.reviewed),
      })
      .execute();
  }
}
