import type { RegistryEntry, RegistryStore } from '../executors/registry-store.js';
import type { Group, Job } from '../jobs/job.js';
import type { GroupStore, JobStore } from '../jobs/job-store.js';

const EVENTUAL = { consistency: 'eventual' } as const;

/**
 * What the fires of one batch read in common, read once: the jobs (in one BatchGet up front), each
 * group and each group's online executors. A batch lasts about a second, so a registry read shared
 * by its fires is as fresh as one per fire.
 *
 * The jobs and groups are read eventually consistent (half the price): such a read may miss the
 * writes of about the last second, which at worst lets a fire through that a stop a moment before
 * it would have dropped (as a stop during its claim does). What a lagging read could get wrong
 * the other way is read again strongly before it is acted on: a job or group not found (made a
 * moment ago), and a job older than the schedule its fire was planned from (its drop would lose
 * the fire).
 */
export class BatchReads {
  private readonly jobs = new Map<number, Promise<Job | undefined>>();
  private readonly strongJobs = new Map<number, Promise<Job | undefined>>();
  private readonly groups = new Map<string, Promise<Group | undefined>>();
  private readonly strongGroups = new Map<string, Promise<Group | undefined>>();
  private readonly online = new Map<string, Promise<RegistryEntry[]>>();

  constructor(private readonly deps: { jobs: JobStore; groups: GroupStore; registry: RegistryStore }) {}

  /** Reads these jobs with one batched read; later `job()` calls for them wait for it. */
  preloadJobs(ids: readonly number[]): void {
    const missing = [...new Set(ids)].filter((id) => !this.jobs.has(id) && !this.strongJobs.has(id));
    if (missing.length === 0) return;
    const all = this.deps.jobs.getMany(missing, EVENTUAL).then((jobs) => new Map(jobs.map((j) => [j.id, j])));
    // Should the batched read fail, each fire reads its own job.
    for (const id of missing) {
      this.jobs.set(
        id,
        all.then(
          (byId) => byId.get(id),
          () => this.strongJob(id),
        ),
      );
    }
  }

  /**
   * The job, as preloaded, or read strongly when it was not, when the preload did not find it, or
   * when it is older than `plannedRevision` (the schedule revision its fire was planned from:
   * revisions only grow, so an older one is a lagging read, not an edit).
   */
  async job(id: number, plannedRevision?: number): Promise<Job | undefined> {
    const preloaded = this.strongJobs.get(id) ?? this.jobs.get(id);
    if (preloaded === undefined) return this.strongJob(id);
    const job = await preloaded;
    const lagging =
      job === undefined || (plannedRevision !== undefined && job.scheduleRevision < plannedRevision);
    return lagging ? this.strongJob(id) : job;
  }

  /** The group, eventually consistent; read strongly when not found (made a moment ago?). */
  async group(appName: string): Promise<Group | undefined> {
    const strong = this.strongGroups.get(appName);
    if (strong !== undefined) return strong;
    const group = await memo(this.groups, appName, () => this.deps.groups.get(appName, EVENTUAL));
    return group ?? memo(this.strongGroups, appName, () => this.deps.groups.get(appName));
  }

  /**
   * Starts reading the group and its online executors, not waiting for either: the `group` and
   * `registry` calls that follow find the reads under way (a failed one is read again by them).
   */
  readAhead(appName: string, seenSince: number): void {
    this.group(appName).catch(() => undefined);
    this.registry(appName, seenSince).catch(() => undefined);
  }

  registry(appName: string, seenSince: number): Promise<RegistryEntry[]> {
    return memo(this.online, appName, () => this.deps.registry.list(appName, seenSince));
  }

  private strongJob(id: number): Promise<Job | undefined> {
    return memo(this.strongJobs, id, () => this.deps.jobs.get(id));
  }
}

/** The cached promise for `key`; a failed read is forgotten so the next caller tries again. */
function memo<K, V>(cache: Map<K, Promise<V>>, key: K, read: () => Promise<V>): Promise<V> {
  let value = cache.get(key);
  if (value === undefined) {
    value = read();
    value.catch(() => cache.delete(key));
    cache.set(key, value);
  }
  return value;
}
