import { jobStoreContract } from '../contracts/job-store.js';
import { MemoryJobStore } from './job-store.js';

jobStoreContract('memory', async ({ shardCount }) => new MemoryJobStore({ shardCount }));
