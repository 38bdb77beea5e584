import { PublishCommand, type SNSClient } from '@aws-sdk/client-sns';
import type { Logger } from '@tickring/core/common';
import type { Alarm, AlarmKind, AlarmPublisher, WorkflowAlarm } from '@tickring/core/runs';

/** How long the job's webhook may take to answer (XXL-JOB's admin→executor timeout). */
export const WEBHOOK_TIMEOUT_MS = 3_000;
/** SNS subjects must stay under 100 characters. */
const MAX_SUBJECT = 99;

/** The JSON every channel sends: what failed, for people and for machines. */
export interface AlarmPayload {
  readonly type: 'tickring.alarm';
  /** runFailed, jobPaused (its failure policy stopped it), jobRecovered (a success after a failure), deadlineMissed, fireUnexplained. */
  readonly kind: AlarmKind;
  readonly summary: string;
  readonly job: {
    readonly id: number;
    readonly name: string;
    readonly appName: string;
    readonly alarmEmail: string;
  };
  /** null for a missed deadline (no run is its subject). */
  readonly run: {
    readonly logId: number;
    readonly triggerType: string;
    readonly scheduledTime: string;
    readonly attempt: number;
    readonly executorAddress: string;
    readonly triggerCode: number;
    readonly triggerMsg: string;
    readonly handleCode: number;
    readonly handleMsg: string;
    readonly handleTime: string | null;
  } | null;
  /** jobPaused: the failures that met the rule, and when the job starts again (null: a user starts it). */
  readonly pause?: { readonly failures: number; readonly ofLast: number; readonly resumeAt: string | null };
  /** deadlineMissed: the deadline and the window that closed without a success. */
  readonly deadline?: { readonly deadline: string; readonly windowFrom: string; readonly windowTo: string };
  /** fireUnexplained: the window checked, how many fires nothing explains, the first of them. */
  readonly unexplained?: {
    readonly windowFrom: string;
    readonly windowTo: string;
    readonly count: number;
    readonly first: string;
  };
  /**
   * The workflow it is about: a failed workflow run (its job and run are its first failed node's),
   * or a workflow's missed deadline or unexplained fires (`runId`, `failedNodes` absent).
   */
  readonly workflow?: WorkflowAlarm;
  /**
   * The count of a closed 10-minute alert window: the job's own path gets the window's first alarm at
   * once, then this one message for all of them (its run is null; `summary` names the first).
   */
  readonly window?: {
    readonly alertId: string;
    readonly count: number;
    readonly firstAt: string;
    readonly lastAt: string;
    readonly windowEnd: string;
  };
}

export function alarmPayload({
  kind,
  job,
  run,
  summary,
  workflow,
  pause,
  deadline,
  unexplained,
  window,
}: Alarm): AlarmPayload {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    type: 'tickring.alarm',
    kind: kind ?? 'runFailed',
    summary,
    ...(workflow ? { workflow } : {}),
    ...(pause
      ? {
          pause: {
            failures: pause.failures,
            ofLast: pause.ofLast,
            resumeAt: pause.resumeAt === undefined ? null : iso(pause.resumeAt),
          },
        }
      : {}),
    ...(deadline
      ? { deadline: { deadline: deadline.text, windowFrom: iso(deadline.from), windowTo: iso(deadline.to) } }
      : {}),
    ...(unexplained
      ? {
          unexplained: {
            windowFrom: iso(unexplained.from),
            windowTo: iso(unexplained.to),
            count: unexplained.count,
            first: iso(unexplained.first),
          },
        }
      : {}),
    ...(window
      ? {
          window: {
            alertId: window.alertId,
            count: window.count,
            firstAt: iso(window.firstAt),
            lastAt: iso(window.lastAt),
            windowEnd: iso(window.windowEnd),
          },
        }
      : {}),
    job: { id: job.id, name: job.name, appName: job.appName, alarmEmail: job.alarmEmail },
    run:
      run === undefined
        ? null
        : {
            logId: run.logId,
            triggerType: run.triggerType,
            scheduledTime: new Date(run.scheduledTime).toISOString(),
            attempt: run.attempt,
            executorAddress: run.executorAddress,
            triggerCode: run.triggerCode,
            triggerMsg: run.triggerMsg,
            handleCode: run.handleCode,
            handleMsg: run.handleMsg,
            handleTime: run.handleTime > 0 ? new Date(run.handleTime).toISOString() : null,
          },
  };
}

/** The SNS subject: what happened, to which job or workflow. */
export function alarmSubject(alarm: Alarm): string {
  const kind = alarm.kind ?? 'runFailed';
  if (alarm.workflow && kind === 'runFailed')
    return `tickring alarm: workflow ${alarm.workflow.id} failed (run ${alarm.workflow.runId})`;
  // A workflow's deadline or schedule: the workflow is the subject, not its starter job.
  const job = alarm.workflow ? `workflow ${alarm.workflow.id}` : `job ${alarm.job.id}`;
  if (alarm.window) {
    return `tickring alarm: ${job}, ${alarm.window.count} ${kind} alarms since ${new Date(alarm.window.firstAt).toISOString()}`;
  }
  switch (kind) {
    case 'jobPaused':
      return `tickring alarm: ${job} paused by its failure policy`;
    case 'jobRecovered':
      return `tickring notice: ${job} succeeded again (log ${alarm.run?.logId})`;
    case 'deadlineMissed':
      return `tickring alarm: ${job} missed its deadline`;
    case 'fireUnexplained':
      return `tickring alarm: ${job} owed fires that did not happen`;
    case 'runFailed':
      return `tickring alarm: ${job} failed (log ${alarm.run?.logId})`;
  }
}

/** One place an alarm goes; resolves false (after logging why) when it was not taken. */
export interface AlarmChannel {
  readonly name: string;
  deliver(alarm: Alarm, payload: AlarmPayload): Promise<boolean>;
}

/** Publishes to the alarm topic (its subscribers: e-mail, chat, a queue...), with jobId/appName attributes for filter policies. */
export function snsChannel(options: { sns: SNSClient; topicArn: string }): AlarmChannel {
  return {
    name: 'sns',
    async deliver(alarm, payload) {
      await options.sns.send(
        new PublishCommand({
          TopicArn: options.topicArn,
          Subject: alarmSubject(alarm).slice(0, MAX_SUBJECT),
          Message: JSON.stringify(payload),
          MessageAttributes: {
            jobId: { DataType: 'Number', StringValue: String(alarm.job.id) },
            appName: { DataType: 'String', StringValue: alarm.job.appName },
          },
        }),
      );
      return true;
    },
  };
}

/**
 * POSTs the alarm as JSON to the job's `alarmWebhook` (when it has one). Any 2xx answer within
 * the timeout counts as delivered; redirects are not followed.
 */
export function webhookChannel(options: { timeoutMs?: number; fetch?: typeof fetch } = {}): AlarmChannel {
  const doFetch = options.fetch ?? fetch;
  return {
    name: 'webhook',
    async deliver(alarm, payload) {
      const url = alarm.job.alarmWebhook.trim();
      if (url === '') return true;
      const response = await doFetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'tickring-alarm' },
        body: JSON.stringify(payload),
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs ?? WEBHOOK_TIMEOUT_MS),
      });
      await response.body?.cancel().catch(() => undefined);
      if (response.status >= 200 && response.status < 300) return true;
      throw new Error(`the webhook answered HTTP ${response.status}`);
    },
  };
}

/**
 * Sends every alarm to every channel at once; true only when all took it (XXL-JOB: the alarm is
 * OK only if every JobAlarm succeeded). A failing channel is logged and does not stop the others.
 */
export class MultiChannelAlarmPublisher implements AlarmPublisher {
  constructor(
    private readonly channels: readonly AlarmChannel[],
    private readonly logger: Logger,
  ) {}

  async publish(alarm: Alarm): Promise<boolean> {
    const payload = alarmPayload(alarm);
    const results = await Promise.all(
      this.channels.map(async (channel) => {
        try {
          return await channel.deliver(alarm, payload);
        } catch (err) {
          this.logger.error('alarm not delivered', {
            channel: channel.name,
            jobId: alarm.job.id,
            kind: alarm.kind ?? 'runFailed',
            logId: alarm.run?.logId ?? null,
            error: err instanceof Error ? err.message : String(err),
          });
          return false;
        }
      }),
    );
    return results.every(Boolean);
  }
}

/** The production publisher: the SNS alarm topic plus the job's webhook. */
export function createAlarmPublisher(options: {
  sns: SNSClient;
  topicArn: string;
  logger: Logger;
  webhookTimeoutMs?: number;
}): AlarmPublisher {
  return new MultiChannelAlarmPublisher(
    [
      snsChannel({ sns: options.sns, topicArn: options.topicArn }),
      webhookChannel({ timeoutMs: options.webhookTimeoutMs }),
    ],
    options.logger,
  );
}
