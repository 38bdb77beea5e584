import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Admission, AdmitResult, WorkflowRunRecord } from '@tickring/core/workflows';
import { cancellationCodes, Expr } from './expressions.js';
import { runHeadItem } from './items.js';
import { runKey, workflowKey } from './keys.js';
import type { WorkflowResults } from './results.js';
import type { WorkflowsTable } from './table.js';

/** A new run admitted to start or to wait, with the workflow's running count or buffer, in one transaction. */
export class WorkflowAdmission {
  constructor(
    private readonly table: WorkflowsTable,
    private readonly results: WorkflowResults,
  ) {}

  async admit(run: WorkflowRunRecord, admission: Admission): Promise<AdmitResult> {
    const expected = admission.as === 'start' ? 'RUNNING' : 'QUEUED';
    if (run.status !== expected) {
      throw new Error(`a run admitted to ${admission.as} is ${expected}; run ${run.id} is ${run.status}`);
    }
    const e = new Expr();
    const conditions = ['attribute_exists(pk)'];
    if (admission.expectActiveRuns !== undefined) {
      conditions.push(`${e.name('activeRuns')} = ${e.value(admission.expectActiveRuns)}`);
    }
    // One run waits at most: buffering never replaces a buffered run (it would be left QUEUED).
    if (admission.expectNoBuffered || admission.as === 'buffer') {
      conditions.push(`attribute_not_exists(${e.name('bufferedRunId')})`);
    }
    const update =
      admission.as === 'start'
        ? `ADD ${e.name('activeRuns')} ${e.value(1)}`
        : `SET ${e.name('bufferedRunId')} = ${e.value(run.id)}`;
    const results = this.results.resultPuts(undefined, run);
    try {
      await this.table.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.table.workflowsTable,
                Item: runHeadItem(run, this.table.runExpiry(run)),
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Update: {
                TableName: this.table.workflowsTable,
                Key: workflowKey(run.workflowId),
                UpdateExpression: update,
                ConditionExpression: conditions.join(' AND '),
                ...e.attributes(),
              },
            },
            ...results,
          ],
        }),
      );
      return 'admitted';
    } catch (err) {
      const codes = cancellationCodes(err);
      if (!codes) throw err;
      if (codes[0] === 'ConditionalCheckFailed') return 'exists';
      if (codes[1] === 'ConditionalCheckFailed' || codes.includes('TransactionConflict')) return 'conflict';
      if (codes.length === 0) {
        // No reasons given: tell the two apart by reading.
        const { Item: head } = await this.table.doc.send(
          new GetCommand({
            TableName: this.table.workflowsTable,
            Key: runKey(run.id),
            ProjectionExpression: 'pk',
            ConsistentRead: true,
          }),
        );
        return head ? 'exists' : 'conflict';
      }
      throw err;
    }
  }
}
