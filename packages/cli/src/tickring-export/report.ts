/**
 * The import's report for people ({@link formatReport}) and its tally ({@link countReport}); the
 * report itself (apply.ts) is the `--json` output.
 */
import type { ImportReport, ItemReport, LinkReport, StartReport } from './apply.js';

export interface ReportCounts {
  readonly groups: Readonly<Record<string, number>>;
  readonly jobs: Readonly<Record<string, number>>;
  readonly workflows: Readonly<Record<string, number>>;
  readonly links: Readonly<Record<string, number>>;
  readonly starts: Readonly<Record<string, number>>;
}

export function countReport(report: ImportReport): ReportCounts {
  const tally = (list: readonly { outcome: string }[]) => {
    const counts: Record<string, number> = {};
    for (const { outcome } of list) counts[outcome] = (counts[outcome] ?? 0) + 1;
    return counts;
  };
  return {
    groups: tally(report.groups),
    jobs: tally(report.jobs),
    workflows: tally(report.workflows),
    links: tally(report.links),
    starts: tally(report.starts),
  };
}

/** What was not imported (failed or skipped), as "2 job(s) failed" phrases; empty when all is well. */
export function shortfalls(report: ImportReport): string[] {
  const counts = countReport(report);
  const phrases: string[] = [];
  for (const [kind, what] of [
    ['groups', 'group(s)'],
    ['jobs', 'job(s)'],
    ['workflows', 'workflow(s)'],
    ['links', 'child link(s)'],
    ['starts', 'start(s)'],
  ] as const) {
    for (const outcome of ['failed', 'skipped'] as const) {
      const n = counts[kind][outcome] ?? 0;
      if (n > 0) phrases.push(`${n} ${what} ${outcome}`);
    }
  }
  return phrases;
}

export function formatReport(report: ImportReport): string {
  const counts = countReport(report);
  const lines: string[] = [
    `${report.dryRun ? 'Dry run: nothing was sent. ' : ''}Import of the export of ${report.source.url} (${report.source.exportedAt})`,
    '',
  ];
  const summary = (label: string, c: Readonly<Record<string, number>>) =>
    `${label}: ${
      Object.entries(c)
        .map(([outcome, n]) => `${n} ${outcome === 'there' ? 'there already' : outcome}`)
        .join(', ') || 'none'
    }`;

  const section = (title: string, items: readonly ItemReport[], c: Readonly<Record<string, number>>) => {
    lines.push(summary(title, c));
    for (const it of items) {
      const id = it.id === undefined || it.ref === String(it.id) ? '' : ` → #${it.id}`;
      const message = it.message ? `: ${it.message}` : '';
      lines.push(`  ${it.ref}${id}  ${it.name}  ${it.outcome}${message}`);
      for (const d of it.differences) lines.push(`      differs: ${d}`);
      for (const n of it.notes) lines.push(`      note: ${n}`);
    }
  };
  section('Groups', report.groups, counts.groups);
  section('Jobs', report.jobs, counts.jobs);
  section('Workflows', report.workflows, counts.workflows);

  lines.push(summary('Child links', counts.links));
  for (const l of report.links) lines.push(`  ${linkLine(l)}`);

  lines.push(summary('RUNNING on the source', counts.starts));
  for (const s of report.starts) lines.push(`  ${startLine(s)}`);
  if (report.starts.some((s) => s.outcome === 'to start')) {
    lines.push(
      '',
      'Created STOPPED: the source still schedules them, and two schedulers on one set of jobs fire each',
      'of them twice. Once the source is stopped (and the executors point here), run the import again',
      'with --start: it creates nothing and starts these.',
    );
  }
  return `${lines.join('\n')}\n`;
}

function linkLine(l: LinkReport): string {
  const id = l.id === undefined ? '' : ` → #${l.id}`;
  const children = l.children.map((c) => `#${c}`).join(', ');
  const outcome = l.outcome === 'there' ? 'there already' : l.outcome;
  return `${l.ref}${id}  ${l.name}  children ${children}  ${outcome}${l.message ? `: ${l.message}` : ''}`;
}

function startLine(s: StartReport): string {
  const id = s.id === undefined || s.id === null ? '' : ` → #${s.id}`;
  const outcome = s.outcome === 'running' ? 'running already' : s.outcome;
  return `${s.kind} ${s.ref}${id}  ${s.name}  ${outcome}${s.message ? `: ${s.message}` : ''}`;
}
