/**
 * The admin API's shapes, by resource (`schemas-<resource>.ts`): request bodies, parameters and
 * answers, each field with its description and examples. Limits and value lists come from the
 * domain's constants (JOB_LIMITS, GROUP_LIMITS, the enum arrays), so a structural rule and the
 * domain's rule are one definition. Checks that need more than the shape (a cron that parses, a time
 * zone that exists, a group that exists, e-mail and URL formats, child cycles) stay in the domain and
 * come back as 400s with one problem.
 *
 * This file holds the pieces the resources share: instants, cursors and page sizes, and the helpers
 * of request bodies that take back what an answer showed.
 */
import { type TOptional, type TProperties, type TSchema, Type } from '@sinclair/typebox';
import { defaulted } from './kit.js';

/** What an executor address may be, in the descriptions of address fields. */
export const ADDRESS_WORDS = 'http(s) URLs or lambda:<function>';

export const Instant = (description: string, example = '2030-01-01T02:00:00.000Z') =>
  Type.String({ format: 'date-time', description, examples: [example] });
export const InstantOrNull = (description: string, example = '2030-01-01T02:00:00.000Z') =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description, examples: [example, null] });

export const Cursor = Type.String({
  description: 'Where the next page starts: the `nextCursor` of the previous page, as it was given.',
  examples: ['eyJpZCI6NDJ9'],
});
export const NextCursor = Type.Union([Type.String(), Type.Null()], {
  description:
    'Pass it as `cursor` for the next page; null at the end. A page may come back short (even empty) with a cursor.',
  examples: ['eyJpZCI6NDJ9', null],
});

/** Page sizes of the list routes. */
export const PAGE_LIMIT = { min: 1, max: 100, default: 20 } as const;
export const Limit = defaulted(
  Type.Integer({
    minimum: PAGE_LIMIT.min,
    maximum: PAGE_LIMIT.max,
    description: 'Most items on one page.',
    examples: [20],
  }),
  PAGE_LIMIT.default,
);

/** A time field's description: what it is, and that it is ISO-8601 UTC. */
export const iso = (field: string) => `${field}, ISO-8601 UTC.`;

/** A read-only field of an answer that a request body may carry back: ignored. */
export function readOnlyEcho(example: unknown = '2030-01-01T02:00:00.000Z'): TSchema {
  return Type.Unknown({
    readOnly: true,
    description: 'Read-only: shown in answers; a body may carry it (as read) and it is ignored.',
    examples: [example],
  });
}

/** Each property optional (with a default, for the document, where one is given). */
export function optional<P extends TProperties>(
  properties: P,
  defaults: { readonly [K in keyof P]?: unknown } = {},
): { [K in keyof P]: TOptional<P[K]> } {
  const out: Record<string, TSchema> = {};
  for (const [key, schema] of Object.entries(properties)) {
    const value = defaults[key as keyof P];
    out[key] = Type.Optional(value === undefined ? schema : { ...schema, default: value });
  }
  return out as { [K in keyof P]: TOptional<P[K]> };
}

/** The document itself (`GET /v1/openapi.json`). */
export const OpenApiDocumentSchema = Type.Object(
  {
    openapi: Type.String({ description: 'The OpenAPI version.', examples: ['3.1.0'] }),
  },
  { description: 'This OpenAPI 3.1 document.' },
);
