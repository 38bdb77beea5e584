// Import boundaries, checked by test/boundaries/boundaries.test.ts in `npm test` (dependency-cruiser's
// API, this file's rules). By hand: npx depcruise --config .dependency-cruiser.cjs shared functions local
// infra bench test vitest.config.ts packages/protocol/src packages/protocol/test-support packages/executor/src
// packages/executor/test-support packages/client/src packages/cli/src console/src console/headers.js
// console/dist-dir.js console/vite.config.ts
//
// Paths are relative to the repository root. Symlinks are kept (preserveSymlinks), so a workspace package
// imported by name resolves to node_modules/@tickring/<name>/dist/..., its door; a path into packages/
// is always a way round it. Before `npm run build` the door stays unresolved under its own name.

/** The AWS SDK, resolved (node_modules/...) or not (the bare name). */
const AWS_SDK = '(^|/)node_modules/@aws-sdk/|^@aws-sdk/';
/** The AWS SDK, the Lambda types and the Lambda Powertools. */
const AWS = `${AWS_SDK}|(^|/)node_modules/(@aws-lambda-powertools/|@types/aws-lambda/|aws-lambda/)|^@aws-lambda-powertools/|^aws-lambda$`;
const PROTOCOL_DOOR = '(^|/)node_modules/@tickring/protocol/|^@tickring/protocol$';
const CLIENT_DOOR = '(^|/)node_modules/@tickring/client/|^@tickring/client$';
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
const SCHEDULER =
  '^(shared|functions|local|infra|bench|test|tools)/|^packages/|(^|/)node_modules/@tickring/(protocol|executor|cli)/|^@tickring/(protocol|executor|cli)($|/)';

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
        'Nothing in console/ (tests and build config included) imports the scheduler (shared, functions, local, infra, ...) or a package other than the client.',
      severity: 'error',
      from: { path: '^console/' },
      to: { path: SCHEDULER },
    },
    {
      name: 'core-no-aws',
      comment:
        'shared/domain, shared/ports and shared/use-cases stay free of AWS: no SDK, Lambda types or Powertools.',
      severity: 'error',
      from: { path: '^shared/(domain|ports|use-cases)/' },
      to: { path: AWS },
    },
    {
      name: 'core-no-adapters',
      comment:
        'shared/domain, shared/ports and shared/use-cases use ports, never adapters, handlers, the local stack or infra.',
      severity: 'error',
      from: { path: '^shared/(domain|ports|use-cases)/' },
      to: { path: '^(shared/adapters|functions|local|infra)/' },
    },
    {
      name: 'config-no-adapters-or-aws-sdk',
      comment: 'shared/config reads settings; it imports no adapter and no AWS SDK.',
      severity: 'error',
      from: { path: '^shared/config/' },
      to: { path: `^shared/adapters/|${AWS_SDK}` },
    },
    {
      name: 'scheduler-through-package-doors',
      comment:
        'The scheduler imports the packages by name (@tickring/protocol, @tickring/executor), never by a path into packages/; its test files may import packages/executor/test-support.',
      severity: 'error',
      from: { pathNot: '^packages/' },
      to: { path: '^packages/|^@tickring/[^/]+/.', pathNot: '^packages/executor/test-support/' },
    },
    {
      name: 'scheduler-test-support-only-in-tests',
      comment: 'packages/executor/test-support is for test files (*.test.ts), not for the scheduler itself.',
      severity: 'error',
      from: { pathNot: ['^packages/', '\\.test\\.ts$'] },
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
