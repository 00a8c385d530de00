/** The sending lists as their folders declare them: endpoints, page + rows paging, page sizes (spec 02 §9). */
import { describe, expect, it } from 'vitest';
import { pagingParams } from '@/providers/dataProvider';
import { resourceRegistry } from '@/layout/declarations';
import { consoleScreens } from '@/screens';
import { listPageSize } from '@/components/SchemaTable/useSchemaList';
import { sendTasks } from '@/resources/send-tasks';
import { timedTaskPhones, timedTasks } from '@/resources/timed-tasks';
import { moRecords, sendRecords } from '@/resources/send-records';

describe('sending resources', () => {
  it('POST form endpoints of the contract, paged with page + rows', () => {
    const resources = resourceRegistry(consoleScreens);
    expect(resources.sendTasks.list).toMatchObject({ url: '/send/sendTask', method: 'form' });
    expect(resources.timedTasks.list).toMatchObject({ url: '/send/smsTimerSend/list', method: 'form' });
    expect(resources.sendRecords.list).toMatchObject({ url: '/send/getrecords', method: 'form' });
    expect(resources.moRecords.list).toMatchObject({ url: '/send/getmologs', method: 'form' });
    expect(resources.timedTaskPhones.list).toMatchObject({ url: '/send/getAllPhone/list', method: 'form' });
    expect(pagingParams(resources.sendTasks.list!, { currentPage: 2 })).toEqual({ page: 2, rows: 15 });
    expect(pagingParams(resources.sendRecords.list!, { currentPage: 1 })).toEqual({ page: 1, rows: 10 });
  });
  it('15 a page for tasks and uplink, 10 for send records', () => {
    expect([sendTasks, timedTasks, moRecords, sendRecords, timedTaskPhones].map(listPageSize)).toEqual([
      15, 15, 15, 10, 15,
    ]);
  });
});
