import type { ApiToken, ApiTokenCreate, ApiTokenCreated, BootstrapRotated } from '@tickring/client';
import { useId, useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { ErrorNotice, Field, PageHeader, Time } from '../components/common';
import { ConfirmDialog, Dialog, DialogButtons } from '../components/dialog';
import { api, setToken } from '../lib/api';
import { isAdmin, useAuth } from '../lib/auth';
import { problemsFor, unplacedError } from '../lib/field-problems';
import { useAction, useLoad, useUrlFilters } from '../lib/hooks';
import { describeGroups, EMPTY_GRANT, type GrantDraft, grantBody } from '../people/grant';
import { GrantFields } from '../people/grant-fields';
import { useKnownGroups } from '../people/known-groups';
import { countLine, filterTokens } from '../people/list-filters';
import { PeopleList } from '../people/people-list';
import { SecretOnceDialog } from '../people/secret-once';
import '../people/people.css';

const STATUS_BADGE: Record<ApiToken['status'], string> = {
  active: 'online',
  expired: 'warn',
  revoked: 'offline',
};
const TOKEN_STATUSES = [
  { value: 'active', label: 'Active' },
  { value: 'expired', label: 'Expired' },
  { value: 'revoked', label: 'Revoked' },
];
const ROTATE_WORD = 'ROTATE';

/** API tokens (every route of them is an admin's): list, create (the secret once), revoke; rotate the bootstrap token. */
export function TokensPage() {
  const { me } = useAuth();
  if (!isAdmin(me)) {
    return (
      <>
        <PageHeader title="API tokens" />
        <div class="notice" role="note">
          <p>
            <strong>Only admins manage API tokens.</strong> Scripts and CI use a token an admin creates for
            them, with a role and groups no wider than they need.
          </p>
        </div>
      </>
    );
  }
  return <TokensAdmin />;
}

function TokensAdmin() {
  const { me } = useAuth();
  const [filters, setFilters, clearFilters] = useUrlFilters(['q', 'role', 'status'] as const);
  const tokens = useLoad(() => api().listApiTokens(), 'tokens', 10_000);
  const knownGroups = useKnownGroups();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ApiTokenCreated | undefined>();
  const [revoking, setRevoking] = useState<ApiToken | undefined>();
  const [rotating, setRotating] = useState(false);
  const [rotated, setRotated] = useState<BootstrapRotated | undefined>();
  const [done, setDone] = useState<string | undefined>();

  const revoke = useAction(async (token: ApiToken) => {
    await api().revokeApiToken({ path: { id: token.id } });
    setRevoking(undefined);
    setDone(`Token ${token.name} revoked.`);
    tokens.reload();
  });

  const all = tokens.data?.items ?? [];
  const shown = filterTokens(all, filters);

  return (
    <>
      <PageHeader title="API tokens">
        <button type="button" onClick={() => setCreating(true)}>
          New token
        </button>
      </PageHeader>
      <p class="muted">
        For scripts and CI: sent as <code>Authorization: Bearer trk_…</code>, each with its own role, groups
        and expiry. People sign in with a user instead.
      </p>
      <PeopleList
        words={{ one: 'token', many: 'tokens', noneYet: 'No API tokens yet' }}
        search="Name, id or creator"
        state={{ name: 'status', label: 'Status', any: 'Any status', choices: TOKEN_STATUSES }}
        filters={filters}
        setFilters={setFilters}
        clearFilters={clearFilters}
        status={done}
        loaded={tokens}
        shown={shown}
        emptyHelp={
          <p>
            Create one for each script or CI job that calls the API, with the least role and groups it needs.
          </p>
        }
        headings={
          <>
            <th scope="col">Name</th>
            <th scope="col">Role</th>
            <th scope="col" class="hide-narrow">
              Groups
            </th>
            <th scope="col" class="hide-narrow">
              Created by
            </th>
            <th scope="col" class="hide-narrow">
              Created
            </th>
            <th scope="col">Expires</th>
            <th scope="col">Last used</th>
            <th scope="col">Status</th>
          </>
        }
        row={(token) => (
          <tr key={token.id}>
            <td>
              <span class="mono">{token.name}</span>
              <br />
              <small class="muted mono" title="The token's id">
                {token.id}
              </small>
            </td>
            <td>
              {token.role}
              {token.role === 'operator' && token.glue && <small class="muted"> + GLUE</small>}
            </td>
            <td class="hide-narrow groups-cell">{describeGroups(token.groups)}</td>
            <td class="hide-narrow mono">{token.createdBy}</td>
            <td class="hide-narrow nowrap">
              <Time at={token.createdAt} />
            </td>
            <td class="nowrap">
              <Time at={token.expiresAt} />
            </td>
            <td class="nowrap">
              {token.lastUsedAt ? <Time at={token.lastUsedAt} /> : <span class="muted">never</span>}
            </td>
            <td class="nowrap">
              <span class={`badge ${STATUS_BADGE[token.status]}`}>{token.status}</span>
              {token.revokedAt && (
                <>
                  <br />
                  <small class="muted">
                    <Time at={token.revokedAt} />
                  </small>
                </>
              )}
            </td>
            <td>
              <div class="row-actions">
                {token.status === 'active' && (
                  <button
                    type="button"
                    class="secondary small"
                    aria-label={`Revoke ${token.name}`}
                    onClick={() => {
                      revoke.setError(undefined);
                      setRevoking(token);
                    }}
                  >
                    Revoke
                  </button>
                )}
                <Link
                  class="small"
                  href={`/audit?actor=${encodeURIComponent(token.id)}`}
                  aria-label={`Changes made with ${token.name}`}
                >
                  Changes
                </Link>
              </div>
            </td>
          </tr>
        )}
      />
      {tokens.data !== undefined && all.length > 0 && (
        <p class="muted small-text">
          {countLine(shown.length, all.length, 'token')} Revoked and expired tokens stay listed for 30 days.
        </p>
      )}

      <section class="danger-zone" aria-labelledby="bootstrap-heading">
        <h2 id="bootstrap-heading">Bootstrap admin token</h2>
        <p>
          The deployment’s own admin token (printed by <code>npm start</code>, kept in Secrets Manager on
          AWS), for automation and the first user. Rotate it when it may have leaked: a new one is shown once,
          and the configured one stops working at once.
        </p>
        <p>
          <button type="button" class="outline-danger" onClick={() => setRotating(true)}>
            Rotate the bootstrap token…
          </button>
        </p>
      </section>

      <Dialog
        open={creating}
        title="New API token"
        onClose={() => setCreating(false)}
        banner
        class="people-dialog"
      >
        <CreateTokenForm
          knownGroups={knownGroups}
          onCancel={() => setCreating(false)}
          onDone={(token) => {
            setCreating(false);
            setCreated(token);
            setDone(`Token ${token.name} created.`);
            tokens.reload();
          }}
        />
      </Dialog>
      <SecretOnceDialog
        secret={created?.token}
        title={`Token ${created?.name ?? ''} created`}
        label="The new API token"
        note={created?.note}
        onClose={() => setCreated(undefined)}
      >
        {created && (
          <p class="small-text">
            Role {created.role} over {describeGroups(created.groups)}; expires <Time at={created.expiresAt} />
            .
          </p>
        )}
      </SecretOnceDialog>
      <ConfirmDialog
        open={revoking !== undefined}
        title={`Revoke token ${revoking?.name ?? ''}?`}
        confirmLabel="Revoke token"
        danger
        busy={revoke.busy}
        onCancel={() => setRevoking(undefined)}
        onConfirm={() => revoking && void revoke.run(revoking)}
      >
        <p>
          Every script or job using it is refused from now on. This cannot be undone: create a new token
          instead.
        </p>
        <ErrorNotice error={revoke.error} title="Not revoked" />
      </ConfirmDialog>
      <Dialog
        open={rotating}
        title="Rotate the bootstrap admin token"
        onClose={() => setRotating(false)}
        banner
        class="people-dialog"
      >
        <RotateBootstrapForm
          signedInWithIt={me?.kind === 'bootstrap'}
          onCancel={() => setRotating(false)}
          onDone={(result) => {
            // Signed in with the bootstrap token: this tab goes on with the new one.
            if (me?.kind === 'bootstrap') setToken(result.token);
            setRotating(false);
            setRotated(result);
            setDone('The bootstrap token was rotated.');
          }}
        />
      </Dialog>
      <SecretOnceDialog
        secret={rotated?.token}
        title="New bootstrap admin token"
        label="The new bootstrap token"
        note={rotated?.note}
        onClose={() => setRotated(undefined)}
      >
        {rotated && (
          <p class="small-text">
            Rotated <Time at={rotated.rotatedAt} /> by {rotated.rotatedBy}. Put it where the old one was kept
            (the secret, your automation’s settings).
            {me?.kind === 'bootstrap' && ' This tab now uses the new token.'}
          </p>
        )}
      </SecretOnceDialog>
    </>
  );
}

function CreateTokenForm({
  knownGroups,
  onCancel,
  onDone,
}: {
  knownGroups: readonly string[];
  onCancel: () => void;
  onDone: (token: ApiTokenCreated) => void;
}) {
  const id = useId();
  const [grant, setGrant] = useState<GrantDraft>(EMPTY_GRANT);
  const {
    busy,
    error,
    run: create,
  } = useAction(async (body: ApiTokenCreate) => onDone(await api().createApiToken({ body })));

  const submit = async (event: Event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const days = Number(data.get('expiresInDays'));
    await create({
      name: String(data.get('name') ?? '').trim(),
      ...grantBody(grant),
      expiresInDays: Number.isFinite(days) ? days : 0,
    });
  };

  const fields = ['name', 'role', 'groups', 'glue', 'expiresInDays', 'expiresAt'];
  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Field
        label="Name"
        id={`${id}-name`}
        help="1-64 letters, digits, '.', '_' and '-', unique among active tokens; the audit log names it token:<name>."
        problems={problemsFor(error, 'name')}
      >
        <input
          id={`${id}-name`}
          name="name"
          autoComplete="off"
          spellcheck={false}
          placeholder="ci-deploy"
          required
          aria-describedby={`${id}-name-help`}
          aria-invalid={problemsFor(error, 'name').length > 0 || undefined}
        />
      </Field>
      <GrantFields
        idPrefix={`${id}-grant`}
        value={grant}
        onChange={setGrant}
        error={error}
        knownGroups={knownGroups}
        subject="token"
      />
      <Field
        label="Expires in (days)"
        id={`${id}-days`}
        help="1 to 365 days; make a new token before it ends."
        problems={[...problemsFor(error, 'expiresInDays'), ...problemsFor(error, 'expiresAt')]}
      >
        <input
          id={`${id}-days`}
          name="expiresInDays"
          type="number"
          inputMode="numeric"
          min={1}
          max={365}
          step={1}
          defaultValue="90"
          required
          aria-describedby={`${id}-days-help`}
          aria-invalid={problemsFor(error, 'expiresInDays').length > 0 || undefined}
        />
      </Field>
      <ErrorNotice error={unplacedError(error, fields)} title="Not created" />
      <DialogButtons confirmLabel="Create token" busy={busy} onCancel={onCancel} />
    </form>
  );
}

function RotateBootstrapForm({
  signedInWithIt,
  onCancel,
  onDone,
}: {
  signedInWithIt: boolean;
  onCancel: () => void;
  onDone: (result: BootstrapRotated) => void;
}) {
  const id = useId();
  const [typed, setTyped] = useState('');
  const confirmed = typed.trim() === ROTATE_WORD;
  const { busy, error, run: rotate } = useAction(async () => onDone(await api().rotateBootstrapToken()));

  const submit = async (event: Event) => {
    event.preventDefault();
    if (confirmed) await rotate();
  };

  return (
    <form onSubmit={(e) => void submit(e)}>
      <div class="notice warn-notice">
        <p>
          <strong>The bootstrap token in use now stops working at once</strong>, everywhere: scripts, CI and
          consoles signed in with it are refused until they get the new one.
        </p>
        <ul class="small-text">
          <li>The new token is shown once, in the next dialog: store it before closing it.</li>
          <li>
            Locally, <code>npm start</code> then says when it was rotated instead of printing it; on AWS the
            secret keeps the old value, so put the new one there too.
          </li>
          {signedInWithIt && <li>You are signed in with it: this tab goes on with the new one.</li>}
        </ul>
      </div>
      <Field label={`Type ${ROTATE_WORD} to confirm`} id={`${id}-confirm`} problems={[]}>
        <input
          id={`${id}-confirm`}
          value={typed}
          autoComplete="off"
          spellcheck={false}
          onInput={(e) => setTyped((e.currentTarget as HTMLInputElement).value)}
        />
      </Field>
      <ErrorNotice error={error} title="Not rotated" />
      <DialogButtons
        confirmLabel="Rotate the bootstrap token"
        danger
        busy={busy}
        disabled={!confirmed}
        onCancel={onCancel}
      />
    </form>
  );
}
