import type { InvocationInfo, InvocationObserver } from '../local/lambda-host.js';
import type { TimeWindow } from './fire-count.js';

/** One function's invocations over a window. */
export interface FunctionUsage {
  readonly functionName: string;
  readonly memoryMb: number;
  /** Invocations started inside the window (each is a billed request). */
  readonly invocations: number;
  /** Mean duration of those that also ended inside it, ms (NaN when none did). */
  readonly meanDurationMs: number;
  /**
   * Memory × run time spent inside the window, GB-s: an invocation running across the window's edge
   * (the 80 s tick loop) counts with the part inside. An estimate of Lambda's billed duration: local
   * run time on a shared machine, not Lambda's.
   */
  readonly gbSeconds: number;
}

interface Finished extends InvocationInfo {
  readonly endedAt: number;
}

/**
 * Counts the local host's invocations per function and their run time (a {@link InvocationObserver}
 * for `startLocal`). `beginWindow()` forgets what ended before; `usage(window)` reads the window.
 */
export class InvocationMeter implements InvocationObserver {
  private readonly running = new Map<string, InvocationInfo>();
  private finishedSinceBegin: Finished[] = [];

  started(call: InvocationInfo): void {
    this.running.set(call.requestId, call);
  }

  finished(call: InvocationInfo & { readonly endedAt: number; readonly ok: boolean }): void {
    this.running.delete(call.requestId);
    this.finishedSinceBegin.push(call);
  }

  beginWindow(): void {
    this.finishedSinceBegin = [];
  }

  /** Usage inside `window`; invocations still running count up to `now` (or the window's end). */
  usage(window: TimeWindow, now = Date.now()): FunctionUsage[] {
    const byName = new Map<
      string,
      { memoryMb: number; invocations: number; ms: number[]; gbSeconds: number }
    >();
    const add = (call: InvocationInfo, endedAt: number | undefined) => {
      const overlapMs = Math.max(
        0,
        Math.min(endedAt ?? now, window.end) - Math.max(call.startedAt, window.start),
      );
      const startedInside = call.startedAt >= window.start && call.startedAt < window.end;
      if (overlapMs === 0 && !startedInside) return;
      let entry = byName.get(call.functionName);
      if (!entry) {
        entry = { memoryMb: call.memoryMb, invocations: 0, ms: [], gbSeconds: 0 };
        byName.set(call.functionName, entry);
      }
      if (startedInside) entry.invocations++;
      if (startedInside && endedAt !== undefined && endedAt <= window.end)
        entry.ms.push(endedAt - call.startedAt);
      entry.gbSeconds += (call.memoryMb / 1024) * (overlapMs / 1000);
    };
    for (const call of this.finishedSinceBegin) add(call, call.endedAt);
    for (const call of this.running.values()) add(call, undefined);
    return [...byName]
      .map(([functionName, e]) => ({
        functionName,
        memoryMb: e.memoryMb,
        invocations: e.invocations,
        meanDurationMs: e.ms.length ? e.ms.reduce((s, v) => s + v, 0) / e.ms.length : Number.NaN,
        gbSeconds: e.gbSeconds,
      }))
      .sort((a, b) => a.functionName.localeCompare(b.functionName));
  }
}
