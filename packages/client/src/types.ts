/**
 * The request and result types of each operation, read from the generated `operations` (openapi.json):
 * what a method of the client takes and what it resolves to.
 */
import type { operations } from './generated/openapi.js';
import type { OPERATIONS } from './generated/operations.js';

/** The operationId of an admin API (/v1) operation: one method of the client each. */
export type OperationId = keyof typeof OPERATIONS;

type Operation<K extends OperationId> = operations[K];
type Parameters<K extends OperationId> = Operation<K>['parameters'];
type JsonOf<T> = T extends { content: { 'application/json': infer B } } ? B : never;

/**
 * One part of the input (`path`, `query` or `body`) from `Holder[Key]`: absent when the operation
 * has none, optional when the document says so, required otherwise.
 */
type Part<Name extends string, Holder, Key extends keyof Holder, Value> = [Value] extends [never]
  ? unknown
  : object extends Pick<Holder, Key>
    ? { [N in Name]?: Value }
    : { [N in Name]: Value };

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * What an operation takes: `{ path?, query?, body? }`, each part typed from the document, present
 * only when the operation has it, required when the document requires it.
 *
 * @example
 * const input: OperationInput<'updateJob'> = { path: { id: 5 }, body: { scheduleConf: '0 0 * * * ?' } };
 */
export type OperationInput<K extends OperationId> = Simplify<
  Part<'path', Parameters<K>, 'path', NonNullable<Parameters<K>['path']>> &
    Part<'query', Parameters<K>, 'query', NonNullable<Parameters<K>['query']>> &
    Part<'body', Operation<K>, 'requestBody', JsonOf<NonNullable<Operation<K>['requestBody']>>>
>;

type SuccessStatus<K extends OperationId> = Extract<keyof Operation<K>['responses'], 200 | 201 | 202 | 204>;

/**
 * What an operation resolves to: its success answer's JSON body, or its text (an iCalendar export);
 * `undefined` for an answer without a body (204).
 */
export type OperationResult<K extends OperationId> = {
  [S in SuccessStatus<K>]: Operation<K>['responses'][S] extends { content: { 'application/json': infer B } }
    ? B
    : Operation<K>['responses'][S] extends { content: { 'text/calendar': infer T } }
      ? T
      : undefined;
}[SuccessStatus<K>];

/** Operations whose answer is a page (`items` and `nextCursor`) and which take a `cursor`. */
export type PagedOperationId = {
  [K in OperationId]: OperationResult<K> extends { items: readonly unknown[]; nextCursor: string | null }
    ? 'cursor' extends keyof NonNullable<Parameters<K>['query']>
      ? K
      : never
    : never;
}[OperationId];

/** One item of a paged operation's pages (a `Job` of `listJobs`, a `Run` of `listRuns`). */
export type PageItem<K extends PagedOperationId> =
  OperationResult<K> extends { items: readonly (infer T)[] } ? T : never;

/** A client method: the input is optional when nothing in it is required. */
export type OperationMethod<K extends OperationId> =
  object extends OperationInput<K>
    ? (input?: OperationInput<K>) => Promise<OperationResult<K>>
    : (input: OperationInput<K>) => Promise<OperationResult<K>>;
