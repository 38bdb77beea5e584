import { randomUUID } from 'node:crypto';
import type { Clock } from '../common/clock.js';
import { type Problem, RequestValidationError } from '../common/errors.js';
import type { SecretSealer } from '../jobs/job-store.js';
import { ALARM_KINDS, type AlarmKind } from '../runs/alarms.js';
import type { AlertSilence } from './alert.js';
import {
  type AlertChannelInput,
  type AlertChannelView,
  alertChannelView,
  checkAlertChannel,
  sealContextOf,
} from './alert-channel.js';
import type { AlertStore } from './alert-store.js';

export interface AdminAlertsDeps {
  readonly alerts: AlertStore;
  readonly sealer: SecretSealer;
  readonly clock: Clock;
}

/** Creates a channel; its secret is sealed and never answered again (the view says `signed`). */
export async function createAlertChannel(
  deps: AdminAlertsDeps,
  input: unknown,
  by: string,
): Promise<AlertChannelView> {
  const checked = checkAlertChannel(objectBody<AlertChannelInput>(input));
  const id = randomUUID();
  const now = deps.clock.now();
  const { secret, ...fields } = checked;
  const channel = {
    id,
    ...fields,
    ...(secret !== undefined ? { secretSealed: await deps.sealer.seal(sealContextOf(id), secret) } : {}),
    revision: 1,
    createdAt: now,
    createdBy: by,
    updatedAt: now,
  };
  await deps.alerts.createChannel(channel);
  return alertChannelView(channel);
}

export async function listAlertChannels(deps: Pick<AdminAlertsDeps, 'alerts'>): Promise<AlertChannelView[]> {
  return (await deps.alerts.listChannels()).map(alertChannelView);
}

export async function deleteAlertChannel(deps: Pick<AdminAlertsDeps, 'alerts'>, id: string): Promise<void> {
  await deps.alerts.deleteChannel(id);
}

export interface AlertSilenceInput {
  readonly jobId?: unknown;
  readonly appName?: unknown;
  readonly kind?: unknown;
  readonly from?: unknown;
  readonly to?: unknown;
  readonly reason?: unknown;
}

/** Checks a silence, every problem at once: a matcher, a window that ends after it starts, a reason. */
export function checkAlertSilence(
  input: AlertSilenceInput,
  now: number,
): Omit<AlertSilence, 'id' | 'createdBy' | 'createdAt'> {
  const problems: Problem[] = [];
  const problem = (field: string, message: string) => problems.push({ field, message });
  const jobId = input.jobId;
  if (jobId !== undefined && !(typeof jobId === 'number' && Number.isSafeInteger(jobId) && jobId > 0)) {
    problem('jobId', 'jobId must be a job id (a whole number above 0)');
  }
  const appName = input.appName;
  if (appName !== undefined && (typeof appName !== 'string' || appName.trim() === '')) {
    problem('appName', 'appName must be a group name');
  }
  const kind = ALARM_KINDS.find((k) => k === input.kind);
  if (input.kind !== undefined && !kind) problem('kind', `kind must be one of ${ALARM_KINDS.join(', ')}`);
  if (jobId === undefined && appName === undefined && input.kind === undefined) {
    problem('body', 'a silence matches a jobId, an appName or a kind (at least one)');
  }
  const from = input.from === undefined ? now : timeOf(input.from);
  const to = timeOf(input.to);
  if (from === undefined) problem('from', 'from must be an ISO-8601 instant or epoch ms');
  if (to === undefined) problem('to', 'to must be an ISO-8601 instant or epoch ms');
  else if (from !== undefined && to <= from) problem('to', 'to must be after from');
  const reason = typeof input.reason === 'string' ? input.reason.trim() : '';
  if (reason === '' || reason.length > 500) problem('reason', 'reason must be 1 to 500 characters');
  const [first, ...rest] = problems;
  if (first) throw new RequestValidationError([first, ...rest]);
  return {
    ...(jobId !== undefined ? { jobId: jobId as number } : {}),
    ...(appName !== undefined ? { appName: (appName as string).trim() } : {}),
    ...(kind !== undefined ? { kind: kind as AlarmKind } : {}),
    from: from!,
    to: to!,
    reason,
  };
}

/** A body checked field by field must first be an object. */
function objectBody<T>(input: unknown): T {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new RequestValidationError([{ field: 'body', message: 'the body must be a JSON object' }]);
  }
  return input as T;
}

function timeOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && value.trim() !== '') {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}

export async function createAlertSilence(
  deps: Pick<AdminAlertsDeps, 'alerts' | 'clock'>,
  input: unknown,
  by: string,
): Promise<AlertSilence> {
  const now = deps.clock.now();
  const checked = checkAlertSilence(objectBody<AlertSilenceInput>(input), now);
  const silence: AlertSilence = { id: randomUUID(), ...checked, createdBy: by, createdAt: now };
  await deps.alerts.createSilence(silence);
  return silence;
}

export async function deleteAlertSilence(deps: Pick<AdminAlertsDeps, 'alerts'>, id: string): Promise<void> {
  await deps.alerts.deleteSilence(id);
}

/** Channel ids a job or group names that do not exist, as one problem each. */
export async function missingChannelProblems(
  deps: Pick<AdminAlertsDeps, 'alerts'>,
  ids: readonly string[],
  field: string,
): Promise<Problem[]> {
  const known = new Set((await deps.alerts.listChannels()).map((c) => c.id));
  return ids
    .filter((id) => !known.has(id))
    .map((id) => ({ field, message: `alert channel ${id} does not exist` }));
}
