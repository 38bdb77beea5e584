/** Parsers for commander arguments and options: a bad value is commander's usage error (exit 2). */
import { InvalidArgumentError } from 'commander';
import { parseInstant } from '../time.js';

/** A whole number from `min` to `max`. */
export function intIn(min: number, max: number = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return (value) => {
    const n = Number(value.trim());
    if (!/^\s*-?\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(
        max === Number.MAX_SAFE_INTEGER
          ? `expected a whole number ≥ ${min}`
          : `expected a whole number from ${min} to ${max}`,
      );
    }
    return n;
  };
}

/** A job id or logId: a positive integer. */
export const positiveId = intIn(1);

/** One of `choices`, given in any case. */
export function oneOf<const T extends string>(
  choices: readonly T[],
  caseOf: 'upper' | 'lower' = 'upper',
): (value: string) => T {
  return (value) => {
    const v = caseOf === 'upper' ? value.trim().toUpperCase() : value.trim().toLowerCase();
    if (!(choices as readonly string[]).includes(v)) {
      throw new InvalidArgumentError(`expected one of ${choices.join(', ')}`);
    }
    return v as T;
  };
}

/** A repeatable option: each use adds its value(s), commas separating several. */
export function collect(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v !== ''),
  ];
}

/** `--since` / `--until`: a span back from now or an instant, as ISO-8601 UTC. */
export function instant(now: () => number): (value: string) => string {
  return (value) => {
    try {
      return parseInstant(value, now()).toISOString();
    } catch (err) {
      throw new InvalidArgumentError((err as Error).message);
    }
  };
}

/** A list of job ids: `3,4,5`. */
export function idList(value: string): number[] {
  const parts = value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
  return parts.map((p) => {
    const n = Number(p);
    if (!/^\d+$/.test(p) || !Number.isSafeInteger(n) || n < 1) {
      throw new InvalidArgumentError(`expected job ids separated by commas; got ${JSON.stringify(p)}`);
    }
    return n;
  });
}

/** An example block for a command's help. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}

/** A workflow run's id: `wr-` and a lowercase token (letters, digits, '-'). */
export function workflowRunId(value: string): string {
  const v = value.trim();
  if (!/^wr-[a-z0-9-]{1,61}$/.test(v)) {
    throw new InvalidArgumentError(`expected a workflow run's id (wr-…); got ${JSON.stringify(value)}`);
  }
  return v;
}
