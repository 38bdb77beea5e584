import { describe, expect, it } from 'vitest';
import { readUpTo } from './paging.js';

/** A list of 1..total served in pages of at most `pageSize`, its cursor the last item given. */
function served(total: number, pageSize: number) {
  const asked: { limit: number; cursor?: string }[] = [];
  const list = async (page: { limit: number; cursor?: string }) => {
    asked.push(page);
    const from = page.cursor === undefined ? 1 : Number(page.cursor) + 1;
    const to = Math.min(total, from + Math.min(page.limit, pageSize) - 1);
    const items = Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
    return { items, nextCursor: to < total ? String(to) : null };
  };
  return { asked, list };
}

describe('readUpTo', () => {
  it('reads on until the limit, asking for no more than is still wanted, and its cursor continues after the last item', async () => {
    const { asked, list } = served(500, 40);
    const { items, nextCursor } = await readUpTo(130, undefined, list);
    expect(items).toEqual(Array.from({ length: 130 }, (_, i) => i + 1));
    expect(nextCursor).toBe('130');
    expect(asked.map((a) => a.limit)).toEqual([100, 90, 50, 10]);
    const more = await readUpTo(5, nextCursor ?? undefined, list);
    expect(more.items).toEqual([131, 132, 133, 134, 135]);
  });

  it('stops at the end of the list with no cursor', async () => {
    const { list } = served(7, 3);
    expect(await readUpTo(100, undefined, list)).toEqual({ items: [1, 2, 3, 4, 5, 6, 7], nextCursor: null });
  });
});
