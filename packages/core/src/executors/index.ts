export type { ExecutorTarget, ExecutorTransport } from './executor-transport.js';
export {
  byLastSeen,
  DEFAULT_REFUSAL_EXPIRE_AFTER_SECONDS,
  REFUSAL_HINTS,
  REFUSAL_REASONS,
  type RefusalKey,
  type RefusalReason,
  type RefusedRegistration,
  type RefusedRequest,
  type RegistrationRefusalStore,
} from './registration-refusals.js';
export type { RegistryEntry, RegistryStore } from './registry-store.js';
export { AesGcmSecretSealer } from './secret-sealer.js';
