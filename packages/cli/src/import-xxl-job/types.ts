/**
 * What the importer sends to tickring's admin API, mirrored here so this module ships without the
 * scheduler: the bodies of `POST /v1/groups`, `POST /v1/jobs` and `PUT /v1/jobs/{id}` (children only),
 * and the names and limits tickring accepts (`packages/core/src/jobs/job-validation.ts`). `contract.test.ts`
 * checks these against the scheduler's own definitions and parsers, so the two cannot drift.
 */

export const SCHEDULE_TYPES = ['NONE', 'CRON', 'FIX_RATE', 'ONCE'] as const;
export type ScheduleType = (typeof SCHEDULE_TYPES)[number];

export const MISFIRE_STRATEGIES = ['DO_NOTHING', 'FIRE_ONCE_NOW'] as const;
export type MisfireStrategy = (typeof MISFIRE_STRATEGIES)[number];

export const ROUTE_STRATEGIES = [
  'FIRST',
  'LAST',
  'ROUND',
  'RANDOM',
  'CONSISTENT_HASH',
  'LEAST_FREQUENTLY_USED',
  'LEAST_RECENTLY_USED',
  'FAILOVER',
  'BUSYOVER',
  'SHARDING_BROADCAST',
] as const;
export type RouteStrategy = (typeof ROUTE_STRATEGIES)[number];

export const BLOCK_STRATEGIES = ['SERIAL_EXECUTION', 'DISCARD_LATER', 'COVER_EARLY'] as const;
export type BlockStrategy = (typeof BLOCK_STRATEGIES)[number];

export const GLUE_TYPES = [
  'BEAN',
  'GLUE_GROOVY',
  'GLUE_SHELL',
  'GLUE_PYTHON',
  'GLUE_PYTHON2',
  'GLUE_NODEJS',
  'GLUE_POWERSHELL',
  'GLUE_PHP',
] as const;
export type GlueType = (typeof GLUE_TYPES)[number];

export const ADDRESS_TYPES = ['AUTO', 'MANUAL'] as const;
export type AddressType = (typeof ADDRESS_TYPES)[number];

/** tickring's length limits (UTF-16 code units, as JavaScript counts them). */
export const LIMITS = {
  appNameMin: 4,
  appName: 64,
  groupTitle: 64,
  addressList: 100,
  address: 2048,
  name: 255,
  author: 64,
  alarmEmail: 512,
  scheduleConf: 128,
  executorHandler: 255,
  executorParam: 2048,
  glueSource: 100_000,
  childJobIds: 100,
  /** MySQL INT: executorTimeout, executorFailRetryCount, FIX_RATE seconds. */
  int: 2_147_483_647,
  accessTokenMin: 8,
  accessTokenMax: 255,
} as const;

/** appName: letters, digits, '_', '.', '-'. */
export const APP_NAME_PATTERN = /^[A-Za-z0-9_.-]+$/;

/** `POST /v1/groups`. */
export interface GroupBody {
  readonly appName: string;
  readonly title: string;
  readonly addressType: AddressType;
  /** MANUAL groups only (an AUTO group learns its addresses from executor registration). */
  readonly addressList?: readonly string[];
}

/**
 * `POST /v1/jobs`, with every field the import decides. Children are not set at creation (they must
 * exist first): a second pass sets them with {@link ChildLinkPatch}.
 */
export interface JobBody {
  readonly appName: string;
  readonly name: string;
  readonly author: string;
  readonly alarmEmail: string;
  readonly scheduleType: ScheduleType;
  readonly scheduleConf: string;
  readonly timeZone: string;
  readonly misfireStrategy: MisfireStrategy;
  readonly executorRouteStrategy: RouteStrategy;
  readonly executorHandler: string;
  readonly executorParam: string;
  readonly executorBlockStrategy: BlockStrategy;
  readonly executorTimeout: number;
  readonly executorFailRetryCount: number;
  readonly glueType: GlueType;
  readonly glueSource: string;
  /** Always STOPPED: an import never starts a job. */
  readonly triggerStatus: 'STOPPED';
}

/** `PUT /v1/jobs/{id}` with only the children (the API lays the given fields over the job). */
export interface ChildLinkPatch {
  readonly childJobIds: readonly number[];
}

/** A group as `GET /v1/groups` lists it; only `appName` is needed, the rest is compared when given. */
export interface ExistingGroup {
  readonly appName: string;
  readonly title?: string;
  readonly addressType?: string;
  /** MANUAL: the configured addresses (compared); AUTO: the executors online now (not compared). */
  readonly addressList?: readonly string[];
  /** When the group got its own access token; null: it has none (the API's `accessTokenSetAt`). */
  readonly accessTokenSetAt?: string | number | null;
}

/**
 * A job as `GET /v1/jobs` lists it. The fields of the identity rule are required (see `plan.ts`);
 * the others are compared with the dump when given, to report differences.
 */
export interface ExistingJob {
  readonly id: number;
  readonly appName: string;
  readonly name: string;
  readonly executorHandler: string;
  readonly scheduleType: string;
  readonly scheduleConf: string;
  readonly glueType: string;
  readonly childJobIds?: readonly number[];
  readonly triggerStatus?: string;
  readonly author?: string;
  readonly alarmEmail?: string;
  readonly timeZone?: string;
  readonly misfireStrategy?: string;
  readonly executorRouteStrategy?: string;
  readonly executorParam?: string;
  readonly executorBlockStrategy?: string;
  readonly executorTimeout?: number;
  readonly executorFailRetryCount?: number;
  readonly glueSource?: string;
}

/** What tickring has now: all groups and all jobs, as the API lists them. */
export interface ExistingState {
  readonly groups: readonly ExistingGroup[];
  readonly jobs: readonly ExistingJob[];
}

/** Thrown for options the import cannot work with (e.g. an unknown time zone). */
export class ImportOptionsError extends Error {
  constructor(
    message: string,
    readonly option: string,
  ) {
    super(message);
    this.name = 'ImportOptionsError';
  }
}
