// The users and tokens lists come whole from the server: their filters (in the URL) are applied here.

interface UserLike {
  readonly username: string;
  readonly displayName: string;
  readonly role: string;
  readonly disabled: boolean;
}

interface TokenLike {
  readonly id: string;
  readonly name: string;
  readonly role: string;
  readonly status: string;
  readonly createdBy: string;
}

const contains = (haystack: string, needle: string) => haystack.toLowerCase().includes(needle.toLowerCase());

/** Users matching a text (in username or display name), a role and a state (active/disabled). */
export function filterUsers<T extends UserLike>(
  users: readonly T[],
  filters: { q?: string; role?: string; state?: string },
): T[] {
  const q = filters.q?.trim() ?? '';
  return users.filter(
    (u) =>
      (q === '' || contains(u.username, q) || contains(u.displayName, q)) &&
      (filters.role === undefined || u.role === filters.role) &&
      (filters.state === undefined || (filters.state === 'disabled') === u.disabled),
  );
}

/** Tokens matching a text (in name, id or creator), a role and a status. */
export function filterTokens<T extends TokenLike>(
  tokens: readonly T[],
  filters: { q?: string; role?: string; status?: string },
): T[] {
  const q = filters.q?.trim() ?? '';
  return tokens.filter(
    (t) =>
      (q === '' || contains(t.name, q) || t.id === q || contains(t.createdBy, q)) &&
      (filters.role === undefined || t.role === filters.role) &&
      (filters.status === undefined || t.status === filters.status),
  );
}

/** "1 token.", "3 users.", "2 of 5 tokens." (the count under a filtered list). */
export function countLine(shown: number, all: number, noun: string): string {
  const plural = (n: number) => (n === 1 ? noun : `${noun}s`);
  return shown === all ? `${all} ${plural(all)}.` : `${shown} of ${all} ${plural(all)}.`;
}
