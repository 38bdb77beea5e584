import type { User, UserCreate, UserUpdate } from '@tickring/client';
import { useId, useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { ErrorNotice, Field, PageHeader, SwitchField, Time } from '../components/common';
import { ConfirmDialog, Dialog, DialogButtons } from '../components/dialog';
import { api } from '../lib/api';
import { isAdmin, useAuth } from '../lib/auth';
import { problemsFor, unplacedError } from '../lib/field-problems';
import { useAction, useLoad, useUrlFilters } from '../lib/hooks';
import { ChangePasswordDialog } from '../people/change-password';
import { describeGroups, draftOf, EMPTY_GRANT, type GrantDraft, grantBody } from '../people/grant';
import { GrantFields } from '../people/grant-fields';
import { useKnownGroups } from '../people/known-groups';
import { countLine, filterUsers } from '../people/list-filters';
import { PASSWORD_RULES } from '../people/password';
import { PeopleList } from '../people/people-list';
import '../people/people.css';

const USER_STATES = [
  { value: 'active', label: 'Active' },
  { value: 'disabled', label: 'Disabled' },
];

type OpenDialog =
  | { kind: 'create' }
  | { kind: 'edit'; user: User }
  | { kind: 'password'; user: User }
  | { kind: 'delete'; user: User }
  | { kind: 'own-password' };

/** Users (admins only): who signs in, with which role over which groups; create, edit, reset, delete. */
export function UsersPage() {
  const { me } = useAuth();
  const [ownPassword, setOwnPassword] = useState(false);
  if (!isAdmin(me)) {
    return (
      <>
        <PageHeader title="Users" />
        <div class="notice" role="note">
          <p>
            <strong>Only admins manage users.</strong> Ask an admin to create a user, change a role or the
            groups one reaches.
          </p>
          {me?.kind === 'session' && me.username !== undefined && (
            <button type="button" class="secondary" onClick={() => setOwnPassword(true)}>
              Change my password
            </button>
          )}
        </div>
        {me?.kind === 'session' && me.username !== undefined && (
          <ChangePasswordDialog
            open={ownPassword}
            username={me.username}
            onClose={() => setOwnPassword(false)}
          />
        )}
      </>
    );
  }
  return <UsersAdmin />;
}

function UsersAdmin() {
  const { me } = useAuth();
  const [filters, setFilters, clearFilters] = useUrlFilters(['q', 'role', 'state'] as const);
  const users = useLoad(() => api().listUsers(), 'users', 10_000);
  const knownGroups = useKnownGroups();
  const [dialog, setDialog] = useState<OpenDialog | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const selfName = me?.kind === 'session' ? me.username : undefined;

  const finished = (message: string) => {
    setDialog(undefined);
    setDone(message);
    users.reload();
  };
  const remove = useAction(async (user: User) => {
    await api().deleteUser({ path: { username: user.username } });
    finished(`User ${user.username} deleted.`);
  });
  const close = () => {
    setDialog(undefined);
    remove.setError(undefined);
  };

  const all = users.data?.items ?? [];
  const shown = filterUsers(all, filters);

  return (
    <>
      <PageHeader title="Users">
        {selfName !== undefined && (
          <button type="button" class="secondary" onClick={() => setDialog({ kind: 'own-password' })}>
            Change my password
          </button>
        )}
        <button type="button" onClick={() => setDialog({ kind: 'create' })}>
          New user
        </button>
      </PageHeader>

      <PeopleList
        words={{ one: 'user', many: 'users', noneYet: 'No users yet' }}
        search="Username or name"
        state={{ name: 'state', label: 'State', any: 'Active and disabled', choices: USER_STATES }}
        filters={filters}
        setFilters={setFilters}
        clearFilters={clearFilters}
        status={done}
        loaded={users}
        shown={shown}
        emptyHelp={<p>Create a user for each person who signs in; scripts use API tokens instead.</p>}
        headings={
          <>
            <th scope="col">Username</th>
            <th scope="col" class="hide-narrow">
              Display name
            </th>
            <th scope="col">Role</th>
            <th scope="col">Groups</th>
            <th scope="col" class="hide-narrow">
              GLUE
            </th>
            <th scope="col">State</th>
            <th scope="col">Last sign-in</th>
          </>
        }
        row={(user) => {
          const self = user.username === selfName;
          return (
            <tr key={user.username}>
              <td class="mono">
                {user.username}
                {self && <span class="muted"> (you)</span>}
              </td>
              <td class="hide-narrow">{user.displayName}</td>
              <td>{user.role}</td>
              <td class="groups-cell">{describeGroups(user.groups)}</td>
              <td class="hide-narrow">{user.glue ? 'yes' : 'no'}</td>
              <td>
                {user.disabled ? (
                  <span class="badge offline">disabled</span>
                ) : (
                  <span class="badge online">active</span>
                )}
              </td>
              <td class="nowrap">
                {user.lastLoginAt ? <Time at={user.lastLoginAt} /> : <span class="muted">never</span>}
              </td>
              <td>
                <div class="row-actions">
                  <button
                    type="button"
                    class="secondary small"
                    aria-label={`Edit ${user.username}`}
                    onClick={() => setDialog({ kind: 'edit', user })}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    class="secondary small"
                    aria-label={`Reset password of ${user.username}`}
                    onClick={() => setDialog({ kind: 'password', user })}
                  >
                    Password
                  </button>
                  {!self && (
                    <button
                      type="button"
                      class="secondary small"
                      aria-label={`Delete ${user.username}`}
                      onClick={() => setDialog({ kind: 'delete', user })}
                    >
                      Delete
                    </button>
                  )}
                </div>
              </td>
            </tr>
          );
        }}
      />
      {users.data !== undefined && (
        <p class="muted small-text">
          {countLine(shown.length, all.length, 'user')}{' '}
          <Link href="/audit?action=user.*">Changes to users in the audit log</Link>
        </p>
      )}

      <Dialog open={dialog?.kind === 'create'} title="New user" onClose={close} banner class="people-dialog">
        <CreateUserForm
          knownGroups={knownGroups}
          onCancel={close}
          onDone={(user) => finished(`User ${user.username} created.`)}
        />
      </Dialog>
      <Dialog
        open={dialog?.kind === 'edit'}
        title={dialog?.kind === 'edit' ? `Edit ${dialog.user.username}` : 'Edit user'}
        onClose={close}
        banner
        class="people-dialog"
      >
        {dialog?.kind === 'edit' && (
          <EditUserForm
            user={dialog.user}
            self={dialog.user.username === selfName}
            knownGroups={knownGroups}
            onCancel={close}
            onDone={(user) => finished(`User ${user.username} saved.`)}
          />
        )}
      </Dialog>
      <Dialog
        open={dialog?.kind === 'password'}
        title={
          dialog?.kind === 'password' ? `Reset the password of ${dialog.user.username}` : 'Reset password'
        }
        onClose={close}
        banner
        class="people-dialog"
      >
        {dialog?.kind === 'password' && (
          <ResetPasswordForm
            user={dialog.user}
            self={dialog.user.username === selfName}
            onCancel={close}
            onDone={(user) => finished(`Password of ${user.username} reset.`)}
          />
        )}
      </Dialog>
      <ConfirmDialog
        open={dialog?.kind === 'delete'}
        title={dialog?.kind === 'delete' ? `Delete user ${dialog.user.username}?` : 'Delete user?'}
        confirmLabel="Delete user"
        danger
        busy={remove.busy}
        onCancel={close}
        onConfirm={() => dialog?.kind === 'delete' && void remove.run(dialog.user)}
      >
        <p>
          They can no longer sign in and their sessions end at once. Their audit records stay. A user of the
          same name can be created again later.
        </p>
        <ErrorNotice error={remove.error} title="Not deleted" />
      </ConfirmDialog>
      {selfName !== undefined && (
        <ChangePasswordDialog open={dialog?.kind === 'own-password'} username={selfName} onClose={close} />
      )}
    </>
  );
}

function CreateUserForm({
  knownGroups,
  onCancel,
  onDone,
}: {
  knownGroups: readonly string[];
  onCancel: () => void;
  onDone: (user: User) => void;
}) {
  const id = useId();
  const [username, setUsername] = useState('');
  const [grant, setGrant] = useState<GrantDraft>(EMPTY_GRANT);
  const {
    busy,
    error,
    run: create,
  } = useAction(async (body: UserCreate) => onDone(await api().createUser({ body })));

  const submit = async (event: Event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const displayName = String(data.get('displayName') ?? '').trim();
    await create({
      username: username.trim(),
      ...(displayName === '' ? {} : { displayName }),
      password: String(data.get('password') ?? ''),
      ...grantBody(grant),
    });
  };

  const fields = ['username', 'displayName', 'password', 'role', 'groups', 'glue'];
  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Field
        label="Username"
        id={`${id}-username`}
        help="3-64 letters, digits, '.', '_' and '-'; case does not matter; cannot be changed later."
        problems={problemsFor(error, 'username')}
      >
        <input
          id={`${id}-username`}
          name="username"
          value={username}
          onInput={(e) => setUsername((e.currentTarget as HTMLInputElement).value)}
          autoComplete="off"
          spellcheck={false}
          required
          aria-describedby={`${id}-username-help`}
          aria-invalid={problemsFor(error, 'username').length > 0 || undefined}
        />
      </Field>
      <Field
        label="Display name"
        id={`${id}-display`}
        help="Optional: a name for people (the username when blank)."
        problems={problemsFor(error, 'displayName')}
      >
        <input
          id={`${id}-display`}
          name="displayName"
          autoComplete="off"
          aria-describedby={`${id}-display-help`}
          aria-invalid={problemsFor(error, 'displayName').length > 0 || undefined}
        />
      </Field>
      <Field
        label="Password"
        id={`${id}-password`}
        help={PASSWORD_RULES}
        problems={problemsFor(error, 'password')}
      >
        <input
          id={`${id}-password`}
          name="password"
          type="password"
          autoComplete="new-password"
          required
          aria-describedby={`${id}-password-help`}
          aria-invalid={problemsFor(error, 'password').length > 0 || undefined}
        />
      </Field>
      <GrantFields
        idPrefix={`${id}-grant`}
        value={grant}
        onChange={setGrant}
        error={error}
        knownGroups={knownGroups}
        subject="user"
      />
      <ErrorNotice error={unplacedError(error, fields)} title="Not created" />
      <DialogButtons confirmLabel="Create user" busy={busy} onCancel={onCancel} />
    </form>
  );
}

function EditUserForm({
  user,
  self,
  knownGroups,
  onCancel,
  onDone,
}: {
  user: User;
  self: boolean;
  knownGroups: readonly string[];
  onCancel: () => void;
  onDone: (user: User) => void;
}) {
  const id = useId();
  const [displayName, setDisplayName] = useState(user.displayName);
  const [grant, setGrant] = useState<GrantDraft>(() => draftOf(user));
  const [disabled, setDisabled] = useState(user.disabled);
  const {
    busy,
    error,
    run: save,
  } = useAction(async (body: UserUpdate) =>
    onDone(await api().updateUser({ path: { username: user.username }, body })),
  );

  const before = grantBody(draftOf(user));
  const after = grantBody(grant);
  const grantChanged = JSON.stringify(before) !== JSON.stringify(after);

  const submit = async (event: Event) => {
    event.preventDefault();
    const body = {
      ...(displayName.trim() !== user.displayName ? { displayName: displayName.trim() } : {}),
      ...(grantChanged ? after : {}),
      ...(disabled !== user.disabled ? { disabled } : {}),
    };
    if (Object.keys(body).length === 0) {
      onCancel();
      return;
    }
    await save({ ...body, version: user.version });
  };

  const fields = ['displayName', 'role', 'groups', 'glue', 'disabled'];
  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Field
        label="Display name"
        id={`${id}-display`}
        help="A name for people (the username when blank)."
        problems={problemsFor(error, 'displayName')}
      >
        <input
          id={`${id}-display`}
          value={displayName}
          onInput={(e) => setDisplayName((e.currentTarget as HTMLInputElement).value)}
          autoComplete="off"
          aria-describedby={`${id}-display-help`}
          aria-invalid={problemsFor(error, 'displayName').length > 0 || undefined}
        />
      </Field>
      <GrantFields
        idPrefix={`${id}-grant`}
        value={grant}
        onChange={setGrant}
        error={error}
        knownGroups={knownGroups}
        subject="user"
      />
      <SwitchField
        id={`${id}-disabled`}
        label="Disabled"
        help={
          self
            ? 'You cannot disable yourself; another admin can.'
            : 'A disabled user cannot sign in; disabling ends their sessions.'
        }
        problems={problemsFor(error, 'disabled')}
        checked={disabled}
        disabled={self && !user.disabled}
        onChange={setDisabled}
      />
      {grantChanged && !self && (
        <p class="notice warn-notice small-text">
          Changing the role or groups ends {user.username}’s sessions.
        </p>
      )}
      <p class="small-text">
        <Link href={`/audit?target=${encodeURIComponent(`user#${user.username}`)}`}>
          Changes to {user.username} in the audit log
        </Link>
      </p>
      <ErrorNotice error={unplacedError(error, fields)} title="Not saved" />
      <DialogButtons confirmLabel="Save" busy={busy} onCancel={onCancel} />
    </form>
  );
}

function ResetPasswordForm({
  user,
  self,
  onCancel,
  onDone,
}: {
  user: User;
  self: boolean;
  onCancel: () => void;
  onDone: (user: User) => void;
}) {
  const id = useId();
  const {
    busy,
    error,
    run: reset,
  } = useAction(async (password: string) =>
    onDone(
      await api().updateUser({
        path: { username: user.username },
        body: { password, version: user.version },
      }),
    ),
  );

  const submit = async (event: Event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    await reset(String(data.get('password') ?? ''));
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <p>
        {self
          ? 'Your other sessions end; this one goes on.'
          : `${user.username}’s sessions end at once; tell them the new password another way than this console.`}
      </p>
      <input type="text" name="username" value={user.username} autoComplete="off" hidden readOnly />
      <Field
        label="New password"
        id={`${id}-password`}
        help={PASSWORD_RULES}
        problems={problemsFor(error, 'password')}
      >
        <input
          id={`${id}-password`}
          name="password"
          type="password"
          autoComplete="new-password"
          required
          aria-describedby={`${id}-password-help`}
          aria-invalid={problemsFor(error, 'password').length > 0 || undefined}
        />
      </Field>
      <ErrorNotice error={unplacedError(error, ['password'])} title="Not reset" />
      <DialogButtons confirmLabel="Reset password" busy={busy} onCancel={onCancel} />
    </form>
  );
}
