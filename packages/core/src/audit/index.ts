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
export {
  AUDIT_ID_PATTERN,
  AUDIT_ID_RANDOM_CHARS,
  auditId,
  auditIdRange,
  timeOfAuditId,
} from './audit-ids.js';
export {
  AUDIT_DEFAULT_DAYS,
  type AuditLog,
  type AuditQuery,
  auditTimeRange,
  checkAuditAppNames,
  checkAuditRange,
  invalidAuditCursor,
  lastIdOfAuditCursor,
  MAX_AUDIT_APP_NAMES,
} from './audit-log.js';
