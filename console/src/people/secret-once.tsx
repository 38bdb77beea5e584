import type { ComponentChildren } from 'preact';
import { useId, useRef, useState } from 'preact/hooks';
import { Dialog } from '../components/dialog';
import './people.css';

/**
 * A secret the server shows once (a new API token, the rotated bootstrap token): shown with a Copy
 * button and a plain warning that it will not be seen again. Closing forgets it.
 */
export function SecretOnceDialog({
  secret,
  title,
  label,
  note,
  children,
  onClose,
}: {
  /** The secret; the dialog is open while there is one. */
  secret: string | undefined;
  title: string;
  label: string;
  note?: string;
  children?: ComponentChildren;
  onClose: () => void;
}) {
  const id = useId();
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const [copied, setCopied] = useState<'yes' | 'no' | undefined>();

  const copy = async () => {
    if (secret === undefined) return;
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('yes');
    } catch {
      // No clipboard access (an insecure origin, a refusal): select it for Ctrl+C instead.
      inputRef.current?.select();
      setCopied('no');
    }
  };
  const close = () => {
    setCopied(undefined);
    onClose();
  };

  return (
    <Dialog open={secret !== undefined} title={title} onClose={close} banner class="people-dialog">
      <p class="notice warn-notice">
        <strong>Copy it now: you will not see it again.</strong> tickring keeps only a hash of it.
      </p>
      {children}
      <label for={`${id}-secret`}>{label}</label>
      <div class="secret-row">
        <textarea
          id={`${id}-secret`}
          ref={inputRef}
          class="mono secret-value"
          readOnly
          rows={2}
          value={secret ?? ''}
          autoComplete="off"
          spellcheck={false}
          onFocus={(e) => (e.currentTarget as HTMLTextAreaElement).select()}
        />
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <p class="small-text" role="status">
        {copied === 'yes' && 'Copied to the clipboard.'}
        {copied === 'no' && 'Could not copy: the token is selected, press Ctrl+C (⌘C).'}
      </p>
      {note && <p class="muted small-text">{note}</p>}
      <footer>
        <button type="button" onClick={close}>
          I have stored it
        </button>
      </footer>
    </Dialog>
  );
}
