// A workflow's graph laid out left to right for drawing: each node in a layer by its longest path
// from a root (so every edge points right), the nodes of a layer ordered to cross fewer edges (by
// the mean position of their neighbours, a few sweeps, the best kept), then coordinates. Pure and
// small: enough for the few hundred nodes a workflow may have, no layout library.

export type EdgeCondition = 'ON_SUCCESS' | 'ON_FAILURE' | 'ALWAYS';

/** A node as a definition (or a run) lists it. */
export interface LayoutNodeInput {
  readonly key: string;
  readonly upstream?: readonly { readonly key: string; readonly condition?: string }[] | undefined;
}

export interface LayoutOptions {
  readonly nodeWidth: number;
  readonly nodeHeight: number;
  /** Between two layers (where the edges run). */
  readonly columnGap: number;
  /** Between two nodes of a layer. */
  readonly rowGap: number;
  /** Around the whole drawing. */
  readonly padding: number;
}

export const DEFAULT_LAYOUT: LayoutOptions = {
  nodeWidth: 176,
  nodeHeight: 72,
  columnGap: 64,
  rowGap: 20,
  padding: 12,
};

export interface PlacedNode {
  readonly key: string;
  /** Its place in the definition. */
  readonly index: number;
  /** Its column: 0 for roots, else one more than its deepest upstream node's. */
  readonly layer: number;
  /** Its place in its column, from the top. */
  readonly order: number;
  /** Its box's top left corner. */
  readonly x: number;
  readonly y: number;
}

export interface PlacedEdge {
  /** The upstream node's key. */
  readonly from: string;
  readonly to: string;
  readonly condition: EdgeCondition;
  /** An SVG path from the right of `from` to the left of `to`. */
  readonly path: string;
  /** Half way along the path (where a label goes). */
  readonly mid: { readonly x: number; readonly y: number };
  /** An edge against the flow (only in a graph with a cycle, which the server refuses). */
  readonly back: boolean;
}

export interface GraphLayout {
  readonly nodes: readonly PlacedNode[];
  readonly edges: readonly PlacedEdge[];
  /** The keys of each layer, top to bottom. */
  readonly layers: readonly (readonly string[])[];
  readonly width: number;
  readonly height: number;
  /** Edges crossing between neighbouring layers in the order chosen (an estimate, for tests). */
  readonly crossings: number;
}

const CONDITIONS: readonly string[] = ['ON_SUCCESS', 'ON_FAILURE', 'ALWAYS'];

/** The edge condition as the server defaults it (ON_SUCCESS when absent or unknown). */
export function conditionOf(condition: string | undefined): EdgeCondition {
  return condition !== undefined && CONDITIONS.includes(condition)
    ? (condition as EdgeCondition)
    : 'ON_SUCCESS';
}

interface Edge {
  readonly from: number;
  readonly to: number;
  readonly condition: EdgeCondition;
}

/**
 * Lays out `nodes` (keys unique; a repeated key, an upstream that is no node and a self loop are
 * left out, so a definition being typed can be drawn as far as it goes).
 */
export function layoutGraph(
  nodes: readonly LayoutNodeInput[],
  options: LayoutOptions = DEFAULT_LAYOUT,
): GraphLayout {
  const indexOf = new Map<string, number>();
  const kept: LayoutNodeInput[] = [];
  for (const node of nodes) {
    if (indexOf.has(node.key)) continue;
    indexOf.set(node.key, kept.length);
    kept.push(node);
  }
  const count = kept.length;
  const edges: Edge[] = [];
  const upstream: number[][] = kept.map(() => []);
  const downstream: number[][] = kept.map(() => []);
  kept.forEach((node, to) => {
    const seen = new Set<number>();
    for (const edge of node.upstream ?? []) {
      const from = indexOf.get(edge.key);
      if (from === undefined || from === to || seen.has(from)) continue;
      seen.add(from);
      edges.push({ from, to, condition: conditionOf(edge.condition) });
      upstream[to]!.push(from);
      downstream[from]!.push(to);
    }
  });

  const layer = longestPathLayers(count, upstream, downstream);
  const layerCount = count === 0 ? 0 : Math.max(...layer) + 1;
  const layers: number[][] = Array.from({ length: layerCount }, () => []);
  for (let i = 0; i < count; i++) layers[layer[i]!]!.push(i);

  const ordered = orderLayers(layers, layer, upstream, downstream);
  const position = new Array<number>(count).fill(0);
  for (const nodesOfLayer of ordered.layers) {
    for (const [order, node] of nodesOfLayer.entries()) position[node] = order;
  }

  const { nodeWidth, nodeHeight, columnGap, rowGap, padding } = options;
  const tallest = Math.max(0, ...ordered.layers.map((l) => l.length));
  const rowStep = nodeHeight + rowGap;
  const columnStep = nodeWidth + columnGap;
  const placed: PlacedNode[] = kept.map((node, index) => {
    const size = ordered.layers[layer[index]!]!.length;
    // Each column centred on the tallest one.
    const offset = ((tallest - size) * rowStep) / 2;
    return {
      key: node.key,
      index,
      layer: layer[index]!,
      order: position[index]!,
      x: padding + layer[index]! * columnStep,
      y: padding + offset + position[index]! * rowStep,
    };
  });

  const placedEdges = edges.map((edge): PlacedEdge => {
    const a = placed[edge.from]!;
    const b = placed[edge.to]!;
    const back = a.layer >= b.layer;
    const x1 = a.x + nodeWidth;
    const y1 = a.y + nodeHeight / 2;
    const x2 = b.x;
    const y2 = b.y + nodeHeight / 2;
    let path: string;
    let mid: { x: number; y: number };
    if (!back) {
      const bend = Math.max(24, (x2 - x1) / 2);
      path = `M${x1} ${y1} C${x1 + bend} ${y1} ${x2 - bend} ${y2} ${x2} ${y2}`;
      mid = { x: (x1 + x2) / 2, y: (y1 + y2) / 2 };
    } else {
      // Round below both boxes, back to the left side of the target.
      const below = Math.max(a.y, b.y) + nodeHeight + rowGap / 2;
      path = `M${x1} ${y1} C${x1 + columnGap} ${y1} ${x1 + columnGap} ${below} ${x1} ${below} L${x2} ${below} C${x2 - columnGap} ${below} ${x2 - columnGap} ${y2} ${x2} ${y2}`;
      mid = { x: (x1 + x2) / 2, y: below };
    }
    return {
      from: a.key,
      to: b.key,
      condition: edge.condition,
      path: path.replace(/(\d+\.\d{2})\d+/g, '$1'),
      mid,
      back,
    };
  });

  return {
    nodes: placed,
    edges: placedEdges,
    layers: ordered.layers.map((l) => l.map((i) => kept[i]!.key)),
    width: layerCount === 0 ? 2 * padding : 2 * padding + layerCount * columnStep - columnGap,
    height: tallest === 0 ? 2 * padding : 2 * padding + tallest * rowStep - rowGap,
    crossings: ordered.crossings,
  };
}

/**
 * Each node's layer: 0 for a root, else one more than its deepest upstream node's (Kahn's order).
 * Nodes on a cycle (never in a saved workflow) go one layer after everything else reached.
 */
function longestPathLayers(count: number, upstream: number[][], downstream: number[][]): number[] {
  const layer = new Array<number>(count).fill(0);
  const waiting = upstream.map((list) => list.length);
  const queue: number[] = [];
  for (let i = 0; i < count; i++) if (waiting[i] === 0) queue.push(i);
  const done = new Array<boolean>(count).fill(false);
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head]!;
    done[node] = true;
    for (const next of downstream[node]!) {
      layer[next] = Math.max(layer[next]!, layer[node]! + 1);
      if (--waiting[next]! === 0) queue.push(next);
    }
  }
  if (queue.length < count) {
    const after = Math.max(0, ...queue.map((i) => layer[i]!)) + 1;
    for (let i = 0; i < count; i++) if (!done[i]) layer[i] = after;
  }
  return layer;
}

/**
 * Orders each layer by the mean position of its nodes' neighbours: down (by upstream), up (by
 * downstream), down again, as long as it helps; the order with the fewest crossings wins. A node
 * with no neighbour on the side read keeps its place; ties keep the definition order.
 */
function orderLayers(
  initial: number[][],
  layer: number[],
  upstream: number[][],
  downstream: number[][],
): { layers: number[][]; crossings: number } {
  let current = initial.map((l) => [...l]);
  let best = current;
  let bestCrossings = countCrossings(current, layer, upstream);
  const sweeps = 4;
  for (let sweep = 0; sweep < sweeps && bestCrossings > 0; sweep++) {
    const downward = sweep % 2 === 0;
    const next = current.map((l) => [...l]);
    const position = positionsOf(next);
    const indices = [...next.keys()];
    if (!downward) indices.reverse();
    for (const l of indices) {
      const nodes = next[l]!;
      // The neighbours' mean place scaled to this layer's places; no neighbour: its own place.
      const span = Math.max(nodes.length - 1, 0);
      const keyed = nodes.map((node, place) => {
        const neighbours = (downward ? upstream[node]! : downstream[node]!).filter((n) =>
          downward ? layer[n]! < l : layer[n]! > l,
        );
        const value =
          neighbours.length === 0
            ? place
            : (neighbours.reduce((sum, n) => sum + relative(position, next, layer, n), 0) /
                neighbours.length) *
              span;
        return { node, value };
      });
      keyed.sort((a, b) => a.value - b.value || a.node - b.node);
      next[l] = keyed.map((k) => k.node);
      for (const [order, node] of next[l]!.entries()) position[node] = order;
    }
    const crossings = countCrossings(next, layer, upstream);
    current = next;
    if (crossings < bestCrossings) {
      best = next;
      bestCrossings = crossings;
    }
  }
  return { layers: best, crossings: bestCrossings };
}

function positionsOf(layers: number[][]): number[] {
  const position: number[] = [];
  for (const nodes of layers) {
    for (const [order, node] of nodes.entries()) position[node] = order;
  }
  return position;
}

/** A node's place in its layer as a fraction (0 top, 1 bottom; 0.5 alone), so layers of any size compare. */
function relative(position: number[], layers: number[][], layer: number[], node: number): number {
  const size = layers[layer[node]!]!.length;
  return size <= 1 ? 0.5 : position[node]! / (size - 1);
}

/**
 * Crossings of the edges between neighbouring layers (edges spanning more are left out: an
 * estimate). Pairs compared per layer, so it is quadratic in one layer's edges only.
 */
function countCrossings(layers: number[][], layer: number[], upstream: number[][]): number {
  const position = positionsOf(layers);
  let crossings = 0;
  for (let l = 1; l < layers.length; l++) {
    const pairs: [number, number][] = [];
    for (const node of layers[l]!) {
      for (const from of upstream[node]!) {
        if (layer[from] === l - 1) pairs.push([position[from]!, position[node]!]);
      }
    }
    if (pairs.length > 2000) continue;
    for (let i = 0; i < pairs.length; i++) {
      for (let j = i + 1; j < pairs.length; j++) {
        const [a1, b1] = pairs[i]!;
        const [a2, b2] = pairs[j]!;
        if ((a1 - a2) * (b1 - b2) < 0) crossings++;
      }
    }
  }
  return crossings;
}
