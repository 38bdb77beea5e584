export {
  AUDIT_ACTOR_KINDS,
  AUDIT_TARGET_KINDS,
  type AuditActor,
  type AuditChanges,
  type AuditEntry,
  type AuditRecord,
  type AuditSpec,
  type AuditTargetKind,
  isSecretName,
  REDACTED,
} from './audit.js';
export { AUDIT_DEFAULT_DAYS, type AuditLog, type AuditQuery, MAX_AUDIT_APP_NAMES } from './audit-log.js';
