import { auditLogContract } from '../contracts/audit-log.js';
import { MemoryAuditLog } from './audit-log.js';

auditLogContract('memory', async ({ clock, retentionDays }) => new MemoryAuditLog({ clock, retentionDays }));
