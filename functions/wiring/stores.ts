import type { TableName } from '@tickring/aws/topology';
import type { StoreConfig } from './store-config.js';
import type { StoreKit, StoreRuntime } from './store-kit.js';
import { dynamoStoreKit } from './stores-dynamodb.js';
import { sqliteStoreKit } from './stores-sqlite.js';

export type { StoreKit, StoreRuntime } from './store-kit.js';

/** The one place that chooses the technology of a function's stores, from its configuration. */
export function createStoreKit<T extends TableName>(store: StoreConfig<T>, runtime: StoreRuntime): StoreKit {
  return store.kind === 'sqlite' ? sqliteStoreKit(store, runtime) : dynamoStoreKit(store, runtime);
}
