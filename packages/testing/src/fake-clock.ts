import type { Clock } from '@tickring/core/common';

/** A clock that only moves when slept on (or advanced): deterministic tick iterations. */
export class FakeClock implements Clock {
  constructor(private current: number) {}

  now(): number {
    return this.current;
  }

  async sleep(ms: number): Promise<void> {
    this.current += Math.max(0, ms);
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
