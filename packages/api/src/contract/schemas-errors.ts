/** The error answers of the admin API: every one, and the 400 that lists a request's problems. */
import { type Static, Type } from '@sinclair/typebox';
import { named, StringEnum } from './kit.js';

export const Problem = named(
  'Problem',
  Type.Object(
    {
      field: Type.Optional(
        Type.String({
          description:
            'The path or query parameter, or the top-level body field, the problem is about (`body` for the body as a whole).',
          examples: ['scheduleType'],
        }),
      ),
      message: Type.String({
        description: 'What is wrong: names the field, what is expected and what was given.',
        examples: ['scheduleType must be one of NONE, CRON, FIX_RATE, ONCE; got "HOURLY"'],
      }),
    },
    { additionalProperties: false, description: 'One problem of a request.' },
  ),
);

export const ErrorBody = named(
  'Error',
  Type.Object(
    {
      error: Type.String({
        description:
          'The kind of error: ValidationError (400), UnauthorizedError (401), ForbiddenError (403), NotFoundError (404), MethodNotAllowedError (405), ConflictError (409), TooManyRequestsError (429, with Retry-After), ExecutorCallError (502), InternalError (500), StoreUnavailableError (503, with Retry-After: the single-box database cannot take writes), ServiceUnavailable (503 while the stack starts or stops).',
        examples: ['NotFoundError'],
      }),
      message: Type.String({
        description: 'What is wrong, for a person.',
        examples: ['job 7 does not exist'],
      }),
      field: Type.Optional(
        Type.String({ description: 'ValidationError: the first problem’s field.', examples: ['limit'] }),
      ),
      problems: Type.Optional(
        Type.Array(Problem, { description: 'ValidationError: every problem found.', examples: [] }),
      ),
    },
    { additionalProperties: false, description: 'Every error answer of the admin API.' },
  ),
);

export const ValidationErrorBody = named(
  'ValidationError',
  Type.Object(
    {
      error: StringEnum(['ValidationError'], {
        description: 'Always ValidationError.',
        examples: ['ValidationError'],
      }),
      message: Type.String({
        description: 'Every problem’s message, joined by "; ".',
        examples: [
          'limit must be an integer between 1 and 100; got "ten"; status must be one of running, success, fail, skipped; got "done"',
        ],
      }),
      field: Type.Optional(Type.String({ description: 'The first problem’s field.', examples: ['limit'] })),
      problems: Type.Array(Problem, {
        description:
          'Every problem found: all structural ones (types, required fields, value lists, lengths, unknown fields) of the path, query and body together; or the one a later check (a cron that does not parse, a group that does not exist, ...) found.',
        examples: [[{ field: 'limit', message: 'limit must be an integer between 1 and 100; got "ten"' }]],
      }),
    },
    { additionalProperties: false, description: 'A request that is not valid (400).' },
  ),
);

export type ErrorView = Static<typeof ErrorBody>;
