import { describe, expect, it } from 'vitest';
import { MAX_HANDLE_MSG } from '../../runs/run.js';
import { jsonText, utf8Bytes } from './json.js';
import {
  parseTemplate,
  readNodeResult,
  renderTemplate,
  TEMPLATE_LIMITS,
  type TemplateContext,
} from './template.js';

const context: TemplateContext = {
  input: { date: '2030-01-02', region: 'eu', count: 3, flag: true, none: null, tags: ['a', 'b'] },
  nodes: {
    extract: {
      status: 'SUCCEEDED',
      result: '{"rows":120,"items":[{"id":"x1"},{"id":"x2"}],"odd key":"odd"}',
    },
    text: { status: 'SUCCEEDED', result: 'plain text, not JSON' },
    quoted: { status: 'SUCCEEDED', result: '"a JSON string"' },
    number: { status: 'SUCCEEDED', result: ' 42 ' },
    failed: { status: 'FAILED', result: 'connection refused' },
    skipped: { status: 'SKIPPED' },
    running: { status: 'RUNNING' },
    cancelled: { status: 'CANCELLED' },
  },
};

function render(template: string, ctx: TemplateContext = context): string {
  const out = renderTemplate(template, ctx);
  if ('error' in out) throw new Error(`expected a rendering, got the error: ${out.error}`);
  return out.ok;
}

function renderError(template: string, ctx: TemplateContext = context): string {
  const out = renderTemplate(template, ctx);
  if ('ok' in out) throw new Error(`expected an error, got ${JSON.stringify(out.ok)}`);
  return out.error;
}

function parseError(template: string): string {
  const out = parseTemplate(template);
  if ('ok' in out) throw new Error('expected a parse error');
  return out.error;
}

describe('parseTemplate', () => {
  it('splits text and placeholders, keeping the text verbatim', () => {
    const parsed = parseTemplate('date={{ input.date }}&rows={{nodes.extract.result.rows}}!');
    expect(parsed).toEqual({
      ok: {
        parts: [
          { kind: 'text', text: 'date=' },
          {
            kind: 'path',
            path: {
              segments: [
                { kind: 'key', key: 'input' },
                { kind: 'key', key: 'date' },
              ],
              text: 'input.date',
              at: 6,
            },
          },
          { kind: 'text', text: '&rows=' },
          expect.objectContaining({ kind: 'path' }),
          { kind: 'text', text: '!' },
        ],
        paths: [
          expect.objectContaining({ text: 'input.date' }),
          expect.objectContaining({ text: 'nodes.extract.result.rows' }),
        ],
      },
    });
  });

  it('reads indexes and quoted keys, and writes paths canonically', () => {
    const parsed = parseTemplate("{{ nodes.a.result.items[0].id }}{{ nodes.a.result['odd key'][12] }}");
    if (!('ok' in parsed)) throw new Error(parsed.error);
    expect(parsed.ok.paths.map((p) => p.segments)).toEqual([
      [
        { kind: 'key', key: 'nodes' },
        { kind: 'key', key: 'a' },
        { kind: 'key', key: 'result' },
        { kind: 'key', key: 'items' },
        { kind: 'index', index: 0 },
        { kind: 'key', key: 'id' },
      ],
      [
        { kind: 'key', key: 'nodes' },
        { kind: 'key', key: 'a' },
        { kind: 'key', key: 'result' },
        { kind: 'key', key: 'odd key' },
        { kind: 'index', index: 12 },
      ],
    ]);
    expect(parsed.ok.paths.map((p) => p.text)).toEqual([
      'nodes.a.result.items[0].id',
      "nodes.a.result['odd key'][12]",
    ]);
  });

  it('takes keys with digits, dashes and dollars, like node keys and JSON fields', () => {
    expect(render('{{ nodes.extract.result.rows }}')).toBe('120');
    const parsed = parseTemplate('{{ nodes.load-2.result.$meta.2024 }}');
    expect('ok' in parsed && parsed.ok.paths[0]!.text).toBe('nodes.load-2.result.$meta.2024');
  });

  it('refuses expressions, calls and literals other than the brace: data substitution only', () => {
    expect(parseError('{{ input.a + 1 }}')).toMatch(/at character 11: a path cannot contain spaces/);
    expect(parseError('{{ input.f() }}')).toMatch(/at character 11: unexpected "\("/);
    expect(parseError('{{ "x" }}')).toMatch(/at character 4: expected a path/);
    expect(parseError("{{ 'x' }}")).toMatch(/expected a path/);
    expect(parseError('{{ input.a||input.b }}')).toMatch(/unexpected "\|"/);
    expect(parseError('{{ input.a ? 1 : 2 }}')).toMatch(/cannot contain spaces/);
    expect(parseError('{{ 1 }}')).toMatch(/expected a path/);
  });

  it('names the character and the placeholder in its errors', () => {
    expect(parseError('abc {{ input. }}')).toBe("at character 14: expected a key after '.' in {{ input. }}");
    expect(parseError('{{ input.items[ }}')).toMatch(/expected an array index/);
    expect(parseError('{{ input.items[x] }}')).toMatch(/expected an array index/);
    expect(parseError('{{ input.items[1 }}')).toMatch(/expected '\]' after the array index/);
    expect(parseError("{{ input['a }}")).toMatch(/\['key'\] is not closed/);
    expect(parseError('{{ input.items[1234567890] }}')).toMatch(/at most 9 digits/);
    expect(parseError('x {{ }} y')).toBe('at character 3: {{ }} holds no path');
    expect(parseError('{{{ input.x }}}')).toMatch(/at character 3: expected a path/);
  });
});

describe('renderTemplate: forms', () => {
  it('fills input fields and node results, keeping everything else verbatim', () => {
    expect(render('--date {{ input.date }} --region={{input.region}}')).toBe('--date 2030-01-02 --region=eu');
    expect(render('{{\n\tinput.date\r\n}}')).toBe('2030-01-02');
    expect(
      render('rows: {{ nodes.extract.result.rows }}, first: {{ nodes.extract.result.items[0].id }}'),
    ).toBe('rows: 120, first: x1');
    expect(render("{{ nodes.extract.result['odd key'] }}")).toBe('odd');
    expect(render('C:\\temp\\{x} } {a}} {{ input.region }} \\{{ input.region }}')).toBe(
      'C:\\temp\\{x} } {a}} eu \\eu',
    );
    expect(render('no placeholders at all')).toBe('no placeholders at all');
    expect(render('')).toBe('');
  });

  it('inserts strings as they are, numbers and booleans as JSON, objects and arrays as compact JSON, null as null', () => {
    expect(render('{{ input.region }}')).toBe('eu');
    expect(render('{{ input.count }}|{{ input.flag }}|{{ input.none }}')).toBe('3|true|null');
    expect(render('{{ input.tags }}')).toBe('["a","b"]');
    expect(render('{{ nodes.extract.result.items[1] }}')).toBe('{"id":"x2"}');
    expect(render('{{ nodes.extract.result }}')).toBe(
      '{"rows":120,"items":[{"id":"x1"},{"id":"x2"}],"odd key":"odd"}',
    );
    expect(render('{{ input }}', { input: { a: [1, { b: 'c"d' }], e: -0.5 } })).toBe(
      '{"a":[1,{"b":"c\\"d"}],"e":-0.5}',
    );
  });

  it("reads a node's result as JSON when it is JSON, else as its text", () => {
    expect(render('{{ nodes.text.result }}')).toBe('plain text, not JSON');
    expect(render('{{ nodes.quoted.result }}')).toBe('a JSON string');
    expect(render('{{ nodes.number.result }}')).toBe('42');
    expect(render('[{{ nodes.failed.result }}]')).toBe('[connection refused]');
    expect(readNodeResult('{"a":1}')).toEqual({ json: true, value: { a: 1 } });
    expect(readNodeResult('{"a":1')).toEqual({ json: false, text: '{"a":1' });
    expect(readNodeResult('')).toEqual({ json: false, text: '' });
    expect(
      render('<{{ nodes.empty.result }}>', { nodes: { empty: { status: 'SUCCEEDED', result: '' } } }),
    ).toBe('<>');
  });

  it("writes {{ '{{' }} for a literal {{; }} needs no escape", () => {
    expect(render("{{ '{{' }}")).toBe('{{');
    expect(render("{{'{{'}} input.region }}")).toBe('{{ input.region }}');
    expect(render("a {{ '{{' }} b }} {{ input.region }}")).toBe('a {{ b }} eu');
    expect(render('}} and }}}')).toBe('}} and }}}');
    expect(parseError('a {{ b')).toBe(
      "at character 3: {{ is not closed by }} (to write {{ as text, write {{ '{{' }})",
    );
    expect(parseError("{{ '}}' }}")).toMatch(/expected a path/);
  });
});

describe('renderTemplate: missing values are errors naming the path', () => {
  it('names the missing field and what holds it', () => {
    expect(renderError('{{ nodes.extract.result.cols }}')).toBe(
      "nodes.extract.result.cols is missing: extract's result has no field cols",
    );
    const noRows = { nodes: { extract: { status: 'SUCCEEDED' as const, result: '{"cols":1}' } } };
    expect(renderError('x={{ nodes.extract.result.rows }}', noRows)).toBe(
      "nodes.extract.result.rows is missing: extract's result has no field rows",
    );
    expect(renderError('{{ input.day }}')).toBe('input.day is missing: the input has no field day');
    expect(renderError('{{ nodes.extract.result.items[0].name }}')).toBe(
      'nodes.extract.result.items[0].name is missing: nodes.extract.result.items[0] has no field name',
    );
  });

  it('says when an index is past the end or the value is of another kind', () => {
    expect(renderError('{{ nodes.extract.result.items[2] }}')).toBe(
      'nodes.extract.result.items[2] is missing: nodes.extract.result.items has 2 items, so no item 2',
    );
    expect(renderError('{{ nodes.extract.result.rows[0] }}')).toBe(
      'nodes.extract.result.rows[0] is missing: nodes.extract.result.rows is a number, not an array, so it has no item 0',
    );
    expect(renderError('{{ nodes.extract.result.items.id }}')).toMatch(
      /nodes.extract.result.items is an array, not an object, so it has no field id \(use \[n\] for an item\)/,
    );
    expect(renderError('{{ input.tags.length }}')).toMatch(/input.tags is an array, not an object/);
    expect(renderError('{{ input.none.x }}')).toMatch(/input.none is null, not an object/);
    expect(renderError('{{ nodes.quoted.result.x }}')).toBe(
      "nodes.quoted.result.x is missing: quoted's result is a string, not an object, so it has no field x",
    );
  });

  it('says a path into a result that is not JSON cannot be followed', () => {
    expect(renderError('{{ nodes.text.result.rows }}')).toBe(
      'nodes.text.result.rows is missing: text\'s result is not JSON (it is the text "plain text, not JSON"), so it has no field rows',
    );
    expect(renderError('{{ nodes.failed.result[0] }}')).toMatch(
      /failed's result is not JSON .* so it has no item 0/,
    );
    const cut = `{"rows":[${'1,'.repeat(MAX_HANDLE_MSG / 2)}...`;
    expect(
      renderError('{{ nodes.big.result.rows }}', { nodes: { big: { status: 'SUCCEEDED', result: cut } } }),
    ).toMatch(
      /is not JSON \(it is the text "\{\\"rows\\":\[1,1,.*…" \(results longer than 15000 characters are cut, which may have broken its JSON\)\)/,
    );
  });

  it('says why a node has no result', () => {
    expect(renderError('{{ nodes.skipped.result }}')).toBe(
      'nodes.skipped.result is missing: node skipped was skipped, so it has no result',
    );
    expect(renderError('{{ nodes.running.result.x }}')).toBe(
      'nodes.running.result.x is missing: node running has not finished, so it has no result yet',
    );
    expect(renderError('{{ nodes.cancelled.result }}')).toMatch(/node cancelled was cancelled/);
    expect(renderError('{{ nodes.ghost.result }}')).toBe(
      'nodes.ghost.result is missing: there is no node ghost',
    );
    expect(renderError('{{ nodes.extract.status }}')).toBe(
      'nodes.extract.status is missing: a node offers only its result: nodes.extract.result',
    );
    expect(renderError('{{ nodes.extract }}')).toMatch(/a node offers only its result/);
    expect(renderError('{{ nodes }}')).toBe('nodes is missing: name a node: nodes.<key>.result');
    expect(renderError('{{ input.date }}', {})).toBe('input.date is missing: the run has no input');
  });

  it('never renders a missing value as an empty string, even among present ones', () => {
    const out = renderTemplate('{{ input.date }} {{ input.missing }}', context);
    expect(out).toEqual({ error: 'input.missing is missing: the input has no field missing' });
  });
});

describe('renderTemplate: hostile input', () => {
  const hostile = [
    ['{{ constructor.constructor }}', /^constructor.constructor is missing: a template reads only input/],
    ['{{ __proto__ }}', /^__proto__ is missing: a template reads only input/],
    [
      '{{ nodes.extract.result.__proto__.x }}',
      /^nodes.extract.result.__proto__.x is missing: extract's result has no field __proto__$/,
    ],
    ['{{ input.constructor }}', /^input.constructor is missing: the input has no field constructor$/],
    [
      '{{ input.constructor.name }}',
      /^input.constructor.name is missing: the input has no field constructor$/,
    ],
    ['{{ input.__proto__ }}', /the input has no field __proto__/],
    ['{{ input.hasOwnProperty }}', /the input has no field hasOwnProperty/],
    [
      '{{ nodes.extract.result.toString }}',
      /^nodes.extract.result.toString is missing: extract's result has no field toString$/,
    ],
    ['{{ nodes.extract.result.items.constructor }}', /is an array, not an object/],
    ['{{ nodes.extract.result.rows.toFixed }}', /is a number, not an object/],
    ['{{ nodes.text.result.length }}', /result is not JSON/],
    ['{{ nodes.constructor.result }}', /^nodes.constructor.result is missing: there is no node constructor$/],
    ['{{ nodes.toString.result }}', /there is no node toString/],
    ['{{ nodes.__proto__.result }}', /there is no node __proto__/],
    ['{{ this }}', /a template reads only input/],
    ['{{ process.env.SECRET }}', /a template reads only input/],
    ['{{ globalThis.process }}', /a template reads only input/],
  ] as const;

  it.each(hostile)('%s is a plain missing key', (template, message) => {
    expect(renderError(template)).toMatch(message);
  });

  it('reads own JSON data named like a prototype member as data, never the prototype', () => {
    const ctx: TemplateContext = {
      nodes: { a: { status: 'SUCCEEDED', result: '{"__proto__":{"x":"own data"},"constructor":"c"}' } },
    };
    expect(render('{{ nodes.a.result.__proto__.x }} {{ nodes.a.result.constructor }}', ctx)).toBe(
      'own data c',
    );
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('finds a node keyed like an Object.prototype member only when the run has one', () => {
    const ctx: TemplateContext = {
      nodes: { constructor: { status: 'SUCCEEDED' as const, result: '"built"' } },
    };
    expect(render('{{ nodes.constructor.result }}', ctx)).toBe('built');
  });

  it('reads no getter, inherited field or class instance in a context', () => {
    let called = false;
    const withGetter = {
      get secret() {
        called = true;
        return 'x';
      },
    };
    expect(renderError('{{ input.secret }}', { input: withGetter as never })).toMatch(/has no field secret/);
    expect(called).toBe(false);
    const inherited = Object.create({ inherited: 'x' }) as never;
    expect(renderError('{{ input.inherited }}', { input: inherited })).toBe('input is not a JSON value');
    expect(renderError('{{ input.when }}', { input: { when: new Date(0) } as never })).toBe(
      'input.when is not a JSON value',
    );
    expect(renderError('{{ input.f }}', { input: { f: () => 1 } as never })).toBe(
      'input.f is not a JSON value',
    );
    expect(renderError('{{ input.n }}', { input: { n: Number.NaN } })).toBe('input.n is not a JSON value');
    expect(renderError('{{ input }}', { input: { a: [1, undefined] } as never })).toBe(
      'input.a[1] is not a JSON value',
    );
    const hiddenGetter = Object.defineProperty({}, 'x', { enumerable: true, get: () => 'no' });
    expect(renderError('{{ input }}', { input: hiddenGetter })).toBe('input.x is not a JSON value');
  });

  it('does not call toJSON while writing an object', () => {
    const ctx: TemplateContext = {
      nodes: { a: { status: 'SUCCEEDED', result: '{"toJSON":"not called","v":1}' } },
    };
    expect(render('{{ nodes.a.result }}', ctx)).toBe('{"toJSON":"not called","v":1}');
  });
});

describe('renderTemplate: limits', () => {
  it('takes a template of 64 KiB and refuses a larger one', () => {
    const limit = TEMPLATE_LIMITS.templateBytes;
    expect(render('x'.repeat(limit))).toHaveLength(limit);
    expect(parseError('x'.repeat(limit + 1))).toBe(
      `the template is ${limit + 1} bytes; at most ${limit} (64 KiB) are allowed`,
    );
    // Bytes, not characters: 'é' is two in UTF-8.
    expect(parseError('é'.repeat(limit / 2 + 1))).toMatch(/is 65538 bytes/);
  });

  it('takes a path of 32 segments and refuses 33', () => {
    const deep = (n: number) => `{{ input${'.a'.repeat(n - 1)} }}`;
    let value: unknown = 'bottom';
    for (let i = 0; i < 31; i++) value = { a: value };
    expect(render(deep(32), { input: value as never })).toBe('bottom');
    expect(parseError(deep(33))).toMatch(/a path has at most 32 segments/);
    expect(parseError(`{{ input${'[0]'.repeat(40)} }}`)).toMatch(/at most 32 segments/);
  });

  it('refuses a rendering larger than 128 KiB, however it gets there', () => {
    const limit = TEMPLATE_LIMITS.renderedBytes;
    const big = 'y'.repeat(60_000);
    expect(render('{{ input.s }}{{ input.s }}', { input: { s: big } })).toHaveLength(120_000);
    expect(renderError('{{ input.s }}{{ input.s }}{{ input.s }}', { input: { s: big } })).toBe(
      `the rendered parameter is larger than ${limit} bytes (128 KiB)`,
    );
    const array = Array.from({ length: 40_000 }, (_, i) => i);
    expect(renderError('{{ input }}', { input: array })).toMatch(/larger than/);
    // Many placeholders of a modest value add up too.
    expect(renderError('{{ input.s }}'.repeat(200), { input: { s: 'z'.repeat(1000) } })).toMatch(
      /larger than/,
    );
  });

  it('writes deeply nested JSON results without running out of stack', () => {
    const depth = 7000;
    const result = `${'['.repeat(depth)}1${']'.repeat(depth)}`;
    expect(render('{{ nodes.a.result }}', { nodes: { a: { status: 'SUCCEEDED', result } } })).toBe(result);
  });
});

describe('json helpers', () => {
  it('counts UTF-8 bytes', () => {
    expect(utf8Bytes('aé€😀')).toBe(1 + 2 + 3 + 4);
    expect(utf8Bytes('\ud800')).toBe(3);
  });

  it('writes what JSON.stringify writes for plain data', () => {
    const values = [null, 0, -1.5e-7, 'q"\\\n', [], {}, { b: [1, { c: null }], a: true, 10: 'ten' }];
    for (const value of values) expect(jsonText(value, 1000)).toEqual({ ok: JSON.stringify(value) });
    expect(jsonText({ a: 'x'.repeat(10) }, 10)).toEqual({ error: 'too-large' });
    expect(jsonText(Object.create(null), 10)).toEqual({ ok: '{}' });
  });
});
