import { reportStoreContract } from '../contracts/report-store.js';
import { MemoryReportStore } from './report-store.js';

reportStoreContract('memory', async () => new MemoryReportStore());
