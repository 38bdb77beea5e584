import type { ShardOutcome, WorkflowLink, WorkflowRunRecord } from '@tickring/core/workflows';
import type { WorkflowTables } from './tables.js';

/**
 * A run's node results (a row per node beside the run's head, written in the transaction that
 * changes them) and the first outcomes of broadcast shards.
 */
export class WorkflowResults {
  constructor(private readonly tables: WorkflowTables) {}

  /**
   * Writes the results `next` has that `prev` did not have (or had otherwise) and removes those it
   * lost (a reset node). Call inside the transaction that writes the run's head.
   */
  write(prev: WorkflowRunRecord | undefined, next: WorkflowRunRecord): void {
    const put = this.tables.db.prepare(
      `INSERT INTO workflow_run_results (run_id, node, result) VALUES (?, ?, ?)
       ON CONFLICT (run_id, node) DO UPDATE SET result = excluded.result`,
    );
    const remove = this.tables.db.prepare('DELETE FROM workflow_run_results WHERE run_id = ? AND node = ?');
    const before = (key: string) =>
      prev && Object.hasOwn(prev.state.nodes, key) ? prev.state.nodes[key]?.result : undefined;
    for (const [key, node] of Object.entries(next.state.nodes)) {
      const had = before(key);
      if (node.result === undefined) {
        if (had !== undefined) remove.run(next.id, key);
      } else if (had !== node.result) {
        put.run(next.id, key, node.result);
      }
    }
    for (const key of Object.keys(prev?.state.nodes ?? {})) {
      if (!Object.hasOwn(next.state.nodes, key) && before(key) !== undefined) remove.run(next.id, key);
    }
  }

  recordShard(link: WorkflowLink, outcome: ShardOutcome): ShardOutcome[] {
    const now = this.tables.nowSeconds();
    return this.tables.database.transaction(() => {
      // The first record of a shard stands (one expired, which DynamoDB's TTL would have removed, does not).
      this.tables.db
        .prepare(
          `INSERT INTO workflow_shards (run_id, node, attempt, shard, ok, result, expires_at)
           VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (run_id, node, attempt, shard) DO UPDATE SET
             ok = excluded.ok, result = excluded.result, expires_at = excluded.expires_at
           WHERE workflow_shards.expires_at < ?`,
        )
        .run(
          link.runId,
          link.node,
          link.attempt,
          outcome.index,
          outcome.ok ? 1 : 0,
          outcome.result,
          this.tables.expiry(this.tables.now()),
          now,
        );
      return this.tables.db
        .prepare(
          `SELECT shard, ok, result FROM workflow_shards
           WHERE run_id = ? AND node = ? AND attempt = ? AND expires_at >= ?
           ORDER BY shard`,
        )
        .all(link.runId, link.node, link.attempt, now)
        .map((r) => ({ index: Number(r.shard), ok: r.ok === 1, result: String(r.result) }));
    });
  }
}
