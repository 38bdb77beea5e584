import type { RegistryEntry, RegistryStore } from '../executors/registry-store.js';
import type { Group, Job } from '../jobs/job.js';
import type { GroupStore, JobStore } from '../jobs/job-store.js';

/**
 * What the fires of one batch read in common, read once: the jobs (strongly, in one BatchGet up
 * front), each group and each group's online executors. A batch lasts about a second, so a
 * registry read shared by its fires is as fresh as one per fire.
 */
export class BatchReads {
  private readonly jobs = new Map<number, Promise<Job | undefined>>();
  private readonly groups = new Map<string, Promise<Group | undefined>>();
  private readonly online = new Map<string, Promise<RegistryEntry[]>>();

  constructor(private readonly deps: { jobs: JobStore; groups: GroupStore; registry: RegistryStore }) {}

  /** Reads these jobs with one batched read; later `job()` calls for them wait for it. */
  preloadJobs(ids: readonly number[]): void {
    const missing = [...new Set(ids)].filter((id) => !this.jobs.has(id));
    if (missing.length === 0) return;
    const all = this.deps.jobs.getMany(missing).then((jobs) => new Map(jobs.map((j) => [j.id, j])));
    // Should the batched read fail, each fire reads its own job.
    for (const id of missing) {
      this.jobs.set(
        id,
        all.then(
          (byId) => byId.get(id),
          () => this.deps.jobs.get(id),
        ),
      );
    }
  }

  job(id: number): Promise<Job | undefined> {
    return memo(this.jobs, id, () => this.deps.jobs.get(id));
  }

  group(appName: string): Promise<Group | undefined> {
    return memo(this.groups, appName, () => this.deps.groups.get(appName));
  }

  registry(appName: string, seenSince: number): Promise<RegistryEntry[]> {
    return memo(this.online, appName, () => this.deps.registry.list(appName, seenSince));
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
