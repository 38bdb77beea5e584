/**
 * Environment variable names, shared by `infra/` (which sets them on each function) and the
 * runtime `loadConfig` functions (which read them), so the two cannot drift.
 */
export const ENV = {
  region: 'AWS_REGION',
  /** Set by Lambda: the running function's name (the dispatcher hands decided fires to itself). */
  ownFunctionName: 'AWS_LAMBDA_FUNCTION_NAME',
  /** Local mode only: DynamoDB / SQS / Lambda / SNS endpoints of the stand-ins. */
  dynamoEndpoint: 'AWS_ENDPOINT_URL_DYNAMODB',
  sqsEndpoint: 'AWS_ENDPOINT_URL_SQS',
  lambdaEndpoint: 'AWS_ENDPOINT_URL_LAMBDA',
  snsEndpoint: 'AWS_ENDPOINT_URL_SNS',

  /**
   * Which technology holds the data: `dynamodb` (the default, what AWS runs: the tables, ring queues
   * and alarm topic below) or `sqlite` (the embedded engine: one database file, `TICKRING_SQLITE_FILE`,
   * holds every store and the ring; the table, queue and topic variables are then not read).
   */
  store: 'TICKRING_STORE',
  sqliteFile: 'TICKRING_SQLITE_FILE',

  jobsTable: 'TICKRING_JOBS_TABLE',
  groupsTable: 'TICKRING_GROUPS_TABLE',
  runsTable: 'TICKRING_RUNS_TABLE',
  registryTable: 'TICKRING_REGISTRY_TABLE',
  controlTable: 'TICKRING_CONTROL_TABLE',
  principalsTable: 'TICKRING_PRINCIPALS_TABLE',
  auditTable: 'TICKRING_AUDIT_TABLE',
  workflowsTable: 'TICKRING_WORKFLOWS_TABLE',
  calendarsTable: 'TICKRING_CALENDARS_TABLE',
  backfillsTable: 'TICKRING_BACKFILLS_TABLE',
  alertsTable: 'TICKRING_ALERTS_TABLE',

  ringFastQueueUrl: 'TICKRING_RING_FAST_QUEUE_URL',
  ringSlowQueueUrl: 'TICKRING_RING_SLOW_QUEUE_URL',

  alarmTopicArn: 'TICKRING_ALARM_TOPIC_ARN',
  /**
   * The dispatcher function's name (AWS): the functions that run the workflow engine hand a decided
   * node's fire to it with an asynchronous Invoke; unset, node fires go on the ring.
   */
  dispatcherFunction: 'TICKRING_DISPATCHER_FUNCTION',

  /** A token given directly (local mode) ... */
  adminToken: 'TICKRING_ADMIN_TOKEN',
  accessToken: 'TICKRING_ACCESS_TOKEN',
  /** ... or the ARN of the Secrets Manager secret holding it (AWS), read at cold start. */
  adminTokenSecretArn: 'TICKRING_ADMIN_TOKEN_SECRET_ARN',
  accessTokenSecretArn: 'TICKRING_ACCESS_TOKEN_SECRET_ARN',
  /** The key that seals groups' own access tokens (given directly, or as a secret ARN). */
  tokenKey: 'TICKRING_TOKEN_KEY',
  tokenKeySecretArn: 'TICKRING_TOKEN_KEY_SECRET_ARN',
  /**
   * api: the secret CloudFront sends as the `x-tickring-edge-secret` origin header on the console's
   * `/v1/*` (AWS only; unset locally, where no CloudFront stands in front and the viewer address
   * headers are never believed).
   */
  edgeSecretArn: 'TICKRING_EDGE_SECRET_ARN',

  shardCount: 'TICKRING_SHARD_COUNT',
  preReadCount: 'TICKRING_PRE_READ_COUNT',
  planAheadSeconds: 'TICKRING_PLAN_AHEAD_SECONDS',
  leaseMs: 'TICKRING_LEASE_MS',
  tickLoopSeconds: 'TICKRING_TICK_LOOP_SECONDS',
  executorTimeoutMs: 'TICKRING_EXECUTOR_TIMEOUT_MS',
  registryDeadSeconds: 'TICKRING_REGISTRY_DEAD_SECONDS',
  refusalWriteSeconds: 'TICKRING_REFUSAL_WRITE_SECONDS',
  lostRunSettleSeconds: 'TICKRING_LOST_RUN_SETTLE_SECONDS',
  workflowStalledSeconds: 'TICKRING_WORKFLOW_STALLED_SECONDS',
  logRetentionDays: 'TICKRING_LOG_RETENTION_DAYS',
  auditRetentionDays: 'TICKRING_AUDIT_RETENTION_DAYS',
  sessionIdleMinutes: 'TICKRING_SESSION_IDLE_MINUTES',
  sessionMaxHours: 'TICKRING_SESSION_MAX_HOURS',
  passwordHashCost: 'TICKRING_PASSWORD_HASH_COST',

  /** executor-runner: where results are reported (comma-separated admin base URLs). */
  adminAddresses: 'TICKRING_ADMIN_ADDRESSES',
  /** executor-runner: comma-separated URL prefixes `httpJobHandler` may call (none when unset). */
  httpAllowList: 'TICKRING_HTTP_ALLOW_LIST',
  /** executor-runner: milliseconds of Lambda time kept back to report the result. */
  reportMarginMs: 'TICKRING_REPORT_MARGIN_MS',

  logLevel: 'POWERTOOLS_LOG_LEVEL',
  serviceName: 'POWERTOOLS_SERVICE_NAME',
} as const;

export type EnvName = (typeof ENV)[keyof typeof ENV];
export type Env = Readonly<Record<string, string | undefined>>;

/** Thrown by `loadConfig` when a variable is missing or malformed; names the variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export function requireString(env: Env, name: string): string {
  const value = env[name];
  if (value === undefined || value.trim() === '') {
    throw new ConfigError(`Environment variable ${name} is required`);
  }
  return value;
}

export function optionalString(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value;
}

export function optionalInt(
  env: Env,
  name: string,
  defaultValue: number,
  min = Number.MIN_SAFE_INTEGER,
  max?: number,
): number {
  const raw = optionalString(env, name);
  if (raw === undefined) return defaultValue;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) {
    throw new ConfigError(`Environment variable ${name} must be an integer >= ${min}, got "${raw}"`);
  }
  if (max !== undefined && value > max) {
    throw new ConfigError(
      `Environment variable ${name} must be an integer from ${min} to ${max}, got "${raw}"`,
    );
  }
  return value;
}

/** A token is given directly or as a secret ARN; one of the two is required (tokens fail closed). */
export type TokenSource = { value: string } | { secretArn: string };

export function requireToken(env: Env, valueName: string, secretArnName: string): TokenSource {
  const value = optionalString(env, valueName);
  if (value !== undefined) return { value };
  const secretArn = optionalString(env, secretArnName);
  if (secretArn !== undefined) return { secretArn };
  throw new ConfigError(`Environment variable ${valueName} or ${secretArnName} is required`);
}
