import { useEffect, useState } from 'preact/hooks';
import { api } from '../lib/api';

/** The executor groups the caller reads (suggestions for group fields; none when they cannot be read). */
export function useKnownGroups(): readonly string[] {
  const [groups, setGroups] = useState<readonly string[]>([]);
  useEffect(() => {
    let cancelled = false;
    api()
      .listGroups()
      .then(
        (list) => !cancelled && setGroups(list.items.map((g) => g.appName).sort()),
        () => undefined,
      );
    return () => {
      cancelled = true;
    };
  }, []);
  return groups;
}
