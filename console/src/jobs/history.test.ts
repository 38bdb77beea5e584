import type { AuditRecord } from '@tickring/client';
import { describe, expect, it } from 'vitest';
import { actionText, changeRows, triggeredLogIds, triggerOverrides, valueText } from './history';

describe('changeRows', () => {
  it('lists the edited fields before → after in the editor’s order, without derived ones', () => {
    const rows = changeRows({
      changes: {
        version: { before: 3, after: 4 },
        updatedAt: { before: 'a', after: 'b' },
        executorParam: { before: 'region=eu', after: 'region=us' },
        scheduleConf: { before: '0 0 2 * * ?', after: '0 30 2 * * ?' },
        childJobIds: { before: [8], after: [] },
      },
    });
    expect(rows).toEqual([
      { field: 'scheduleConf', label: 'Schedule', before: '0 0 2 * * ?', after: '0 30 2 * * ?' },
      { field: 'executorParam', label: 'Parameter', before: 'region=eu', after: 'region=us' },
      { field: 'childJobIds', label: 'Child jobs', before: '8', after: '(none)' },
    ]);
  });

  it('shows a creation’s values as after only', () => {
    const rows = changeRows({ changes: { name: { after: 'Nightly' }, alarmEmail: { after: '' } } });
    expect(rows).toEqual([
      { field: 'name', label: 'Name', before: undefined, after: 'Nightly' },
      { field: 'alarmEmail', label: 'Alarm e-mail', before: undefined, after: '(empty)' },
    ]);
  });

  it('shows the share of successes kept as the editor’s percentage', () => {
    expect(
      changeRows({
        changes: { keepSuccessfulRuns: { before: null, after: 0.1 }, logRetentionDays: { after: 90 } },
      }),
    ).toEqual([
      { field: 'logRetentionDays', label: 'Keep run history (days)', before: undefined, after: '90' },
      { field: 'keepSuccessfulRuns', label: 'Successful runs kept (%)', before: 'none', after: '10 %' },
    ]);
  });

  it('writes values and actions in words', () => {
    expect(valueText(null)).toBe('none');
    expect(valueText(30)).toBe('30');
    expect(valueText({ a: 1 })).toBe('{"a":1}');
    expect(actionText('job.update')).toBe('Changed');
    expect(actionText('job.trigger')).toBe('Ran once');
    expect(actionText('job.somethingNew')).toBe('job.somethingNew');
  });
});

describe('trigger records', () => {
  const trigger = {
    action: 'job.trigger',
    detail: {
      request: { executorParam: 'once', addressList: ['http://a/'] },
      result: { logId: 5, logIds: [5, 6] },
    },
  } as Pick<AuditRecord, 'action' | 'detail'>;

  it('names the runs it made and its overrides', () => {
    expect(triggeredLogIds(trigger)).toEqual([5, 6]);
    expect(triggerOverrides(trigger)).toBe('parameter: once; executors: http://a/');
    expect(triggeredLogIds({ action: 'job.update', detail: null })).toEqual([]);
    expect(triggerOverrides({ action: 'job.trigger', detail: { request: {} } })).toBeUndefined();
  });
});
