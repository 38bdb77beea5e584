import type { ComponentChildren, VNode } from 'preact';
import { type Choice, Empty, ErrorNotice } from '../components/common';
import { FilterSelect, FilterText } from '../components/filters';
import type { Loaded } from '../lib/hooks';
import { ROLES } from './grant';

// The users and tokens lists come whole from the server and are filtered here (list-filters.ts):
// the same status line, filter row (a text, the role, a state), loading and empty states and table
// on both pages.

/** The filter row's last select: its name in the URL, label, "any" choice and choices. */
type StateFilter = { name: string; label: string; any: string; choices: readonly Choice[] };
type Filters = Readonly<Partial<Record<string, string>>>;

/**
 * A people list (users, tokens) below its page header: the status line of what was just done, the
 * filter row, the read's error or progress, the empty list, and the table of the shown items with an
 * Actions column last.
 */
export function PeopleList<T>({
  words,
  search,
  state,
  filters,
  setFilters,
  clearFilters,
  status,
  loaded,
  shown,
  headings,
  row,
  emptyHelp,
}: {
  /** The list's nouns ("user", "users": the filter row's name and ids too), and its title when empty. */
  words: { one: string; many: string; noneYet: string };
  /** The label of the text box (what it searches). */
  search: string;
  state: StateFilter;
  filters: Filters;
  setFilters: (changes: Record<string, string>) => void;
  clearFilters: () => void;
  /** What was just done ("User ann created."), announced. */
  status: string | undefined;
  loaded: Pick<Loaded<unknown>, 'data' | 'error' | 'loading'>;
  /** The items that pass the filters. */
  shown: readonly T[];
  /** The column headings (`<th scope="col">`) before the Actions column. */
  headings: ComponentChildren;
  /** An item's row (`<tr key=…>`). */
  row: (item: T) => VNode;
  /** What to do when nothing is there yet (unfiltered). */
  emptyHelp: ComponentChildren;
}) {
  const filtered = Object.keys(filters).length > 0;
  const many = words.many;
  return (
    <>
      <p class="people-status" role="status">
        {status}
      </p>

      <PeopleFilters list={many} search={search} state={state} filters={filters} setFilters={setFilters} />

      <ErrorNotice error={loaded.error} title={`${many.charAt(0).toUpperCase()}${many.slice(1)} not read`} />
      {loaded.data === undefined && loaded.loading && <p aria-busy="true">{`Loading ${many}…`}</p>}
      {loaded.data !== undefined && shown.length === 0 && (
        <EmptyPeopleList
          title={filtered ? `No ${words.one} matches these filters` : words.noneYet}
          filtered={filtered}
          onClear={clearFilters}
        >
          {emptyHelp}
        </EmptyPeopleList>
      )}
      {shown.length > 0 && (
        <div class="table-wrap">
          <table class="people-table striped">
            <thead>
              <tr>
                {headings}
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>{shown.map((item) => row(item))}</tbody>
          </table>
        </div>
      )}
    </>
  );
}

/** The filter row: `q` (a text), `role`, and the list's own state filter. */
function PeopleFilters({
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
  state: StateFilter;
  filters: Filters;
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
function EmptyPeopleList({
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
