/**
 * The few helpers the API's schemas are written with, on top of TypeBox.
 *
 * Why TypeBox (`@sinclair/typebox`): a TypeBox schema *is* a JSON Schema object (OpenAPI 3.1 takes
 * JSON Schema 2020-12 as it is, so the document is built from the same objects the validator
 * checks), `Static<typeof S>` gives the TypeScript type of the same definition, and
 * `Value.Errors` walks a value and yields every problem with its path, not just the first, which is
 * what a 400 listing all the problems of a request needs. It has no dependencies and does not
 * generate code at run time (no `eval`), so a cold start only builds plain objects.
 */
import {
  FormatRegistry,
  Kind,
  type SchemaOptions,
  type Static,
  type TObject,
  type TOptional,
  type TSchema,
  type TUnsafe,
  Type,
  TypeRegistry,
} from '@sinclair/typebox';

/**
 * What a schema expects, in words, for the validator's messages ("appName must be <this>; got
 * ..."). A symbol key: it is never written into the OpenAPI document.
 */
export const Expect: unique symbol = Symbol.for('tickring.schema.expect');
/** The noun of an object's fields in "unknown field" messages ("the job fields are ..."). */
export const Noun: unique symbol = Symbol.for('tickring.schema.noun');

/**
 * Checks of an object's fields taken together (endAt after startAt), run by the validator beside the
 * schema's own, so a 400 lists them with every other problem. A symbol key: never in the document.
 */
export const Refine: unique symbol = Symbol.for('tickring.schema.refine');

export interface Annotations {
  readonly [Expect]?: string;
  readonly [Noun]?: string;
  readonly [Refine]?: (
    value: Readonly<Record<string, unknown>>,
  ) => readonly { field?: string; message: string }[];
}

/** Sets the validator's annotations on a schema (in place) and returns it. */
export function annotate<T extends TSchema>(schema: T, annotations: Annotations): T {
  Object.assign(schema, annotations);
  return schema;
}

// A string enum as JSON Schema writes it (`{"type": "string", "enum": [...]}`), which OpenAPI tools
// show as a list of values (TypeBox's own Union of Literals would be an anyOf of consts).
TypeRegistry.Set<{ enum: readonly string[] }>(
  'StringEnum',
  (schema, value) => typeof value === 'string' && schema.enum.includes(value),
);

export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: SchemaOptions = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ ...options, [Kind]: 'StringEnum', type: 'string', enum: [...values] });
}

/** ISO-8601 with a zone (Z or an offset): what the API takes for an instant. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;
FormatRegistry.Set('date-time', (value) => ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value)));
FormatRegistry.Set('date', (value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)));

/** The words the validator uses for a string format. */
export const FORMAT_EXPECT: Readonly<Record<string, string>> = {
  'date-time': 'an ISO-8601 date-time such as 2030-01-01T00:00:00Z',
  date: 'a date such as 2030-01-01',
};

/** An optional parameter that the validator sets to `value` when it is absent. */
export type TDefaulted<T extends TSchema> = TOptional<T> & { readonly default: Static<T> };

export function defaulted<T extends TSchema>(schema: T, value: Static<T>): TDefaulted<T> {
  return Type.Optional({ ...schema, default: value } as T) as TDefaulted<T>;
}

type DefaultedKeys<P> = { [K in keyof P]: P[K] extends { readonly default: unknown } ? K : never }[keyof P];

/** A query's type once checked: parameters with a default are always there. */
export type StaticQuery<S extends TObject> = Static<S> & {
  readonly [K in DefaultedKeys<S['properties']> & keyof Static<S>]-?: Exclude<Static<S>[K], undefined>;
};

/** Names a schema as a component of the document (`#/components/schemas/<name>`). */
export function named<T extends TSchema>(name: string, schema: T): T {
  return Object.assign(schema, { $id: name });
}
