/** Story data and MSW handlers of 发送记录归档 (stories only; the app never imports this). */
import { http, type HttpHandler } from 'msw';
import type { RecordArchive } from '@/generated/schemas';
import { ok } from '@/stories/mockApi';

const archive = (partition: string, rows: number, createdAt: string, fileExists = true): RecordArchive => ({
  month: `${partition.slice(-6, -2)}-${partition.slice(-2)}`,
  partition,
  rows,
  bytes: Math.round(rows * 13.8),
  createdAt,
  fileExists,
  file: `/var/lib/sms/data/archive/${partition}.csv.gz`,
  sha256: `${partition.slice(-2)}4f1c0e9b7a3d5f2e8c6b1a0d9e7f5c3b2a1908f7e6d5c4b3a2918f7e6d5c4b3a2`.slice(0, 64),
});

/** three months archived, newest first; the oldest one's file was moved away */
export const archiveRows: RecordArchive[] = [
  archive('sms_messages_202605', 287_412_930, '2026-12-01 03:12:44'),
  archive('sms_messages_202604', 301_225_114, '2026-11-01 03:10:09'),
  archive('sms_messages_202603', 264_008_571, '2026-10-01 03:09:51', false),
];

export interface ArchivesApiOptions {
  rows?: RecordArchive[];
  /** how many times the list was asked */
  calls?: { list: number };
}

export function archivesApi(o: ArchivesApiOptions = {}): HttpHandler[] {
  return [
    http.get('/api/operator/archives/list', () => {
      if (o.calls) o.calls.list++;
      return ok(o.rows ?? archiveRows);
    }),
  ];
}
