import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { mapLimit, PermanentError } from '@tickring/core/common';
import type { ShardOutcome, WorkflowLink, WorkflowRunRecord } from '@tickring/core/workflows';
import { type Item, isConditionFailed } from '../util.js';
import { resultTag } from './items.js';
import { resultSk, runPk } from './keys.js';
import type { WorkflowsTable } from './table.js';

/** Items of one transaction beside the run's head and the workflow's (DynamoDB allows 100). */
const MAX_RESULT_WRITES = 98;
/** Bytes of results one transaction writes (DynamoDB allows 4 MB a transaction). */
const MAX_RESULT_BYTES = 3_500_000;

/**
 * A run's node results (items of their own beside its head, one per result text: see keys.ts) and
 * the final outcomes of broadcast shards.
 */
export class WorkflowResults {
  constructor(private readonly table: WorkflowsTable) {}

  /** Puts of the results `next` has that `prev` did not have (or had otherwise). */
  resultPuts(prev: WorkflowRunRecord | undefined, next: WorkflowRunRecord) {
    const puts: { Put: { TableName: string; Item: Item } }[] = [];
    let bytes = 0;
    const expiresAt = this.table.runExpiry(next);
    for (const [key, node] of Object.entries(next.state.nodes)) {
      if (node.result === undefined) continue;
      const before = prev && Object.hasOwn(prev.state.nodes, key) ? prev.state.nodes[key]?.result : undefined;
      if (before === node.result) continue;
      bytes += Buffer.byteLength(node.result) + key.length + 100;
      puts.push({
        Put: {
          TableName: this.table.workflowsTable,
          Item: {
            pk: runPk(next.id),
            sk: resultSk(key, resultTag(node.result)),
            result: node.result,
            rev: next.state.revision,
            expiresAt,
          },
        },
      });
    }
    if (puts.length > MAX_RESULT_WRITES || bytes > MAX_RESULT_BYTES) {
      throw new PermanentError(
        `run ${next.id}: one save may store at most ${MAX_RESULT_WRITES} new node results of ${MAX_RESULT_BYTES} bytes in all; this one has ${puts.length} of ${bytes}`,
      );
    }
    return puts;
  }

  /**
   * Writes result items before the head that names them (see keys.ts), each on its own: new, or the
   * same text again (a save retried or raced). Another text under the same key (two texts of a node
   * sharing a 72-bit tag) is refused loudly rather than changing what a head names.
   */
  async write(puts: readonly { Put: { TableName: string; Item: Item } }[]): Promise<void> {
    await mapLimit(puts, 8, async ({ Put: put }) => {
      try {
        await this.table.doc.send(
          new PutCommand({
            ...put,
            ConditionExpression: 'attribute_not_exists(pk) OR #result = :result',
            ExpressionAttributeNames: { '#result': 'result' },
            ExpressionAttributeValues: { ':result': put.Item.result },
          }),
        );
      } catch (err) {
        if (!isConditionFailed(err)) throw err;
        throw new PermanentError(
          `run ${String(put.Item.pk).slice(2)}: two results of one node share the key ${String(put.Item.sk)}`,
        );
      }
    });
  }

  async recordShard(link: WorkflowLink, outcome: ShardOutcome): Promise<ShardOutcome[]> {
    const prefix = `shard#${link.node}#${link.attempt}#`;
    try {
      await this.table.doc.send(
        new PutCommand({
          TableName: this.table.workflowsTable,
          Item: {
            pk: runPk(link.runId),
            sk: `${prefix}${String(outcome.index).padStart(6, '0')}`,
            index: outcome.index,
            ok: outcome.ok,
            result: outcome.result,
            expiresAt: this.table.expiry(this.table.now()),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (err) {
      if (!isConditionFailed(err)) throw err; // recorded before: the first record stands
    }
    const items = await this.table.queryAll({
      TableName: this.table.workflowsTable,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': runPk(link.runId), ':prefix': prefix },
      ConsistentRead: true,
    });
    return items
      .map((i) => ({ index: Number(i.index), ok: i.ok === true, result: String(i.result ?? '') }))
      .sort((a, b) => a.index - b.index);
  }
}
