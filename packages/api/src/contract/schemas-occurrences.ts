/** One-off exceptions of a job's schedule: an occurrence skipped or moved, and the list of upcoming ones. */
import { Type } from '@sinclair/typebox';
import { MAX_PENDING_EXCEPTIONS, OCCURRENCE_ACTIONS } from '@tickring/core/schedule';
import { defaulted, named, StringEnum } from './kit.js';
import { Instant, InstantOrNull, iso } from './schemas-common.js';

const T1 = '2030-01-02T09:00:00.000Z';

export const OccurrenceException = named(
  'OccurrenceException',
  Type.Object(
    {
      at: Instant(iso('The occurrence’s scheduled time (its identity: the run keeps it)'), T1),
      action: StringEnum(OCCURRENCE_ACTIONS, {
        description: 'skip: the occurrence does not fire; move: it fires at `to` instead.',
        examples: ['skip'],
      }),
      to: InstantOrNull('A move’s new time, ISO-8601 UTC; null for a skip.', '2030-01-02T09:30:00.000Z'),
      reason: Type.Union([Type.String(), Type.Null()], {
        description: 'Why, as given; null when none was.',
        examples: ['public holiday'],
      }),
      by: Type.String({ description: 'Who made it (user or token name).', examples: ['ana'] }),
      createdAt: Instant(iso('When it was made')),
    },
    { additionalProperties: false, description: 'One occurrence of the schedule skipped or moved.' },
  ),
);

/** An instant in a path or body: ISO-8601 with a zone, or epoch milliseconds (checked by the use-case, every problem at once). */
const instantText = (description: string, example: string) =>
  Type.String({ minLength: 1, maxLength: 40, description, examples: [example] });

export const OccurrenceTimeParam = instantText(
  'The occurrence’s scheduled time: an ISO-8601 instant with a zone (2030-01-02T09:00:00Z) or epoch milliseconds. It must be a future fire of the job’s schedule.',
  T1,
);

const reason = Type.String({
  maxLength: 500,
  description: 'Why (kept with the exception and in the audit log).',
  examples: ['public holiday'],
});

export const OccurrenceSkipBody = named(
  'OccurrenceSkip',
  Type.Object(
    { reason: Type.Optional(reason) },
    { additionalProperties: false, description: 'Optional: why the occurrence is skipped.' },
  ),
);

export const OccurrenceMoveBody = named(
  'OccurrenceMove',
  Type.Object(
    {
      to: Type.Union(
        [
          instantText('The new time: ISO-8601 with a zone, or epoch milliseconds.', '2030-01-02T09:30:00Z'),
          Type.Integer({ minimum: 0, description: 'The new time in epoch milliseconds.' }),
        ],
        {
          description:
            'The new fire time: in the future and strictly between the fires before and after the occurrence (the job’s fires stay in order).',
          examples: ['2030-01-02T09:30:00Z'],
        },
      ),
      reason: Type.Optional(reason),
    },
    { additionalProperties: false, description: 'Where the occurrence moves to, and why.' },
  ),
);

export const OccurrenceListQuery = Type.Object(
  {
    from: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'List from here (default and at the earliest: now).',
        examples: ['2030-01-02T00:00:00Z'],
      }),
    ),
    to: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'List up to here (inclusive).',
        examples: ['2030-01-09T00:00:00Z'],
      }),
    ),
    limit: defaulted(
      Type.Integer({
        minimum: 1,
        maximum: 100,
        description: 'How many occurrences at most.',
        examples: [20],
      }),
      20,
    ),
  },
  { additionalProperties: false },
);

export const OccurrenceList = named(
  'OccurrenceList',
  Type.Object(
    {
      jobId: Type.Integer({ minimum: 1, description: 'The job’s id.', examples: [7] }),
      occurrences: Type.Array(
        Type.Object(
          {
            time: Instant(iso('The occurrence’s scheduled time'), T1),
            fireAt: InstantOrNull(
              'When it fires: its scheduled time plus its jitter, or its move’s time; null when skipped.',
            ),
            exception: Type.Union([OccurrenceException, Type.Null()], {
              description: 'Its skip or move; null when it fires as scheduled.',
              examples: [null],
            }),
            changeable: Type.Boolean({
              description:
                'false when it is planned already (or about to be): too late to skip, move or restore.',
              examples: [true],
            }),
          },
          { additionalProperties: false },
        ),
        { description: 'The upcoming occurrences, within the job’s bounds, oldest first.', examples: [[]] },
      ),
      exceptions: Type.Array(OccurrenceException, {
        description: `Every exception the job holds (at most ${MAX_PENDING_EXCEPTIONS} ahead; passed ones are pruned an hour later).`,
        examples: [[]],
      }),
    },
    { additionalProperties: false, description: 'A job’s upcoming occurrences with their exceptions.' },
  ),
);
