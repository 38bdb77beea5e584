import { describe, expect, it } from 'vitest';
import {
  addressKey,
  cappedCount,
  executorCounts,
  groupAlertChannels,
  groupBody,
  groupFormValues,
  joinGroups,
  parseAddressList,
  refusalHints,
  refusedText,
  runsByAddress,
} from './executors';

describe('joinGroups', () => {
  it('joins groups with their executors by appName, online first, sorted by title', () => {
    const views = joinGroups(
      [
        { appName: 'zeta-app', title: 'Zeta', addressType: 'AUTO', addressList: [] },
        { appName: 'alpha-app', title: 'Alpha', addressType: 'MANUAL', addressList: ['http://b/'] },
      ],
      [
        {
          appName: 'zeta-app',
          title: 'Zeta',
          addressType: 'AUTO',
          executors: [
            { address: 'http://a/', online: false, lastHeartbeat: null },
            { address: 'http://c/', online: true, lastHeartbeat: '2030-01-01T00:00:00Z' },
          ],
        },
        {
          appName: 'new-app',
          title: 'Beta',
          addressType: 'AUTO',
          executors: [{ address: 'http://d/', online: true, lastHeartbeat: null }],
        },
      ],
    );
    expect(views.map((v) => v.appName)).toEqual(['alpha-app', 'new-app', 'zeta-app']);
    expect(views[0]?.executors).toEqual([]);
    expect(views[1]?.addressList).toEqual(['http://d/']);
    expect(views[2]?.executors.map((e) => e.address)).toEqual(['http://c/', 'http://a/']);
  });
});

describe('executorCounts', () => {
  it('counts online, offline and unknown', () => {
    expect(
      executorCounts([
        {
          executors: [
            { address: 'a', online: true, lastHeartbeat: null },
            { address: 'b', online: false, lastHeartbeat: null },
          ],
        },
        { executors: [{ address: 'c', online: null, lastHeartbeat: null }] },
      ]),
    ).toEqual({ online: 1, offline: 1, unknown: 1 });
  });
});

describe('runsByAddress', () => {
  it('counts running runs per address, a trailing slash or case not mattering', () => {
    const counts = runsByAddress([
      { executorAddress: 'http://10.0.0.5:9999/' },
      { executorAddress: 'http://10.0.0.5:9999' },
      { executorAddress: 'HTTP://10.0.0.6:9999/' },
      { executorAddress: null },
    ]);
    expect(counts.get(addressKey('http://10.0.0.5:9999/'))).toBe(2);
    expect(counts.get(addressKey('http://10.0.0.6:9999'))).toBe(1);
    expect(counts.size).toBe(2);
  });

  it('writes a capped count with a plus', () => {
    expect(cappedCount(100, true)).toBe('100+');
    expect(cappedCount(3, false)).toBe('3');
  });
});

describe('the group form', () => {
  it('reads addresses one per line or by commas, blanks and repeats dropped', () => {
    expect(parseAddressList(' http://a:9999/ \n\nhttp://b:9999/, lambda:runner\nhttp://a:9999/')).toEqual([
      'http://a:9999/',
      'http://b:9999/',
      'lambda:runner',
    ]);
  });

  it("starts from a group's values and sends the addresses of a MANUAL group only", () => {
    const manual = groupFormValues({
      appName: 'my-app',
      title: 'Mine',
      addressType: 'MANUAL',
      addressList: ['http://a/', 'http://b/'],
    });
    expect(manual.addresses).toBe('http://a/\nhttp://b/');
    expect(groupBody({ ...manual, title: ' Mine ' })).toEqual({
      appName: 'my-app',
      title: 'Mine',
      addressType: 'MANUAL',
      addressList: ['http://a/', 'http://b/'],
    });
    expect(groupBody({ ...manual, addressType: 'AUTO' }).addressList).toEqual([]);
    expect(groupFormValues()).toEqual({
      appName: '',
      title: '',
      addressType: 'AUTO',
      addresses: '',
      alertRouting: 'none',
      alertChannels: [],
    });
  });

  it("starts from a group's default alert channels and sends them, [] for none", () => {
    const group = { appName: 'my-app', title: 'Mine', addressType: 'AUTO' as const, addressList: [] };
    const values = groupFormValues({ ...group, alertChannels: ['ch-ops'] });
    expect([values.alertRouting, values.alertChannels]).toEqual(['chosen', ['ch-ops']]);
    expect(groupFormValues({ ...group, alertChannels: [] }).alertRouting).toBe('none');
    expect(groupAlertChannels({ ...values, alertChannels: ['ch-ops', 'ch-chat', 'ch-ops'] })).toEqual({
      alertChannels: ['ch-ops', 'ch-chat'],
    });
    // None sends [] (clearing them), whatever stays ticked underneath.
    expect(groupAlertChannels({ ...values, alertRouting: 'none' })).toEqual({ alertChannels: [] });
  });

  it('asks for at least one channel when "These channels" is picked, and at most the API takes', () => {
    const values = groupFormValues();
    const problem = (ids: string[]) => {
      const made = groupAlertChannels({ ...values, alertRouting: 'chosen', alertChannels: ids });
      return 'error' in made ? made.error.problems.map((p) => [p.field, p.message]) : [];
    };
    expect(problem([])).toEqual([['alertChannels', 'Tick at least one channel, or pick None.']]);
    expect(problem(Array.from({ length: 11 }, (_, i) => `ch-${i}`))).toEqual([
      ['alertChannels', 'Tick at most 10 channels (11 ticked).'],
    ]);
    expect(problem(Array.from({ length: 10 }, (_, i) => `ch-${i}`))).toEqual([]);
  });
});

describe('refused registrations', () => {
  it('says how many, in the singular for one', () => {
    expect(refusedText(1)).toBe('1 refused registration');
    expect(refusedText(3)).toBe('3 refused registrations');
  });

  it('names each reason’s fix once, in the order the list first names it', () => {
    const refused = (reason: string, address: string) => ({
      appName: 'app',
      address,
      reason,
      hint: `fix ${reason}`,
      request: 'registry',
      detail: '',
      count: 1,
      firstSeen: '2030-01-01T00:00:00.000Z',
      lastSeen: '2030-01-01T00:00:00.000Z',
    });
    expect(
      refusalHints([
        refused('wrong-token', 'a'),
        refused('unknown-app-name', 'b'),
        refused('wrong-token', 'c'),
      ]),
    ).toEqual([
      { reason: 'wrong-token', hint: 'fix wrong-token' },
      { reason: 'unknown-app-name', hint: 'fix unknown-app-name' },
    ]);
  });

  it('gives each group its count of refused registrations (0 when listExecutors names none)', () => {
    const views = joinGroups(
      [
        { appName: 'a', title: 'A', addressType: 'AUTO', addressList: [] },
        { appName: 'b', title: 'B', addressType: 'AUTO', addressList: [] },
      ],
      [{ appName: 'a', title: 'A', addressType: 'AUTO', executors: [], refusedRegistrations: 2 }],
    );
    expect(views.map((v) => [v.appName, v.refusedRegistrations])).toEqual([
      ['a', 2],
      ['b', 0],
    ]);
  });
});
