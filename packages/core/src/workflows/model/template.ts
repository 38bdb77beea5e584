/**
 * A workflow node's parameter template: text with `{{ path }}` placeholders filled from the run's
 * input and from the results of the node's upstream nodes. Data substitution only: a placeholder
 * is a path, never an expression; nothing is called or evaluated.
 *
 * Syntax
 * - `{{ input }}`, `{{ input.date }}`, `{{ nodes.extract.result }}`, `{{ nodes.extract.result.rows }}`,
 *   `{{ nodes.a.result.items[0].id }}`, `{{ nodes.a.result['odd key'] }}`. Whitespace (spaces, tabs,
 *   line breaks) inside the braces is optional; none inside the path.
 * - A path is a name (`[A-Za-z_$][A-Za-z0-9_$-]*`) followed by segments: `.key` (`[A-Za-z0-9_$-]+`),
 *   `[n]` (an array item, n a whole number of at most 9 digits), or `['key']` (any key without `'`
 *   or `}}`). At most TEMPLATE_LIMITS.pathSegments segments, the name included.
 * - Text outside the braces is kept verbatim, backslashes and single braces included. The only
 *   thing that opens a placeholder is `{{`; to write `{{` itself, write `{{ '{{' }}` (a lone `}}`
 *   outside a placeholder is plain text, so `{{ '{{' }} x }}` renders `{{ x }}`). No backslash
 *   escape, so text such as a Windows path or a regular expression never needs changing.
 *
 * Values
 * - A node's result is its run's handleMsg, read as JSON when it is valid JSON, else the text.
 * - A string is inserted as it is; a number or boolean as JSON text; an object or array as compact
 *   JSON; null as `null`.
 * - A value that is not there is an error naming the path and why (never an empty string): a field
 *   the object lacks, an item past the array's end, a path into a result that is not JSON, a node
 *   that has no result (not finished, skipped, cancelled).
 * - Only own, enumerable data properties of plain JSON values are read: `constructor`,
 *   `__proto__`, `toString` and the like are missing keys like any other.
 */
import { MAX_HANDLE_MSG } from '../../runs/run.js';
import {
  isPlainArray,
  isPlainObject,
  type JsonObject,
  type JsonValue,
  jsonText,
  kindOf,
  ownField,
  ownItem,
  segmentText,
  utf8Bytes,
} from './json.js';
import type { NodeStatus } from './status.js';

export const TEMPLATE_LIMITS = {
  /** A template's size in UTF-8 bytes (64 KiB). */
  templateBytes: 64 * 1024,
  /** Segments of one path, its first name included (`nodes.a.result.rows` has 4). */
  pathSegments: 32,
  /**
   * A rendered parameter's size in UTF-8 bytes (128 KiB): it is sent to the executor and kept on
   * the run, a DynamoDB item of at most 400 KB, and fits an SQS message (256 KiB) with room to spare.
   */
  renderedBytes: 128 * 1024,
} as const;

export type PathSegment =
  | { readonly kind: 'key'; readonly key: string }
  | { readonly kind: 'index'; readonly index: number };

export interface TemplatePath {
  /** The first is always a key: the path's name (`input`, `nodes`). */
  readonly segments: readonly PathSegment[];
  /** The path written canonically, as messages name it: `nodes.a.result.items[0]`. */
  readonly text: string;
  /** Where its placeholder starts in the template (1-based character position). */
  readonly at: number;
}

export type TemplatePart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'path'; readonly path: TemplatePath };

export interface ParsedTemplate {
  readonly parts: readonly TemplatePart[];
  /** The placeholders' paths, in order. */
  readonly paths: readonly TemplatePath[];
}

export type TemplateResult<T> = { readonly ok: T } | { readonly error: string };

/** What a template can read about a node: its status, and its result once it ran. */
export interface NodeView {
  readonly status?: NodeStatus;
  /** The node's run's handleMsg (SUCCEEDED and FAILED nodes). */
  readonly result?: string;
}

/** What a template reads: the run's input and the nodes by key (read as own properties only). */
export interface TemplateContext {
  readonly input?: JsonValue;
  readonly nodes?: Readonly<Record<string, NodeView>>;
}

const NAME_START = /[A-Za-z_$]/;
const KEY_CHAR = /[A-Za-z0-9_$-]/;
const SPACE = /[ \t\r\n]/;
const MAX_INDEX_DIGITS = 9;
const LITERAL_OPEN = "'{{'";

/** Reads a template; the error names the character position and what is wrong. */
export function parseTemplate(source: string): TemplateResult<ParsedTemplate> {
  if (typeof source !== 'string') return { error: 'a template must be a string' };
  const bytes = utf8Bytes(source);
  if (bytes > TEMPLATE_LIMITS.templateBytes) {
    return {
      error: `the template is ${bytes} bytes; at most ${TEMPLATE_LIMITS.templateBytes} (64 KiB) are allowed`,
    };
  }
  const parts: TemplatePart[] = [];
  const paths: TemplatePath[] = [];
  let text = '';
  let from = 0;
  while (from < source.length) {
    const open = source.indexOf('{{', from);
    if (open < 0) {
      text += source.slice(from);
      break;
    }
    text += source.slice(from, open);
    const close = source.indexOf('}}', open + 2);
    if (close < 0) {
      return {
        error: `at character ${open + 1}: {{ is not closed by }} (to write {{ as text, write {{ '{{' }})`,
      };
    }
    let start = open + 2;
    let end = close;
    while (start < end && SPACE.test(source[start]!)) start++;
    while (end > start && SPACE.test(source[end - 1]!)) end--;
    if (start === end) return { error: `at character ${open + 1}: {{ }} holds no path` };
    if (source.slice(start, end) === LITERAL_OPEN) {
      text += '{{';
    } else {
      const path = readPath(source, start, end, open + 1);
      if ('error' in path) return path;
      if (text !== '') parts.push({ kind: 'text', text });
      text = '';
      parts.push({ kind: 'path', path: path.ok });
      paths.push(path.ok);
    }
    from = close + 2;
  }
  if (text !== '') parts.push({ kind: 'text', text });
  return { ok: { parts, paths } };
}

function readPath(source: string, start: number, end: number, at: number): TemplateResult<TemplatePath> {
  const placeholder = source.slice(at - 1, end).trimEnd();
  const fail = (position: number, what: string): { error: string } => ({
    error: `at character ${position + 1}: ${what} in ${placeholder} }}`,
  });
  const segments: PathSegment[] = [];
  let i = start;
  if (!NAME_START.test(source[i]!)) {
    return fail(
      i,
      `expected a path such as input.date or nodes.<key>.result, not ${JSON.stringify(source[i])}`,
    );
  }
  const nameStart = i;
  while (i < end && KEY_CHAR.test(source[i]!)) i++;
  segments.push({ kind: 'key', key: source.slice(nameStart, i) });
  while (i < end) {
    const c = source[i]!;
    if (c === '.') {
      const keyStart = ++i;
      while (i < end && KEY_CHAR.test(source[i]!)) i++;
      if (i === keyStart) return fail(keyStart, "expected a key after '.'");
      segments.push({ kind: 'key', key: source.slice(keyStart, i) });
    } else if (c === '[' && source[i + 1] === "'") {
      const keyStart = i + 2;
      const keyEnd = source.indexOf("']", keyStart);
      if (keyEnd < 0 || keyEnd + 2 > end) return fail(i, "['key'] is not closed by ']");
      const key = source.slice(keyStart, keyEnd);
      if (key.includes("'")) return fail(i, "a ['key'] cannot contain '");
      segments.push({ kind: 'key', key });
      i = keyEnd + 2;
    } else if (c === '[') {
      const digitsStart = ++i;
      while (i < end && source[i]! >= '0' && source[i]! <= '9') i++;
      if (i === digitsStart) return fail(digitsStart, "expected an array index (a whole number) after '['");
      if (i - digitsStart > MAX_INDEX_DIGITS) {
        return fail(digitsStart, `an array index has at most ${MAX_INDEX_DIGITS} digits`);
      }
      if (source[i] !== ']' || i >= end) return fail(i, "expected ']' after the array index");
      segments.push({ kind: 'index', index: Number(source.slice(digitsStart, i)) });
      i++;
    } else if (SPACE.test(c)) {
      return fail(i, 'a path cannot contain spaces');
    } else {
      return fail(i, `unexpected ${JSON.stringify(c)}`);
    }
    if (segments.length > TEMPLATE_LIMITS.pathSegments) {
      return fail(start, `a path has at most ${TEMPLATE_LIMITS.pathSegments} segments`);
    }
  }
  return { ok: { segments, text: pathText(segments), at } };
}

/** A path as messages write it: `nodes.a.result.items[0]`, `input['odd key']`. */
export function pathText(segments: readonly PathSegment[]): string {
  let text = '';
  for (const [i, segment] of segments.entries()) {
    if (segment.kind === 'index') text += `[${segment.index}]`;
    else text += i === 0 ? segment.key : segmentText(segment.key);
  }
  return text;
}

/**
 * A node result as templates read it: the handleMsg parsed as JSON when it is JSON, else the text.
 */
export function readNodeResult(
  handleMsg: string,
): { readonly json: true; readonly value: JsonValue } | { readonly json: false; readonly text: string } {
  try {
    return { json: true, value: JSON.parse(handleMsg) as JsonValue };
  } catch {
    return { json: false, text: handleMsg };
  }
}

/** Fills a template's placeholders from `context`; the error names the path and what is missing. */
export function renderTemplate(
  template: string | ParsedTemplate,
  context: TemplateContext,
): TemplateResult<string> {
  const parsed = typeof template === 'string' ? parseTemplate(template) : { ok: template };
  if ('error' in parsed) return parsed;
  const limit = TEMPLATE_LIMITS.renderedBytes;
  const pieces: string[] = [];
  let bytes = 0;
  const tooLarge = { error: `the rendered parameter is larger than ${limit} bytes (128 KiB)` };
  for (const part of parsed.ok.parts) {
    let piece: string;
    if (part.kind === 'text') {
      piece = part.text;
    } else {
      const found = resolvePath(part.path, context);
      if ('error' in found) return found;
      const value = found.ok;
      if (typeof value === 'string') piece = value;
      else {
        const text = jsonText(value, limit - bytes);
        if ('error' in text) {
          if (text.error === 'too-large') return tooLarge;
          return { error: `${part.path.text}${text.at} is not a JSON value` };
        }
        piece = text.ok;
      }
    }
    bytes += utf8Bytes(piece);
    if (bytes > limit) return tooLarge;
    pieces.push(piece);
  }
  return { ok: pieces.join('') };
}

/** The value at `path` in `context`, or why it is missing. */
export function resolvePath(path: TemplatePath, context: TemplateContext): TemplateResult<unknown> {
  const [root, ...rest] = path.segments;
  const missing = (why: string): { error: string } => ({ error: `${path.text} is missing: ${why}` });
  if (root?.kind !== 'key') return missing('a path starts with input or nodes');
  if (root.key === 'input') {
    if (context.input === undefined) return missing('the run has no input');
    return walk(context.input, rest, 'input', 'the input', missing);
  }
  if (root.key !== 'nodes') {
    return missing(`a template reads only input… and nodes.<key>.result…, and there is no ${root.key}`);
  }
  const [keySegment, resultSegment, ...inResult] = rest;
  if (keySegment?.kind !== 'key') return missing('name a node: nodes.<key>.result');
  const key = keySegment.key;
  const nodes = context.nodes;
  const view = nodes !== undefined && isPlainObject(nodes) ? ownField(nodes as JsonObject, key) : undefined;
  if (!view) return missing(`there is no node ${key}`);
  if (resultSegment?.kind !== 'key' || resultSegment.key !== 'result') {
    return missing(`a node offers only its result: nodes.${key}.result`);
  }
  const node: JsonObject = isPlainObject(view.value) ? view.value : {};
  const handleMsg = ownField(node, 'result')?.value;
  if (typeof handleMsg !== 'string') {
    return missing(`node ${key} ${noResultBecause(ownField(node, 'status')?.value)}`);
  }
  const result = readNodeResult(handleMsg);
  if (!result.json) {
    if (inResult.length === 0) return { ok: result.text };
    const next = inResult[0]!;
    const cut =
      handleMsg.length > MAX_HANDLE_MSG && handleMsg.endsWith('...')
        ? ` (results longer than ${MAX_HANDLE_MSG} characters are cut, which may have broken its JSON)`
        : '';
    return missing(
      `${key}'s result is not JSON (it is the text ${excerpt(handleMsg)}${cut}), so it has no ${next.kind === 'key' ? `field ${next.key}` : `item ${next.index}`}`,
    );
  }
  return walk(result.value, inResult, `nodes.${key}.result`, `${key}'s result`, missing);
}

function walk(
  start: unknown,
  segments: readonly PathSegment[],
  startText: string,
  startName: string,
  missing: (why: string) => { error: string },
): TemplateResult<unknown> {
  let value = start;
  let text = startText;
  let name = startName;
  for (const segment of segments) {
    if (segment.kind === 'key') {
      if (kindOf(value) === 'not a JSON value') return { error: `${text} is not a JSON value` };
      if (!isPlainObject(value)) {
        const hint = isPlainArray(value) ? ' (use [n] for an item)' : '';
        return missing(
          `${name} is ${kindOf(value)}, not an object, so it has no field ${segment.key}${hint}`,
        );
      }
      const field = ownField(value, segment.key);
      if (!field) return missing(`${name} has no field ${segment.key}`);
      value = field.value;
      text += segmentText(segment.key);
    } else {
      if (kindOf(value) === 'not a JSON value') return { error: `${text} is not a JSON value` };
      if (!isPlainArray(value)) {
        return missing(`${name} is ${kindOf(value)}, not an array, so it has no item ${segment.index}`);
      }
      const item = ownItem(value, segment.index);
      if (!item) {
        return missing(
          `${name} has ${value.length} item${value.length === 1 ? '' : 's'}, so no item ${segment.index}`,
        );
      }
      value = item.value;
      text += `[${segment.index}]`;
    }
    name = text;
  }
  return { ok: value };
}

function noResultBecause(status: unknown): string {
  switch (status) {
    case 'PENDING':
    case 'RUNNING':
      return 'has not finished, so it has no result yet';
    case 'SKIPPED':
      return 'was skipped, so it has no result';
    case 'CANCELLED':
      return 'was cancelled, so it has no result';
    default:
      return 'has no result';
  }
}

function excerpt(text: string): string {
  const max = 40;
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}
