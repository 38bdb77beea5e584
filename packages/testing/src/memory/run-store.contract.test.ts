import { runStoreContract } from '../contracts/run-store.js';
import { MemoryRunStore } from './run-store.js';

// Nothing per instance: another function instance is the same store.
runStoreContract('in memory', async () => {
  const store = new MemoryRunStore();
  return { store, peer: () => store };
});
