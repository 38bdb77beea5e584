import { describe, expect, it } from 'vitest';
import { moveTarget } from './commands/occurrences.js';
import { main } from './program.js';
import { fakeIo } from './test-support/fake-io.js';
import { fakeServer } from './test-support/fake-server.js';

const ENV = { TICKRING_URL: 'http://tickring.test', TICKRING_TOKEN: 't', TZ: 'UTC' };
const AT = '2030-01-02T09:00:00.000Z';
const skipped = { at: AT, action: 'skip', to: null, reason: 'holiday', by: 'ana', createdAt: AT };
const job = { id: 7, triggerNextTime: '2030-01-02T10:00:00.000Z', occurrenceExceptions: [skipped] };
const encoded = encodeURIComponent(AT);

describe('tickring jobs skip | move | unskip | occurrences', () => {
  it('skips a fire with its reason, at the path of its scheduled time', async () => {
    const fake = fakeServer({ [`POST /v1/jobs/7/occurrences/${encoded}/skip`]: { status: 200, body: job } });
    const io = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(await main(['jobs', 'skip', '7', AT, '--reason', 'holiday'], io)).toBe(0);
    expect(fake.seen[0]).toMatchObject({ method: 'POST', body: { reason: 'holiday' } });
    expect(io.stdout.text).toContain('next fire');
  });

  it('moves a fire by a span from its scheduled time, and takes an exception back', async () => {
    const fake = fakeServer({
      [`POST /v1/jobs/7/occurrences/${encoded}/move`]: { status: 200, body: job },
      [`DELETE /v1/jobs/7/occurrences/${encoded}`]: { status: 200, body: job },
    });
    const io = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(await main(['jobs', 'move', '7', AT, '--to', '+1s'], io)).toBe(0);
    expect(fake.seen[0]?.body).toEqual({ to: '2030-01-02T09:00:01.000Z' });
    expect(await main(['jobs', 'unskip', '7', AT], io)).toBe(0);
    expect(fake.seen[1]?.method).toBe('DELETE');
  });

  it('lists the upcoming fires with their marks', async () => {
    const fake = fakeServer({
      'GET /v1/jobs/7/occurrences': {
        status: 200,
        body: {
          jobId: 7,
          occurrences: [
            { time: AT, fireAt: null, exception: skipped, changeable: true },
            {
              time: '2030-01-02T10:00:00.000Z',
              fireAt: '2030-01-02T10:00:00.000Z',
              exception: null,
              changeable: false,
            },
          ],
          exceptions: [skipped],
        },
      },
    });
    const io = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(await main(['jobs', 'occurrences', '7', '-n', '2'], io)).toBe(0);
    expect(fake.seen[0]?.query).toEqual({ limit: '2' });
    expect(io.stdout.text).toMatch(/skipped +ana +holiday/);
    expect(io.stdout.text).toMatch(/2030-01-02T10:00:00.000Z +2030-01-02T10:00:00.000Z +planned/);
  });

  it('refuses a relative --to without a span', () => {
    expect(moveTarget(AT, '-1h')).toBe('2030-01-02T08:00:00.000Z');
    expect(() => moveTarget(AT, '+soon')).toThrow(/needs a span/);
  });
});
