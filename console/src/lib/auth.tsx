import type { Me } from '@tickring/client';
import { type ComponentChildren, createContext } from 'preact';
import { useCallback, useContext, useEffect, useRef, useState } from 'preact/hooks';
import { api, currentToken, describeError, onSignedOut, type ShownError, setToken } from './api';

/** Who is signed in, what they may do, and how to sign in and out. */
export interface Auth {
  readonly me: Me | undefined;
  /** Checking a kept token at start (the page shows nothing until this is known). */
  readonly checking: boolean;
  /** Why the console is signed out, when it was not the user's doing (the session ended). */
  readonly signedOutReason: string | undefined;
  readonly signInWithPassword: (username: string, password: string) => Promise<void>;
  readonly signInWithToken: (token: string) => Promise<void>;
  readonly signOut: () => Promise<void>;
}

const AuthContext = createContext<Auth | undefined>(undefined);

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth outside AuthProvider');
  return auth;
}

export function AuthProvider({ children }: { children: ComponentChildren }) {
  const [me, setMe] = useState<Me | undefined>();
  const [checking, setChecking] = useState(currentToken() !== undefined);
  const [signedOutReason, setSignedOutReason] = useState<string | undefined>();
  const signedIn = useRef(false);
  signedIn.current = me !== undefined;

  useEffect(() => {
    if (currentToken() !== undefined) {
      api()
        .getMe()
        .then(setMe, () => setToken(undefined))
        .finally(() => setChecking(false));
    }
    return onSignedOut(() => {
      // Only a session that was in use ended; a token refused at sign-in is answered by the form.
      if (signedIn.current) setSignedOutReason('Your session ended. Sign in again to go on.');
      signedIn.current = false;
      setMe(undefined);
    });
  }, []);

  const adopt = useCallback(async (token: string) => {
    setToken(token);
    try {
      setMe(await api().getMe());
      setSignedOutReason(undefined);
    } catch (err) {
      setToken(undefined);
      throw err;
    }
  }, []);

  const value: Auth = {
    me,
    checking,
    signedOutReason,
    signInWithPassword: async (username, password) => {
      const session = await api().login({ body: { username, password } });
      await adopt(session.token);
    },
    signInWithToken: adopt,
    signOut: async () => {
      if (me?.kind === 'session') {
        await api()
          .logout()
          .catch(() => undefined);
      }
      setToken(undefined);
      setMe(undefined);
    },
  };
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/** What the signed-in caller may do in a group (the server decides; this only hides what would be refused). */
export function canOperate(me: Me | undefined, appName?: string): boolean {
  if (!me) return false;
  if (me.permissions.admin) return true;
  const groups = me.permissions.operateGroups;
  // "*": every group, present and future (a string: its .includes would look for a substring).
  if (groups === '*') return true;
  if (appName === undefined) return groups.length > 0;
  return groups.includes(appName);
}

export function isAdmin(me: Me | undefined): boolean {
  return me?.permissions.admin === true;
}

export type { ShownError };
export { describeError };
