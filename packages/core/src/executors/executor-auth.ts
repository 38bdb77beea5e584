import { MSG } from '@tickring/protocol';
import type { Clock } from '../common/clock.js';
import { constantTimeEquals } from '../common/constant-time.js';
import type { Logger } from '../common/logger.js';
import type { JobStore } from '../jobs/job-store.js';
import { jobIdOfLogId } from '../runs/run.js';
import { GROUP_TOKEN_CACHE_MS } from './group-access-tokens.js';
import type { RefusalReason } from './registration-refusals.js';

export interface ExecutorAuthDeps {
  /** The token of a group's executors: its own, else the global one. Throws when it cannot be read. */
  readonly tokenFor: (appName: string) => Promise<string>;
  /** The global token: what an executor presents when its group is not known. */
  readonly globalToken: () => Promise<string>;
  readonly jobs: Pick<JobStore, 'getMany'>;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** What an executor request speaks for: one group (registry), or the runs it reports (callback). */
export type ExecutorRequestScope =
  | { readonly kind: 'registry'; readonly appName: string }
  | { readonly kind: 'callback'; readonly logIds: readonly number[] };

export interface ExecutorCredentials {
  /** `XXL-JOB-ACCESS-TOKEN`. */
  readonly token: string | undefined;
  /** `XXL-JOB-APPNAME`: sent by XXL-JOB 3.5 executors (and tickring's SDK), not by older ones. */
  readonly appName: string | undefined;
}

/** A refused request: XXL-JOB's answer word for word (`msg`), and why in tickring's terms. */
export interface ExecutorAuthRefusal {
  readonly msg: string;
  readonly reason: RefusalReason;
}

/** `undefined`: allowed. */
export type ExecutorAuthVerdict = ExecutorAuthRefusal | undefined;

/**
 * Checks an executor's token against the group(s) the request speaks for, failing closed: a group
 * with a token of its own accepts only that token, any other group only the global token.
 *
 * - `registry`: the group is the registryKey; an `XXL-JOB-APPNAME` header must name the same group.
 * - `callback`: the groups are those of the reported runs' jobs (a logId names its job; the job's
 *   group is kept {@link GROUP_TOKEN_CACHE_MS}). An `XXL-JOB-APPNAME` header must name each of them,
 *   so an executor reports only its own group's runs. Runs of unknown jobs are checked against the
 *   header's group, or without one the global token (the callback then reports them unknown).
 *
 * A missing token, or one that cannot be read, refuses the request.
 */
export function executorAuthorizer(deps: ExecutorAuthDeps) {
  // Each job's group, kept GROUP_TOKEN_CACHE_MS; a read in flight is shared, so a burst of callbacks
  // reaching a cold instance reads each job once.
  const groupOfJob = new Map<
    number,
    { readonly appName: Promise<string | undefined>; readonly until: number }
  >();

  function groupsOfRuns(logIds: readonly number[]): Promise<(string | undefined)[]> {
    const now = deps.clock.now();
    const jobIds = [...new Set(logIds.map(jobIdOfLogId))];
    const unknown = jobIds.filter((id) => (groupOfJob.get(id)?.until ?? 0) <= now);
    if (unknown.length > 0) {
      const read = deps.jobs
        .getMany(unknown)
        .then((jobs) => new Map(jobs.map((job) => [job.id, job.appName])));
      for (const id of unknown) {
        const appName = read.then((found) => found.get(id));
        // A failed read is not kept: the next request reads again.
        appName.catch(() => groupOfJob.delete(id));
        groupOfJob.set(id, { appName, until: now + GROUP_TOKEN_CACHE_MS });
      }
      while (groupOfJob.size > 50_000) groupOfJob.delete(groupOfJob.keys().next().value as number);
    }
    return Promise.all(jobIds.map((id) => groupOfJob.get(id)?.appName));
  }

  return async function authorize(
    credentials: ExecutorCredentials,
    scope: ExecutorRequestScope,
  ): Promise<ExecutorAuthVerdict> {
    const header = credentials.appName?.trim() || undefined;
    const msg = header === undefined ? MSG.wrongToken : MSG.tokenOrAppNameInvalid;
    const token = credentials.token;
    if (token === undefined || token === '') {
      return {
        msg: header === undefined ? MSG.wrongToken : MSG.tokenOrAppNameEmpty,
        reason: 'missing-token',
      };
    }

    const groups = scope.kind === 'registry' ? [scope.appName] : await groupsOfRuns(scope.logIds);
    if (header !== undefined && groups.some((group) => group !== undefined && group !== header)) {
      deps.logger.warn('executor request refused: it speaks for another group than its XXL-JOB-APPNAME', {
        appName: header,
        groups: [...new Set(groups)].join(','),
      });
      return { msg, reason: 'app-name-mismatch' };
    }
    const expected = new Set<string | undefined>(groups.map((group) => group ?? header));
    if (expected.size === 0) expected.add(header);
    for (const group of expected) {
      let wanted: string;
      try {
        wanted = group === undefined ? await deps.globalToken() : await deps.tokenFor(group);
      } catch (err) {
        deps.logger.error('access token unavailable, refusing executor requests', {
          appName: group,
          error: String(err),
        });
        return { msg, reason: 'token-unavailable' };
      }
      // No token to check against (none configured) refuses like a token that cannot be read.
      if (wanted === '') return { msg, reason: 'token-unavailable' };
      if (!constantTimeEquals(token, wanted)) return { msg, reason: 'wrong-token' };
    }
    return undefined;
  };
}
