import { auditLogContract } from '@tickring/testing';
import { afterAll } from 'vitest';
import { SqliteAuditLog } from './audit-log.js';
import { tempDatabases } from './temp-databases.js';

const databases = tempDatabases('audit-contract');
afterAll(() => databases.removeAll());

auditLogContract(
  'SQLite',
  async ({ clock, retentionDays }) =>
    new SqliteAuditLog({ database: databases.fresh(), retentionDays, clock }),
);
