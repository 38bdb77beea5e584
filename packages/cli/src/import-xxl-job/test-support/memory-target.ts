/**
 * For tests only (it imports the scheduler, which the shipped package must not): an ImportTarget
 * that behaves as tickring's admin API, in memory. Bodies are read by the scheduler's own
 * `parseGroupSpec` / `parseJobSpec` (a child-links update laid over the stored job, as `PUT` does),
 * children must exist and cycles are refused (`findChildCycle`), appNames are unique, ids count
 * from 1. `state()` lists groups and jobs as `GET /v1/groups` and `GET /v1/jobs` show them.
 */
import type { GroupSpec, JobSpec } from '@tickring/core/jobs';
import { findChildCycle, parseGroupSpec, parseJobSpec } from '@tickring/core/jobs';
import type { ImportTarget } from '../apply.js';
import type { ExistingState } from '../types.js';

export type Call =
  | { readonly method: 'createGroup'; readonly appName: string }
  | { readonly method: 'setGroupAccessToken'; readonly appName: string }
  | { readonly method: 'createJob'; readonly name: string }
  | { readonly method: 'updateJob'; readonly id: number; readonly childJobIds: readonly number[] };

export interface MemoryTarget extends ImportTarget {
  readonly calls: Call[];
  readonly groups: Map<string, GroupSpec & { accessTokenSetAt?: number }>;
  readonly jobs: Map<number, JobSpec & { id: number }>;
  /** Group tokens as given (tickring seals them). */
  readonly tokens: Map<string, string>;
  /** What `GET /v1/groups` and `GET /v1/jobs` list. */
  state(): ExistingState;
  /** Makes the API refuse a call, as a 4xx would: return the message, or undefined to let it through. */
  refuse?: (call: Call) => string | undefined;
}

class ApiError extends Error {
  override name = 'ApiError';
}

/** The API's rule for a group's own token (`PUT /v1/groups/{appName}/access-token`). */
const TOKEN = /^[\x21-\x7E]{8,255}$/;

export function memoryTarget(): MemoryTarget {
  const groups = new Map<string, GroupSpec & { accessTokenSetAt?: number }>();
  const jobs = new Map<number, JobSpec & { id: number }>();
  const tokens = new Map<string, string>();
  let nextId = 1;

  const requireChildren = async (id: number | undefined, childIds: readonly number[]) => {
    const missing = childIds.filter((c) => !jobs.has(c));
    if (missing.length > 0)
      throw new ApiError(`childJobIds names jobs that do not exist: ${missing.join(', ')}`);
    if (id === undefined) return;
    const cycle = await findChildCycle(id, childIds, async (ids) => {
      return new Map(
        ids.flatMap((c) => {
          const j = jobs.get(c);
          return j ? [[c, j.childJobIds] as const] : [];
        }),
      );
    });
    if (cycle) throw new ApiError(`childJobIds would make a cycle: ${cycle.join(' → ')}`);
  };

  const target: MemoryTarget = {
    calls: [],
    groups,
    jobs,
    tokens,
    state() {
      return {
        groups: [...groups.values()].map((g) => ({
          appName: g.appName,
          title: g.title,
          addressType: g.addressType,
          addressList: g.addressList,
          accessTokenSetAt:
            g.accessTokenSetAt === undefined ? null : new Date(g.accessTokenSetAt).toISOString(),
        })),
        jobs: [...jobs.values()].map((j) => ({ ...j })),
      };
    },
    async createGroup(body) {
      check({ method: 'createGroup', appName: body.appName });
      const spec = parseGroupSpec(body);
      if (groups.has(spec.appName)) throw new ApiError(`group ${spec.appName} exists`);
      groups.set(spec.appName, spec);
    },
    async setGroupAccessToken(appName, accessToken) {
      check({ method: 'setGroupAccessToken', appName });
      const group = groups.get(appName);
      if (!group) throw new ApiError(`group ${appName} does not exist`);
      if (!TOKEN.test(accessToken))
        throw new ApiError('accessToken must be 8–255 printable ASCII characters');
      groups.set(appName, { ...group, accessTokenSetAt: Date.UTC(2030, 0, 1) });
      tokens.set(appName, accessToken);
    },
    async createJob(body) {
      check({ method: 'createJob', name: body.name });
      const spec = parseJobSpec(body);
      if (!groups.has(spec.appName)) {
        throw new ApiError(
          `appName ${JSON.stringify(spec.appName)} is not an executor group; create the group first`,
        );
      }
      await requireChildren(undefined, spec.childJobIds);
      const id = nextId++;
      jobs.set(id, { ...spec, id });
      return { id };
    },
    async updateJob(id, patch) {
      check({ method: 'updateJob', id, childJobIds: patch.childJobIds });
      const current = jobs.get(id);
      if (!current) throw new ApiError(`job ${id} does not exist`);
      const { id: _id, ...base } = current;
      const spec = parseJobSpec(patch, { base, id });
      await requireChildren(id, spec.childJobIds);
      jobs.set(id, { ...spec, id });
    },
  };
  function check(call: Call): void {
    target.calls.push(call);
    const refusal = target.refuse?.(call);
    if (refusal !== undefined) throw new ApiError(refusal);
  }
  return target;
}
