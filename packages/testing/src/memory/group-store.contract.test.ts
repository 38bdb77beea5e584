import { groupStoreContract } from '../contracts/group-store.js';
import { MemoryGroupStore } from './group-store.js';

groupStoreContract('memory', async () => new MemoryGroupStore());
