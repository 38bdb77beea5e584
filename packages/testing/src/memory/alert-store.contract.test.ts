import { alertStoreContract } from '../contracts/alert-store.js';
import { MemoryAlertStore } from './alert-store.js';

alertStoreContract('memory', async () => new MemoryAlertStore());
