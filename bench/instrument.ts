/** Wall-clock span (first start to last end) and call count of each named operation. */
export class PhaseTimer {
  private readonly phases = new Map<string, { start: number; end: number; calls: number; busyMs: number }>();

  async time<R>(name: string, fn: () => Promise<R>): Promise<R> {
    const start = performance.now();
    try {
      return await fn();
    } finally {
      const end = performance.now();
      const phase = this.phases.get(name);
      if (phase) {
        phase.start = Math.min(phase.start, start);
        phase.end = Math.max(phase.end, end);
        phase.calls++;
        phase.busyMs += end - start;
      } else {
        this.phases.set(name, { start, end, calls: 1, busyMs: end - start });
      }
    }
  }

  /** Per operation: its span relative to `origin` (performance.now() ms) and its calls. */
  report(origin: number): Record<string, { fromMs: number; toMs: number; calls: number }> {
    return Object.fromEntries(
      [...this.phases].map(([name, p]) => [
        name,
        { fromMs: Math.round(p.start - origin), toMs: Math.round(p.end - origin), calls: p.calls },
      ]),
    );
  }

  reset(): void {
    this.phases.clear();
  }
}

/**
 * The same object with the named async methods timed under `prefix.method`; everything else is
 * passed through (methods bound to the target, so private fields keep working).
 */
export function timed<T extends object>(
  target: T,
  prefix: string,
  methods: readonly (keyof T & string)[],
  timer: PhaseTimer,
): T {
  const names = new Set<string>(methods);
  return new Proxy(target, {
    get(obj, prop) {
      const value: unknown = Reflect.get(obj, prop, obj);
      if (typeof value !== 'function') return value;
      const fn = value as (...args: unknown[]) => Promise<unknown>;
      if (typeof prop === 'string' && names.has(prop)) {
        return (...args: unknown[]) => timer.time(`${prefix}.${prop}`, () => fn.apply(obj, args));
      }
      return fn.bind(obj);
    },
  });
}
