export { SqsRingQueue } from './ring-queue.js';
