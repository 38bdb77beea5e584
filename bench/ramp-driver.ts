import { loadavg } from 'node:os';
import { countFires, expectedFires, type JobSchedule, type TimeWindow } from './fire-count.js';
import type { RampStepCpu } from './ramp-result.js';
import type { ReceiptLog } from './receipt-log.js';
import { num } from './table.js';

/** What a ramp runs on: tickring's stack on a store, or the BullMQ peer. */
export interface RampTarget {
  /** For the progress lines: "sqlite", "bullmq". */
  readonly label: string;
  /** Adds jobs (schedulers) firing every second until there are `total`; returns the new ones. */
  grow(total: number): Promise<JobSchedule[]>;
  /** Measures CPU from `start` to `stop` (a step's window). */
  cpu(): { start(): void; stop(): RampStepCpu };
}

export interface RampDriveOptions {
  /** The steps' offered rates, fires/s. */
  readonly rates: readonly number[];
  /** Each step's measured window, s. */
  readonly stepSeconds: number;
  /** A step's window opens this long after its last new job's first fire, s. */
  readonly warmupSeconds: number;
  /** After the last window, the longest wait for its fires, s. */
  readonly drainSeconds: number;
  readonly log: (message: string) => void;
}

/** A step as it ran: its window and what was measured in it; counted later, once everything has settled. */
export interface DrivenStep {
  readonly offered: number;
  readonly window: TimeWindow;
  readonly cpuCores: RampStepCpu;
  readonly loadAverage: number;
  readonly setupSeconds: number;
}

export interface DrivenRamp {
  readonly steps: readonly DrivenStep[];
  /** Every job (scheduler) the ramp made, with its first fire. */
  readonly jobs: readonly JobSchedule[];
  /** Why the ramp ended before its last step (adding a step's jobs failed); the steps before it stand. */
  readonly stoppedEarly?: { readonly offered: number; readonly reason: string };
}

const DRAIN_POLL_MS = 250;
/**
 * A fire not run this long after the last window is given up (tickring skips a fire 5 s late) once
 * no more of the window's fires have run for DRAIN_QUIET_MS: the rest are skipped or missed.
 */
const DRAIN_SETTLE_MS = 10_000;
const DRAIN_QUIET_MS = 5_000;

/**
 * Runs the ramp on one target that keeps running from step to step: each step adds the jobs that
 * bring the offered rate to its own, waits for their first fires and a warm-up, and measures a
 * window; the overload of one step is still there when the next begins, as in a real ramp. After the
 * last window it waits (bounded) for that window's fires. Prints a line per step as it goes, from
 * the runs received so far (what is skipped is counted at the end).
 */
export async function driveRamp(
  target: RampTarget,
  receipts: ReceiptLog,
  options: RampDriveOptions,
): Promise<DrivenRamp> {
  const jobs: JobSchedule[] = [];
  const steps: DrivenStep[] = [];
  const { log } = options;
  for (const [i, rate] of options.rates.entries()) {
    const name = `ramp on ${target.label}, step ${i + 1}/${options.rates.length} (${num(rate)} fires/s)`;
    const setupStarted = performance.now();
    if (rate > jobs.length) {
      log(`${name}: adding ${num(rate - jobs.length)} jobs ...`);
      try {
        jobs.push(...(await target.grow(rate)));
      } catch (err) {
        // An overloaded stack may fail its own admin API: the steps measured so far still stand.
        const reason = err instanceof Error ? err.message : String(err);
        log(`${name}: adding its jobs failed (${reason}); the ramp stops here`);
        const last = steps.at(-1);
        if (last) await drain(last.window, jobs, receipts, options);
        return { steps, jobs, stoppedEarly: { offered: rate, reason } };
      }
    }
    const setupSeconds = (performance.now() - setupStarted) / 1000;
    const lastFirstFire = Math.max(...jobs.map((j) => j.firstFire), Date.now());
    const start = wholeSecondAtOrAfter(lastFirstFire + options.warmupSeconds * 1000);
    const window = { start, end: start + options.stepSeconds * 1000 };
    await sleepUntil(window.start);
    const cpu = target.cpu();
    cpu.start();
    await sleepUntil(window.end);
    const cpuCores = cpu.stop();
    const step = { offered: rate, window, cpuCores, loadAverage: loadavg()[0] ?? Number.NaN, setupSeconds };
    steps.push(step);
    const soFar = countFires(expectedFires(jobs, window), receipts.receipts, window);
    log(
      `${name}: ran ${num(soFar.executed)} of ${num(soFar.expected)} so far (${num(soFar.executed / options.stepSeconds, 1)}/s), ` +
        `lateness p99 ${num(soFar.latenessMs.p99)} ms, node ${num(cpuCores.node, 2)} cores` +
        (Number.isFinite(cpuCores.store) ? `, store ${num(cpuCores.store, 2)} cores` : '') +
        `, load ${num(step.loadAverage, 2)}`,
    );
  }
  const last = steps.at(-1);
  if (last) await drain(last.window, jobs, receipts, options);
  return { steps, jobs };
}

async function drain(
  window: TimeWindow,
  jobs: readonly JobSchedule[],
  receipts: ReceiptLog,
  options: RampDriveOptions,
): Promise<void> {
  options.log(`the ramp's last window is over; waiting up to ${options.drainSeconds} s for its fires ...`);
  const expected = expectedFires(jobs, window);
  const deadline = window.end + options.drainSeconds * 1000;
  let missing = receipts.notYetRun(expected);
  let lastProgress = Date.now();
  while (missing > 0 && Date.now() < deadline) {
    await sleep(DRAIN_POLL_MS);
    const now = receipts.notYetRun(expected);
    if (now < missing) lastProgress = Date.now();
    missing = now;
    if (Date.now() > window.end + DRAIN_SETTLE_MS && Date.now() - lastProgress > DRAIN_QUIET_MS) break;
  }
}

export const wholeSecondAtOrAfter = (ms: number): number => Math.ceil(ms / 1000) * 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const sleepUntil = (epochMs: number) => sleep(epochMs - Date.now());
