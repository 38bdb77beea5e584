import type { AlertChannel } from '@tickring/client';
import { ErrorNotice } from '../components/common';
import { api } from '../lib/api';
import { type Loaded, useLoad } from '../lib/hooks';
import { type AlertRouting, type Choice, MAX_ALERT_CHANNELS } from './job-form';
import './jobs.css';

/**
 * The alert channels, read only when `readable` (GET /v1/alert-channels is for admins): null for
 * anyone else, so the channels are then named by id.
 */
export function useAlertChannels(readable: boolean): Loaded<AlertChannel[] | null> {
  return useLoad(
    () =>
      readable
        ? api()
            .listAlertChannels()
            .then((list) => list.items)
        : Promise.resolve(null),
    `alert-channels:${readable}`,
  );
}

/**
 * Where alerts go, for a job or a group (`owner`): a choice of `routings` (a job's: its group's
 * default, none, or the channels ticked; a group's: none, or the channels ticked), and with `chosen`
 * a checkbox per channel (ids ticked that no channel has, or that the viewer cannot read, stay listed
 * so they can be taken out). Its inputs' ids start with `idPrefix` (`job-alertRouting`,
 * `job-alertChannels`), where a form's problem summary links.
 */
export function AlertChannelPicker({
  idPrefix,
  owner,
  legend,
  help,
  routings,
  routing,
  value,
  onRouting,
  onChange,
  channels,
  disabled,
  routingProblems,
  channelProblems,
}: {
  idPrefix: string;
  owner: 'job' | 'group';
  legend: string;
  help: string;
  routings: readonly Choice<AlertRouting>[];
  routing: AlertRouting;
  value: readonly string[];
  onRouting: (routing: AlertRouting) => void;
  onChange: (ids: string[]) => void;
  channels: Loaded<AlertChannel[] | null>;
  disabled: boolean;
  routingProblems: readonly string[];
  channelProblems: readonly string[];
}) {
  const routingId = `${idPrefix}-alertRouting`;
  const known = channels.data ?? [];
  const missing = value.filter((id) => !known.some((c) => c.id === id));
  const full = value.length >= MAX_ALERT_CHANNELS;
  const problems = [...routingProblems, ...channelProblems];
  const toggle = (id: string, on: boolean) =>
    onChange(on ? [...value.filter((v) => v !== id), id] : value.filter((v) => v !== id));
  return (
    <fieldset
      class={`field alert-channel-picker${problems.length > 0 ? ' invalid' : ''}`}
      id={routingId}
      aria-describedby={`${routingId}-help${problems.length > 0 ? ` ${routingId}-error` : ''}`}
      tabIndex={-1}
    >
      <legend>{legend}</legend>
      <div class="alert-routings">
        {routings.map((choice) => (
          <label key={choice.value}>
            <input
              type="radio"
              name={routingId}
              value={choice.value}
              checked={routing === choice.value}
              disabled={disabled}
              onChange={() => onRouting(choice.value)}
            />
            {choice.label}
          </label>
        ))}
      </div>
      <small id={`${routingId}-help`} class="help">
        {help}
      </small>
      {routing === 'chosen' && (
        <fieldset class="alert-channel-list" id={`${idPrefix}-alertChannels`} tabIndex={-1}>
          <legend>
            Channels <small class="muted">(at most {MAX_ALERT_CHANNELS})</small>
          </legend>
          <ErrorNotice error={channels.error} title="The alert channels could not be read" />
          {channels.data === null && (
            <p class="muted small">
              Only an admin can list the channels: those the {owner} names are shown by id.
            </p>
          )}
          {channels.data && known.length === 0 && value.length === 0 && (
            <p class="muted small">No alert channels yet: an admin creates them.</p>
          )}
          {known.map((c) => {
            const checked = value.includes(c.id);
            return (
              <label key={c.id}>
                <input
                  type="checkbox"
                  checked={checked}
                  disabled={disabled || (full && !checked)}
                  onChange={(e) => toggle(c.id, e.currentTarget.checked)}
                />
                {/* A span between: Pico pulls an input's adjacent <small> up under it. */}
                <span>{c.name}</span> <small class="muted">({c.kind})</small>
              </label>
            );
          })}
          {missing.map((id) => (
            <label key={id}>
              <input type="checkbox" checked disabled={disabled} onChange={() => toggle(id, false)} />
              <span class="mono">{id}</span> {channels.data && <small class="muted">(no such channel)</small>}
            </label>
          ))}
        </fieldset>
      )}
      {problems.length > 0 && (
        <small id={`${routingId}-error`} class="field-error" role="alert">
          {problems.join(' ')}
        </small>
      )}
    </fieldset>
  );
}
