import { describe, expect, it } from 'vitest';
import {
  HANDOVER_SKEW_MS,
  HIGH_BACKLOG_SECONDS,
  HOLD_MS,
  LOW_BACKLOG_SECONDS,
  MIN_SHARE,
  ringMessageCount,
  SHARE_CUT,
  SHARE_STEP,
  STALE_MS,
  SUSTAINED_READINGS,
  TickAdmission,
  unitHash,
} from './admission.js';

const T = Date.UTC(2030, 0, 1);
/** A backlog of `seconds` of sends at 20 messages an iteration. */
const behind = (seconds: number) => ({ waiting: Math.round(seconds * 20) - 5, inFlight: 5 });

function fail(): never {
  throw new Error('expected a handover');
}

function admission(): TickAdmission {
  const a = new TickAdmission();
  a.sent(20);
  return a;
}

describe('TickAdmission', () => {
  it('admits every job while the dispatchers keep up', () => {
    const a = admission();
    expect(a.observe(behind(1), T)).toBe(false);
    expect(a.state).toEqual({ share: 1, backlogSeconds: 1 });
    for (let job = 1; job <= 1000; job++) expect(a.admits(job, T + 5_000)).toBe(true);
  });

  it('cuts the share when the backlog stays past the high mark without draining, at most once per hold time', () => {
    const a = admission();
    const high = behind(HIGH_BACKLOG_SECONDS + 1);
    for (let i = 1; i < SUSTAINED_READINGS; i++)
      expect(a.observe(high, T - (SUSTAINED_READINGS - i) * 1000)).toBe(false);
    expect(a.state.share).toBe(1);
    expect(a.observe(high, T)).toBe(true);
    expect(a.state.share).toBe(SHARE_CUT);
    // Fires planned before the cut still arrive: no second cut within the hold time.
    expect(a.observe(behind(HIGH_BACKLOG_SECONDS + 2), T + HOLD_MS - 1)).toBe(false);
    expect(a.observe(behind(HIGH_BACKLOG_SECONDS + 2), T + HOLD_MS)).toBe(true);
    expect(a.state.share).toBeCloseTo(SHARE_CUT * SHARE_CUT);
  });

  it('does not cut for a backlog that drains (a restart’s or a pause’s re-deliveries), however high', () => {
    const a = admission();
    // A pause left 12 s of fires waiting; the dispatchers work it off a fifth a second.
    for (let i = 0; i < 12; i++) a.observe(behind(12 * 0.8 ** i), T + i * 1000);
    expect(a.state.share).toBe(1);
  });

  it('never cuts below the least share, and grows back a step per iteration once the backlog is low', () => {
    const a = admission();
    for (let i = 0; i < 50; i++) a.observe(behind(10), T + i * HOLD_MS);
    expect(a.state.share).toBe(MIN_SHARE);
    // Between the marks the share holds.
    const last = T + 49 * HOLD_MS;
    a.observe(behind((HIGH_BACKLOG_SECONDS + LOW_BACKLOG_SECONDS) / 2), last + 1_000);
    expect(a.state.share).toBe(MIN_SHARE);
    a.observe(behind(0), last + 2_000);
    expect(a.state.share).toBeCloseTo(MIN_SHARE + SHARE_STEP);
    for (let i = 0; i < 100; i++) a.observe(behind(0), last + 3_000 + i * 1000);
    expect(a.state.share).toBe(1);
  });

  it('admits about the share of the jobs, the same ones for the same due', () => {
    const a = admission();
    for (let i = 0; i < SUSTAINED_READINGS; i++) a.observe(behind(10), T + i * 1000); // share 0.7
    a.observe(behind(10), T + SUSTAINED_READINGS * 1000 + HOLD_MS); // 0.49
    const share = a.state.share;
    const due = T + 7_000;
    const admitted = Array.from({ length: 10_000 }, (_, i) => i + 1).filter((job) => a.admits(job, due));
    expect(admitted.length / 10_000).toBeGreaterThan(share - 0.03);
    expect(admitted.length / 10_000).toBeLessThan(share + 0.03);
    expect(admitted.every((job) => a.admits(job, due))).toBe(true);
  });

  it('forgets a share whose backlog was last read more than STALE_MS before: it begins again at a full share', () => {
    const a = admission();
    for (let i = 0; i < 20; i++) a.observe(behind(10), T + i * HOLD_MS);
    const last = T + 19 * HOLD_MS;
    expect(a.state.share).toBeLessThan(0.2);
    // Within STALE_MS the share stands, whoever plans with it.
    expect(a.forgetIfStale(last + STALE_MS)).toBe(false);
    expect(a.state.share).toBeLessThan(0.2);
    // Past it (a Lambda instance's next loop, minutes later) it is forgotten, the send rate with it.
    expect(a.forgetIfStale(last + STALE_MS + 1)).toBe(true);
    expect(a.state).toEqual({ share: 1, backlogSeconds: undefined });
    // A reading that comes that late starts from a full share too, and needs its sustained readings again.
    const b = admission();
    for (let i = 0; i < 20; i++) b.observe(behind(10), T + i * HOLD_MS);
    expect(b.observe(behind(10), last + 60_000)).toBe(true);
    expect(b.state.share).toBe(1);
  });

  it('hands its share over to another admission, which goes on from it: the send rate, and the hold after a cut', () => {
    expect(admission().handover()).toBeUndefined(); // nothing read yet: nothing to go on from
    const a = admission();
    for (let i = 0; i < SUSTAINED_READINGS; i++) a.observe(behind(10), T + i * 1000);
    const cutAt = T + (SUSTAINED_READINGS - 1) * 1000;
    expect(a.handover()).toEqual({
      share: SHARE_CUT,
      backlogSeconds: 10,
      messagesPerIteration: 20,
      readAt: cutAt,
      cutAt,
    });

    const b = new TickAdmission();
    expect(b.adopt(a.handover() ?? fail(), cutAt + 1_000)).toBe(true);
    expect(b.state).toEqual(a.state);
    // Its readings are in seconds of the sends it was handed (20 an iteration, not its own none).
    b.observe(behind(10), cutAt + 1_000);
    expect(b.state.backlogSeconds).toBe(10);
    // The hold runs from the cut it was handed: sustained readings within it do not cut again.
    for (let i = 1; i < SUSTAINED_READINGS; i++) b.observe(behind(10), cutAt + 1_000 + i * 100);
    expect(b.state.share).toBe(SHARE_CUT);
    b.observe(behind(10), cutAt + HOLD_MS);
    expect(b.state.share).toBeCloseTo(SHARE_CUT * SHARE_CUT);
  });

  it('ignores a handover that is stale, older than its own reading, or not one', () => {
    const a = admission();
    for (let i = 0; i < SUSTAINED_READINGS; i++) a.observe(behind(10), T + i * 1000);
    const handover = a.handover() ?? fail();
    expect(new TickAdmission().adopt(handover, handover.readAt + STALE_MS + 1)).toBe(false);
    // Read after now by more than two hosts' clocks differ: not a reading to go on from.
    expect(new TickAdmission().adopt(handover, handover.readAt - HANDOVER_SKEW_MS - 1)).toBe(false);
    expect(new TickAdmission().adopt(handover, handover.readAt - HANDOVER_SKEW_MS)).toBe(true);
    const fresher = admission();
    fresher.observe(behind(0), handover.readAt);
    expect(fresher.adopt(handover, handover.readAt + 1)).toBe(false);
    expect(fresher.state.share).toBe(1);
    for (const broken of [
      { ...handover, share: 0 },
      { ...handover, share: 1.5 },
      { ...handover, share: Number.NaN },
      { ...handover, readAt: '2030' as unknown as number },
      { ...handover, backlogSeconds: -1 },
      { ...handover, cutAt: null as unknown as number },
    ]) {
      const b = new TickAdmission();
      expect(b.adopt(broken, handover.readAt + 1)).toBe(false);
      expect(b.state).toEqual({ share: 1, backlogSeconds: undefined });
    }
  });

  it('hands nothing over from a gauge that answered nonsense', () => {
    const a = admission();
    a.observe({ waiting: Number.NaN, inFlight: 5 }, T);
    expect(a.handover()).toBeUndefined();
  });

  it('reads the backlog in seconds of what the tick sends', () => {
    const a = new TickAdmission();
    a.sent(100);
    a.observe({ waiting: 150, inFlight: 50 }, T);
    expect(a.state.backlogSeconds).toBe(2);
  });
});

describe('unitHash', () => {
  it('spreads consecutive jobs and times over [0, 1) evenly', () => {
    const buckets = new Array(10).fill(0);
    for (let job = 1; job <= 2000; job++) {
      for (const due of [T, T + 1000, T + 2000]) {
        const h = unitHash(job, due);
        expect(h).toBeGreaterThanOrEqual(0);
        expect(h).toBeLessThan(1);
        buckets[Math.floor(h * 10)]++;
      }
    }
    for (const count of buckets) expect(Math.abs(count - 600)).toBeLessThan(90);
  });
});

describe('ringMessageCount', () => {
  it('counts a message per delay and per full message of fires', () => {
    expect(ringMessageCount([], 50)).toBe(0);
    expect(ringMessageCount([1, 1, 1, 2], 50)).toBe(2);
    expect(ringMessageCount([...new Array(120).fill(3), 4], 50)).toBe(4);
  });
});
