import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { ShownError } from '../lib/api';
import { exactTime, relativeTime } from '../lib/format';

/** A time shown relative ("3 minutes ago"), the exact instant on hover and for screen readers. */
export function Time({ at, zone }: { at: string | null | undefined; zone?: string }) {
  const [, setNow] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setNow((n) => n + 1), 15_000);
    return () => clearInterval(timer);
  }, []);
  if (!at) return <span class="muted">—</span>;
  const exact = exactTime(at, zone);
  return (
    <time dateTime={at} title={exact}>
      {relativeTime(at)}
    </time>
  );
}

/** An API error in place: its message, and each problem the server reported. */
export function ErrorNotice({ error, title }: { error: ShownError | undefined; title?: string }) {
  if (!error) return null;
  return (
    <div class="notice error" role="alert">
      <strong>{title ?? (error.status ? `Error ${error.status}` : 'Error')}:</strong> {error.message}
      {error.problems.length > 1 && (
        <ul>
          {error.problems.map((p) => (
            <li key={`${p.field}:${p.message}`}>{p.message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** What an empty list means, and what to do next. */
export function Empty({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p>
        <strong>{title}</strong>
      </p>
      {children}
    </div>
  );
}

/** Older/newer pages over a cursor list. */
export function Pager({
  nextCursor,
  onNext,
  onPrevious,
}: {
  nextCursor: string | null | undefined;
  onNext: (cursor: string) => void;
  onPrevious: (() => void) | undefined;
}) {
  if (!nextCursor && !onPrevious) return null;
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" class="secondary" disabled={!onPrevious} onClick={() => onPrevious?.()}>
        ← Newer
      </button>
      <button
        type="button"
        class="secondary"
        disabled={!nextCursor}
        onClick={() => nextCursor && onNext(nextCursor)}
      >
        Older →
      </button>
    </nav>
  );
}

const STATUS_LABELS: Record<string, string> = {
  running: 'running',
  success: 'success',
  fail: 'failed',
  skipped: 'skipped',
};

/**
 * A run's status as a coloured badge (the colour is never the only sign: the word is there too);
 * `suffix` follows the word inside the badge ("skipped ×12").
 */
export function StatusBadge({ status, suffix }: { status: string; suffix?: string }) {
  const label = STATUS_LABELS[status] ?? status;
  return <span class={`badge status-${status}`}>{suffix ? `${label} ${suffix}` : label}</span>;
}

/** A form field with its label, help text and the server's problems for it. */
export function Field({
  label,
  help,
  problems,
  children,
  id,
}: {
  label: string;
  help?: ComponentChildren;
  problems?: readonly string[];
  children: ComponentChildren;
  id: string;
}) {
  const invalid = problems !== undefined && problems.length > 0;
  return (
    <div class={`field${invalid ? ' invalid' : ''}`}>
      <label for={id}>{label}</label>
      {children}
      {help && (
        <small id={`${id}-help`} class="help">
          {help}
        </small>
      )}
      {invalid && (
        <small id={`${id}-error`} class="field-error" role="alert">
          {problems.join(' ')}
        </small>
      )}
    </div>
  );
}

/** A page's heading row: title, and actions on the right. */
export function PageHeader({ title, children }: { title: ComponentChildren; children?: ComponentChildren }) {
  return (
    <header class="page-header">
      <h1>{title}</h1>
      {children && <div class="actions">{children}</div>}
    </header>
  );
}

/** A choice of a select: its value, and the words shown for it (a bare string is both). */
export type Choice = string | { readonly value: string; readonly label: string };

/** A select of choices (its other attributes, id and aria-* ones, passed on). */
export function ChoiceSelect({
  choices,
  value,
  onChange,
  ...rest
}: {
  choices: readonly Choice[];
  value: string;
  onChange: (value: string) => void;
  id: string;
  required?: boolean;
  disabled?: boolean;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean | undefined;
}) {
  return (
    <select {...rest} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
      {choices.map((c) => {
        const { value: v, label } = typeof c === 'string' ? { value: c, label: c } : c;
        return (
          <option key={v} value={v}>
            {label}
          </option>
        );
      })}
    </select>
  );
}

/** An on/off switch (a checkbox drawn as a switch) with its label after it. */
export function Switch({
  checked,
  onChange,
  disabled,
  describedBy,
  children,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  describedBy?: string;
  children: ComponentChildren;
}) {
  return (
    <label>
      <input
        type="checkbox"
        role="switch"
        checked={checked}
        aria-checked={checked}
        disabled={disabled}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
      {children}
    </label>
  );
}

/** A form field that is a switch: its label, help text and the server's problems for it. */
export function SwitchField({
  id,
  label,
  help,
  problems,
  checked,
  disabled,
  onChange,
}: {
  id: string;
  label: string;
  help: ComponentChildren;
  problems: readonly string[];
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <div class="field">
      <Switch checked={checked} disabled={disabled} describedBy={`${id}-help`} onChange={onChange}>
        {label}
      </Switch>
      <small id={`${id}-help`} class="help muted">
        {help}
      </small>
      {problems.length > 0 && (
        <small class="field-error" role="alert">
          {problems.join(' ')}
        </small>
      )}
    </div>
  );
}
