import { loadavg } from 'node:os';
import type { BenchStore, BenchTarget } from './bench-stack.js';
import { type BenchOptions, DEFAULT_KNEE_MAX, RAMP_OVER_KNEE, type RampOptions } from './options.js';
import { runBullmqRamp } from './ramp-bullmq.js';
import { overloadVerdict } from './ramp-count.js';
import type { RampDriveOptions } from './ramp-driver.js';
import { rampSteps } from './ramp-plan.js';
import { rampSeriesSummary } from './ramp-report.js';
import type { RampFile, RampKnee, RampSeries } from './ramp-result.js';
import { runTickringRamp, searchRampKnee } from './ramp-tickring.js';
import { machine } from './report.js';
import { num } from './table.js';

export interface RampRunEnvironment {
  /** Runs `work` on the store's target (DynamoDB Local and the SQS stand-in started for it, then stopped). */
  readonly onStore: <T>(store: BenchStore, work: (target: BenchTarget) => Promise<T>) => Promise<T>;
  readonly log: (message: string) => void;
  readonly onAbandon: (step: () => Promise<void>) => void;
  /** The command line's flags, for the file and the chart. */
  readonly command: string;
}

const STORE_NAMES: Record<BenchStore, string> = {
  sqlite: 'tickring on SQLite',
  'dynamodb-local': 'tickring on DynamoDB Local',
};

/**
 * The overload ramp: per store (one after the other) the knee (given, or searched), the step plan
 * up to 3× it and the ramp on one stack; then each peer on the steps of the plan that climbs
 * highest, after the stores, so nothing of ours runs beside it. Prints each series' table as it ends.
 */
export async function runRamp(
  options: BenchOptions & { readonly ramp: RampOptions },
  env: RampRunEnvironment,
): Promise<RampFile> {
  const { ramp } = options;
  const startedAt = new Date().toISOString();
  const loadAtStart = loadavg()[0] ?? Number.NaN;
  const drive = (rates: readonly number[]): RampDriveOptions => ({
    rates,
    stepSeconds: ramp.stepSeconds,
    warmupSeconds: options.warmupSeconds,
    drainSeconds: options.drainSeconds,
    log: env.log,
  });
  const series: RampSeries[] = [];
  const plans: { knee: RampKnee; rates: number[] }[] = [];
  for (const store of options.stores) {
    await env.onStore(store, async (target) => {
      const knee: RampKnee =
        ramp.knee !== undefined
          ? { rate: ramp.knee, source: 'given' }
          : await searchRampKnee(target, {
              executors: options.executors,
              shards: options.shards,
              maxJobs: DEFAULT_KNEE_MAX,
              log: env.log,
              onAbandon: env.onAbandon,
              stackLogLevel: options.stackLogLevel,
            });
      const rates = rampSteps({ start: ramp.start, knee: knee.rate, over: RAMP_OVER_KNEE });
      plans.push({ knee, rates });
      env.log(
        `ramp on ${store}: knee ${num(knee.rate)} fires/s (${knee.source}); steps ${rates.map((r) => num(r)).join(', ')} fires/s`,
      );
      const { steps, details } = await runTickringRamp(target, {
        ...drive(rates),
        executors: options.executors,
        shards: options.shards,
        onAbandon: env.onAbandon,
        stackLogLevel: options.stackLogLevel,
      });
      const done: RampSeries = {
        name: STORE_NAMES[store],
        system: store,
        knee,
        overload: overloadVerdict(steps),
        steps,
        details,
      };
      series.push(done);
      console.log('');
      console.log(rampSeriesSummary(done, ramp.stepSeconds));
    });
  }
  const highest = plans.reduce<(typeof plans)[number] | undefined>(
    (top, plan) => (top === undefined || (plan.rates.at(-1) ?? 0) > (top.rates.at(-1) ?? 0) ? plan : top),
    undefined,
  );
  for (const peer of ramp.peers) {
    if (!highest) break;
    env.log(
      `ramp on ${peer}: the steps of the highest plan, ${highest.rates.map((r) => num(r)).join(', ')} fires/s`,
    );
    const { steps, details } = await runBullmqRamp({ ...drive(highest.rates), onAbandon: env.onAbandon });
    const done: RampSeries = {
      name: 'BullMQ + Redis',
      system: peer,
      knee: { rate: highest.knee.rate, source: highest.knee.source },
      overload: overloadVerdict(steps),
      steps,
      details,
    };
    series.push(done);
    console.log('');
    console.log(rampSeriesSummary(done, ramp.stepSeconds));
  }
  const loads = series.flatMap((s) => s.steps.map((step) => step.loadAverage)).filter(Number.isFinite);
  const loadAtEnd = loadavg()[0] ?? Number.NaN;
  return {
    mode: 'ramp',
    command: env.command,
    startedAt,
    endedAt: new Date().toISOString(),
    machine: machine(),
    loadAverage: {
      start: loadAtStart,
      end: loadAtEnd,
      min: loads.length > 0 ? Math.min(...loads) : Number.NaN,
      max: loads.length > 0 ? Math.max(...loads) : Number.NaN,
    },
    series,
  };
}
