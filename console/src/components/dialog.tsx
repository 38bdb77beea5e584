import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

/**
 * A modal dialog: the native <dialog> (focus moved inside and kept there, Escape closes, focus back
 * where it was after), labelled by its title, with its own ids (a page may hold several). Its body
 * is rendered only while open: each opening starts afresh. `banner`: the title in the card's header
 * band; `class` sizes it (none: Pico's width).
 */
export function Dialog({
  open,
  title,
  onClose,
  banner,
  class: className,
  children,
}: {
  open: boolean;
  title: ComponentChildren;
  onClose: () => void;
  banner?: boolean;
  class?: string;
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
  // Taken away while open (a dialog shown by being there): close it, so focus goes back.
  useEffect(() => {
    const dialog = ref.current;
    return () => {
      if (dialog?.open) dialog.close();
    };
  }, []);
  const heading = <h2 id={`${id}-title`}>{title}</h2>;
  return (
    <dialog ref={ref} class={className} onClose={onClose} aria-labelledby={`${id}-title`}>
      <article>
        {banner ? <header>{heading}</header> : heading}
        {open && children}
      </article>
    </dialog>
  );
}

/**
 * A dialog's buttons: Cancel and the action. The action submits the form it is in (or the one named
 * by `form`), or calls `onConfirm` when given.
 */
export function DialogButtons({
  confirmLabel,
  busy,
  danger,
  disabled,
  onCancel,
  onConfirm,
  form,
  cancelLabel = 'Cancel',
}: {
  confirmLabel: string;
  busy?: boolean;
  danger?: boolean;
  disabled?: boolean;
  onCancel: () => void;
  onConfirm?: () => void;
  form?: string;
  cancelLabel?: string;
}) {
  return (
    <footer>
      <button type="button" class="secondary" onClick={onCancel}>
        {cancelLabel}
      </button>
      <button
        type={onConfirm ? 'button' : 'submit'}
        form={form}
        class={danger ? 'danger' : ''}
        aria-busy={busy}
        disabled={busy || disabled}
        onClick={onConfirm}
      >
        {confirmLabel}
      </button>
    </footer>
  );
}

/** A question before an action (delete, revoke, kill): Cancel, or the action. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  danger,
  busy,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children?: ComponentChildren;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Dialog open={open} title={title} onClose={onCancel}>
      {children}
      <DialogButtons
        confirmLabel={confirmLabel}
        danger={danger}
        busy={busy}
        onConfirm={onConfirm}
        onCancel={onCancel}
      />
    </Dialog>
  );
}
