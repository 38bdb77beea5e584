import type { Workflow } from '@tickring/client';
import { useState } from 'preact/hooks';
import { BackfillDialog, Backfills, canBackfillWorkflow, workflowTarget } from '../jobs/backfills';

/**
 * A scheduled workflow's backfills on its page: Backfill… (the range's fires counted first, then
 * started, a workflow run each) and the list with live progress and Cancel. Nothing for a workflow
 * without a CRON or FIX_RATE schedule.
 */
export function WorkflowBackfills({ workflow, operate }: { workflow: Workflow; operate: boolean }) {
  const [open, setOpen] = useState(false);
  // Moves on when a backfill starts here, so the list reads it at once.
  const [reloadKey, setReloadKey] = useState(0);
  if (!canBackfillWorkflow(workflow)) return null;
  const target = workflowTarget(workflow);
  return (
    <section class="detail-section" aria-labelledby="wf-backfills-heading">
      <h2 id="wf-backfills-heading">Backfills</h2>
      {operate && (
        <p>
          <button type="button" class="secondary" onClick={() => setOpen(true)}>
            Backfill…
          </button>
        </p>
      )}
      <Backfills target={target} operate={operate} reloadKey={reloadKey} />
      {operate && (
        <BackfillDialog
          target={target}
          open={open}
          onClose={() => setOpen(false)}
          onStarted={() => {
            setOpen(false);
            setReloadKey((k) => k + 1);
          }}
        />
      )}
    </section>
  );
}
