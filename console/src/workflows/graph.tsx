import type { ComponentChildren } from 'preact';
import { useId, useMemo } from 'preact/hooks';
import { CONDITION_WORDS } from './definition';
import {
  DEFAULT_LAYOUT,
  type EdgeCondition,
  type LayoutNodeInput,
  layoutGraph,
  type PlacedNode,
} from './layout';
import './workflows.css';

const CONDITIONS: readonly EdgeCondition[] = ['ON_SUCCESS', 'ON_FAILURE', 'ALWAYS'];
const CONDITION_LOOKS: Record<EdgeCondition, string> = {
  ON_SUCCESS: 'solid line',
  ON_FAILURE: 'red dashed line',
  ALWAYS: 'grey dotted line',
};

/**
 * A workflow's DAG, left to right (layers by depth): the edges in an SVG, styled and labelled by
 * condition, and each node as an HTML box over it (`renderNode` draws its inside: a link, a button),
 * so every node is reached by the keyboard in reading order, column by column. The SVG's title says
 * each edge in words. A wide graph scrolls inside its frame.
 */
export function WorkflowGraph<N extends LayoutNodeInput>({
  nodes,
  label,
  renderNode,
  focusableFrame,
}: {
  nodes: readonly N[];
  /** What the graph is ("The nodes of Nightly ETL"): the figure's name. */
  label: string;
  renderNode: (node: N, placed: PlacedNode) => ComponentChildren;
  /** Whether the scrolling frame takes focus itself (when its boxes hold nothing focusable). */
  focusableFrame?: boolean;
}) {
  const id = useId();
  const layout = useMemo(() => layoutGraph(nodes), [nodes]);
  const byKey = useMemo(() => new Map(nodes.map((n) => [n.key, n])), [nodes]);
  const reading = useMemo(
    () => [...layout.nodes].sort((a, b) => a.layer - b.layer || a.order - b.order),
    [layout],
  );
  const edgesText =
    layout.edges.length === 0
      ? 'No edges: every node is a root.'
      : `Edges: ${layout.edges.map((e) => `${e.from} → ${e.to} (${CONDITION_WORDS[e.condition]})`).join('; ')}.`;
  const { nodeWidth, nodeHeight } = DEFAULT_LAYOUT;
  const marker = (condition: EdgeCondition) => `${id}-arrow-${condition}`;

  const canvas = (
    <div class="wf-graph-canvas" style={{ width: `${layout.width}px`, height: `${layout.height}px` }}>
      <svg
        width={layout.width}
        height={layout.height}
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        role="img"
        aria-labelledby={`${id}-title`}
      >
        <title id={`${id}-title`}>{`${label}. ${edgesText}`}</title>
        <defs>
          {CONDITIONS.map((condition) => (
            <marker
              key={condition}
              id={marker(condition)}
              viewBox="0 0 10 10"
              refX="9"
              refY="5"
              markerWidth="7"
              markerHeight="7"
              orient="auto-start-reverse"
            >
              <path class={`wf-arrow ${condition}`} d="M0 0 L10 5 L0 10 z" />
            </marker>
          ))}
        </defs>
        {layout.edges.map((edge) => (
          <path
            key={`${edge.from}>${edge.to}`}
            class={`wf-edge ${edge.condition}`}
            d={edge.path}
            marker-end={`url(#${marker(edge.condition)})`}
          />
        ))}
        {layout.edges
          .filter((edge) => edge.condition !== 'ON_SUCCESS')
          .map((edge) => (
            <text
              key={`${edge.from}>${edge.to}:label`}
              class={`wf-edge-label ${edge.condition}`}
              x={edge.mid.x}
              y={edge.mid.y}
            >
              {CONDITION_WORDS[edge.condition]}
            </text>
          ))}
      </svg>
      <ul class="wf-graph-nodes">
        {reading.map((placed) => {
          const node = byKey.get(placed.key);
          if (!node) return null;
          return (
            <li
              key={placed.key}
              class="wf-slot"
              style={{
                left: `${placed.x}px`,
                top: `${placed.y}px`,
                width: `${nodeWidth}px`,
                height: `${nodeHeight}px`,
              }}
            >
              {renderNode(node, placed)}
            </li>
          );
        })}
      </ul>
    </div>
  );
  return (
    <figure class="wf-graph" aria-label={label}>
      {focusableFrame ? (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        <section class="wf-graph-scroll" tabIndex={0} aria-label={`${label} (scrolls)`}>
          {canvas}
        </section>
      ) : (
        <div class="wf-graph-scroll">{canvas}</div>
      )}
    </figure>
  );
}

/** What the edges' lines mean (drawn as the graph draws them, and said in words). */
export function EdgeLegend() {
  return (
    <ul class="wf-legend" aria-label="Edges">
      {CONDITIONS.map((condition) => (
        <li key={condition}>
          <svg viewBox="0 0 36 10" aria-hidden="true">
            <line class={`wf-edge ${condition}`} x1="2" y1="5" x2="34" y2="5" />
          </svg>
          {CONDITION_WORDS[condition]} ({CONDITION_LOOKS[condition]})
        </li>
      ))}
    </ul>
  );
}
