export type { AdmissionHandover } from './admission.js';
export type { Lease, LeaseStore } from './lease-store.js';
