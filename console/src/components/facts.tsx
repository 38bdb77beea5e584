import type { ComponentChildren } from 'preact';
import { exactTime } from '../lib/format';
import { Time } from './common';

// The pieces of a facts list (`<dl class="facts">`) on the run and workflow-run pages.

/** One fact of a facts list: its term and its value. */
export function Fact({ term, children }: { term: string; children: ComponentChildren }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </>
  );
}

/** An instant shown relative ("3 minutes ago") and exact beside it; a dash when there is none. */
export function RelativeAndExactTime({ at }: { at: string | null }) {
  if (!at) return <span class="muted">—</span>;
  return (
    <>
      <Time at={at} /> <span class="muted small nowrap">{exactTime(at)}</span>
    </>
  );
}
