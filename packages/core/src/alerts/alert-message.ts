import { createHmac } from 'node:crypto';
import { isPlainArray, isPlainObject, type JsonObject, ownField, ownItem } from '../workflows/model/json.js';
import { parseTemplate } from '../workflows/model/template.js';
import type { Alert, AlertDelivery } from './alert.js';

/** The header that carries the HMAC: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const SIGNATURE_HEADER = 'x-tickring-signature';
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** What a webhook body and a template read: `{{ alert.count }}`, `{{ job.name }}`, `{{ text }}`… */
export interface AlertFields {
  readonly type: 'tickring.alert';
  readonly text: string;
  readonly alert: {
    readonly id: string;
    readonly kind: string;
    /** first: the window's first alarm; summary: the window's count; test: a channel's test message. */
    readonly message: 'first' | 'summary' | 'test';
    readonly count: number;
    readonly firstAt: string;
    readonly lastAt: string;
    readonly windowEnd: string;
    readonly summary: string;
    readonly logId: number | null;
  };
  readonly job: { readonly id: number; readonly name: string; readonly appName: string };
  /** A workflow's alert: the workflow, and its run when a run failed (null for its deadline or schedule); else null. */
  readonly workflow: { readonly id: number; readonly name: string; readonly runId: string | null } | null;
}

/** One line for people: the first alarm's own line, or the window's count ("3 runFailed alarms of job 7 since 10:02:00Z"). */
export function alertText(alert: Alert, delivery: Pick<AlertDelivery, 'message' | 'count'>): string {
  if (delivery.message === 'first') return alert.summary;
  const since = new Date(alert.firstAt).toISOString();
  return `${delivery.count} ${alert.kind} alarms of job ${alert.jobId} (${alert.jobName}) since ${since}; the first: ${alert.summary}`;
}

export function alertFields(alert: Alert, delivery: Pick<AlertDelivery, 'message' | 'count'>): AlertFields {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    type: 'tickring.alert',
    text: alertText(alert, delivery),
    alert: {
      id: alert.id,
      kind: alert.kind,
      message: delivery.message,
      count: delivery.count,
      firstAt: iso(alert.firstAt),
      lastAt: iso(alert.lastAt),
      windowEnd: iso(alert.windowEnd),
      summary: alert.summary,
      logId: alert.logId ?? null,
    },
    job: { id: alert.jobId, name: alert.jobName, appName: alert.appName },
    workflow: alert.workflow
      ? { id: alert.workflow.id, name: alert.workflow.name, runId: alert.workflow.runId ?? null }
      : null,
  };
}

/**
 * A channel's test message (POST /v1/alert-channels/{id}/test): the fields of an alert, so a body
 * template renders as it will, marked `alert.kind` and `alert.message` "test", job 0.
 */
export function testAlertFields(
  channel: { readonly id: string; readonly name: string },
  by: string,
  atMs: number,
): AlertFields {
  const at = new Date(atMs).toISOString();
  const text = `Test message from tickring to alert channel ${channel.name}, sent by ${by}`;
  return {
    type: 'tickring.alert',
    text,
    alert: {
      id: `test#${channel.id}#${atMs}`,
      kind: 'test',
      message: 'test',
      count: 1,
      firstAt: at,
      lastAt: at,
      windowEnd: at,
      summary: text,
      logId: null,
    },
    job: { id: 0, name: 'test', appName: 'test' },
    workflow: null,
  };
}

/**
 * Renders a webhook body template: `{{ path }}` placeholders (the workflows' template syntax) over
 * the alert's fields; a string value goes in as it is, any other as JSON. Data only: nothing is
 * evaluated, only own fields are read. A missing field is an error naming it.
 */
export function renderAlertTemplate(
  template: string,
  fields: AlertFields,
): { ok: string } | { error: string } {
  const parsed = parseTemplate(template);
  if ('error' in parsed) return parsed;
  let out = '';
  for (const part of parsed.ok.parts) {
    if (part.kind === 'text') {
      out += part.text;
      continue;
    }
    let value: unknown = fields;
    for (const segment of part.path.segments) {
      const found =
        segment.kind === 'key'
          ? isPlainObject(value)
            ? ownField(value as JsonObject, segment.key)
            : undefined
          : isPlainArray(value)
            ? ownItem(value, segment.index)
            : undefined;
      if (!found) return { error: `${part.path.text} is not a field of the alert` };
      value = found.value;
    }
    out += typeof value === 'string' ? value : JSON.stringify(value);
  }
  return { ok: out };
}

/** A Slack-compatible incoming-webhook body: `text` for notifications, one section block for the message. */
export function slackBody(fields: AlertFields): { text: string; blocks: unknown[] } {
  const title =
    fields.alert.message === 'test'
      ? '*test message* · tickring'
      : `*${fields.alert.kind}* · job ${fields.job.id} ${fields.job.name} (${fields.job.appName})`;
  return {
    text: fields.text,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `${title}\n${fields.text}` } },
      {
        type: 'context',
        elements: [{ type: 'mrkdwn', text: `alert ${fields.alert.id} · ${fields.alert.count} in window` }],
      },
    ],
  };
}

/** The signature header's value for a body sent at `atMs`. */
export function signBody(secret: string, body: string, atMs: number): string {
  const t = Math.floor(atMs / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}
