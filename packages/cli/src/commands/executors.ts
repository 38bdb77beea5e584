/** `tickring executors ls` and `tickring dashboard`. */
import type { Command } from 'commander';
import type { ActionRunner } from '../context.js';
import type { Palette } from '../output.js';
import { examples, intIn } from './args.js';

export function registerExecutors(program: Command, run: ActionRunner): void {
  const executors = program
    .command('executors')
    .description('executors by group, with their last heartbeat')
    .addHelpText('after', examples('tickring executors ls', 'tickring executors ls --app my-app'));

  executors
    .command('ls')
    .description('list executors by group: AUTO groups their registrations, MANUAL ones their addresses')
    .option('--app <appName>', 'only this group')
    .addHelpText('after', examples('tickring executors ls', 'tickring executors ls --app my-app --json'))
    .action(
      run<{ app?: string }>(async (ctx, _args, opts) => {
        const client = await ctx.client();
        const answer = await client.listExecutors({
          query: opts.app === undefined ? {} : { appName: opts.app },
        });
        if (ctx.json) return ctx.out.json(answer);
        const { c } = ctx.out;
        const rows: string[][] = [];
        for (const g of answer.items) {
          if (g.executors.length === 0) {
            rows.push([g.appName, g.addressType, c.dim('(none)'), '-', '-']);
            continue;
          }
          for (const e of g.executors) {
            rows.push([
              g.appName,
              g.addressType,
              e.address,
              e.online === null ? c.dim('unknown') : e.online ? c.green('online') : c.red('offline'),
              ctx.out.shortWhen(e.lastHeartbeat),
            ]);
          }
        }
        if (rows.length === 0 && answer.refused.length === 0) return ctx.out.note('No groups yet.');
        if (rows.length > 0) ctx.out.table(['APP NAME', 'TYPE', 'ADDRESS', 'STATE', 'LAST HEARTBEAT'], rows);
        if (answer.refused.length === 0) return;
        if (rows.length > 0) ctx.out.line();
        ctx.out.line(c.red(`Refused executor requests (last 24 h): ${answer.refused.length}`));
        ctx.out.table(
          ['APP NAME', 'ADDRESS', 'REASON', 'COUNT', 'FIRST SEEN', 'LAST SEEN'],
          answer.refused.map((r) => [
            r.appName === '' ? c.dim('(none)') : r.appName,
            r.address === '' ? c.dim('(unknown)') : r.address,
            r.reason,
            String(r.count),
            ctx.out.shortWhen(r.firstSeen),
            ctx.out.shortWhen(r.lastSeen),
          ]),
        );
        // Each reason's fix once, after the table (what a person acts on).
        for (const [reason, hint] of new Map(answer.refused.map((r) => [r.reason, r.hint]))) {
          ctx.out.note(`${reason}: ${hint}`);
        }
      }),
    );
}

export function registerDashboard(program: Command, run: ActionRunner): void {
  program
    .command('dashboard')
    .description('totals and the runs of each day (UTC days)')
    .option('--days <n>', 'the period in days (1-90)', intIn(1, 90), 7)
    .addHelpText('after', examples('tickring dashboard', 'tickring dashboard --days 30 --json'))
    .action(
      run<{ days: number }>(async (ctx, _args, opts) => {
        const client = await ctx.client();
        const d = await client.dashboard({ query: { days: opts.days } });
        if (ctx.json) return ctx.out.json(d);
        const { c } = ctx.out;
        const t = d.totals;
        ctx.out.details([
          ['period', `${d.fromDay} to ${d.toDay} (${d.days} day${d.days === 1 ? '' : 's'}, UTC)`],
          ['jobs', `${t.jobs} (${t.runningJobs} scheduled)`],
          ['executors', `${t.onlineExecutors} online`],
          [
            'runs',
            `${t.runs}: ${c.green(`${t.success} success`)}, ${c.red(`${t.fail} fail`)}, ${c.cyan(`${t.running} running`)}`,
          ],
          ['misfires', `${t.skipped} skipped (never sent; not among runs)`],
        ]);
        ctx.out.line();
        const max = Math.max(1, ...d.series.map((s) => s.success + s.fail + s.running));
        ctx.out.table(
          ['DAY', 'SUCCESS', 'FAIL', 'RUNNING', 'SKIPPED', ''],
          d.series.map((s) => [
            s.day,
            String(s.success),
            s.fail > 0 ? c.red(String(s.fail)) : '0',
            String(s.running),
            String(s.skipped),
            bar(s.success, s.fail, s.running, max, c),
          ]),
        );
      }),
    );
}

function bar(success: number, fail: number, running: number, max: number, c: Palette): string {
  const width = 30;
  const cells = (n: number) => (n === 0 ? 0 : Math.max(1, Math.round((n / max) * width)));
  // Without colour the kinds differ by their shade.
  const [ok, bad, busy] = c.isColorSupported ? ['█', '█', '█'] : ['█', '░', '▒'];
  return `${c.green(ok.repeat(cells(success)))}${c.red(bad.repeat(cells(fail)))}${c.cyan(busy.repeat(cells(running)))}`;
}
