import { useId, useState } from 'preact/hooks';
import { ErrorNotice, Field } from '../components/common';
import { Dialog, DialogButtons } from '../components/dialog';
import { api } from '../lib/api';
import { problemsFor, unplacedError } from '../lib/field-problems';
import { useAction } from '../lib/hooks';
import { PASSWORD_RULES } from './password';

const FIELDS = ['currentPassword', 'newPassword'];

/** The signed-in user changes their own password (their other sessions end; this one goes on). */
export function ChangePasswordDialog({
  open,
  username,
  onClose,
}: {
  open: boolean;
  username: string;
  onClose: () => void;
}) {
  return (
    <Dialog open={open} title="Change my password" onClose={onClose} banner class="people-dialog">
      <ChangePasswordForm username={username} onClose={onClose} />
    </Dialog>
  );
}

function ChangePasswordForm({ username, onClose }: { username: string; onClose: () => void }) {
  const id = useId();
  const [mismatch, setMismatch] = useState(false);
  const [done, setDone] = useState(false);
  const {
    busy,
    error,
    run: change,
    setError,
  } = useAction(async (body: { currentPassword: string; newPassword: string }) => {
    await api().changeOwnPassword({ body });
    setDone(true);
  });

  if (done) {
    return (
      <>
        <p role="status">Your password is changed. Your other sessions have ended; this one goes on.</p>
        <footer>
          <button type="button" onClick={onClose}>
            Close
          </button>
        </footer>
      </>
    );
  }

  const submit = async (event: Event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const currentPassword = String(data.get('currentPassword') ?? '');
    const newPassword = String(data.get('newPassword') ?? '');
    const repeated = String(data.get('repeatPassword') ?? '');
    setError(undefined);
    if (newPassword !== repeated) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
    await change({ currentPassword, newPassword });
  };

  const general = unplacedError(error, FIELDS);

  return (
    <form onSubmit={(e) => void submit(e)}>
      {/* For password managers: whose password this is. */}
      <input type="text" name="username" value={username} autoComplete="username" hidden readOnly />
      <Field label="Current password" id={`${id}-current`} problems={problemsFor(error, 'currentPassword')}>
        <input
          id={`${id}-current`}
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required
          aria-invalid={problemsFor(error, 'currentPassword').length > 0 || undefined}
        />
      </Field>
      <Field
        label="New password"
        id={`${id}-new`}
        help={PASSWORD_RULES}
        problems={problemsFor(error, 'newPassword')}
      >
        <input
          id={`${id}-new`}
          name="newPassword"
          type="password"
          autoComplete="new-password"
          required
          aria-describedby={`${id}-new-help`}
          aria-invalid={problemsFor(error, 'newPassword').length > 0 || undefined}
        />
      </Field>
      <Field
        label="New password again"
        id={`${id}-repeat`}
        problems={mismatch ? ['The two new passwords differ.'] : []}
      >
        <input
          id={`${id}-repeat`}
          name="repeatPassword"
          type="password"
          autoComplete="new-password"
          required
          aria-invalid={mismatch || undefined}
        />
      </Field>
      <ErrorNotice error={general} title="Not changed" />
      <DialogButtons confirmLabel="Change password" busy={busy} onCancel={onClose} />
    </form>
  );
}
