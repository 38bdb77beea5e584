import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyLocalStack } from '../../local/start-local.js';
import { type ProtocolExecutor, startProtocolExecutor } from '../protocol-executor.js';
import { waitFor } from '../stand-ins.js';
import { type Api, type ApiReply, createAutoGroup, startSharedStack } from './fault-kit.js';

/**
 * (e) 30 concurrent edits of one running every-second job (the tick moves the same item every few
 * seconds meanwhile): each edit applies whole or is refused with 409, and none is lost silently.
 * Edit i sets three fields to values naming i; every 200 must carry all three of its own values and
 * a version of its own, the versions of the 200s must be consecutive, and the final job must be the
 * last of them at version 1 + (number of 200s). Then the same with the version read before (the
 * optimistic-concurrency form): exactly one edit wins.
 */

const EDITS = 30;

interface JobBody {
  readonly id: number;
  readonly version: number;
  readonly name: string;
  readonly executorParam: string;
  readonly executorTimeout: number;
  readonly triggerStatus: string;
  readonly scheduleRevision: number;
  readonly triggerNextTime: string | null;
}

const editOf = (round: string, i: number) => ({
  name: `${round} edit ${i}`,
  executorParam: `${round}-${i}`,
  executorTimeout: 100 + i,
});

/** The edit a job body carries whole, or undefined when its fields come from different edits. */
function wholeEdit(round: string, job: JobBody): number | undefined {
  const i = Number(job.executorParam.slice(round.length + 1));
  const expected = editOf(round, i);
  return job.name === expected.name && job.executorTimeout === expected.executorTimeout ? i : undefined;
}

describe('fault (e): 30 concurrent edits of one job', () => {
  let stack: AnyLocalStack;
  let api: Api;
  let executor: ProtocolExecutor | undefined;

  beforeAll(async () => {
    ({ stack, api } = await startSharedStack());
  });

  afterAll(async () => {
    await executor?.stop();
    await stack?.stop();
  });

  it('applies each edit whole or refuses it with 409, and loses none', async () => {
    const appName = 'fault-edits';
    await createAutoGroup(api, appName);
    executor = await startProtocolExecutor({
      appName,
      adminAddress: stack.urls.api,
      accessToken: stack.tokens.accessToken,
    });
    await waitFor(() => executor!.registrations() > 0, { what: 'the executor registered' });
    const created = await api('POST', '/v1/jobs', {
      appName,
      name: 'edited',
      author: 'faults',
      scheduleType: 'FIX_RATE',
      scheduleConf: '1',
      executorHandler: 'faultProbe',
      triggerStatus: 'RUNNING',
    });
    expect(created.status).toBe(201);
    const job = created.body as JobBody;
    // Running, and the tick advancing it, before the edits start.
    await waitFor(() => executor!.receipts.filter((r) => r.jobId === job.id).length >= 2, {
      what: 'two runs of the job',
      timeoutMs: 30_000,
    });

    // Round 1: blind edits (no version): the service reads, changes and writes conditionally, retrying a few times.
    const before = (await api('GET', `/v1/jobs/${job.id}`)).body as JobBody;
    const blind = await Promise.all(
      Array.from({ length: EDITS }, (_, i) => api('PUT', `/v1/jobs/${job.id}`, editOf('blind', i))),
    );
    const blindOk = checkRound('blind', blind, before.version);
    const afterBlind = (await api('GET', `/v1/jobs/${job.id}`)).body as JobBody;
    expect(afterBlind.version).toBe(before.version + blindOk.length);
    const last = blindOk.at(-1);
    expect(last, 'at least one blind edit applied').toBeDefined();
    expect(wholeEdit('blind', afterBlind)).toBe(last?.edit);
    // The edits touched no schedule: the job still runs, on the same revision, its next fire not moved back.
    expect(afterBlind).toMatchObject({ triggerStatus: 'RUNNING', scheduleRevision: before.scheduleRevision });
    expect(Date.parse(afterBlind.triggerNextTime ?? '')).toBeGreaterThanOrEqual(
      Date.parse(before.triggerNextTime ?? ''),
    );

    // Round 2: every edit carries the version it read: exactly one wins.
    const versioned = await Promise.all(
      Array.from({ length: EDITS }, (_, i) =>
        api('PUT', `/v1/jobs/${job.id}`, { ...editOf('versioned', i), version: afterBlind.version }),
      ),
    );
    const versionedOk = checkRound('versioned', versioned, afterBlind.version);
    expect(versionedOk.length).toBe(1);
    const final = (await api('GET', `/v1/jobs/${job.id}`)).body as JobBody;
    expect(final.version).toBe(afterBlind.version + 1);
    expect(wholeEdit('versioned', final)).toBe(versionedOk[0]?.edit);

    // The next fires carry the final parameter.
    const editedAt = Date.now();
    await waitFor(
      () =>
        executor!.receipts.filter(
          (r) =>
            r.jobId === job.id && r.receivedAt > editedAt && r.param.executorParams === final.executorParam,
        ).length >= 2,
      { what: 'two runs with the final parameter', timeoutMs: 20_000 },
    );

    const count = (replies: readonly ApiReply[], status: number) =>
      replies.filter((r) => r.status === status).length;
    console.log(
      `[faults e] ${EDITS} concurrent blind edits of a running every-second job: ${count(blind, 200)} applied ` +
        `(versions ${blindOk.map((o) => o.version).join(',')}), ${count(blind, 409)} refused with 409, other ` +
        `${EDITS - count(blind, 200) - count(blind, 409)}; final version ${afterBlind.version} = ${before.version} + ` +
        `${blindOk.length}, fields of edit ${wholeEdit('blind', afterBlind)}; ${EDITS} edits with the version read: ` +
        `${count(versioned, 200)} applied, ${count(versioned, 409)} refused with 409`,
    );
  });
});

/**
 * Every reply is 200 or 409; each 200 shows its own edit whole at a version of its own, and those
 * versions follow `from` without a gap (no 200 overwrote another unseen). Returns the 200s by version.
 */
function checkRound(
  round: string,
  replies: readonly ApiReply[],
  from: number,
): { edit: number; version: number }[] {
  const ok: { edit: number; version: number }[] = [];
  for (const [i, reply] of replies.entries()) {
    expect([200, 409], `edit ${i}: ${JSON.stringify(reply.body)}`).toContain(reply.status);
    if (reply.status === 409) {
      expect(reply.body.error).toBe('ConflictError');
      continue;
    }
    const body = reply.body as JobBody;
    expect(wholeEdit(round, body), `edit ${i} applied whole`).toBe(i);
    ok.push({ edit: i, version: body.version });
  }
  ok.sort((a, b) => a.version - b.version);
  expect(ok.map((o) => o.version)).toEqual(ok.map((_, k) => from + 1 + k));
  return ok;
}
