/**
 * Request validation from the route table's schemas: path parameters, query and body are checked
 * together and every problem is reported at once, each naming its field, what is expected and what
 * was given (in the words of the domain's own messages).
 */
import { Kind, type TObject, type TSchema } from '@sinclair/typebox';
import { Value, type ValueError, ValueErrorType } from '@sinclair/typebox/value';
import type { HttpRequest, RoutedRequest } from '../http/request.js';
import { type Problem, RequestValidationError, type ValidInput } from '../http/validation.js';
import { type Annotations, Expect, FORMAT_EXPECT, Noun, Refine } from './kit.js';

/** Where a value came from: the path, the query string or the JSON body. */
export type Source = 'path' | 'query' | 'body';

export interface RequestSchemas {
  readonly params?: TObject;
  readonly query?: TObject;
  readonly body?: {
    readonly schema: TSchema;
    /** false: no body (or `null`) is fine and passed on as it is. */
    readonly required: boolean;
    /** `use-case`: the body is passed on unchecked; the use-case checks it (every problem at once). */
    readonly checkedBy?: 'router' | 'use-case';
  };
}

/**
 * The checker of one route's request: parameters and query arrive as strings (a whole number is
 * read as one, an empty query value is absent, a missing query value with a default gets it); the
 * body is checked as parsed, unless its use-case checks it (`checkedBy: 'use-case'`). Throws a
 * RequestValidationError listing every problem.
 */
export function requestValidator<Params, Query, Body>(
  schemas: RequestSchemas,
): (req: RoutedRequest) => ValidInput<Params, Query, Body> {
  return (req) => {
    const problems: Problem[] = [];
    const params = schemas.params ? readStrings(schemas.params, req.params, 'path', problems) : req.params;
    const query = schemas.query ? readStrings(schemas.query, req.query, 'query', problems) : req.query;
    const body = req.body;
    const { body: bodySpec } = schemas;
    if (
      bodySpec &&
      bodySpec.checkedBy !== 'use-case' &&
      (bodySpec.required || (body !== undefined && body !== null))
    ) {
      problems.push(...problemsOf(bodySpec.schema, body, 'body'));
    }
    const [first, ...rest] = problems;
    if (first) throw new RequestValidationError([first, ...rest]);
    return { params, query, body } as ValidInput<Params, Query, Body>;
  };
}

/** Path or query parameters: read as their schema's types, defaults filled, then checked. */
function readStrings(
  schema: TObject,
  raw: HttpRequest['query'],
  source: 'path' | 'query',
  problems: Problem[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    const text = raw[name];
    if (text === undefined || (source === 'query' && text === '')) {
      if (property.default !== undefined) out[name] = property.default;
      continue;
    }
    out[name] = property.type === 'integer' && /^-?\d+$/.test(text) ? Number(text) : text;
  }
  problems.push(...problemsOf(schema, out, source));
  return out;
}

/** Every problem of `value` against `schema`, as `{field, message}`, duplicates dropped. */
export function problemsOf(schema: TSchema, value: unknown, source: Source): Problem[] {
  const found = [...missingAlternatives(schema, value)];
  for (const error of Value.Errors(schema, value)) {
    // A missing property is reported as required; TypeBox also checks its (absent) value.
    if (
      error.value === undefined &&
      error.path !== '' &&
      error.type !== ValueErrorType.ObjectRequiredProperty
    ) {
      continue;
    }
    found.push(...describeError(error, source));
  }
  const refine = (schema as Schema)[Refine];
  if (refine && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    found.push(...refine(value as Record<string, unknown>));
  }
  const seen = new Set<string>();
  return found.filter((p) => {
    const key = `${p.field}\u0000${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

type Schema = TSchema & Annotations & Record<string, unknown>;

function describeError(error: ValueError, source: Source): Problem[] {
  const schema = error.schema as Schema;
  const path = segmentsOf(error.path);
  const name = nameOf(path, source);
  const field = path[0] ?? 'body';
  const got = `; got ${show(error.value)}`;
  const expected = schema[Expect];
  const problem = (message: string): Problem[] => [{ field, message }];
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return problem(`${name} is required`);
    case ValueErrorType.ObjectAdditionalProperties: {
      const key = path.at(-1) ?? '';
      const fields = Object.entries((schema as unknown as TObject).properties)
        .filter(([, property]) => property.readOnly !== true)
        .map(([key]) => key);
      const noun = schema[Noun] ? `the ${schema[Noun]} fields are` : 'the fields are';
      return problem(`unknown field "${key}"; ${noun} ${fields.join(', ')}`);
    }
    case ValueErrorType.Union: {
      // The variant of the value's JSON type, if one, says best what is wrong (an array's items).
      const variants = (schema.anyOf ?? []) as Schema[];
      const index = onlyVariantOfType(variants, error.value);
      const inner = index === undefined ? undefined : error.errors[index];
      if (inner) return [...inner].flatMap((e) => describeError(e, source));
      return problem(`${name} must be ${expected ?? variants.map(describeSchema).join(' or ')}${got}`);
    }
    case ValueErrorType.Kind:
      if (schema[Kind] === 'StringEnum') {
        return problem(`${name} must be one of ${(schema.enum as string[]).join(', ')}${got}`);
      }
      return problem(`${name} must be ${expected ?? 'valid'}${got}`);
    case ValueErrorType.Object:
      return problem(`${name} must be ${expected ?? 'a JSON object'}${got}`);
    case ValueErrorType.String:
    case ValueErrorType.StringMinLength:
    case ValueErrorType.StringPattern:
    case ValueErrorType.StringFormat: {
      const format = typeof schema.format === 'string' ? FORMAT_EXPECT[schema.format] : undefined;
      if (expected ?? format) return problem(`${name} must be ${expected ?? format}${got}`);
      if (error.type === ValueErrorType.StringMinLength) {
        return problem(`${name} must be at least ${schema.minLength} characters${got}`);
      }
      if (error.type === ValueErrorType.StringPattern) {
        return problem(`${name} must match /${schema.pattern}/${got}`);
      }
      return problem(`${name} must be a string${got}`);
    }
    case ValueErrorType.StringMaxLength:
      return problem(
        `${name} must be ${expected ?? `at most ${schema.maxLength} characters`}; got ${lengthOf(error.value)} characters`,
      );
    case ValueErrorType.Integer:
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.IntegerExclusiveMinimum:
    case ValueErrorType.IntegerExclusiveMaximum:
      return problem(`${name} must be ${expected ?? `an integer${rangeOf(schema)}`}${got}`);
    case ValueErrorType.Number:
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.NumberMaximum:
      return problem(`${name} must be ${expected ?? `a number${rangeOf(schema)}`}${got}`);
    case ValueErrorType.Boolean:
      return problem(`${name} must be true or false${got}`);
    case ValueErrorType.Array:
      return problem(`${name} must be ${expected ?? 'an array'}${got}`);
    case ValueErrorType.ArrayMaxItems:
      return problem(`${name} may hold at most ${schema.maxItems} items; got ${lengthOf(error.value)}`);
    case ValueErrorType.ArrayMinItems:
      return problem(`${name} must hold at least ${schema.minItems} items; got ${lengthOf(error.value)}`);
    case ValueErrorType.Null:
      return problem(`${name} must be null${got}`);
    default:
      return problem(`${name}: ${error.message}${got}`);
  }
}

/**
 * `allOf: [{anyOf: [{required: [a]}, {required: [b]}]}]` on an object: one of the names must be
 * given (a field or its XXL-JOB alias). TypeBox does not read these keywords, so they are checked
 * here, from the same schema the document shows.
 */
function missingAlternatives(schema: TSchema, value: unknown): Problem[] {
  if (!Array.isArray(schema.allOf) || typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [];
  }
  const body = value as Record<string, unknown>;
  const problems: Problem[] = [];
  for (const rule of schema.allOf as { anyOf?: { required?: string[] }[] }[]) {
    const names = (rule.anyOf ?? []).flatMap((alt) => alt.required ?? []);
    const [first, ...others] = names;
    if (first === undefined || names.some((n) => body[n] !== undefined)) continue;
    const alias = others.length > 0 ? ` (or ${others.join(' or ')}, XXL-JOB's name for it)` : '';
    problems.push({ field: first, message: `${first} is required${alias}` });
  }
  return problems;
}

function segmentsOf(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** `childJobIds[1]`, `callbackList[0].logId`; the body itself is "the body". */
function nameOf(path: readonly string[], source: Source): string {
  if (path.length === 0) return source === 'body' ? 'the body' : `the ${source}`;
  return path.map((s, i) => (i === 0 ? s : /^\d+$/.test(s) ? `[${s}]` : `.${s}`)).join('');
}

function rangeOf(schema: Schema): string {
  const min = schema.minimum as number | undefined;
  const max = schema.maximum as number | undefined;
  if (min !== undefined && max !== undefined) return ` between ${min} and ${max}`;
  if (min !== undefined) return ` >= ${min}`;
  if (max !== undefined) return ` <= ${max}`;
  return '';
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The one variant of a union whose JSON type is the value's (its errors are the useful ones). */
function onlyVariantOfType(variants: readonly Schema[], value: unknown): number | undefined {
  const type = jsonType(value);
  const matching = variants
    .map((v, i) => ({ i, t: v.type }))
    .filter(({ t }) => t === type || (t === 'number' && type === 'integer'));
  return matching.length === 1 ? matching[0]?.i : undefined;
}

function describeSchema(schema: Schema): string {
  if (schema[Expect]) return schema[Expect];
  switch (schema.type) {
    case 'string':
      return 'a string';
    case 'integer':
      return 'an integer';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'array':
      return 'an array';
    case 'object':
      return 'a JSON object';
    case 'null':
      return 'null';
    default:
      return 'valid';
  }
}

function lengthOf(value: unknown): number {
  return typeof value === 'string' || Array.isArray(value) ? value.length : 0;
}

/** A short rendering of what was given (answers echo it back). */
function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 64 ? `${text.slice(0, 64)}…` : text;
}
