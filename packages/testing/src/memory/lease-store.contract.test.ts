import { leaseStoreContract } from '../contracts/lease-store.js';
import { MemoryLeaseStore } from './lease-store.js';

leaseStoreContract('memory', async () => new MemoryLeaseStore());
