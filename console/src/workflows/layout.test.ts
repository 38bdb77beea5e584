import { describe, expect, it } from 'vitest';
import { conditionOf, DEFAULT_LAYOUT, layoutGraph } from './layout';

const up = (...keys: string[]) => keys.map((key) => ({ key }));

describe('layoutGraph', () => {
  it('puts a diamond in three layers, left to right, every edge pointing right', () => {
    const layout = layoutGraph([
      { key: 'A' },
      { key: 'B', upstream: up('A') },
      { key: 'C', upstream: [{ key: 'A', condition: 'ON_FAILURE' }] },
      { key: 'D', upstream: [{ key: 'B' }, { key: 'C', condition: 'ALWAYS' }] },
    ]);
    expect(layout.layers).toEqual([['A'], ['B', 'C'], ['D']]);
    expect(layout.edges.map((e) => `${e.from}>${e.to}:${e.condition}`)).toEqual([
      'A>B:ON_SUCCESS',
      'A>C:ON_FAILURE',
      'B>D:ON_SUCCESS',
      'C>D:ALWAYS',
    ]);
    const at = Object.fromEntries(layout.nodes.map((n) => [n.key, n]));
    const { nodeWidth, nodeHeight, columnGap, rowGap, padding } = DEFAULT_LAYOUT;
    expect(at.A?.x).toBe(padding);
    expect(at.B?.x).toBe(padding + nodeWidth + columnGap);
    expect(at.D?.x).toBe(padding + 2 * (nodeWidth + columnGap));
    // The single nodes are centred on the two of the middle column.
    expect(at.B?.y).toBe(padding);
    expect(at.C?.y).toBe(padding + nodeHeight + rowGap);
    expect(at.A?.y).toBe(at.D?.y);
    expect(at.A?.y).toBe(padding + (nodeHeight + rowGap) / 2);
    expect(layout.width).toBe(2 * padding + 3 * nodeWidth + 2 * columnGap);
    expect(layout.height).toBe(2 * padding + 2 * nodeHeight + rowGap);
    for (const edge of layout.edges) {
      expect(edge.back).toBe(false);
      expect(edge.path).toMatch(/^M[\d.]+ [\d.]+ C/);
    }
    // The edge A → B starts at A's right middle and ends at B's left middle.
    const ab = layout.edges[0]!;
    expect(ab.path.startsWith(`M${padding + nodeWidth} ${(at.A?.y ?? 0) + nodeHeight / 2} `)).toBe(true);
    expect(ab.path.endsWith(` ${at.B?.x} ${(at.B?.y ?? 0) + nodeHeight / 2}`)).toBe(true);
    expect(layout.crossings).toBe(0);
  });

  it('layers by the longest path from a root, not the shortest', () => {
    const layout = layoutGraph([
      { key: 'a' },
      { key: 'c', upstream: up('a', 'b') },
      { key: 'b', upstream: up('a') },
      { key: 'late' },
      { key: 'd', upstream: up('late', 'c') },
    ]);
    const layerOf = Object.fromEntries(layout.nodes.map((n) => [n.key, n.layer]));
    expect(layerOf).toEqual({ a: 0, late: 0, b: 1, c: 2, d: 3 });
  });

  it('orders a layer by the mean place of its upstream nodes (fewer crossings than the definition order)', () => {
    // Defined crosswise: x hangs under the second root, y under the first.
    const nodes = [
      { key: 'r1' },
      { key: 'r2' },
      { key: 'x', upstream: up('r2') },
      { key: 'y', upstream: up('r1') },
      { key: 'z', upstream: up('x') },
      { key: 'w', upstream: up('y') },
    ];
    const layout = layoutGraph(nodes);
    expect(layout.layers).toEqual([
      ['r1', 'r2'],
      ['y', 'x'],
      ['w', 'z'],
    ]);
    expect(layout.crossings).toBe(0);
  });

  it('uncrosses a layer by its downstream nodes when the upstream side cannot tell', () => {
    // Two roots with no upstream; their children are defined in the opposite order.
    const layout = layoutGraph([
      { key: 'p' },
      { key: 'q' },
      { key: 'c1', upstream: up('q') },
      { key: 'c2', upstream: up('p') },
    ]);
    expect(layout.crossings).toBe(0);
    const [roots, children] = layout.layers;
    expect(roots?.indexOf('p') === 0).toBe(children?.indexOf('c2') === 0);
  });

  it('draws what it can of a definition being typed: unknown upstream, repeated keys and self loops left out', () => {
    const layout = layoutGraph([
      { key: 'a', upstream: [{ key: 'a' }, { key: 'ghost' }] },
      { key: 'b', upstream: [{ key: 'a' }, { key: 'a' }] },
      { key: 'a', upstream: up('b') },
    ]);
    expect(layout.nodes.map((n) => n.key)).toEqual(['a', 'b']);
    expect(layout.edges.map((e) => `${e.from}>${e.to}`)).toEqual(['a>b']);
  });

  it('survives a cycle (refused by the server): the nodes on it after the rest, a back edge drawn below', () => {
    const layout = layoutGraph([
      { key: 'root' },
      { key: 'a', upstream: up('root', 'c') },
      { key: 'b', upstream: up('a') },
      { key: 'c', upstream: up('b') },
    ]);
    expect(layout.nodes).toHaveLength(4);
    expect(layout.nodes.find((n) => n.key === 'root')?.layer).toBe(0);
    expect(layout.edges.some((e) => e.back)).toBe(true);
    for (const n of layout.nodes) expect(Number.isFinite(n.x + n.y)).toBe(true);
  });

  it('lays out nothing for no nodes', () => {
    const layout = layoutGraph([]);
    expect(layout).toMatchObject({ nodes: [], edges: [], layers: [], crossings: 0 });
    expect(layout.width).toBeGreaterThan(0);
  });

  it('never puts two boxes on each other, and lays out 200 nodes quickly', () => {
    // A wide, deep graph: 20 layers of 10, each node after two of the layer before.
    const nodes = Array.from({ length: 200 }, (_, i) => {
      const layer = Math.floor(i / 10);
      const place = i % 10;
      return {
        key: `n${i}`,
        upstream:
          layer === 0
            ? []
            : [
                { key: `n${(layer - 1) * 10 + ((place * 7) % 10)}` },
                { key: `n${(layer - 1) * 10 + ((place * 3) % 10)}` },
              ],
      };
    });
    const t0 = performance.now();
    const layout = layoutGraph(nodes);
    const ms = performance.now() - t0;
    expect(ms).toBeLessThan(200);
    expect(layout.layers).toHaveLength(20);
    const boxes = new Set(layout.nodes.map((n) => `${n.x},${n.y}`));
    expect(boxes.size).toBe(200);
    for (const n of layout.nodes) {
      expect(n.x + DEFAULT_LAYOUT.nodeWidth).toBeLessThanOrEqual(layout.width);
      expect(n.y + DEFAULT_LAYOUT.nodeHeight).toBeLessThanOrEqual(layout.height);
    }
  });
});

describe('conditionOf', () => {
  it('defaults to ON_SUCCESS, as the server does', () => {
    expect(conditionOf(undefined)).toBe('ON_SUCCESS');
    expect(conditionOf('ALWAYS')).toBe('ALWAYS');
    expect(conditionOf('SOMETIMES')).toBe('ON_SUCCESS');
  });
});
