import type { LogAttributes, Logger } from '@tickring/core/common';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
export type JsonLogLevel = keyof typeof LEVELS;

/** Where the lines go: stdout by default (journald keeps them with the unit's name). */
export type LineSink = (line: string) => void;

const toStdout: LineSink = (line) => {
  process.stdout.write(`${line}\n`);
};

/**
 * One JSON object per event (`time`, `level`, `source`, `message`, then the attributes), for journald
 * and log shippers; the attributes never override those four. Errors become their message.
 */
export function jsonLogger(
  source: string,
  minLevel: JsonLogLevel = 'info',
  sink: LineSink = toStdout,
): Logger {
  const write = (level: JsonLogLevel) => (message: string, attributes?: LogAttributes) => {
    if (LEVELS[level] < LEVELS[minLevel]) return;
    const record: Record<string, unknown> = { time: new Date().toISOString(), level, source, message };
    for (const [key, value] of Object.entries(attributes ?? {})) {
      if (value === undefined || key in record) continue;
      record[key] = value instanceof Error ? value.message : value;
    }
    sink(JSON.stringify(record, safeValue));
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

/** BigInts as strings (JSON has none), so a log line never throws. */
function safeValue(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
