// Entry of the executors' worker thread: it runs TypeScript as the bench does (tsx), then the script.
import { register } from 'tsx/esm/api';

register();
await import('./fleet-worker.ts');
