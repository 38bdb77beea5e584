import { ValidationError } from '../domain/errors.js';

/** A whole number from a path or query parameter; the error names the parameter. */
export function intParam(
  value: string | undefined,
  name: string,
  options: { min?: number; max?: number; default?: number } = {},
): number {
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = options;
  if (value === undefined || value === '') {
    if (options.default !== undefined) return options.default;
    throw new ValidationError(`${name} is required`, name);
  }
  const n = /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `${min}..${max}`;
    throw new ValidationError(`${name} must be an integer ${range}; got ${JSON.stringify(value)}`, name);
  }
  return n;
}

/** One of the allowed values, or undefined when absent; the error lists the allowed values. */
export function enumParam<T extends string>(
  value: string | undefined,
  name: string,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined || value === '') return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new ValidationError(
    `${name} must be one of ${allowed.join(', ')}; got ${JSON.stringify(value)}`,
    name,
  );
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/** An ISO-8601 date-time with a zone (Z or an offset) as epoch ms, or undefined when absent. */
export function isoTimeParam(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = ISO_INSTANT.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new ValidationError(
      `${name} must be an ISO-8601 date-time such as 2030-01-01T00:00:00Z; got ${JSON.stringify(value)}`,
      name,
    );
  }
  return ms;
}
