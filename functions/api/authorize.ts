import type { HttpResult, RouteContract, Router, ValidRequest } from '@tickring/api/http';
import { type AuditSpec, type AuditTargetKind, isSecretName, REDACTED } from '@tickring/core/audit';
import type { AuditChange } from '@tickring/core/audit/use-cases';
import type { Logger } from '@tickring/core/common';
import { type ALL_GROUPS, type Principal, type RouteAccess, visibleGroups } from '@tickring/core/identity';
import { type AuthorizeDeps, authorize, type Subject } from '@tickring/core/identity/use-cases';
import type { WorkflowRecord, WorkflowRunRecord } from '@tickring/core/workflows';
import { jobView, runView } from './views.js';

/** Who is calling, from where, and which groups a list shows them. */
export interface Caller {
  /** Undefined only on a public route. */
  readonly principal: Principal | undefined;
  readonly source: { readonly ip: string; readonly userAgent: string };
  /** The groups lists show the caller: every group, or these (none on a public route). */
  readonly visible: ReadonlySet<string> | typeof ALL_GROUPS;
}

/** Reads a target's API view for the audit's "before" (users, tokens, groups: what the subject is not). */
export type BeforeLoader = (id: string) => Promise<unknown>;

export interface GuardDeps extends AuthorizeDeps {
  /** Writes one audit record; must not throw (a failure is logged and counted where it happens). */
  readonly recordChange: (change: AuditChange) => Promise<void>;
  readonly loadBefore: Partial<Record<AuditTargetKind, BeforeLoader>>;
  /**
   * The API views of a workflow and a workflow run the authorisation step read, for the audit's
   * "before" (a workflow's view reads its starter job's next fire; a run's, its definition).
   */
  readonly describe: {
    readonly workflow: (workflow: WorkflowRecord) => Promise<unknown>;
    readonly workflowRun: (run: WorkflowRunRecord) => Promise<unknown>;
  };
  readonly logger: Logger;
}

type GuardedSpec<P, Q, B> = RouteContract<P, Q, B> & {
  readonly operationId: string;
  readonly access: RouteAccess;
  readonly audit?: AuditSpec;
};

/**
 * The router of the admin API with its one authorisation step: every route is added with its
 * spec, whose `access` is checked before the handler runs (`authorize`: 401/403/404), and whose
 * `audit` makes an accepted answer (2xx) one audit record. Handlers get the caller.
 */
export class GuardedRouter {
  constructor(
    private readonly router: Router,
    private readonly deps: GuardDeps,
  ) {}

  route<P, Q, B>(
    spec: GuardedSpec<P, Q, B>,
    handler: (req: ValidRequest<P, Q, B>, caller: Caller) => Promise<HttpResult> | HttpResult,
  ): this {
    this.router.route(spec, async (req) => {
      const principal = req.auth as Principal | undefined;
      const caller: Caller = {
        principal,
        source: { ip: req.clientIp, userAgent: req.headers['user-agent'] ?? '' },
        visible: principal === undefined ? new Set() : visibleGroups(principal.grant),
      };
      const subject = await authorize(this.deps, spec.access, principal, {
        params: req.params as Record<string, unknown>,
        body: req.body,
      });
      const before =
        spec.audit && principal ? await this.before(spec.audit, subject, req.params, principal) : undefined;
      const result = await handler(req, caller);
      if (spec.audit && principal && result.status >= 200 && result.status < 300) {
        await this.deps.recordChange(
          change(spec.audit, {
            principal,
            caller,
            subject,
            before,
            params: req.params,
            body: req.body,
            result,
            requestId: req.requestId,
          }),
        );
      }
      return result;
    });
    return this;
  }

  /** The target as it was, unless the request creates it. */
  private async before(
    audit: AuditSpec,
    subject: Subject,
    params: unknown,
    principal: Principal,
  ): Promise<unknown> {
    if (audit.idFrom === 'result') return null;
    if (subject.kind === 'job') return jobView(subject.job);
    if (subject.kind === 'run') return runView(subject.run);
    if (subject.kind === 'workflow') return this.deps.describe.workflow(subject.workflow).catch(() => null);
    if (subject.kind === 'workflowRun') {
      return this.deps.describe.workflowRun(subject.workflowRun).catch(() => null);
    }
    const load = this.deps.loadBefore[audit.target];
    const id = audit.idFrom === 'caller' ? principal.id : targetId(audit.target, params);
    return load && id !== undefined ? load(id).catch(() => null) : null;
  }
}

/** The path parameter (and answer field) that names each kind of target. */
const ID_FIELD: Readonly<Record<AuditTargetKind, string | undefined>> = {
  group: 'appName',
  job: 'id',
  run: 'logId',
  workflow: 'id',
  workflowRun: 'runId',
  calendar: 'id',
  backfill: 'id',
  alertChannel: 'id',
  alertSilence: 'id',
  user: 'username',
  token: 'id',
  bootstrap: undefined,
};

function targetId(kind: AuditTargetKind, source: unknown): string | undefined {
  const field = ID_FIELD[kind];
  if (field === undefined) return undefined;
  const value =
    typeof source === 'object' && source !== null ? (source as Record<string, unknown>)[field] : undefined;
  return value === undefined || value === null ? undefined : String(value);
}

function change(
  audit: AuditSpec,
  input: {
    principal: Principal;
    caller: Caller;
    subject: Subject;
    before: unknown;
    params: unknown;
    body: unknown;
    result: HttpResult;
    requestId: string;
  },
): AuditChange {
  const { subject, result } = input;
  const id =
    audit.idFrom === 'caller'
      ? input.principal.id
      : targetId(audit.target, audit.idFrom === 'result' ? result.body : input.params);
  const isEvent = result.status === 202 || audit.target === 'bootstrap';
  const appName = appNameOf(subject) ?? (audit.target === 'group' ? id : undefined);
  return {
    principal: input.principal,
    source: input.caller.source,
    action: audit.action,
    target: id === undefined ? audit.target : `${audit.target}#${id}`,
    ...(appName === undefined ? {} : { appName }),
    before: isEvent ? null : input.before,
    after: isEvent || result.status === 204 ? null : withSecretsSet(result.body ?? null, input.body),
    ...(isEvent ? { detail: { request: input.body ?? null, result: result.body ?? null } } : {}),
    requestId: input.requestId,
  };
}

/** The executor group of what the request is about, when it has one. */
function appNameOf(subject: Subject): string | undefined {
  switch (subject.kind) {
    case 'job':
      return subject.job.appName;
    case 'run':
      return subject.run.appName;
    case 'group':
      return subject.appName;
    case 'workflow':
      return subject.workflow.definition.appName;
    case 'workflowRun':
      return subject.workflowRun.appName;
    case 'none':
      return undefined;
  }
}

/**
 * The answer, marked with each secret the request set (a password, a token): the API never shows
 * them, yet the audit log must say they changed (the recorder redacts the value).
 */
function withSecretsSet(after: unknown, body: unknown): unknown {
  if (typeof after !== 'object' || after === null || typeof body !== 'object' || body === null) return after;
  const set = Object.entries(body as Record<string, unknown>).filter(
    ([name, value]) =>
      isSecretName(name) &&
      !name.toLowerCase().startsWith('current') &&
      value !== null &&
      value !== undefined,
  );
  return set.length === 0
    ? after
    : { ...after, ...Object.fromEntries(set.map(([name]) => [name, REDACTED])) };
}
