import { backfillStoreContract } from '../contracts/backfill-store.js';
import { MemoryBackfillStore } from './backfill-store.js';

backfillStoreContract('memory', async () => new MemoryBackfillStore());
