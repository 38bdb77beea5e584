export type { Lease, LeaseStore } from './lease-store.js';
