export { type AuditChange, type AuditDeps, listAudit, recordChange } from './record-change.js';
