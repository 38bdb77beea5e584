import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

/**
 * A modal dialog (the native <dialog>: focus kept inside, Escape closes) with its own ids, so a page
 * may hold several. Its body is rendered only while open: each opening starts afresh.
 */
export function Modal({
  open,
  title,
  onClose,
  children,
}: {
  open: boolean;
  title: ComponentChildren;
  onClose: () => void;
  children: ComponentChildren;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} class="people-dialog" onClose={onClose} aria-labelledby={`${id}-title`}>
      <article>
        <header>
          <h2 id={`${id}-title`}>{title}</h2>
        </header>
        {open && children}
      </article>
    </dialog>
  );
}

/** A dialog's buttons: Cancel and the action (a submit button when `form` is used). */
export function DialogButtons({
  confirmLabel,
  busy,
  danger,
  disabled,
  onCancel,
  cancelLabel = 'Cancel',
}: {
  confirmLabel: string;
  busy?: boolean;
  danger?: boolean;
  disabled?: boolean;
  onCancel: () => void;
  cancelLabel?: string;
}) {
  return (
    <footer>
      <button type="button" class="secondary" onClick={onCancel}>
        {cancelLabel}
      </button>
      <button type="submit" class={danger ? 'danger' : ''} aria-busy={busy} disabled={busy || disabled}>
        {confirmLabel}
      </button>
    </footer>
  );
}
