/** A manual trigger of a job: its overrides, and the fire accepted. */
import { type Static, Type } from '@sinclair/typebox';
import { GROUP_LIMITS, JOB_LIMITS } from '@tickring/core/jobs';
import { annotate, Expect, Noun, named } from './kit.js';
import { ADDRESS_WORDS, Instant } from './schemas-common.js';

export const TriggerBody = named(
  'TriggerRequest',
  annotate(
    Type.Object(
      {
        executorParam: Type.Optional(
          Type.Union([Type.String({ maxLength: JOB_LIMITS.executorParam }), Type.Null()], {
            description:
              'Replaces the job’s executorParam for this run only (also when empty); null: the job’s.',
            examples: ['region=us'],
          }),
        ),
        addressList: Type.Optional(
          annotate(
            Type.Union(
              [
                Type.Array(Type.String({ maxLength: GROUP_LIMITS.address })),
                Type.String({ description: 'Addresses separated by commas (XXL-JOB’s form).' }),
                Type.Null(),
              ],
              {
                description: `Sends this run to these executors instead of the group’s (${ADDRESS_WORDS}); empty or null: the group’s.`,
                examples: [['http://10.0.0.5:9999/'], 'http://10.0.0.5:9999,http://10.0.0.6:9999'],
              },
            ),
            {
              [Expect]: `an array of executor addresses (${ADDRESS_WORDS}) or a comma-separated string of them`,
            },
          ),
        ),
      },
      {
        additionalProperties: false,
        description:
          'The overrides of one manual trigger (XXL-JOB’s JobTriggerRequest); the body may be absent.',
      },
    ),
    { [Noun]: 'trigger', [Expect]: 'a JSON object (or empty)' },
  ),
);

export const TriggerAccepted = named(
  'TriggerAccepted',
  Type.Object(
    {
      jobId: Type.Integer({ minimum: 1, description: 'The job fired.', examples: [7] }),
      dedupKey: Type.String({
        description: 'The fire’s key; its run(s) carry it as dedupKey (GET /v1/logs?jobId= shows them).',
        examples: ['manual#1b4e28ba-2fa1-11d2-883f-0016d3cca427'],
      }),
      scheduledTime: Instant('When the run is due: now, ISO-8601 UTC.'),
      logId: Type.Integer({
        minimum: 1,
        description:
          'The run’s logId: GET /v1/logs/{logId} reads it once the dispatcher has recorded it (at once, unless the ring is backed up), and /v1/logs/{logId}/output follows its log. For a SHARDING_BROADCAST job, the first shard’s.',
        examples: [30064771073],
      }),
      logIds: Type.Array(Type.Integer({ minimum: 1 }), {
        minItems: 1,
        description:
          'One logId per run, in shard order: one, or one per executor of a SHARDING_BROADCAST job (its executors are fixed when it is triggered: the trigger’s addressList, else the group’s online executors; with none, one run that fails for want of an executor).',
        examples: [[30064771073]],
      }),
    },
    { additionalProperties: false, description: 'A manual fire, accepted: it runs at once, asynchronously.' },
  ),
);

export type TriggerAcceptedView = Static<typeof TriggerAccepted>;
export type TriggerRequest = Static<typeof TriggerBody>;
