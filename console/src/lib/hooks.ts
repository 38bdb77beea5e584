import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { useSearch } from 'wouter-preact';
import { navigate } from 'wouter-preact/use-browser-location';
import { describeError, type ShownError } from './api';

/** Whether the page is visible: lists refresh and the live log reads only while it is. */
export function useDocumentVisible(): boolean {
  const [visible, setVisible] = useState(() => document.visibilityState === 'visible');
  useEffect(() => {
    const update = () => setVisible(document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', update);
    return () => document.removeEventListener('visibilitychange', update);
  }, []);
  return visible;
}

export interface Loaded<T> {
  readonly data: T | undefined;
  readonly error: ShownError | undefined;
  readonly loading: boolean;
  /** Read again now (after a change the page made). */
  readonly reload: () => void;
}

/**
 * Reads `load()` when `key` changes, and again every `refreshMs` while the page is visible (never
 * faster, never while hidden; a refresh that fails keeps the last data and shows the error).
 */
export function useLoad<T>(load: () => Promise<T>, key: string, refreshMs?: number): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: ShownError; loading: boolean; key: string }>({
    loading: true,
    key,
  });
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const visible = useDocumentVisible();

  useEffect(() => {
    let cancelled = false;
    setState((s) => (s.key === key ? { ...s, loading: true } : { loading: true, key }));
    loadRef.current().then(
      (data) => !cancelled && setState({ data, loading: false, key }),
      (err: unknown) =>
        !cancelled && setState((s) => ({ ...s, error: describeError(err), loading: false, key })),
    );
    return () => {
      cancelled = true;
    };
  }, [key, tick]);

  useEffect(() => {
    if (!refreshMs || !visible) return;
    const timer = setInterval(() => setTick((t) => t + 1), refreshMs);
    return () => clearInterval(timer);
  }, [refreshMs, visible]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  const current = state.key === key;
  return {
    data: current ? state.data : undefined,
    error: current ? state.error : undefined,
    loading: state.loading || !current,
    reload,
  };
}

/**
 * A page's filters in its URL (`?status=fail&appName=billing`): linkable, kept by back/forward.
 * Setting a filter replaces the history entry and drops the page cursor; `clear` unsets them all.
 */
export function useUrlFilters<K extends string>(
  names: readonly K[],
): [
  Partial<Record<K, string>>,
  (changes: Partial<Record<K | 'cursor', string | undefined>>) => void,
  () => void,
] {
  const search = useSearch();
  const params = new URLSearchParams(search);
  const values: Partial<Record<K, string>> = {};
  for (const name of names) {
    const value = params.get(name);
    if (value !== null && value !== '') values[name] = value;
  }
  const set = (changes: Readonly<Record<string, string | undefined>>) => {
    const next = new URLSearchParams(window.location.search);
    if (!('cursor' in changes)) next.delete('cursor');
    for (const [name, value] of Object.entries(changes)) {
      if (value === undefined || value === '') next.delete(name);
      else next.set(name, value);
    }
    const query = next.toString();
    navigate(`${window.location.pathname}${query ? `?${query}` : ''}`, { replace: true });
  };
  const clear = () => set(Object.fromEntries(names.map((name) => [name, undefined])));
  return [values, set, clear];
}

/** The `cursor` of the URL, and the cursors of the pages before it (for "Newer"). */
export function useCursor(): {
  cursor: string | undefined;
  next: (cursor: string) => void;
  previous: (() => void) | undefined;
} {
  const search = useSearch();
  const params = new URLSearchParams(search);
  const cursor = params.get('cursor') ?? undefined;
  const go = (value: string | undefined, history: string[]) => {
    const next = new URLSearchParams(window.location.search);
    if (value === undefined) next.delete('cursor');
    else next.set('cursor', value);
    if (history.length === 0) next.delete('back');
    else next.set('back', history.join(','));
    const query = next.toString();
    navigate(`${window.location.pathname}${query ? `?${query}` : ''}`);
  };
  const back = (params.get('back') ?? '').split(',').filter((c) => c !== '');
  return {
    cursor,
    next: (nextCursor) => go(nextCursor, [...back, cursor ?? '-']),
    previous:
      cursor === undefined
        ? undefined
        : () => {
            const prior = back.slice(0, -1);
            const last = back.at(-1);
            go(last === undefined || last === '-' ? undefined : last, prior);
          },
  };
}

/** A call the user starts (save, delete, kill, sign in): whether it is under way, and why it failed. */
export interface Action<A extends unknown[]> {
  readonly busy: boolean;
  readonly error: ShownError | undefined;
  /** Makes the call (the last error cleared): true when it went through, false when it failed (`error` says why). */
  readonly run: (...args: A) => Promise<boolean>;
  /** Shows an error found before calling, or clears the one shown. */
  readonly setError: (error: ShownError | undefined) => void;
}

/** `act` as an {@link Action}: busy while it runs, its failure described for the page. */
export function useAction<A extends unknown[]>(act: (...args: A) => Promise<unknown>): Action<A> {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | undefined>();
  const run = async (...args: A) => {
    setBusy(true);
    setError(undefined);
    try {
      await act(...args);
      return true;
    } catch (err) {
      setError(describeError(err));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, setError };
}
