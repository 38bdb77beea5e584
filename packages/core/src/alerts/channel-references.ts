/**
 * The references to alert channels from jobs and groups (`alertChannels`): the ids a body names
 * that do not exist (a save's 400), and who names a channel (a delete's 409).
 */
import { type Problem, problemsOf, RequestValidationError, ValidationError } from '../common/errors.js';
import type { Group, Job } from '../jobs/job.js';
import { jobsWhere } from '../jobs/job-scan.js';
import type { GroupStore, JobStore } from '../jobs/job-store.js';
import type { AlertStore } from './alert-store.js';

/**
 * The channel ids a job's or group's body names (`alertChannels`, when a list) that do not exist,
 * one problem each. Reads the channel list once (a Query of its one partition on DynamoDB) when
 * the body names any; nothing otherwise. A malformed list is the body's own check's to report.
 */
export async function missingChannelProblems(
  channels: Pick<AlertStore, 'listChannels'>,
  body: unknown,
): Promise<Problem[]> {
  const ids = namedChannels(body);
  if (ids.length === 0) return [];
  const known = new Set((await channels.listChannels()).map((c) => c.id));
  return ids
    .filter((id) => !known.has(id))
    .map((id) => ({
      field: 'alertChannels',
      message: `alertChannels names alert channel ${id}, which does not exist; create it first (POST /v1/alert-channels)`,
    }));
}

/**
 * Runs a save of a job or group body with the body's missing alert channels: `save` calls
 * `refuseMissing` after its own checks and before it writes (a 400 naming each missing id); a
 * ValidationError of its own checks comes back with the missing channels beside its problems, so
 * one answer names them all. Without a channel store, a body naming channels is refused.
 */
export async function savingWithChannels<T>(
  channels: Pick<AlertStore, 'listChannels'> | undefined,
  body: unknown,
  save: (refuseMissing: () => void) => Promise<T>,
): Promise<T> {
  if (!channels && namedChannels(body).length > 0) {
    throw new ValidationError(
      'alert channels cannot be checked here; leave alertChannels out',
      'alertChannels',
    );
  }
  const missing = channels ? await missingChannelProblems(channels, body) : [];
  let refused = false;
  const refuseMissing = () => {
    const [first, ...rest] = missing;
    if (!first) return;
    refused = true;
    throw new RequestValidationError([first, ...rest]);
  };
  try {
    return await save(refuseMissing);
  } catch (err) {
    if (refused || missing.length === 0 || !(err instanceof ValidationError)) throw err;
    const [first, ...rest] = [...problemsOf(err), ...missing];
    throw first ? new RequestValidationError([first, ...rest]) : err;
  }
}

/** The ids a body's `alertChannels` names, when it is a list (its other problems are the body check's). */
function namedChannels(body: unknown): string[] {
  const given =
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>).alertChannels : undefined;
  if (!Array.isArray(given)) return [];
  return [...new Set(given.filter((id): id is string => typeof id === 'string' && id.trim() !== ''))];
}

/** The jobs (any group, any status) and groups whose alertChannels name the channel. */
export async function channelUsers(
  deps: { readonly jobs: Pick<JobStore, 'list'>; readonly groups: Pick<GroupStore, 'list'> },
  channelId: string,
): Promise<{ readonly jobs: Job[]; readonly groups: Group[] }> {
  const jobs = await jobsWhere(deps.jobs, (job) => job.alertChannels?.includes(channelId) === true);
  const groups = (await deps.groups.list()).filter((group) => group.alertChannels?.includes(channelId));
  return { jobs, groups };
}
