import type { LogAttributes, Logger } from '@tickring/core/common';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
type Level = keyof typeof LEVELS;

/** The levels a console logger can be set to, least first; `silent` drops everything. */
export const CONSOLE_LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const;
export type ConsoleLogLevel = (typeof CONSOLE_LOG_LEVELS)[number];

/**
 * A readable one-line-per-event logger for a person watching `npm start`, in place of the JSON
 * lines the functions write in AWS. `minLevel: 'silent'` drops everything (tests).
 */
export function consoleLogger(source: string, minLevel: ConsoleLogLevel = 'info'): Logger {
  const write = (level: Level) => (message: string, attributes?: LogAttributes) => {
    if (minLevel === 'silent' || LEVELS[level] < LEVELS[minLevel]) return;
    const time = new Date().toISOString().slice(11, 23);
    const details = attributes
      ? Object.entries(attributes)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
          .join(' ')
      : '';
    const line = `${time} ${level === 'info' ? '' : `${level.toUpperCase()} `}[${source}] ${message}${details ? ` ${details}` : ''}`;
    (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(`${line}\n`);
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}
