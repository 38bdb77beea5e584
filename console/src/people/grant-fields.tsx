import { useState } from 'preact/hooks';
import { ChoiceSelect, Field, Switch, SwitchField } from '../components/common';
import type { ShownError } from '../lib/api';
import { problemsFor } from '../lib/field-problems';
import { addGroups, type GrantDraft, ROLE_HELP, ROLES, type Role } from './grant';
import './people.css';

/**
 * The grant of a user or a token: role, the groups it applies to (every group, or a list), and
 * GLUE editing for an operator. An admin's groups and GLUE are implied, so those fields go away.
 */
export function GrantFields({
  idPrefix,
  value,
  onChange,
  error,
  knownGroups,
  subject,
}: {
  idPrefix: string;
  value: GrantDraft;
  onChange: (next: GrantDraft) => void;
  error: ShownError | undefined;
  knownGroups: readonly string[];
  /** "user" or "token": how the help text names it. */
  subject: string;
}) {
  const set = (changes: Partial<GrantDraft>) => onChange({ ...value, ...changes });
  return (
    <>
      <Field
        label="Role"
        id={`${idPrefix}-role`}
        help={`The ${subject} ${ROLE_HELP[value.role]}.`}
        problems={problemsFor(error, 'role')}
      >
        <ChoiceSelect
          id={`${idPrefix}-role`}
          value={value.role}
          aria-describedby={`${idPrefix}-role-help`}
          choices={ROLES}
          onChange={(role) => set({ role: role as Role })}
        />
      </Field>
      {value.role === 'admin' ? (
        <p class="muted small-text">An admin reaches every group and may edit GLUE sources.</p>
      ) : (
        <fieldset class="grant-groups">
          <legend>Groups</legend>
          <Switch checked={value.allGroups} onChange={(allGroups) => set({ allGroups })}>
            All groups, present and future
          </Switch>
          {!value.allGroups && (
            <GroupsInput
              id={`${idPrefix}-groups`}
              groups={value.groups}
              onChange={(groups) => set({ groups })}
              knownGroups={knownGroups}
              required={value.role === 'operator'}
            />
          )}
          {problemsFor(error, 'groups').length > 0 && (
            <small class="field-error" role="alert">
              {problemsFor(error, 'groups').join(' ')}
            </small>
          )}
        </fieldset>
      )}
      {value.role === 'operator' && (
        <SwitchField
          id={`${idPrefix}-glue`}
          label="May edit GLUE sources"
          help="GLUE jobs run code stored in tickring on the executors: give it only to people you trust with that."
          problems={problemsFor(error, 'glue')}
          checked={value.glue}
          onChange={(glue) => set({ glue })}
        />
      )}
    </>
  );
}

/**
 * A list of group names: each shown with a Remove button, new ones typed in a box (Enter, the Add
 * button, or leaving the box adds them; several at once separated by commas).
 */
export function GroupsInput({
  id,
  groups,
  onChange,
  knownGroups,
  required,
}: {
  id: string;
  groups: readonly string[];
  onChange: (groups: string[]) => void;
  knownGroups: readonly string[];
  required?: boolean;
}) {
  const [text, setText] = useState('');
  const commit = () => {
    if (text.trim() === '') return;
    onChange(addGroups(groups, text));
    setText('');
  };
  return (
    <div class="field groups-input">
      {groups.length > 0 ? (
        <ul class="chips" aria-label="Chosen groups">
          {groups.map((group) => (
            <li key={group}>
              <span class="mono">{group}</span>
              <button
                type="button"
                class="chip-remove"
                aria-label={`Remove group ${group}`}
                title={`Remove ${group}`}
                onClick={() => onChange(groups.filter((g) => g !== group))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted small-text">
          {required ? 'No groups yet: an operator needs at least one.' : 'No groups yet.'}
        </p>
      )}
      <label for={id}>Add a group</label>
      <div class="add-row">
        <input
          id={id}
          list={`${id}-known`}
          value={text}
          autoComplete="off"
          placeholder="AppName"
          aria-describedby={`${id}-help`}
          onInput={(e) => setText((e.currentTarget as HTMLInputElement).value)}
          onChange={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              commit();
            }
          }}
        />
        <button type="button" class="secondary" onClick={commit}>
          Add
        </button>
      </div>
      <datalist id={`${id}-known`}>
        {knownGroups
          .filter((g) => !groups.includes(g))
          .map((g) => (
            <option key={g} value={g} />
          ))}
      </datalist>
      <small id={`${id}-help`} class="help">
        Executor groups by AppName (they need not exist yet); several at once separated by commas.
      </small>
    </div>
  );
}
