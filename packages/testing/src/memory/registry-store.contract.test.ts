import { registryStoreContract } from '../contracts/registry-store.js';
import { MemoryRegistryStore } from './registry-store.js';

registryStoreContract(
  'memory',
  async ({ expireAfterSeconds }) => new MemoryRegistryStore({ expireAfterSeconds }),
);
