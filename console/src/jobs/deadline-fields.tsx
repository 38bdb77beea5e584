import { ChoiceSelect, Field } from '../components/common';
import { DEADLINE_DAYS, type DeadlineDays, FIELDS } from './job-form';

/** The deadline's inputs: HH:MM as typed (empty: no deadline), its zone, its days. */
export interface DeadlineInputs {
  readonly deadlineTime: string;
  readonly deadlineZone: string;
  readonly deadlineDays: DeadlineDays;
}

export type DeadlineField = keyof DeadlineInputs;

/** An input's id and its aria attributes (its help, its problems). */
export interface InputProps {
  readonly id: string;
  readonly 'aria-describedby': string;
  readonly 'aria-invalid': boolean | undefined;
}

/**
 * A deadline's fields, as the job editor and the workflow editor show them: the time, and once one is
 * typed its zone and its days. The editor owns the values, the ids and each field's problems.
 */
export function DeadlineFields({
  value,
  onChange,
  fieldId,
  inputProps,
  problems,
  zoneList,
}: {
  value: DeadlineInputs;
  /** The three values after an input changed one of them. */
  onChange: (next: DeadlineInputs) => void;
  fieldId: (field: DeadlineField) => string;
  inputProps: (field: DeadlineField) => InputProps;
  problems: (field: DeadlineField) => string[];
  /** The id of a datalist of time zones. */
  zoneList: string;
}) {
  const timed = value.deadlineTime.trim() !== '';
  return (
    <>
      <div class="grid">
        <Field
          id={fieldId('deadlineTime')}
          label={FIELDS.deadlineTime.label}
          help={FIELDS.deadlineTime.help}
          problems={problems('deadlineTime')}
        >
          <input
            {...inputProps('deadlineTime')}
            type="text"
            class="mono"
            inputMode="numeric"
            placeholder="06:00"
            maxLength={5}
            autocomplete="off"
            value={value.deadlineTime}
            onInput={(e) => onChange({ ...value, deadlineTime: e.currentTarget.value })}
          />
        </Field>
        {timed ? (
          <Field
            id={fieldId('deadlineZone')}
            label={FIELDS.deadlineZone.label}
            help={FIELDS.deadlineZone.help}
            problems={problems('deadlineZone')}
          >
            <input
              {...inputProps('deadlineZone')}
              type="text"
              list={zoneList}
              maxLength={64}
              autocomplete="off"
              spellcheck={false}
              value={value.deadlineZone}
              onInput={(e) => onChange({ ...value, deadlineZone: e.currentTarget.value })}
            />
          </Field>
        ) : (
          <div />
        )}
      </div>
      {timed && (
        <div class="grid">
          <Field
            id={fieldId('deadlineDays')}
            label={FIELDS.deadlineDays.label}
            help={FIELDS.deadlineDays.help}
            problems={problems('deadlineDays')}
          >
            <ChoiceSelect
              {...inputProps('deadlineDays')}
              choices={DEADLINE_DAYS}
              value={value.deadlineDays}
              onChange={(v) => onChange({ ...value, deadlineDays: v as DeadlineDays })}
            />
          </Field>
          <div />
        </div>
      )}
    </>
  );
}
