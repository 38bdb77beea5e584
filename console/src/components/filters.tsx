import type { Group } from '@tickring/client';
import { api } from '../lib/api';
import { useLoad } from '../lib/hooks';
import { type Choice, ChoiceSelect } from './common';

// The boxes of a list's filter row (`<form class="filters">`): each a label above its control.

/** A select of a filter row: `any` (the filter unset, value "") first when given, then the choices. */
export function FilterSelect({
  id,
  label,
  any,
  value,
  choices,
  onChange,
}: {
  id: string;
  label: string;
  any?: string;
  value: string | undefined;
  choices: readonly Choice[];
  onChange: (value: string) => void;
}) {
  return (
    <div>
      <label for={id}>{label}</label>
      <ChoiceSelect
        id={id}
        value={value ?? ''}
        choices={any === undefined ? choices : [{ value: '', label: any }, ...choices]}
        onChange={onChange}
      />
    </div>
  );
}

/** A search box of a filter row, with suggestions when given. */
export function FilterText({
  id,
  label,
  value,
  placeholder,
  suggestions,
  onInput,
}: {
  id: string;
  label: string;
  value: string;
  placeholder?: string;
  suggestions?: readonly string[];
  onInput: (value: string) => void;
}) {
  return (
    <div>
      <label for={id}>{label}</label>
      <input
        id={id}
        type="search"
        list={suggestions && `${id}-suggestions`}
        value={value}
        placeholder={placeholder}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
      {suggestions && (
        <datalist id={`${id}-suggestions`}>
          {suggestions.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
      )}
    </div>
  );
}

/** Groups as choices ("Title (appName)"), and `current` at the end when it is not among them. */
export function groupChoices(
  groups: readonly Pick<Group, 'appName' | 'title'>[],
  current: string | undefined,
): Choice[] {
  const choices: Choice[] = groups.map((g) => ({ value: g.appName, label: `${g.title} (${g.appName})` }));
  if (current && !groups.some((g) => g.appName === current)) choices.push(current);
  return choices;
}

/** The group filter: every group the caller reads, and the URL's group even when it is not one of them. */
export function GroupFilter({
  id,
  any,
  value,
  onChange,
}: {
  id: string;
  any: string;
  value: string | undefined;
  onChange: (value: string) => void;
}) {
  const groups = useLoad(() => api().listGroups(), 'groups');
  return (
    <FilterSelect
      id={id}
      label="Group"
      any={any}
      value={value}
      choices={groupChoices(groups.data?.items ?? [], value)}
      onChange={onChange}
    />
  );
}
