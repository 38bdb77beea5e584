import { readFileSync } from 'node:fs';
import type { AlertSilence } from '@tickring/client';
import { describe, expect, it } from 'vitest';
import { toLocalInput } from '../lib/format';
import {
  lastingFor,
  newSilenceForm,
  SILENCE_REASON_MAX,
  type SilenceForm,
  silenceMatchText,
  silenceRequest,
  silenceStatus,
  silencesByStatus,
  silenceTimeWords,
} from './silence-form';

const HOUR = 3600_000;
// On a whole minute: `datetime-local` values are to the minute.
const NOW = Date.parse('2030-01-01T10:00:00.000Z');
const local = (ms: number) => toLocalInput(new Date(ms).toISOString());
const iso = (ms: number) => new Date(ms).toISOString();

const silence = (id: string, from: number, to: number): AlertSilence => ({
  id,
  jobId: 7,
  from: iso(from),
  to: iso(to),
  reason: id,
  createdBy: 'ana',
  createdAt: iso(from),
});

describe('silenceStatus', () => {
  it('is upcoming before its start, active from its start, ended from its end', () => {
    const s = silence('s', NOW, NOW + HOUR);
    expect(silenceStatus(s, NOW - 1)).toBe('upcoming');
    expect(silenceStatus(s, NOW)).toBe('active');
    expect(silenceStatus(s, NOW + HOUR - 1)).toBe('active');
    expect(silenceStatus(s, NOW + HOUR)).toBe('ended');
  });
});

describe('silenceTimeWords', () => {
  it('speaks of a start to come only for an upcoming silence, of an end past only for an ended one', () => {
    expect(silenceTimeWords('upcoming')).toEqual({ start: 'starts', end: 'ends' });
    expect(silenceTimeWords('active')).toEqual({ start: 'started', end: 'ends' });
    expect(silenceTimeWords('ended')).toEqual({ start: 'started', end: 'ended' });
  });
});

describe('silencesByStatus', () => {
  it('puts the active ones ending soonest first, the upcoming starting soonest, the ended latest first', () => {
    const groups = silencesByStatus(
      [
        silence('active-late', NOW - HOUR, NOW + 3 * HOUR),
        silence('ended-long-ago', NOW - 5 * HOUR, NOW - 4 * HOUR),
        silence('upcoming-later', NOW + 5 * HOUR, NOW + 6 * HOUR),
        silence('active-soon', NOW - HOUR, NOW + HOUR),
        silence('ended-just-now', NOW - 2 * HOUR, NOW),
        silence('upcoming-next', NOW + HOUR, NOW + 2 * HOUR),
      ],
      NOW,
    );
    const ids = (list: AlertSilence[]) => list.map((s) => s.id);
    expect(ids(groups.active)).toEqual(['active-soon', 'active-late']);
    expect(ids(groups.upcoming)).toEqual(['upcoming-next', 'upcoming-later']);
    expect(ids(groups.ended)).toEqual(['ended-just-now', 'ended-long-ago']);
  });
});

describe('silenceMatchText', () => {
  it('names every field the silence gives', () => {
    expect(silenceMatchText({ jobId: 7, appName: 'orders', kind: 'runFailed' })).toBe(
      'job 7 · group orders · Run failed',
    );
    expect(silenceMatchText({ kind: 'deadlineMissed' })).toBe('Deadline missed');
  });
});

describe('silenceRequest', () => {
  const form = (changes: Partial<SilenceForm>): SilenceForm => ({ ...newSilenceForm(NOW), ...changes });
  const fieldsOf = (made: ReturnType<typeof silenceRequest>) =>
    'error' in made ? made.error.problems.map((p) => p.field) : [];

  it('starts a new silence now, for an hour', () => {
    expect(newSilenceForm(NOW)).toMatchObject({ from: '', to: local(NOW + HOUR) });
  });

  it('sends the fields given, an empty start left out (the server starts it now)', () => {
    const made = silenceRequest(form({ jobId: ' 7 ', kind: 'runFailed', reason: ' db maintenance ' }), NOW);
    expect(made).toEqual({
      body: { jobId: 7, kind: 'runFailed', to: iso(NOW + HOUR), reason: 'db maintenance' },
    });
    const group = silenceRequest(
      form({ appName: 'orders', from: local(NOW + HOUR), to: local(NOW + 2 * HOUR), reason: 'deploy' }),
      NOW,
    );
    expect(group).toEqual({
      body: { appName: 'orders', from: iso(NOW + HOUR), to: iso(NOW + 2 * HOUR), reason: 'deploy' },
    });
  });

  it('asks for something to match, an end after the start, and a reason: every problem at once', () => {
    const made = silenceRequest(
      form({ from: local(NOW + 2 * HOUR), to: local(NOW + HOUR), reason: ' ' }),
      NOW,
    );
    expect(fieldsOf(made)).toEqual(['body', 'to', 'reason']);
  });

  it('refuses a job id that is not one, an end already past, and a reason over the limit', () => {
    const made = silenceRequest(
      form({ jobId: '0', to: local(NOW - HOUR), reason: 'r'.repeat(SILENCE_REASON_MAX + 1) }),
      NOW,
    );
    expect(fieldsOf(made)).toEqual(['jobId', 'to', 'reason']);
    expect(
      fieldsOf(silenceRequest(form({ jobId: '7', reason: 'r'.repeat(SILENCE_REASON_MAX) }), NOW)),
    ).toEqual([]);
  });

  it('has the reason limit of the API’s own contract (openapi.json)', () => {
    const contract = JSON.parse(readFileSync(new URL('../../../openapi.json', import.meta.url), 'utf8'));
    const fields = contract.components.schemas.AlertSilenceCreate.properties;
    expect(fields.reason.maxLength).toBe(SILENCE_REASON_MAX);
  });
});

describe('lastingFor', () => {
  it('ends the silence that long after its start, or after now when it starts now', () => {
    expect(lastingFor(newSilenceForm(NOW), 8 * HOUR, NOW).to).toBe(local(NOW + 8 * HOUR));
    const later = { ...newSilenceForm(NOW), from: local(NOW + 24 * HOUR) };
    expect(lastingFor(later, HOUR, NOW).to).toBe(local(NOW + 25 * HOUR));
  });
});
