import type { ComponentChildren } from 'preact';
import { type Choice, Empty } from '../components/common';
import { FilterSelect, FilterText } from '../components/filters';
import { ROLES } from './grant';

// The users and tokens lists come whole from the server and are filtered here (list-filters.ts):
// the same filter row (a text, the role, a state) and the same empty list on both pages.

/** The filter row: `q` (a text), `role`, and the list's own state filter. */
export function PeopleFilters({
  list,
  search,
  state,
  filters,
  setFilters,
}: {
  /** "users" or "tokens": the row's name and its ids. */
  list: string;
  /** The label of the text box (what it searches). */
  search: string;
  /** The last select: its name in the URL, label, "any" choice and choices. */
  state: { name: string; label: string; any: string; choices: readonly Choice[] };
  filters: Readonly<Partial<Record<string, string>>>;
  setFilters: (changes: Record<string, string>) => void;
}) {
  return (
    <form class="filters" aria-label={`Filter ${list}`} onSubmit={(e) => e.preventDefault()}>
      <FilterText
        id={`${list}-q`}
        label={search}
        value={filters.q ?? ''}
        onInput={(q) => setFilters({ q })}
      />
      <FilterSelect
        id={`${list}-role`}
        label="Role"
        any="Any role"
        value={filters.role}
        choices={ROLES}
        onChange={(role) => setFilters({ role })}
      />
      <FilterSelect
        id={`${list}-${state.name}`}
        label={state.label}
        any={state.any}
        value={filters[state.name]}
        choices={state.choices}
        onChange={(value) => setFilters({ [state.name]: value })}
      />
    </form>
  );
}

/** The list is empty: filtered, a button to clear the filters; otherwise what to do (`children`). */
export function EmptyPeopleList({
  title,
  filtered,
  onClear,
  children,
}: {
  title: string;
  filtered: boolean;
  onClear: () => void;
  children: ComponentChildren;
}) {
  return (
    <Empty title={title}>
      {filtered ? (
        <p>
          <button type="button" class="link-button" onClick={onClear}>
            Clear the filters
          </button>
        </p>
      ) : (
        children
      )}
    </Empty>
  );
}
