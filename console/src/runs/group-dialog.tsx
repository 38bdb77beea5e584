import type { Group } from '@tickring/client';
import { useState } from 'preact/hooks';
import { ErrorNotice, Field } from '../components/common';
import { Dialog, DialogButtons } from '../components/dialog';
import { AlertChannelPicker, useAlertChannels } from '../jobs/alert-channel-picker';
import { ALERT_ROUTINGS, MAX_ALERT_CHANNELS } from '../jobs/job-form';
import { api } from '../lib/api';
import { problemsFor, unplacedError } from '../lib/field-problems';
import { useAction } from '../lib/hooks';
import {
  type AddressType,
  type GroupAlertRouting,
  type GroupFormValues,
  groupAlertChannels,
  groupBody,
  groupFormValues,
} from './executors';

const FORM_FIELDS = ['appName', 'title', 'addressType', 'addressList', 'alertRouting', 'alertChannels'];
/** A group's choices: it has no default above it. */
const GROUP_ROUTINGS = ALERT_ROUTINGS.filter((choice) => choice.value !== 'group');

/**
 * Create or edit an executor group in a dialog (open while it is shown): appName (fixed once
 * created), title, AUTO or MANUAL, a MANUAL group's addresses, and the default alert channels of its
 * jobs (the job editor's picker; groups are an admin's, who may list the channels). The server's
 * problems are shown next to their fields, the rest above them.
 */
export function GroupDialog({
  group,
  onSaved,
  onClose,
}: {
  /** The group to edit; none: a new one. */
  group: Group | undefined;
  onSaved: (group: Group) => void;
  onClose: () => void;
}) {
  const [values, setValues] = useState<GroupFormValues>(() => groupFormValues(group));
  const editing = group !== undefined;
  const channels = useAlertChannels(true);
  const {
    busy,
    error,
    setError,
    run: save,
  } = useAction(async (alertChannels: string[]) => {
    const body = groupBody(values);
    const saved = editing
      ? await api().updateGroup({
          path: { appName: group.appName },
          body: {
            title: body.title,
            addressType: body.addressType,
            addressList: body.addressList,
            alertChannels,
          },
        })
      : await api().createGroup({ body: { ...body, alertChannels } });
    onSaved(saved);
  });

  const set = (changes: Partial<GroupFormValues>) => setValues((v) => ({ ...v, ...changes }));

  const submit = async (event: Event) => {
    event.preventDefault();
    const routed = groupAlertChannels(values);
    if ('error' in routed) return setError(routed.error);
    await save(routed.alertChannels);
  };

  const describedBy = (id: string, problems: readonly string[], help = true) =>
    [help ? `${id}-help` : '', problems.length > 0 ? `${id}-error` : ''].filter(Boolean).join(' ') ||
    undefined;
  const appNameProblems = problemsFor(error, 'appName');
  const titleProblems = problemsFor(error, 'title');
  const typeProblems = problemsFor(error, 'addressType');
  const addressProblems = problemsFor(error, 'addressList');

  return (
    <Dialog open title={editing ? `Edit group ${group.appName}` : 'New executor group'} onClose={onClose}>
      <form id="group-form" onSubmit={(e) => void submit(e)} noValidate>
        <ErrorNotice error={unplacedError(error, FORM_FIELDS)} title="Not saved" />
        <Field
          id="group-appName"
          label="AppName"
          problems={appNameProblems}
          help={
            editing
              ? 'The executors’ AppName cannot change.'
              : 'What the executors register under: 4-64 letters, digits, _ . and -. Cannot be changed later.'
          }
        >
          <input
            id="group-appName"
            name="appName"
            value={values.appName}
            readOnly={editing}
            required
            autoComplete="off"
            spellcheck={false}
            aria-invalid={appNameProblems.length > 0 ? true : undefined}
            aria-describedby={describedBy('group-appName', appNameProblems)}
            onInput={(e) => set({ appName: e.currentTarget.value })}
          />
        </Field>
        <Field id="group-title" label="Title" problems={titleProblems} help="A name for people.">
          <input
            id="group-title"
            name="title"
            value={values.title}
            required
            autoComplete="off"
            aria-invalid={titleProblems.length > 0 ? true : undefined}
            aria-describedby={describedBy('group-title', titleProblems)}
            onInput={(e) => set({ title: e.currentTarget.value })}
          />
        </Field>
        <Field
          id="group-addressType"
          label="Address type"
          problems={typeProblems}
          help="AUTO: the executors that register under the AppName. MANUAL: the addresses listed here."
        >
          <select
            id="group-addressType"
            name="addressType"
            value={values.addressType}
            aria-invalid={typeProblems.length > 0 ? true : undefined}
            aria-describedby={describedBy('group-addressType', typeProblems)}
            onChange={(e) => {
              const addressType = e.currentTarget.value as AddressType;
              // AUTO → MANUAL: start from the executors the group has now.
              const addresses =
                addressType === 'MANUAL' && values.addresses.trim() === '' && group
                  ? group.addressList.join('\n')
                  : values.addresses;
              set({ addressType, addresses });
            }}
          >
            <option value="AUTO">AUTO: registered executors</option>
            <option value="MANUAL">MANUAL: a list of addresses</option>
          </select>
        </Field>
        {values.addressType === 'MANUAL' && (
          <Field
            id="group-addressList"
            label="Executor addresses"
            problems={addressProblems}
            help={
              <>
                One per line: <code>http://10.0.0.5:9999/</code> or <code>lambda:&lt;function&gt;</code>.
              </>
            }
          >
            <textarea
              id="group-addressList"
              name="addressList"
              rows={4}
              value={values.addresses}
              spellcheck={false}
              aria-invalid={addressProblems.length > 0 ? true : undefined}
              aria-describedby={describedBy('group-addressList', addressProblems)}
              onInput={(e) => set({ addresses: e.currentTarget.value })}
            />
          </Field>
        )}
        <AlertChannelPicker
          idPrefix="group"
          owner="group"
          legend="Default alert channels"
          help={`Where the alerts of the group’s jobs go when a job names no channels of its own (its editor’s “Group default”), at most ${MAX_ALERT_CHANNELS}. None: those alerts are recorded as unrouted.`}
          routings={GROUP_ROUTINGS}
          routing={values.alertRouting}
          value={values.alertChannels}
          onRouting={(routing) => set({ alertRouting: routing as GroupAlertRouting })}
          onChange={(alertChannels) => set({ alertChannels })}
          channels={channels}
          disabled={busy}
          routingProblems={problemsFor(error, 'alertRouting')}
          channelProblems={problemsFor(error, 'alertChannels')}
        />
      </form>
      <DialogButtons
        confirmLabel={editing ? 'Save group' : 'Create group'}
        busy={busy}
        form="group-form"
        onCancel={onClose}
      />
    </Dialog>
  );
}
