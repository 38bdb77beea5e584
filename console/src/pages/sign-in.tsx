import { useEffect, useState } from 'preact/hooks';
import { ErrorNotice } from '../components/common';
import { api } from '../lib/api';
import { useAuth } from '../lib/auth';
import { useAction } from '../lib/hooks';

/**
 * Sign in: a user's password when the deployment has users, otherwise (or on request) a token
 * (the bootstrap admin token or an API token). The token is kept for this tab only.
 */
export function SignInPage() {
  const auth = useAuth();
  const [mode, setMode] = useState<'password' | 'token' | undefined>();
  // Without users there is no password to sign in with: the token form only.
  const [passwords, setPasswords] = useState(false);
  const signIn = useAction((how: () => Promise<void>) => how());

  useEffect(() => {
    api()
      .getSignInOptions()
      .then(
        (options) => {
          setPasswords(options.passwords);
          setMode(options.passwords ? 'password' : 'token');
        },
        () => setMode('token'),
      );
  }, []);

  const submit = async (event: Event, how: () => Promise<void>) => {
    event.preventDefault();
    await signIn.run(how);
  };

  return (
    <article class="sign-in-card">
      <header>
        <h1>Sign in to tickring</h1>
        {auth.signedOutReason && <p class="notice">{auth.signedOutReason}</p>}
      </header>
      {mode === undefined && <p aria-busy="true">Loading…</p>}
      {mode === 'password' && (
        <form
          onSubmit={(e) => {
            const form = e.currentTarget as HTMLFormElement;
            const data = new FormData(form);
            void submit(e, () =>
              auth.signInWithPassword(String(data.get('username') ?? ''), String(data.get('password') ?? '')),
            );
          }}
        >
          <label for="username">Username</label>
          <input id="username" name="username" autoComplete="username" required />
          <label for="password">Password</label>
          <input id="password" name="password" type="password" autoComplete="current-password" required />
          <ErrorNotice error={signIn.error} title="Not signed in" />
          <button type="submit" aria-busy={signIn.busy} disabled={signIn.busy}>
            Sign in
          </button>
          <p>
            <button type="button" class="link-button" onClick={() => setMode('token')}>
              Use a token instead
            </button>
          </p>
        </form>
      )}
      {mode === 'token' && (
        <form
          onSubmit={(e) => {
            const data = new FormData(e.currentTarget as HTMLFormElement);
            void submit(e, () => auth.signInWithToken(String(data.get('token') ?? '').trim()));
          }}
        >
          <label for="token">Admin or API token</label>
          <input
            id="token"
            name="token"
            type="password"
            autoComplete="off"
            required
            aria-describedby="token-help"
          />
          <small id="token-help">
            The bootstrap admin token printed by <code>npm start</code> (or kept in Secrets Manager on AWS),
            or an API token (<code>trk_…</code>). It is kept in this tab only, never in the address bar.
          </small>
          <ErrorNotice error={signIn.error} title="Not signed in" />
          <button type="submit" aria-busy={signIn.busy} disabled={signIn.busy}>
            Sign in
          </button>
          {passwords && (
            <p>
              <button type="button" class="link-button" onClick={() => setMode('password')}>
                Sign in with a username instead
              </button>
            </p>
          )}
        </form>
      )}
    </article>
  );
}
