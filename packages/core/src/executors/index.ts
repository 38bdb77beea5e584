export type { ExecutorTarget, ExecutorTransport } from './executor-transport.js';
export type { RegistryEntry, RegistryStore } from './registry-store.js';
export { AesGcmSecretSealer } from './secret-sealer.js';
