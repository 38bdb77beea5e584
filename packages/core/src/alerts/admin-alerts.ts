import { randomUUID } from 'node:crypto';
import type { Clock } from '../common/clock.js';
import { ConflictError, NotFoundError, type Problem, RequestValidationError } from '../common/errors.js';
import type { Logger } from '../common/logger.js';
import type { GroupStore, JobStore, SecretSealer } from '../jobs/job-store.js';
import { ALARM_KINDS, type AlarmKind } from '../runs/alarms.js';
import type { AlertSilence } from './alert.js';
import {
  type AlertChannel,
  type AlertChannelInput,
  type AlertChannelKind,
  type AlertChannelView,
  alertChannelView,
  checkAlertChannel,
  checkAlertChannelUpdate,
  sealContextOf,
} from './alert-channel.js';
import { type AlertSender, sendToChannel } from './alert-delivery.js';
import { testAlertFields } from './alert-message.js';
import type { AlertStore } from './alert-store.js';
import { channelUsers } from './channel-references.js';

export interface AdminAlertsDeps {
  readonly alerts: AlertStore;
  readonly sealer: SecretSealer;
  readonly clock: Clock;
  /** How a channel's test message leaves: the delivery sweep's sender. */
  readonly sender: AlertSender;
  /** What a channel's delete looks through for jobs and groups naming it. */
  readonly jobs: Pick<JobStore, 'list'>;
  readonly groups: Pick<GroupStore, 'list'>;
  readonly logger: Logger;
}

/** Creates a channel; its secret is sealed and never answered again (the view says `signed`). */
export async function createAlertChannel(
  deps: Pick<AdminAlertsDeps, 'alerts' | 'sealer' | 'clock'>,
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

async function readChannel(deps: Pick<AdminAlertsDeps, 'alerts'>, id: string): Promise<AlertChannel> {
  const channel = await deps.alerts.getChannel(id);
  if (!channel) throw new NotFoundError(`alert channel ${id} does not exist`);
  return channel;
}

export async function getAlertChannel(
  deps: Pick<AdminAlertsDeps, 'alerts'>,
  id: string,
): Promise<AlertChannelView> {
  return alertChannelView(await readChannel(deps, id));
}

/**
 * Changes a channel: the fields given laid over it, checked as a whole (every problem at once);
 * its secret is kept unless a new one is given (sealed) or `null` (no longer signed). A `revision`
 * in the body must be the channel's (409 otherwise); a change racing another is a 409 too.
 */
export async function updateAlertChannel(
  deps: Pick<AdminAlertsDeps, 'alerts' | 'sealer' | 'clock'>,
  id: string,
  input: unknown,
): Promise<AlertChannelView> {
  const body = objectBody<Record<string, unknown>>(input);
  const current = await readChannel(deps, id);
  const { fields, secret } = checkAlertChannelUpdate(current, body);
  if (body.revision !== undefined && body.revision !== current.revision) {
    throw new ConflictError(
      `alert channel ${id} is at revision ${current.revision}, not ${String(body.revision)}: read it again`,
    );
  }
  const { url: _url, bodyTemplate: _template, secretSealed, ...kept } = current;
  const sealed =
    'set' in secret
      ? await deps.sealer.seal(sealContextOf(id), secret.set)
      : 'keep' in secret
        ? secretSealed
        : undefined;
  const next: AlertChannel = {
    ...kept,
    ...fields,
    ...(sealed === undefined ? {} : { secretSealed: sealed }),
    revision: current.revision + 1,
    updatedAt: deps.clock.now(),
  };
  await deps.alerts.updateChannel(next, current.revision);
  return alertChannelView(next);
}

/** What a channel's test message met: delivered, or the receiver's status and the error. */
export interface AlertChannelTestResult {
  readonly channelId: string;
  readonly kind: AlertChannelKind;
  readonly delivered: boolean;
  readonly at: number;
  readonly status?: number;
  readonly error?: string;
}

/**
 * Sends one test message through the channel at once, by the delivery code itself (the body
 * template, the HMAC signature, the Slack JSON, the alarm topic), and answers what happened. No
 * alert is recorded and nothing is retried.
 */
export async function testAlertChannel(
  deps: Pick<AdminAlertsDeps, 'alerts' | 'sealer' | 'clock' | 'sender' | 'logger'>,
  id: string,
  by: string,
): Promise<AlertChannelTestResult> {
  const channel = await readChannel(deps, id);
  const at = deps.clock.now();
  const fields = testAlertFields(channel, by, at);
  const attempt = await sendToChannel(deps, channel, {
    fields,
    idempotencyKey: fields.alert.id,
    subject: `tickring test message: alert channel ${channel.name}`,
    jobId: 0,
    appName: 'test',
  });
  const result: AlertChannelTestResult = {
    channelId: id,
    kind: channel.kind,
    delivered: attempt.ok,
    at: attempt.at,
    ...(attempt.status === undefined ? {} : { status: attempt.status }),
    ...(attempt.error === undefined ? {} : { error: attempt.error }),
  };
  deps.logger.info('alert channel tested', {
    channelId: id,
    kind: channel.kind,
    delivered: attempt.ok,
    status: attempt.status ?? null,
    error: attempt.error ?? null,
    by,
  });
  return result;
}

/** The jobs and groups a refused delete names (the rest are counted). */
const USERS_NAMED = 20;

/**
 * Deletes a channel; refused (409) while a job or a group names it in its alertChannels, naming
 * them. Reads every job (the job list, page by page: a Scan on DynamoDB) and every group: channel
 * deletes are rare.
 */
export async function deleteAlertChannel(
  deps: Pick<AdminAlertsDeps, 'alerts' | 'jobs' | 'groups'>,
  id: string,
): Promise<void> {
  await readChannel(deps, id);
  const { jobs, groups } = await channelUsers(deps, id);
  if (jobs.length > 0 || groups.length > 0) {
    const named = [
      ...jobs.map((job) => `job ${job.id} (${job.name})`),
      ...groups.map((group) => `group ${group.appName}`),
    ];
    const total = named.length;
    const more = total > USERS_NAMED ? ` and ${total - USERS_NAMED} more` : '';
    throw new ConflictError(
      `alert channel ${id} is named by ${named.slice(0, USERS_NAMED).join(', ')}${more}; take it out of their alertChannels first`,
    );
  }
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
