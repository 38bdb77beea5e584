import { endToEndSuite } from './e2e-scenarios.js';

/**
 * The end-to-end scenarios on the embedded engine that follow a job's edits, retries and child
 * jobs (the schedule-bound ones are in e2e.int.test.ts).
 */
endToEndSuite('sqlite', { scenarios: ['edits', 'retries', 'child'] });
