import { API } from '@tickring/api/contract';
import { ok } from '@tickring/api/http';
import type { AuditRecord } from '@tickring/core/audit';
import { type AuditDeps, listAudit } from '@tickring/core/audit/use-cases';
import type { GuardedRouter } from './authorize.js';
import { iso } from './views.js';

/** An ISO-8601 instant (checked by the route's schema) as epoch ms. */
const epochMs = (iso: string | undefined) => (iso === undefined ? undefined : Date.parse(iso));

/**
 * `GET /v1/audit`: open to every signed-in role, each caller seeing the records it may (an admin:
 * all; anyone else: those of its groups).
 */
export function addAuditRoutes(r: GuardedRouter, deps: AuditDeps): void {
  r.route(API.listAudit, async ({ query }, caller) => {
    const page = await listAudit(
      deps,
      { ...query, from: epochMs(query.from), to: epochMs(query.to) },
      caller.visible,
      caller.principal?.grant.role === 'admin',
    );
    return ok({ items: page.items.map(auditRecordView), nextCursor: page.nextCursor ?? null });
  });
}

/** A record as the API shows it: its time as ISO-8601 UTC, absent values as null. */
export function auditRecordView(record: AuditRecord) {
  return {
    id: record.id,
    at: iso(record.at),
    actor: {
      kind: record.actor.kind,
      id: record.actor.id,
      name: record.actor.name,
      credentialId: record.actor.credentialId ?? null,
    },
    source: { ip: record.source.ip, userAgent: record.source.userAgent },
    action: record.action,
    target: record.target,
    appName: record.appName ?? null,
    changes: record.changes,
    detail: record.detail ?? null,
    requestId: record.requestId,
  };
}
