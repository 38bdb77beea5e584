// Silences: whether one is active, upcoming or ended, what it matches in words, and the create form
// with the checks the API makes (so most problems show before asking). Pure.

import type { AlertSilence, AlertSilenceCreate } from '@tickring/client';
import type { ShownError } from '../lib/api';
import { fromLocalInput, toLocalInput } from '../lib/format';
import { parseJobId } from '../runs/filters';
import { ALERT_KIND_LABELS, ALERT_KINDS } from './alert-history';

export type SilenceStatus = 'active' | 'upcoming' | 'ended';
export const SILENCE_STATUSES: readonly SilenceStatus[] = ['active', 'upcoming', 'ended'];

/** The server's limit of a reason. */
export const SILENCE_REASON_MAX = 500;

export function silenceStatus(
  silence: Pick<AlertSilence, 'from' | 'to'>,
  now: number = Date.now(),
): SilenceStatus {
  if (Date.parse(silence.to) <= now) return 'ended';
  return Date.parse(silence.from) > now ? 'upcoming' : 'active';
}

/** A silence's start and end in words as its status has them: "started … ago", "ends in …". */
export function silenceTimeWords(status: SilenceStatus): { start: string; end: string } {
  return { start: status === 'upcoming' ? 'starts' : 'started', end: status === 'ended' ? 'ended' : 'ends' };
}

/**
 * The silences by status: active ones ending soonest first, upcoming ones starting soonest first,
 * ended ones most recently ended first.
 */
export function silencesByStatus(
  silences: readonly AlertSilence[],
  now: number = Date.now(),
): Record<SilenceStatus, AlertSilence[]> {
  const groups: Record<SilenceStatus, AlertSilence[]> = { active: [], upcoming: [], ended: [] };
  for (const silence of silences) groups[silenceStatus(silence, now)].push(silence);
  const at = (s: AlertSilence, field: 'from' | 'to') => Date.parse(s[field]);
  groups.active.sort((a, b) => at(a, 'to') - at(b, 'to'));
  groups.upcoming.sort((a, b) => at(a, 'from') - at(b, 'from'));
  groups.ended.sort((a, b) => at(b, 'to') - at(a, 'to'));
  return groups;
}

/** What a silence matches: every field it gives ("job 7 · group orders · Run failed"). */
export function silenceMatchText(silence: Pick<AlertSilence, 'jobId' | 'appName' | 'kind'>): string {
  const parts: string[] = [];
  if (silence.jobId !== undefined) parts.push(`job ${silence.jobId}`);
  if (silence.appName !== undefined) parts.push(`group ${silence.appName}`);
  if (silence.kind !== undefined) parts.push(ALERT_KIND_LABELS[silence.kind]);
  return parts.join(' · ');
}

/** What the form's inputs hold: a job id as typed, a group and a kind ('' for any), `datetime-local` times. */
export interface SilenceForm {
  jobId: string;
  appName: string;
  kind: string;
  /** Empty: now. */
  from: string;
  to: string;
  reason: string;
}
/** The form's fields; `body` is the API's name for the whole match (at least one of job, group, kind). */
export type SilenceField = keyof SilenceForm | 'body';

const HOUR = 3600_000;

/** A new silence: matching nothing yet, from now for an hour. */
export function newSilenceForm(now: number = Date.now()): SilenceForm {
  return {
    jobId: '',
    appName: '',
    kind: '',
    from: '',
    to: toLocalInput(new Date(now + HOUR).toISOString()),
    reason: '',
  };
}

/** The form with its end `ms` after its start (now when it has none): the dialog's quick lengths. */
export function lastingFor(form: SilenceForm, ms: number, now: number = Date.now()): SilenceForm {
  const from = fromLocalInput(form.from);
  const start = from === undefined ? now : Date.parse(from);
  return { ...form, to: toLocalInput(new Date(start + ms).toISOString()) };
}

/**
 * The form as a create body, or every problem the API would answer (in its error shape, so they show
 * beside their fields the same way). An empty start is left out: the server starts it now.
 */
export function silenceRequest(
  form: SilenceForm,
  now: number = Date.now(),
): { body: AlertSilenceCreate } | { error: ShownError } {
  const problems: { field: SilenceField; message: string }[] = [];
  const jobText = form.jobId.trim();
  const jobId = parseJobId(jobText);
  if (jobText !== '' && jobId === undefined) {
    problems.push({ field: 'jobId', message: 'Enter a job id (a whole number above 0), or leave it empty.' });
  }
  const appName = form.appName.trim();
  const kind = ALERT_KINDS.find((k) => k === form.kind);
  if (jobText === '' && appName === '' && kind === undefined) {
    problems.push({ field: 'body', message: 'Pick a job, a group or a kind (at least one) to silence.' });
  }
  const fromText = form.from.trim();
  const from = fromText === '' ? undefined : fromLocalInput(fromText);
  if (fromText !== '' && from === undefined)
    problems.push({ field: 'from', message: 'Enter a start time, or leave it empty for now.' });
  const to = fromLocalInput(form.to.trim());
  if (to === undefined) problems.push({ field: 'to', message: 'Enter when it ends.' });
  else if (Date.parse(to) <= (from === undefined ? now : Date.parse(from))) {
    problems.push({
      field: 'to',
      message: from === undefined ? 'The end must be in the future.' : 'The end must be after the start.',
    });
  }
  const reason = form.reason.trim();
  if (reason === '' || reason.length > SILENCE_REASON_MAX) {
    problems.push({ field: 'reason', message: `Say why, in 1 to ${SILENCE_REASON_MAX} characters.` });
  }
  const [first] = problems;
  if (first) {
    return { error: { message: problems.map((p) => p.message).join(' '), field: first.field, problems } };
  }
  return {
    body: {
      ...(jobId !== undefined ? { jobId } : {}),
      ...(appName !== '' ? { appName } : {}),
      ...(kind !== undefined ? { kind } : {}),
      ...(from !== undefined ? { from } : {}),
      to: to as string,
      reason,
    },
  };
}
