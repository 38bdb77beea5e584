import { cpus, totalmem } from 'node:os';
import type { BenchStore, StoreLimits, StoreUsage } from './bench-stack.js';
import { scheduleText } from './benchmark.js';
import type { DynamoUsage } from './dynamo-meter.js';
import type { Knee } from './knee.js';
import { PRICES } from './prices.js';
import type { ResourceReport } from './process-stats.js';
import type { BenchLine, BenchResult, WorkflowBenchLine, WorkflowBenchResult } from './result.js';
import type { SqliteUsage } from './sqlite-meter.js';
import type { SqsUsage } from './sqs-meter.js';
import { num, table } from './table.js';
import type { LatencySummary } from './workflow-shape.js';

/** Where the run happened, for the summary and the JSON file. */
export interface RunContext {
  readonly startedAt: string;
  readonly store: BenchStore;
  /** The stand-ins' versions, on DynamoDB Local. */
  readonly standIns?: { readonly dynamodb: string; readonly sqs: string };
  /** `uptime`'s 1-minute load average when the run started: the machine is shared. */
  readonly loadAverage: number;
}

function storeText(context: RunContext): string {
  return context.store === 'sqlite' || !context.standIns
    ? 'SQLite (libsql, WAL, synchronous NORMAL) file in the temp directory, in process'
    : `${context.standIns.dynamodb} (JVM) + ${context.standIns.sqs} (in process), 127.0.0.1`;
}

/** The human summary (everything but the JSON line). */
export function summary(result: BenchResult, context: RunContext): string {
  const { line, details: d } = result;
  const triggers = line.executed;
  const per = (n: number, digits = 3) => num(triggers > 0 ? n / triggers : Number.NaN, digits);
  const out: string[] = [];
  out.push(
    `tickring benchmark: ${num(line.jobs)} jobs on ${scheduleText(d.schedule)}, ${d.executors} executor group(s), ` +
      `${num(d.idleJobs)} idle jobs, ${d.shards} shards; window ${line.seconds} s from ${d.window.start} (${d.warmupSeconds} s after the last job's first fire)`,
    `${machine()}, load ${num(context.loadAverage, 2)} at the start; ${storeText(context)}`,
    `setup: idle jobs ${num(d.setupSeconds.idleJobs, 1)} s, executors ${num(d.setupSeconds.executors, 1)} s, ` +
      `jobs ${num(d.setupSeconds.jobs, 1)} s`,
  );
  if (d.limits) out.push('', limitsLine(d.limits));
  out.push(
    '',
    `Correctness: expected ${num(line.expected)}, executed ${num(line.executed)}, missed ${num(line.missed)}, ` +
      `duplicates ${num(line.duplicates)}, out of order ${num(line.outOfOrder)} ` +
      `(unexpected fires ${num(d.unexpected)}, dead letters ${d.deadLetters === null ? 'none kept (SQLite: logged)' : num(d.deadLetters)}` +
      `${d.drainedInSeconds === null ? ', not drained' : `, drained ${num(d.drainedInSeconds, 1)} s after the window`})`,
    `Lateness, handler receipt − scheduled time: p50 ${num(line.latenessMs.p50)} / p90 ${num(line.latenessMs.p90)} / ` +
      `p99 ${num(line.latenessMs.p99)} / max ${num(line.latenessMs.max)} ms; leaving the dispatcher p50 ` +
      `${num(d.sendLatenessMs.p50)} / p90 ${num(d.sendLatenessMs.p90)} / p99 ${num(d.sendLatenessMs.p99)} / ` +
      `max ${num(d.sendLatenessMs.max)} ms`,
    `Throughput: ${num(line.triggersPerSecond, 1)} triggers/s; tick iteration (longest per second) ` +
      `p50 ${num(line.tickMsPerSecond.p50)} / max ${num(line.tickMsPerSecond.max)} ms, ` +
      `${num(d.tick.iterationsPerSecond, 1)} iterations/s (one per live tick invocation)` +
      (d.tick.secondsWithoutIteration ? `, ${d.tick.secondsWithoutIteration} s without one starting` : ''),
    cpuText('window', d.resources),
  );
  if (d.faults.dropped || d.faults.duplicated) {
    const fire = (f?: { jobId: number; scheduledTime: number }) =>
      f ? `job ${f.jobId} @ ${new Date(f.scheduledTime).toISOString()}` : 'none';
    out.push(`Injected faults: dropped ${fire(d.faults.dropped)}; duplicated ${fire(d.faults.duplicated)}`);
  }
  out.push('', ...usageSections(d.usage, per, triggers, 'trigger'));
  if (d.usage.store === 'dynamodb-local') {
    out.push(
      '',
      `Cost per trigger: window usage / ${num(triggers)} triggers; USD per million triggers at ${PRICES.region} ` +
        `list prices of ${PRICES.asOf} (bench/prices.ts), no free tier`,
      table(
        ['', 'per trigger', 'USD / M triggers'],
        [
          [
            'DynamoDB read / write units',
            `${num(d.perTrigger.dynamodbReadUnits, 3)} / ${num(d.perTrigger.dynamodbWriteUnits, 3)}`,
            num(d.usd.dynamodb, 3),
          ],
          ['SQS requests', num(d.perTrigger.sqsRequests, 3), num(d.usd.sqs, 3)],
          ['Lambda invocations', num(d.perTrigger.lambdaInvocations, 4), num(d.usd.lambdaRequests, 3)],
          ['Lambda GB-s (estimated)', num(d.perTrigger.lambdaGbSeconds, 5), num(d.usd.lambdaDuration, 3)],
          ['total', '', num(d.usd.total, 3)],
        ],
      ),
    );
  }
  out.push(
    '',
    'Lambda by function (invocations started in the window; GB-s = local run time inside the window × configured memory):',
    table(
      [
        'function',
        'invocations',
        'per trigger',
        'mean ms',
        'memory MB',
        'GB-s per trigger',
        'USD / M triggers',
      ],
      d.functions.map((f) => [
        f.functionName,
        num(f.invocations),
        per(f.invocations, 4),
        num(f.meanDurationMs),
        num(f.memoryMb),
        per(f.gbSeconds, 5),
        num(
          triggers > 0
            ? ((f.invocations * PRICES.lambda.usdPerMillionRequests) / 1e6 +
                f.gbSeconds * PRICES.lambda.usdPerGbSecond) *
                (1e6 / triggers)
            : Number.NaN,
          3,
        ),
      ]),
    ),
  );
  return out.join('\n');
}

/** The store's requests by operation and table, per trigger or node run. */
function usageSections(
  usage: StoreUsage,
  per: (n: number, digits?: number) => string,
  triggers: number,
  unit: string,
): string[] {
  if (usage.store === 'sqlite') {
    return [
      `SQLite statements per ${unit}: ${per(usage.sqlite.statements)} (${per(usage.sqlite.transactions)} write ` +
        `transactions; a statement outside one commits alone), ${num(triggers > 0 ? usage.sqlite.ms / triggers : Number.NaN, 3)} ms ` +
        `in them per ${unit} on the one connection (${num(usage.sqlite.ms)} ms in all); by kind and table:`,
      sqliteTable(usage.sqlite, per),
    ];
  }
  return [
    `DynamoDB by operation and table, per ${unit} (a transaction counts as a request of each table it touches):`,
    dynamoTable(usage.dynamodb, per),
    '',
    `SQS by operation and queue, per ${unit} (billed requests of the stack's client: the tick's sends, the event ` +
      "source's receives, empty ones apart, and deletes):",
    sqsTable(usage.sqs, per),
  ];
}

function cpuText(phase: string, resources: ResourceReport): string {
  const { node, jvm } = resources;
  const threads = node.threads;
  return (
    `CPU in the ${phase}: node ${num(node.cpuCores, 2)} cores` +
    (threads
      ? ` (main thread: the stack ${num(threads.main.cpuCores, 2)}, executors' workers ` +
        `${num(threads.executors?.cpuCores ?? Number.NaN, 2)}, other threads: GC, compiler, libuv ${num(threads.other.cpuCores, 2)})`
      : '') +
    (jvm ? `, DynamoDB Local ${num(jvm.cpuCores, 2)} cores` : '') +
    `, event-loop delay p99 ${num(node.eventLoopDelayP99Ms)} ms`
  );
}

/** The one JSON line: numbers to four significant digits, NaN as null. */
export function jsonLine(line: BenchLine | WorkflowBenchLine | Record<string, unknown> | undefined): string {
  return JSON.stringify(line, fourDigits);
}

type RunOf<R> = { readonly result: R; readonly context: RunContext };

/**
 * The JSON file: per run the line's fields, then everything behind them under `details`; one run is
 * the file itself, several are `{ runs }`, a knee search `{ knee, runs }`.
 */
export function jsonFile(
  runs: readonly RunOf<BenchResult | WorkflowBenchResult>[],
  knees?: readonly { readonly store: BenchStore; readonly knee: Knee<unknown> }[],
): string {
  const files = runs.map(({ result, context }) => ({
    ...result.line,
    details: { ...context, machine: machine(), prices: PRICES, ...result.details },
  }));
  const file = knees
    ? {
        knee: knees.map(({ store, knee }) => ({
          store,
          highestCleanJobs: knee.highestClean ?? null,
          lowestFailedJobs: knee.lowestFailed ?? null,
        })),
        runs: files,
      }
    : files.length === 1
      ? files[0]
      : { runs: files };
  return `${JSON.stringify(file, fourDigits, 2)}\n`;
}

const LIMIT_HEADERS = ['store alone'];

/** The headline of a store's limits, for the side-by-side tables. */
function limitsCell(limits: StoreLimits | null): string {
  if (!limits) return 'not measured';
  if (limits.store === 'sqlite') {
    return (
      `${num(limits.conditionalInsertsPerSecond)} cond. inserts/s, ${num(limits.updatesPerSecond)} updates/s, ` +
      `${num(limits.rangeReadsPerSecond)} range reads/s, ring ${num(limits.ringMessagesPerSecond)} msgs/s`
    );
  }
  return (
    `${num(limits.dynamodbConditionalWritesPerSecond)} cond. PutItem/s, SQS ${num(limits.sqsMessagesPerSecond)} msgs/s, ` +
    `delay p99 ${signed(limits.sqsDelayP99Ms)} ms`
  );
}

const RUN_HEADERS = [
  'store',
  'load',
  'jobs',
  'expected / executed',
  'missed',
  'dup.',
  'out of order',
  'lateness p50 / p99 / max ms',
  'triggers/s',
  'store requests per trigger',
  'CPU cores: node (stack / executors / other), JVM',
  ...LIMIT_HEADERS,
];

function runRow({ result: { line, details }, context }: RunOf<BenchResult>): string[] {
  const cpu = line.cpuCores;
  return [
    line.store,
    num(context.loadAverage, 2),
    num(line.jobs),
    `${num(line.expected)} / ${num(line.executed)}`,
    num(line.missed),
    num(line.duplicates),
    num(line.outOfOrder),
    `${num(line.latenessMs.p50)} / ${num(line.latenessMs.p99)} / ${num(line.latenessMs.max)}`,
    num(line.triggersPerSecond, 1),
    `${num(line.perTrigger.storeRequests, 2)}${line.store === 'sqlite' ? ' statements' : ' DynamoDB requests'}`,
    `${num(cpu.node, 2)} (${num(cpu.stack, 2)} / ${num(cpu.executors, 2)} / ${num(cpu.otherThreads, 2)})` +
      (Number.isFinite(cpu.dynamodbLocal) ? `, ${num(cpu.dynamodbLocal, 2)}` : ''),
    limitsCell(details.limits),
  ];
}

/** The runs of one invocation side by side, each beside its store's own limits. */
export function comparison(runs: readonly RunOf<BenchResult>[]): string {
  return [
    'The stores side by side (each measured alone just before its run):',
    table(RUN_HEADERS, runs.map(runRow)),
  ].join('\n');
}

/** A knee search per store: every step, and the highest clean count. */
export function kneeSummary(
  knees: readonly { readonly store: BenchStore; readonly knee: Knee<RunOf<BenchResult>> }[],
): string {
  const out: string[] = [];
  for (const { store, knee } of knees) {
    out.push(
      `Knee on ${store}: highest clean ${knee.highestClean === undefined ? 'none' : `${num(knee.highestClean)} jobs`}` +
        `${knee.lowestFailed === undefined ? ' (none failed)' : `, lowest failed ${num(knee.lowestFailed)} jobs`} ` +
        '(clean: every fire of the window ran once and in order)',
      table(
        RUN_HEADERS,
        knee.steps.map((step) => runRow(step.result)),
      ),
      '',
    );
  }
  return out.join('\n').trimEnd();
}

/** A JSON file's text: indented, numbers to four significant digits, NaN as null. */
export function jsonText(value: unknown): string {
  return `${JSON.stringify(value, fourDigits, 2)}\n`;
}

function fourDigits(_key: string, value: unknown): unknown {
  return typeof value === 'number' && !Number.isInteger(value) && Number.isFinite(value)
    ? Number(value.toPrecision(4))
    : value;
}

/** The machine's cores, CPU, memory and node version, for the summaries and the files. */
export function machine(): string {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  return `${cpus().length} × ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}`;
}

const signed = (ms: number): string => (Number.isFinite(ms) ? `${ms >= 0 ? '+' : ''}${num(ms)}` : '–');

function limitsLine(limits: StoreLimits): string {
  if (limits.store === 'sqlite') {
    return (
      `SQLite alone (own file, same settings, one connection): ${num(limits.conditionalInsertsPerSecond)} conditional ` +
      `inserts/s, ${num(limits.updatesPerSecond)} conditional updates/s (each its own commit), ` +
      `${num(limits.rangeReadsPerSecond)} range reads of 10 rows/s; ring ${num(limits.ringSendsPerSecond)} sends/s, ` +
      `${num(limits.ringReceivesPerSecond)} msgs received/s (in tens), ${num(limits.ringDeletesPerSecond)} deletes/s, ` +
      `${num(limits.ringMessagesPerSecond)} msgs/s through all three`
    );
  }
  const delay = limits.sqsDelayErrorMs;
  return (
    `Stand-ins alone: DynamoDB Local ${num(limits.dynamodbConditionalWritesPerSecond)} conditional PutItem/s ` +
    `(32 in flight); SQS stand-in ${num(limits.sqsMessagesPerSecond)} messages/s sent, received and deleted ` +
    `(batches of 10); DelaySeconds 1 arrived p50 ${signed(delay.p50)} / p99 ${signed(delay.p99)} / ` +
    `max ${signed(delay.max)} ms from its time`
  );
}

function sqliteTable(usage: SqliteUsage, per: (n: number, digits?: number) => string): string {
  return table(
    ['statement', 'table', 'statements', 'ms'],
    usage.rows.map((r) => [r.operation, r.table, per(r.statements), per(r.ms, 4)]),
  );
}

function dynamoTable(usage: DynamoUsage, per: (n: number) => string): string {
  return table(
    ['operation', 'table', 'requests', 'read units', 'write units', 'on indexes', 'failed', 'estimated'],
    usage.rows.map((r) => [
      r.operation,
      r.table,
      per(r.requests),
      per(r.readUnits),
      per(r.writeUnits),
      per(r.indexUnits),
      per(r.failed),
      per(r.estimatedWriteUnits),
    ]),
  );
}

function sqsTable(usage: SqsUsage, per: (n: number) => string): string {
  return table(
    ['operation', 'queue', 'requests', 'messages'],
    usage.rows.map((r) => [r.operation, r.queue, per(r.requests), per(r.messages)]),
  );
}

const latency = (s: LatencySummary): string =>
  `p50 ${num(s.p50)} / p95 ${num(s.p95)} / p99 ${num(s.p99)} / max ${num(s.max)} ms`;

/** The workflow mode's human summary (everything but the JSON line). */
export function workflowSummary(result: WorkflowBenchResult, context: RunContext): string {
  const { line, details: d } = result;
  const nodeRuns = line.nodeRuns;
  const per = (n: number, digits = 3) => num(nodeRuns > 0 ? n / nodeRuns : Number.NaN, digits);
  const idle = (perSecond: number, digits = 3) => per(perSecond * d.phase.seconds, digits);
  const statuses = Object.entries(d.statuses)
    .map(([status, n]) => `${status} ${num(n)}`)
    .join(', ');
  const out: string[] = [];
  out.push(
    `tickring workflow benchmark: ${num(line.workflows)} runs of ${d.shape}, ${d.executors} workflow(s) and ` +
      `executor group(s) (overlap ALLOW), triggered over ${num(d.triggerSpreadMs / 1000)} s through the admin API; ` +
      `node handler ${d.handlerMs} ms + a small JSON result; ${d.shards} shards; phase ${num(d.phase.seconds, 1)} s from ${d.phase.start}`,
    `${machine()}, load ${num(context.loadAverage, 2)} at the start; ${storeText(context)}`,
    `setup: executors ${num(d.setupSeconds.executors, 1)} s, workflows ${num(d.setupSeconds.workflows, 1)} s, ` +
      `one warm-up run each (not measured) ${num(d.setupSeconds.warmup, 1)} s`,
  );
  if (d.limits) out.push('', limitsLine(d.limits));
  out.push(
    '',
    `Correctness: ${num(line.workflows)} runs: ${statuses}; node runs ${num(nodeRuns)} of ${num(d.expectedNodeRuns)}, ` +
      `not run ${num(line.missingNodes)}, run twice ${num(line.duplicateNodes)}, retried ${num(d.retriedNodes)}; ` +
      `last node without the results passed along ${num(line.wrongResults)}; dead letters ${num(d.deadLetters)}`,
    `Lateness, a node's upstream result recorded (the latest upstream job run's handleTime) → its job run dispatched ` +
      `(dispatchedAt), ${num(d.latenessMs.n)} non-root nodes: ${latency(d.latenessMs)} (target p99 ≤ ${d.usage.store === 'sqlite' ? 100 : 200} ms)`,
    `  upstream result → engine fired the node (run saved): ${latency(d.toFiredMs)}`,
    `  engine fired → dispatcher made the node's job run (ring, its reads, route): ${latency(d.firedToDispatchedMs)}`,
    `  dispatchedAt → executor's handler called (claim write, node run noted, HTTP, executor): ${latency(d.dispatchedToReceivedMs)}; ` +
      `upstream result → handler called: ${latency(d.toReceivedMs)}`,
    `Roots, trigger (run created) → dispatched: ${latency(d.rootStartMs)}; whole runs, trigger → ended: ${latency(d.runMs)}`,
    d.usage.store === 'sqlite'
      ? `SQLite ran the stack's ${num(d.storeRequestMs.n)} statements (BEGIN/COMMIT included) of the phase in ${latency(d.storeRequestMs)} each`
      : `DynamoDB Local answered the stack's ${num(d.storeRequestMs.n)} requests of the phase in ${latency(d.storeRequestMs)} each`,
    cpuText('phase', d.resources),
    '',
    `Usage per node run: everything the stack asked of its store in the phase ÷ ${num(nodeRuns)} node runs: the ` +
      `${num(line.workflows)} trigger calls (auth, audit, the run's start), the engine's workflow-table reads and ` +
      'writes, the dispatcher (claim, run records, route), the callback (results), and what an idle stack does ' +
      `anyway (tick, pollers, beats; measured ${d.idle.seconds} s before the runs, scaled to the phase). USD per million ` +
      `node runs at ${PRICES.region} list prices of ${PRICES.asOf}, no free tier`,
    table(
      ['', 'per node run', 'idle stack, as long', 'USD / M node runs'],
      [
        [
          'DynamoDB read / write units',
          `${num(d.perNodeRun.dynamodbReadUnits, 3)} / ${num(d.perNodeRun.dynamodbWriteUnits, 3)}`,
          `${idle(d.idle.dynamodbReadUnitsPerSecond)} / ${idle(d.idle.dynamodbWriteUnitsPerSecond)}`,
          num(d.usd.dynamodb, 3),
        ],
        [
          d.usage.store === 'sqlite' ? 'SQLite statements' : 'DynamoDB requests',
          num(line.perNodeRun.storeRequests, 3),
          idle(d.idle.storeRequestsPerSecond),
          '',
        ],
        [
          'SQS requests',
          num(d.perNodeRun.sqsRequests, 3),
          idle(d.idle.sqsRequestsPerSecond),
          num(d.usd.sqs, 3),
        ],
        ['Lambda invocations', num(d.perNodeRun.lambdaInvocations, 4), '', num(d.usd.lambdaRequests, 3)],
        ['Lambda GB-s (estimated)', num(d.perNodeRun.lambdaGbSeconds, 5), '', num(d.usd.lambdaDuration, 3)],
        ['total', '', '', num(d.usd.total, 3)],
      ],
    ),
    '',
    ...usageSections(d.usage, per, nodeRuns, 'node run'),
    '',
    'Lambda by function (invocations started in the phase):',
    table(
      ['function', 'invocations', 'per node run', 'mean ms', 'memory MB'],
      d.functions.map((f) => [
        f.functionName,
        num(f.invocations),
        per(f.invocations, 4),
        num(f.meanDurationMs),
        num(f.memoryMb),
      ]),
    ),
  );
  return out.join('\n');
}
