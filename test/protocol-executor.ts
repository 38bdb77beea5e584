import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A minimal XXL-JOB executor, written from the wire protocol reference (section B and "XXL-JOB 3.5"
 * of the project's XXL-JOB notes), not from the SDK or @tickring/protocol, so tests see the
 * scheduler the way any executor does. Two generations:
 * - `2.x` (v2.3–3.4): triggers on `/run`; the token is checked only when one is configured;
 *   callbacks are a bare array of HandleCallbackParam (`logDateTim`); answers `{code, msg, content}`.
 * - `3.5` (master, 3.5.0-SNAPSHOT): triggers on `/trigger` (`/run` is "uri-mapping(/run) not
 *   found."); every request must carry both `XXL-JOB-ACCESS-TOKEN` and `XXL-JOB-APPNAME`, equal to
 *   its own; it sends both on its own calls; callbacks are `{"callbackList": [...]}` with
 *   `logDateTime`; answers `{code, msg, data}`.
 * It records every `/run` it receives, duplicates included, with its receipt
 * time; it answers `/beat`, `/idleBeat`, `/run`, `/kill` and `/log` with ReturnT JSON, registers to
 * `/api/registry` and reports results with `/api/callback` (a bare array of HandleCallbackParam,
 * re-sent until an admin takes it, like the Java executor's retry file). `die()` is a crash: the
 * server goes, no callback and no heartbeat follow.
 */

/** What the admin POSTs to `/run` (B.2). */
export interface TriggerParam {
  readonly jobId: number;
  readonly executorHandler: string;
  readonly executorParams: string;
  readonly executorBlockStrategy: string;
  /** Seconds; 0 or less: no timeout. */
  readonly executorTimeout: number;
  readonly logId: number;
  /** The run's trigger time (tickring: the fire's scheduled time), ms. */
  readonly logDateTime: number;
  readonly glueType: string;
  readonly glueSource: string;
  readonly glueUpdatetime: number;
  readonly broadcastIndex: number;
  readonly broadcastTotal: number;
}

/** One `/run` as this executor received it. */
export interface RunReceipt {
  readonly jobId: number;
  readonly logId: number;
  /** The scheduled time the admin sent (`logDateTime`). */
  readonly logDateTime: number;
  /** This process's clock when the request body had arrived. */
  readonly receivedAt: number;
  /** What the executor answered (200 accepted, 500 refused). */
  readonly code: number;
  readonly param: TriggerParam;
}

/** HandleCallbackParam (v2.3.0 → v3.4.x). */
export interface HandleCallbackParam {
  readonly logId: number;
  readonly logDateTim: number;
  readonly handleCode: number;
  readonly handleMsg: string;
}

/** How to run one trigger: report a result after `durationMs`, or never report one (`callback: false`). */
export type RunPlan =
  | { readonly callback: false }
  | {
      readonly callback?: true;
      readonly durationMs?: number;
      readonly handleCode?: number;
      readonly handleMsg?: string;
    };

export interface ProtocolExecutorOptions {
  /** Which protocol it speaks. Default `2.x`. */
  readonly generation?: '2.x' | '3.5';
  readonly appName: string;
  /** Base URL of the admin (`xxl.job.admin.addresses`, one address). */
  readonly adminAddress: string;
  readonly accessToken: string;
  /** Registry heartbeat period (XXL-JOB: 30 s). Default 1 s. */
  readonly registryIntervalMs?: number;
  /** How often unreported results are sent again after a failed callback (XXL-JOB: 30 s). Default 1 s. */
  readonly callbackRetryMs?: number;
  /** Decides each run; default: a result of 200 at once. */
  readonly plan?: (trigger: TriggerParam) => RunPlan;
}

export interface ProtocolExecutor {
  /** `http://127.0.0.1:PORT/`, the registryValue. */
  readonly address: string;
  readonly receipts: readonly RunReceipt[];
  /** Every request's path and the code answered, in arrival order (refusals included). */
  readonly requests: readonly { readonly path: string; readonly code: number; readonly msg?: string }[];
  /** Every result that an admin accepted (HTTP 200 and code 200). */
  readonly reported: readonly HandleCallbackParam[];
  /** Successful registry calls so far. */
  registrations(): number;
  /** When the last registry call was sent (the admin has seen the executor no later than its answer). */
  lastBeatSentAt(): number | undefined;
  /** Changes how later runs are run. */
  setPlan(plan: (trigger: TriggerParam) => RunPlan): void;
  /** A crash: closes the server and every connection, stops beating and reporting; runs in flight never report. */
  die(): Promise<void>;
  /** A clean stop: unregisters (best effort), reports what is finished (best effort), closes. */
  stop(): Promise<void>;
}

const EXECUTOR_CONTENT_TYPE = 'text/html;charset=UTF-8';
const CLIENT_TIMEOUT_MS = 3_000;

interface ActiveRun {
  readonly trigger: TriggerParam;
  readonly timer?: ReturnType<typeof setTimeout>;
  readonly log: string[];
}

export async function startProtocolExecutor(options: ProtocolExecutorOptions): Promise<ProtocolExecutor> {
  const receipts: RunReceipt[] = [];
  const requests: { path: string; code: number; msg?: string }[] = [];
  const reported: HandleCallbackParam[] = [];
  const active = new Map<number, ActiveRun>();
  const logs = new Map<number, string[]>();
  const unreported: HandleCallbackParam[] = [];
  let plan: (trigger: TriggerParam) => RunPlan = options.plan ?? (() => ({}));
  let alive = true;
  let registrations = 0;
  let lastBeatSentAt: number | undefined;
  let flushing: Promise<void> | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const v35 = options.generation === '3.5';
  const triggerPath = v35 ? '/trigger' : '/run';
  const admin = options.adminAddress.replace(/\/+$/, '');
  const post = async (path: string, body: unknown): Promise<{ code: number; msg?: string }> => {
    const headers: Record<string, string> = { 'content-type': 'application/json;charset=UTF-8' };
    if (options.accessToken.trim() !== '') headers['XXL-JOB-ACCESS-TOKEN'] = options.accessToken;
    if (v35) headers['XXL-JOB-APPNAME'] = options.appName;
    const res = await fetch(`${admin}${path}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
    });
    // B.0: a non-200 status or a body that does not parse counts as code 500.
    if (res.status !== 200) return { code: 500, msg: `HTTP ${res.status}` };
    try {
      return (await res.json()) as { code: number; msg?: string };
    } catch {
      return { code: 500, msg: 'unparseable reply' };
    }
  };

  /**
   * TriggerCallbackThread: one POST with everything pending; what no admin took is sent again after
   * `callbackRetryMs`, together with whatever finished meanwhile.
   */
  const flushCallbacks = (): Promise<void> => {
    if (flushing) return flushing;
    if (!alive || retryTimer !== undefined || unreported.length === 0) return Promise.resolve();
    const batch = unreported.splice(0);
    const body = v35
      ? {
          callbackList: batch.map(({ logId, logDateTim, handleCode, handleMsg }) => ({
            logId,
            logDateTime: logDateTim,
            handleCode,
            handleMsg,
          })),
        }
      : batch;
    flushing = post('/api/callback', body)
      .then((reply) => {
        if (reply.code !== 200) throw new Error(reply.msg ?? `code ${reply.code}`);
        reported.push(...batch);
      })
      .catch(() => {
        unreported.unshift(...batch);
        if (!alive) return;
        retryTimer = setTimeout(() => {
          retryTimer = undefined;
          void flushCallbacks();
        }, options.callbackRetryMs ?? 1_000);
      })
      .finally(() => {
        flushing = undefined;
        if (retryTimer === undefined && unreported.length > 0) void flushCallbacks();
      });
    return flushing;
  };

  const finish = (logId: number, handleCode: number, handleMsg: string) => {
    const run = active.get(logId);
    if (!run || !alive) return;
    clearTimeout(run.timer);
    active.delete(logId);
    run.log.push(`${new Date().toISOString()} finished: ${handleCode} ${handleMsg}`);
    unreported.push({ logId, logDateTim: run.trigger.logDateTime, handleCode, handleMsg });
    void flushCallbacks();
  };

  const startRun = (trigger: TriggerParam): void => {
    const decided = plan(trigger);
    const log = [`${new Date().toISOString()} started: job ${trigger.jobId}, log ${trigger.logId}`];
    logs.set(trigger.logId, log);
    if (decided.callback === false) {
      active.set(trigger.logId, { trigger, log });
      return;
    }
    const durationMs = decided.durationMs ?? 0;
    const timeoutMs = trigger.executorTimeout > 0 ? trigger.executorTimeout * 1000 : Number.POSITIVE_INFINITY;
    const [after, code, msg] =
      durationMs > timeoutMs
        ? [timeoutMs, 502, 'job execute timeout ']
        : [durationMs, decided.handleCode ?? 200, decided.handleMsg ?? ''];
    const timer = setTimeout(() => finish(trigger.logId, code, msg), after);
    active.set(trigger.logId, { trigger, timer, log });
  };

  const handle = async (path: string, body: Record<string, unknown>): Promise<Record<string, unknown>> => {
    switch (path) {
      case '/beat':
        return { code: 200 };
      case '/idleBeat': {
        const busy = [...active.values()].some((r) => r.trigger.jobId === body.jobId);
        return busy ? { code: 500, msg: 'job thread is running or has trigger queue.' } : { code: 200 };
      }
      case triggerPath: {
        const trigger = body as unknown as TriggerParam;
        const receivedAt = Date.now();
        // XXL-JOB refuses a logId already queued or running on this executor.
        const code = active.has(trigger.logId) ? 500 : 200;
        receipts.push({
          jobId: trigger.jobId,
          logId: trigger.logId,
          logDateTime: trigger.logDateTime,
          receivedAt,
          code,
          param: trigger,
        });
        if (code !== 200) return { code, msg: `repeate trigger job, logId:${trigger.logId}` };
        startRun(trigger);
        return { code: 200 };
      }
      case '/kill': {
        const killed = [...active.values()].filter((r) => r.trigger.jobId === body.jobId);
        if (killed.length === 0) return { code: 200, msg: 'job thread already killed.' };
        for (const run of killed)
          finish(run.trigger.logId, 500, 'scheduling center kill job. [job running, killed]');
        return { code: 200 };
      }
      case '/log': {
        const lines = logs.get(Number(body.logId)) ?? [];
        const from = Math.max(1, Number(body.fromLineNum) || 1);
        const shown = lines.slice(from - 1);
        return {
          code: 200,
          [v35 ? 'data' : 'content']: {
            fromLineNum: from,
            toLineNum: from + shown.length - 1,
            logContent: shown.join('\n'),
            isEnd: !active.has(Number(body.logId)),
          },
        };
      }
      default:
        return { code: 500, msg: `invalid request, uri-mapping(${path}) not found.` };
    }
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const reply = (body: Record<string, unknown>) => {
        requests.push({
          path: req.url ?? '/',
          code: Number(body.code),
          ...(typeof body.msg === 'string' ? { msg: body.msg } : {}),
        });
        res.writeHead(200, { 'content-type': EXECUTOR_CONTENT_TYPE }).end(JSON.stringify(body));
      };
      if (req.method !== 'POST') return reply({ code: 500, msg: 'invalid request, HttpMethod not support.' });
      const token = req.headers['xxl-job-access-token'];
      if (v35) {
        const appName = req.headers['xxl-job-appname'];
        if (!token?.toString().trim() || !appName?.toString().trim()) {
          return reply({ code: 500, msg: 'invalid request, accessToken or appname is empty.' });
        }
        if (token !== options.accessToken || appName !== options.appName) {
          return reply({ code: 500, msg: 'invalid request, accessToken or appname invalid.' });
        }
      } else if (options.accessToken.trim() !== '' && token !== options.accessToken) {
        return reply({ code: 500, msg: 'The access token is wrong.' });
      }
      let body: Record<string, unknown> = {};
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() !== '') {
        try {
          body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          return reply({ code: 500, msg: 'invalid request, the body is not JSON.' });
        }
      }
      handle(req.url ?? '/', body).then(reply, (err: unknown) => reply({ code: 500, msg: String(err) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const registryParam = { registryGroup: 'EXECUTOR', registryKey: options.appName, registryValue: address };

  const beat = async () => {
    lastBeatSentAt = Date.now();
    try {
      const reply = await post('/api/registry', registryParam);
      if (reply.code === 200 && alive) registrations++;
    } catch {
      // The admin is away (down, paused): the next beat tries again.
    }
  };
  void beat();
  const beatTimer = setInterval(() => void beat(), options.registryIntervalMs ?? 1_000);

  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });

  return {
    address,
    receipts,
    requests,
    reported,
    registrations: () => registrations,
    lastBeatSentAt: () => lastBeatSentAt,
    setPlan(next) {
      plan = next;
    },
    async die() {
      if (!alive) return;
      alive = false;
      clearInterval(beatTimer);
      clearTimeout(retryTimer);
      for (const run of active.values()) clearTimeout(run.timer);
      active.clear();
      await close();
    },
    async stop() {
      if (!alive) return;
      clearInterval(beatTimer);
      await Promise.race([flushCallbacks(), new Promise((r) => setTimeout(r, CLIENT_TIMEOUT_MS))]);
      await post('/api/registryRemove', registryParam).catch(() => undefined);
      alive = false;
      clearTimeout(retryTimer);
      for (const run of active.values()) clearTimeout(run.timer);
      active.clear();
      await close();
    },
  };
}
