/** The audit log's shapes: the list query and the records it answers. */
import { Type } from '@sinclair/typebox';
import { AUDIT_ACTOR_KINDS, AUDIT_TARGET_KINDS, REDACTED } from '@tickring/core/audit';
import { annotate, Expect, named, StringEnum } from './kit.js';
import { Cursor, Instant, Limit, NextCursor } from './schemas-common.js';

const TARGET_KINDS_WITH_ID = AUDIT_TARGET_KINDS.filter((kind) => kind !== 'bootstrap');
/** `job#7`, `group#my-app`, ..., `bootstrap`: what `auditTarget` makes. */
export const AUDIT_TARGET_PATTERN = `^((${TARGET_KINDS_WITH_ID.join('|')})#.+|bootstrap(#.+)?)$`;
/** `job.update`, or a prefix ending in `*` (`job.*`). */
export const AUDIT_ACTION_PATTERN = '^[A-Za-z][A-Za-z0-9._-]*\\*?$';

const TARGET_WORDS =
  '`job#7`, `group#my-app`, `user#ana`, `token#<id>`, `run#<logId>`, `workflow#3`, `workflowRun#<runId>` or `bootstrap`';

export const AuditListQuery = Type.Object({
  target: Type.Optional(
    annotate(
      Type.String({
        pattern: AUDIT_TARGET_PATTERN,
        maxLength: 300,
        description: `Only the records of this target: ${TARGET_WORDS}. Read from the target's own index.`,
        examples: ['job#7'],
      }),
      { [Expect]: `a target such as ${TARGET_WORDS}` },
    ),
  ),
  actor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'Only the changes of this principal: a username, `token:<name>` or `bootstrap` (the name records show), or a token’s id.',
      examples: ['ana'],
    }),
  ),
  action: Type.Optional(
    annotate(
      Type.String({
        pattern: AUDIT_ACTION_PATTERN,
        maxLength: 100,
        description: 'Only this action (`job.update`), or, ending in `*`, every action it begins (`job.*`).',
        examples: ['job.update', 'job.*'],
      }),
      { [Expect]: 'an action such as job.update, or a prefix ending in * such as job.*' },
    ),
  ),
  appName: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'Only the records of this executor group (a group outside the caller’s grant lists nothing).',
      examples: ['my-app'],
    }),
  ),
  from: Type.Optional(
    Type.String({
      format: 'date-time',
      description:
        'Changes at or after this instant (ISO-8601 with Z or an offset). Default: 30 days before `to`; records older than the audit retention (365 days by default) are gone.',
      examples: ['2030-01-01T00:00:00Z'],
    }),
  ),
  to: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'Changes at or before this instant; not before from. Default: now.',
      examples: ['2030-01-02T00:00:00Z'],
    }),
  ),
  limit: Limit,
  cursor: Type.Optional(Cursor),
});

const FieldChange = Type.Object(
  {
    before: Type.Optional(
      Type.Unknown({
        description: 'The field’s value before; absent when the field was not there (a creation).',
        examples: ['region=eu'],
      }),
    ),
    after: Type.Optional(
      Type.Unknown({
        description: 'The field’s value after; absent when it is gone (a deletion).',
        examples: ['region=us'],
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'One changed field.',
    examples: [{ before: 'region=eu', after: 'region=us' }],
  },
);

export const AuditRecordView = named(
  'AuditRecord',
  Type.Object(
    {
      id: Type.String({
        pattern: '^[0-9A-HJKMNP-TV-Z]{26}$',
        description:
          'The record’s id, a ULID: unique, and ordered by time (records of the same millisecond each have their own).',
        examples: ['01Q3DK7480BK2SRJDHQG4QM1HT'],
      }),
      at: Instant('When the change was accepted (ISO-8601 UTC).'),
      actor: Type.Object(
        {
          kind: StringEnum(AUDIT_ACTOR_KINDS, {
            description:
              'session: a signed-in user; token: an API token; bootstrap: the deployment’s admin token; anonymous: none.',
            examples: ['session'],
          }),
          id: Type.String({
            description: 'The username, the token’s id, or `bootstrap`.',
            examples: ['ana'],
          }),
          name: Type.String({
            description: 'The username, `token:<name>`, or `bootstrap`.',
            examples: ['ana'],
          }),
          credentialId: Type.Union([Type.String(), Type.Null()], {
            description: 'The session’s or token’s id; null for the bootstrap token.',
            examples: ['3f9c1d2e-6b8a-4c57-9e0d-1a2b3c4d5e6f', null],
          }),
        },
        {
          additionalProperties: false,
          description: 'Who made the change, as they were then.',
          examples: [{ kind: 'session', id: 'ana', name: 'ana', credentialId: null }],
        },
      ),
      source: Type.Object(
        {
          ip: Type.String({ description: 'The caller’s address.', examples: ['203.0.113.7'] }),
          userAgent: Type.String({
            description: 'The caller’s User-Agent (its first 512 characters).',
            examples: ['tickring-cli/0.1.0'],
          }),
        },
        {
          additionalProperties: false,
          description: 'Where the change came from.',
          examples: [{ ip: '203.0.113.7', userAgent: 'tickring-cli/0.1.0' }],
        },
      ),
      action: Type.String({ description: 'What was done.', examples: ['job.update'] }),
      target: Type.String({ description: `What it was done to: ${TARGET_WORDS}.`, examples: ['job#7'] }),
      appName: Type.Union([Type.String(), Type.Null()], {
        description:
          'The target’s executor group; null for users, tokens and the bootstrap (only admins see those).',
        examples: ['my-app', null],
      }),
      changes: Type.Object(
        {},
        {
          additionalProperties: FieldChange,
          description: `The changed fields only, by name, each with its value before and after (all of them for a creation or a deletion; none when nothing changed, e.g. a job started while running). Secrets (passwords, tokens, their hashes) read "${REDACTED}", at any depth.`,
          examples: [{ executorParam: { before: 'region=eu', after: 'region=us' } }],
        },
      ),
      detail: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], {
        description:
          'What the change took besides the target’s fields: a trigger’s overrides and the runs it made, a kill’s executor answer; null when nothing. Secrets redacted.',
        examples: [{ executorParam: 'date=2030-01-01', logIds: [30064771073] }, null],
      }),
      requestId: Type.String({
        description: 'The API request that made the change (its x-request-id / API Gateway request id).',
        examples: ['Jk2Vb0abCwEEMfQ='],
      }),
    },
    {
      additionalProperties: false,
      description: 'One accepted change through the admin API.',
    },
  ),
);

export const AuditPage = named(
  'AuditPage',
  Type.Object(
    {
      items: Type.Array(AuditRecordView, { description: 'Records, newest first.', examples: [] }),
      nextCursor: NextCursor,
    },
    { additionalProperties: false, description: 'A page of audit records.' },
  ),
);
