// Import boundaries, checked by test/boundaries/boundaries.test.ts in `npm test` (dependency-cruiser's
// API, this file's rules). By hand: npx depcruise --config .dependency-cruiser.cjs functions local infra
// bench test vitest.config.ts packages/core/src packages/aws/src packages/api/src packages/transport/src packages/embedded/src
// packages/testing/src packages/protocol/src packages/protocol/test-support packages/executor/src
// packages/executor/test-support packages/client/src packages/cli/src console/src console/headers.js
// console/dist-dir.js console/vite.config.ts
//
// Paths are relative to the repository root. Symlinks are kept (preserveSymlinks), so a workspace package
// imported by name resolves under node_modules/@tickring/<name>/, through its package.json `exports`: the
// scheduler's packages (core, aws, embedded, api, transport, testing) to their TypeScript doors, e.g.
// `@tickring/core/dispatch` to node_modules/@tickring/core/src/dispatch/index.ts and
// `@tickring/core/dispatch/use-cases` to .../src/dispatch/use-cases.ts; the published ones (protocol,
// executor, client) to their build, node_modules/@tickring/<name>/dist/... (before `npm run build` such a
// door stays unresolved under its own name). A name past the exports stays unresolved as written, and a
// path into packages/ is always a way round the doors. node_modules is not followed, so each package's
// own sources are checked where they are cruised, under packages/.

const PROTOCOL_DOOR = '(^|/)node_modules/@tickring/protocol/|^@tickring/protocol$';
const CLIENT_DOOR = '(^|/)node_modules/@tickring/client/|^@tickring/client$';
/** Any door of @tickring/core, resolved: a model door (src/<cap>/index.ts) or a use-cases door. */
const CORE_DOORS = '(^|/)node_modules/@tickring/core/src/';
/** The use-cases doors of @tickring/core (`@tickring/core/<cap>/use-cases`), resolved or not. */
const CORE_USE_CASES =
  '(^|/)node_modules/@tickring/core/src/[^/]+/use-cases\\.ts$|^@tickring/core/[^/]+/use-cases$';
const TESTING_DOOR = '(^|/)node_modules/@tickring/testing/|^@tickring/testing$';
/** The contract and the HTTP kit, however reached by name. */
const API_ANY = '(^|/)node_modules/@tickring/api/|^@tickring/api($|/)';
const LUXON = '(^|/)node_modules/(luxon|@types/luxon)/|^luxon$';
/** iCalendar parsing and writing, for core's calendars (import and export of .ics files). */
const ICALJS = '(^|/)node_modules/ical\\.js/|^ical\\.js$';
const TYPEBOX = '(^|/)node_modules/@sinclair/typebox/|^@sinclair/typebox($|/)';
const LAMBDA_TYPES = '(^|/)node_modules/@types/aws-lambda/|^aws-lambda$';
const OPENAPI_PARSER = '(^|/)node_modules/@readme/openapi-parser/|^@readme/openapi-parser$';
/** The application: Lambda handlers and their wiring, the local stack, the CDK app, the benchmarks. */
const APP = '^(functions|local|infra|bench)/';
/** The adapters: AWS, and executor calls over HTTP. */
const ADAPTERS = '^packages/(aws|transport|embedded)/';
/** Test files: *.test.ts, *.int.test.ts and the like. */
const TEST_FILE = '\\.test\\.ts$';
const CORE_TESTS = '^packages/core/.+\\.test\\.ts$';
const API_TESTS = '^packages/api/.+\\.test\\.ts$';
const OPENAPI_FETCH = '(^|/)node_modules/openapi-fetch/|^openapi-fetch$';
/** The npm packages the CLI is built on, resolved or not. */
const CLI_NPM = '(^|/)node_modules/(commander|cli-table3|picocolors)/|^(commander|cli-table3|picocolors)$';
const VITEST = '(^|/)node_modules/(vitest|@vitest)/|^vitest$|^@vitest/';
/** The packages' test files: their *.test.ts and their test-support folders. */
const PROTOCOL_TESTS = '^packages/protocol/(.+\\.test\\.ts$|test-support/)';
const EXECUTOR_TESTS = '^packages/executor/(.+\\.test\\.ts$|test-support/)';
/** The CLI's test files (they may check its output against the scheduler's real validation). */
const CLI_TESTS = '^packages/cli/(.+\\.test\\.ts$|.*/test-support/)';
/** The client's test files (the integration test drives the local stack; one test runs the generator). */
const CLIENT_TESTS = '^packages/client/src/.+\\.test\\.ts$';
/** The console's two doors for the scheduler (its headers and where its build lands), resolved. */
const CONSOLE_DOORS = '(^|/)node_modules/@tickring/console/(headers|dist-dir)\\.(js|d\\.ts)$';
/** The console package, however reached: a path into console/, a file under its name, the bare name. */
const CONSOLE_ANY = '^console/|(^|/)node_modules/@tickring/console/|^@tickring/console($|/)';
/** The console's tests (they may add a test runner to what its sources import). */
const CONSOLE_TESTS = '\\.test\\.tsx?$';
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * The npm packages the console is built on: its package.json dependencies, resolved or not (a CSS
 * file of one, e.g. @picocss/pico/css/pico.min.css, included); @tickring/* are not among them (the
 * client has its own door).
 */
const CONSOLE_NPM_NAMES = Object.keys(require('./console/package.json').dependencies ?? {})
  .filter((name) => !name.startsWith('@tickring/'))
  .map(escapeRegExp)
  .join('|');
const CONSOLE_NPM = `(^|/)node_modules/(${CONSOLE_NPM_NAMES})/|^(${CONSOLE_NPM_NAMES})($|/)`;
/** The scheduler and the other packages, which the console (a browser app over the client) never imports. */
const SCHEDULER_PACKAGES = 'core|aws|embedded|api|transport|testing|protocol|executor|cli';
const SCHEDULER = `^(functions|local|infra|bench|test|tools)/|^packages/|(^|/)node_modules/@tickring/(${SCHEDULER_PACKAGES})/|^@tickring/(${SCHEDULER_PACKAGES})($|/)`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'protocol-imports-nothing',
      comment: "@tickring/protocol's sources import only each other: no node builtin, no package.",
      severity: 'error',
      from: { path: '^packages/protocol/', pathNot: PROTOCOL_TESTS },
      to: { pathNot: '^packages/protocol/src/' },
    },
    {
      name: 'protocol-tests-import-own-node-vitest',
      comment:
        "@tickring/protocol's tests and test-support import the package's files, node builtins and vitest.",
      severity: 'error',
      from: { path: PROTOCOL_TESTS },
      to: { pathNot: ['^packages/protocol/(src|test-support)/', VITEST], dependencyTypesNot: ['core'] },
    },
    {
      name: 'executor-imports-own-protocol-node',
      comment: '@tickring/executor imports its own files, @tickring/protocol (by name) and node builtins.',
      severity: 'error',
      from: { path: '^packages/executor/', pathNot: EXECUTOR_TESTS },
      to: { pathNot: ['^packages/executor/src/', PROTOCOL_DOOR], dependencyTypesNot: ['core'] },
    },
    {
      name: 'executor-tests-import-own-protocol-node-vitest',
      comment: "@tickring/executor's tests and test-support add vitest to what the package may import.",
      severity: 'error',
      from: { path: EXECUTOR_TESTS },
      to: {
        pathNot: ['^packages/executor/(src|test-support)/', PROTOCOL_DOOR, VITEST],
        dependencyTypesNot: ['core'],
      },
    },
    {
      name: 'client-imports-own-openapi-fetch-node',
      comment: "@tickring/client's sources import only each other, openapi-fetch and node builtins.",
      severity: 'error',
      from: { path: '^packages/client/', pathNot: CLIENT_TESTS },
      to: { pathNot: ['^packages/client/src/', OPENAPI_FETCH], dependencyTypesNot: ['core'] },
    },
    {
      name: 'client-tests-import-own-vitest-test-tools',
      comment:
        "@tickring/client's tests add vitest, the repository's test helpers (test/: the local stack, the contract check) and its generator (tools/) to what the package may import.",
      severity: 'error',
      from: { path: CLIENT_TESTS },
      to: {
        pathNot: ['^packages/client/src/', OPENAPI_FETCH, VITEST, '^test/', '^tools/'],
        dependencyTypesNot: ['core'],
      },
    },
    {
      name: 'client-through-its-door',
      comment:
        'Outside packages/client, @tickring/client is imported by its name only: never by a path into packages/client, never a file under the name.',
      severity: 'error',
      from: { pathNot: '^packages/client/' },
      to: { path: '^packages/client/|^@tickring/client/.' },
    },
    {
      name: 'cli-imports-own-packages-node',
      comment:
        'The tickring CLI imports its own files, @tickring/client (by name), commander, cli-table3, picocolors and node builtins; never the scheduler.',
      severity: 'error',
      from: { path: '^packages/cli/', pathNot: CLI_TESTS },
      to: { pathNot: ['^packages/cli/src/', CLIENT_DOOR, CLI_NPM], dependencyTypesNot: ['core'] },
    },
    {
      name: 'scheduler-console-through-its-doors',
      comment:
        'Outside console/, the web console is imported by name and only through @tickring/console/headers and @tickring/console/dist-dir: never its sources, never a path into console/.',
      severity: 'error',
      from: { pathNot: '^console/' },
      to: { path: CONSOLE_ANY, pathNot: CONSOLE_DOORS },
    },
    {
      name: 'console-imports-own-client-npm',
      comment:
        "The console's sources (a browser app) import their own files, @tickring/client (by name) and the npm packages of console/package.json: no node builtin, nothing of the scheduler.",
      severity: 'error',
      from: { path: '^console/src/', pathNot: CONSOLE_TESTS },
      to: { pathNot: ['^console/src/', CLIENT_DOOR, CONSOLE_NPM] },
    },
    {
      name: 'console-never-the-scheduler',
      comment:
        'Nothing in console/ (tests and build config included) imports the scheduler (functions, local, infra, ..., core and the other packages) or a package other than the client.',
      severity: 'error',
      from: { path: '^console/' },
      to: { path: SCHEDULER },
    },
    {
      name: 'core-imports-own-protocol-luxon-node',
      comment:
        '@tickring/core imports its own files (by relative path), @tickring/protocol, luxon, ical.js and node builtins: no adapter, AWS SDK, Lambda types or Powertools, no HTTP kit, no functions/local/infra, no other @tickring package, not itself by name.',
      severity: 'error',
      from: { path: '^packages/core/', pathNot: CORE_TESTS },
      to: { pathNot: ['^packages/core/src/', PROTOCOL_DOOR, LUXON, ICALJS], dependencyTypesNot: ['core'] },
    },
    {
      name: 'core-tests-add-vitest-testing-test-helpers',
      comment:
        "@tickring/core's tests add vitest, @tickring/testing and the repository's test helpers (test/) to what the package may import.",
      severity: 'error',
      from: { path: CORE_TESTS },
      to: {
        pathNot: ['^packages/core/src/', PROTOCOL_DOOR, LUXON, ICALJS, VITEST, TESTING_DOOR, '^test/'],
        dependencyTypesNot: ['core'],
      },
    },
    {
      name: 'adapters-core-through-model-doors',
      comment:
        "The adapters (@tickring/aws, @tickring/embedded, @tickring/transport) implement core's ports with its types: they import @tickring/core through its model doors (@tickring/core/<cap>), never a use-cases door; wiring a use-case to adapters is the functions' work. Their tests may drive an adapter through the use-cases.",
      severity: 'error',
      from: { path: ADAPTERS, pathNot: TEST_FILE },
      to: { path: CORE_USE_CASES },
    },
    {
      name: 'adapters-never-the-app',
      comment:
        'The adapters import no handler or wiring (functions/), nothing of the local stack, infra or the benchmarks, and not @tickring/api.',
      severity: 'error',
      from: { path: ADAPTERS },
      to: { path: [APP, API_ANY] },
    },
    {
      name: 'adapters-test-helpers-only-in-tests',
      comment:
        "The repository's test helpers (test/), @tickring/testing and vitest are for the adapters' tests, not their sources.",
      severity: 'error',
      from: { path: ADAPTERS, pathNot: TEST_FILE },
      to: { path: ['^test/', TESTING_DOOR, VITEST] },
    },
    {
      name: 'api-imports-own-core-protocol-typebox-lambda',
      comment:
        "@tickring/api (the contract and the HTTP kit) imports its own files, @tickring/core's doors (model and use-cases), @tickring/protocol, TypeBox, the Lambda types, node builtins and the repository's package.json (the API's version): no adapter, no functions, no local stack.",
      severity: 'error',
      from: { path: '^packages/api/', pathNot: API_TESTS },
      to: {
        pathNot: ['^packages/api/src/', CORE_DOORS, PROTOCOL_DOOR, TYPEBOX, LAMBDA_TYPES, '^package\\.json$'],
        dependencyTypesNot: ['core'],
      },
    },
    {
      name: 'api-tests-add-vitest-openapi-parser-test-helpers',
      comment:
        "@tickring/api's tests add vitest, the OpenAPI parser and the repository's test helpers (test/) to what the package may import; never the handlers (functions/).",
      severity: 'error',
      from: { path: API_TESTS },
      to: {
        pathNot: [
          '^packages/api/src/',
          CORE_DOORS,
          PROTOCOL_DOOR,
          TYPEBOX,
          LAMBDA_TYPES,
          '^package\\.json$',
          VITEST,
          OPENAPI_PARSER,
          '^test/',
        ],
        dependencyTypesNot: ['core'],
      },
    },
    {
      name: 'testing-imports-own-core-protocol-vitest',
      comment:
        "@tickring/testing (in-memory doubles, fixtures, contract suites) imports its own files, @tickring/core's doors, @tickring/protocol, vitest and node builtins: no adapter, no functions.",
      severity: 'error',
      from: { path: '^packages/testing/' },
      to: {
        pathNot: ['^packages/testing/src/', CORE_DOORS, PROTOCOL_DOOR, VITEST],
        dependencyTypesNot: ['core'],
      },
    },
    {
      name: 'functions-only-from-the-app',
      comment:
        'The handlers and their wiring (functions/) are imported only by functions/ itself, the local stack, infra, the benchmarks and the test harnesses (test/); never by a package.',
      severity: 'error',
      from: { pathNot: '^(functions|local|infra|bench|test)/' },
      to: { path: '^functions/' },
    },
    {
      name: 'scheduler-through-package-doors',
      comment:
        'Outside packages/, the packages are imported by name, never by a path into packages/; test files may import packages/executor/test-support.',
      severity: 'error',
      from: { pathNot: '^packages/' },
      to: { path: '^packages/', pathNot: '^packages/executor/test-support/' },
    },
    {
      name: 'packages-through-each-others-doors',
      comment:
        "A package reaches another package's files by its name, never by a path into packages/<other>/.",
      severity: 'error',
      from: { path: '^packages/([^/]+)/' },
      to: { path: '^packages/', pathNot: '^packages/$1/' },
    },
    {
      name: 'package-names-within-their-exports',
      comment:
        "A @tickring/<name>/<sub> path resolves only if the package's exports list it: one that does not resolve reaches past the doors.",
      severity: 'error',
      from: {},
      to: { path: '^@tickring/[^/]+/.', couldNotResolve: true },
    },
    {
      name: 'scheduler-test-support-only-in-tests',
      comment: 'packages/executor/test-support is for test files (*.test.ts), not for the scheduler itself.',
      severity: 'error',
      from: { pathNot: ['^packages/', TEST_FILE] },
      to: { path: '^packages/executor/test-support/' },
    },
    {
      name: 'no-circular',
      comment: 'No import cycle, type-only imports included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: ['(^|/)node_modules/', '^packages/[^/]+/dist/'] },
    preserveSymlinks: true,
    exclude: { path: ['^test/boundaries/fixtures/', '(^|/)cdk\\.out/', '^\\.tickring/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    skipAnalysisNotInRules: true,
  },
};
