import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ALERT_KINDS,
  ALERT_STATE_NAMES,
  type AlertDelivery,
  alertListQuery,
  attemptText,
  deliveriesByChannel,
  deliveryView,
  groupingText,
  hasAlertFilters,
  isCounting,
} from './alert-history';

const T0 = Date.parse('2030-01-01T10:02:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();
const delivery = (changes: Partial<AlertDelivery>): AlertDelivery => ({
  channelId: 'c1',
  message: 'first',
  count: 1,
  state: 'pending',
  attempts: [],
  ...changes,
});

describe('groupingText', () => {
  it('says once for a single alarm, and how many over how long for more', () => {
    expect(groupingText({ count: 1, firstAt: at(0), lastAt: at(0) })).toBe('once');
    expect(groupingText({ count: 12, firstAt: at(0), lastAt: at(7 * 60_000) })).toBe('12 times in 7 min');
    expect(groupingText({ count: 3, firstAt: at(0), lastAt: at(45_000) })).toBe('3 times in 45 s');
    expect(groupingText({ count: 2, firstAt: at(0), lastAt: at(400) })).toBe('2 times in under a second');
  });
});

describe('isCounting', () => {
  it('is true until the window ends, then false', () => {
    const alert = { windowEnd: at(8 * 60_000) };
    expect(isCounting(alert, T0 + 8 * 60_000 - 1)).toBe(true);
    expect(isCounting(alert, T0 + 8 * 60_000)).toBe(false);
  });
});

describe('deliveriesByChannel', () => {
  it('groups by channel in the alert’s order, the first alarm before the window’s count', () => {
    const grouped = deliveriesByChannel([
      delivery({ channelId: 'a', message: 'summary', count: 5 }),
      delivery({ channelId: 'b' }),
      delivery({ channelId: 'a' }),
    ]);
    expect(grouped.map((g) => [g.channelId, g.deliveries.map((d) => d.message)])).toEqual([
      ['a', ['first', 'summary']],
      ['b', ['first']],
    ]);
  });
});

describe('deliveryView', () => {
  it('shows a pending delivery not yet tried, with its next attempt', () => {
    expect(deliveryView(delivery({ nextAttemptAt: at(0) }))).toEqual({
      message: 'First alarm',
      state: 'pending',
      badge: 'status-running',
      attempts: 'not tried yet',
      nextAttemptAt: at(0),
    });
  });

  it('shows a retry’s last error and when it is tried again', () => {
    const view = deliveryView(
      delivery({
        attempts: [{ at: at(0), ok: false, status: 502, error: 'HTTP 502' }],
        nextAttemptAt: at(10_000),
      }),
    );
    expect(view).toMatchObject({ attempts: '1 attempt', lastError: 'HTTP 502', nextAttemptAt: at(10_000) });
  });

  it('shows a failed delivery’s attempts and last error, with no next attempt', () => {
    const view = deliveryView(
      delivery({
        message: 'summary',
        count: 12,
        state: 'failed',
        attempts: [
          { at: at(0), ok: false, error: 'timeout after 5000 ms' },
          { at: at(10_000), ok: false, status: 500 },
          { at: at(40_000), ok: false, error: 'connection refused' },
        ],
      }),
    );
    expect(view).toEqual({
      message: 'Count of the window (12)',
      state: 'failed',
      badge: 'status-fail',
      attempts: '3 attempts',
      lastError: 'connection refused',
    });
  });

  it('shows no error for a delivery that got through after a failure', () => {
    const view = deliveryView(
      delivery({
        state: 'delivered',
        attempts: [
          { at: at(0), ok: false, status: 502, error: 'HTTP 502' },
          { at: at(10_000), ok: true, status: 200 },
        ],
      }),
    );
    expect(view).toEqual({
      message: 'First alarm',
      state: 'delivered',
      badge: 'status-success',
      attempts: '2 attempts',
    });
  });
});

describe('attemptText', () => {
  it('gives the status of an answer, the error of a failure, and says when nothing answered', () => {
    expect(attemptText({ at: at(0), ok: true, status: 204 })).toBe('HTTP 204');
    expect(attemptText({ at: at(0), ok: true })).toBe('taken');
    expect(attemptText({ at: at(0), ok: false, status: 404, error: 'HTTP 404: not found' })).toBe(
      'HTTP 404: not found',
    );
    expect(attemptText({ at: at(0), ok: false, status: 500 })).toBe('HTTP 500');
    expect(attemptText({ at: at(0), ok: false })).toBe('no answer');
  });
});

describe('alertListQuery', () => {
  const now = T0;

  it('asks for any time when no range is set, and for nothing it cannot parse', () => {
    expect(alertListQuery({}, now)).toEqual({});
    expect(alertListQuery({ jobId: 'x', kind: 'nope', state: 'lost', from: 'later' }, now)).toEqual({});
  });

  it('takes the job, the kind and a quick range counted back from now', () => {
    expect(alertListQuery({ jobId: ' 7 ', kind: 'deadlineMissed', range: '1h' }, now)).toEqual({
      jobId: 7,
      kind: 'deadlineMissed',
      from: new Date(now - 3600_000).toISOString(),
    });
  });

  it('takes a state, and every state the API names', () => {
    expect(alertListQuery({ state: 'silenced' }, now)).toEqual({ state: 'silenced' });
    const contract = JSON.parse(readFileSync(new URL('../../../openapi.json', import.meta.url), 'utf8'));
    expect(ALERT_STATE_NAMES).toEqual(contract.components.schemas.Alert.properties.state.enum);
  });

  it('takes a custom range as instants', () => {
    expect(alertListQuery({ from: '2030-01-01T00:00:00Z', to: '2030-01-02T00:00:00+01:00' }, now)).toEqual({
      from: '2030-01-01T00:00:00.000Z',
      to: '2030-01-01T23:00:00.000Z',
    });
  });

  it('tells a filtered history from the whole one', () => {
    expect(hasAlertFilters({})).toBe(false);
    expect(hasAlertFilters({ kind: '' })).toBe(false);
    expect(hasAlertFilters({ kind: 'runFailed' })).toBe(true);
  });
});

describe('ALERT_KINDS', () => {
  it('are the kinds the API’s filter takes (openapi.json)', () => {
    const contract = JSON.parse(readFileSync(new URL('../../../openapi.json', import.meta.url), 'utf8'));
    const kindParam = contract.paths['/v1/alerts'].get.parameters.find(
      (p: { name: string }) => p.name === 'kind',
    );
    expect(kindParam.schema.enum).toEqual(ALERT_KINDS);
  });
});
