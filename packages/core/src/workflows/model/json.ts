/**
 * Plain JSON data, read defensively: only own, enumerable data properties of plain objects and
 * arrays are ever read (never a prototype, a getter or a `toJSON`), and every walk is iterative and
 * bounded, so a hostile or deeply nested value cannot reach `Object.prototype` or the stack's end.
 */

export type JsonValue = null | boolean | number | string | readonly JsonValue[] | JsonObject;
export interface JsonObject {
  readonly [key: string]: JsonValue;
}

/** The bytes `text` takes in UTF-8 (a lone surrogate counts as the 3 bytes of U+FFFD). */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** An object literal or `JSON.parse` object (prototype `Object.prototype` or null), not an array. */
export function isPlainObject(value: unknown): value is JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function isPlainArray(value: unknown): value is readonly unknown[] {
  return Array.isArray(value) && Object.getPrototypeOf(value) === Array.prototype;
}

/**
 * The own, enumerable data property `key` of a plain object, or undefined (absent, inherited,
 * non-enumerable, a getter): `constructor`, `__proto__` and `toString` are absent from `{}`.
 */
export function ownField(object: JsonObject, key: string): { value: unknown } | undefined {
  const descriptor = Object.getOwnPropertyDescriptor(object, key);
  if (!descriptor?.enumerable || !('value' in descriptor)) return undefined;
  return { value: descriptor.value };
}

/** Item `index` of a plain array, or undefined (out of range, a hole, a getter). */
export function ownItem(array: readonly unknown[], index: number): { value: unknown } | undefined {
  if (!Number.isInteger(index) || index < 0 || index >= array.length) return undefined;
  return ownField(array as unknown as JsonObject, String(index));
}

/** What a value is, in a message: "a string", "an array", "not a JSON value"... */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (isPlainArray(value)) return 'an array';
  if (isPlainObject(value)) return 'an object';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return Number.isFinite(value) ? 'a number' : 'not a JSON value';
    case 'boolean':
      return 'a boolean';
    default:
      return 'not a JSON value';
  }
}

export type JsonTextResult =
  | { readonly ok: string }
  | { readonly error: 'not-json'; readonly at: string }
  | { readonly error: 'too-large' };

type Frame =
  | { readonly kind: 'array'; readonly items: readonly unknown[]; next: number; readonly at: string }
  | {
      readonly kind: 'object';
      readonly object: JsonObject;
      readonly keys: readonly string[];
      next: number;
      readonly at: string;
    };

/**
 * `value` as compact JSON text (what `JSON.stringify` gives for plain data), or why not: a part that
 * is not plain JSON (`at` names it, e.g. `.rows[2]`: a function, undefined, NaN, a class instance,
 * a getter, a hole) or more than `maxBytes` of UTF-8. Iterative: any depth is fine.
 */
export function jsonText(value: unknown, maxBytes: number): JsonTextResult {
  const out: string[] = [];
  let bytes = 0;
  const stack: Frame[] = [];
  const emit = (piece: string): boolean => {
    bytes += utf8Bytes(piece);
    out.push(piece);
    return bytes <= maxBytes;
  };
  /** Writes a scalar or opens a container (pushing its frame). */
  const write = (item: unknown, at: string): 'ok' | 'not-json' | 'too-large' => {
    let piece: string;
    if (item === null) piece = 'null';
    else if (typeof item === 'string') piece = JSON.stringify(item);
    else if (typeof item === 'boolean') piece = item ? 'true' : 'false';
    else if (typeof item === 'number' && Number.isFinite(item)) piece = JSON.stringify(item);
    else if (isPlainArray(item)) {
      stack.push({ kind: 'array', items: item, next: 0, at });
      piece = '[';
    } else if (isPlainObject(item)) {
      stack.push({ kind: 'object', object: item, keys: Object.keys(item), next: 0, at });
      piece = '{';
    } else return 'not-json';
    return emit(piece) ? 'ok' : 'too-large';
  };
  const fail = (why: 'not-json' | 'too-large', at: string): JsonTextResult =>
    why === 'not-json' ? { error: 'not-json', at } : { error: 'too-large' };

  const first = write(value, '');
  if (first !== 'ok') return fail(first, '');
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const length = frame.kind === 'array' ? frame.items.length : frame.keys.length;
    if (frame.next >= length) {
      stack.pop();
      if (!emit(frame.kind === 'array' ? ']' : '}')) return fail('too-large', frame.at);
      continue;
    }
    const position = frame.next++;
    let at: string;
    let item: { value: unknown } | undefined;
    let prefix = position > 0 ? ',' : '';
    if (frame.kind === 'array') {
      at = `${frame.at}[${position}]`;
      item = ownItem(frame.items, position);
    } else {
      const key = frame.keys[position]!;
      at = `${frame.at}${segmentText(key)}`;
      item = ownField(frame.object, key);
      prefix += `${JSON.stringify(key)}:`;
    }
    if (!item) return fail('not-json', at);
    if (!emit(prefix)) return fail('too-large', at);
    const written = write(item.value, at);
    if (written !== 'ok') return fail(written, at);
  }
  return { ok: out.join('') };
}

const DOT_KEY = /^[A-Za-z0-9_$-]+$/;

/** A key as a path writes it: `.rows`, or `['a key']` when it is not a plain name. */
export function segmentText(key: string): string {
  return DOT_KEY.test(key) ? `.${key}` : `['${key}']`;
}
