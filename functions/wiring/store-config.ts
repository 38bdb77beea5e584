import type { TableName } from '@tickring/aws/topology';
import { ConfigError, ENV, type Env, optionalString, requireString } from '@tickring/core/config';

/** The technologies a function's stores can run on (`TICKRING_STORE`). */
export const STORE_KINDS = ['dynamodb', 'sqlite'] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

/** What AWS runs: DynamoDB tables, the SQS ring queues and (for a function that alarms) the SNS topic. */
export interface DynamoStoreConfig<T extends TableName = TableName> {
  readonly kind: 'dynamodb';
  /** Physical names of the tables this function uses. */
  readonly tables: Readonly<Record<T, string>>;
  readonly queueUrls: { readonly fast: string; readonly slow: string };
  /** The alarm topic; absent for a function that raises no alarm (the tick). */
  readonly alarmTopicArn?: string;
}

/** The embedded engine: every store and the ring in one SQLite file. */
export interface SqliteStoreConfig {
  readonly kind: 'sqlite';
  readonly file: string;
}

export type StoreConfig<T extends TableName = TableName> = DynamoStoreConfig<T> | SqliteStoreConfig;

/**
 * Reads the store choice once per cold start: `TICKRING_STORE` unset or `dynamodb` (AWS) reads what
 * `dynamo` reads (each function's config names its tables, the ring queues and the alarm topic
 * there, so what it reads stays visible in its own config); `sqlite` needs only
 * `TICKRING_SQLITE_FILE`, and none of those is read then.
 */
export function loadStoreConfig<T extends TableName>(
  env: Env,
  dynamo: () => Omit<DynamoStoreConfig<T>, 'kind'>,
): StoreConfig<T> {
  const kind = optionalString(env, ENV.store) ?? 'dynamodb';
  if (kind === 'sqlite') return { kind, file: requireString(env, ENV.sqliteFile) };
  if (kind !== 'dynamodb') {
    throw new ConfigError(
      `Environment variable ${ENV.store} must be one of ${STORE_KINDS.join(', ')}, got "${kind}"`,
    );
  }
  return { kind, ...dynamo() };
}
