/** Executors by group, with their last heartbeat, and the executor requests refused of late. */
import { Type } from '@sinclair/typebox';
import { REFUSAL_HINTS, REFUSAL_REASONS } from '@tickring/core/executors';
import { named, StringEnum } from './kit.js';
import { Instant, InstantOrNull } from './schemas-common.js';
import { Group } from './schemas-groups.js';

export const RefusedRegistration = named(
  'RefusedRegistration',
  Type.Object(
    {
      appName: Type.String({
        description:
          'The app name the request gave (its registryKey, else its XXL-JOB-APPNAME header); empty when none.',
        examples: ['my-app'],
      }),
      address: Type.String({
        description:
          'The executor’s address (registryValue); for a request whose body names none, the address it came from.',
        examples: ['http://10.0.0.5:9999/'],
      }),
      reason: StringEnum(REFUSAL_REASONS, {
        description: `Why it was refused: ${REFUSAL_REASONS.map((r) => `${r}: ${REFUSAL_HINTS[r]}`).join(' ')}`,
        examples: ['wrong-token'],
      }),
      hint: Type.String({
        description: 'What to change, in words (the reason’s).',
        examples: [REFUSAL_HINTS['wrong-token']],
      }),
      request: StringEnum(['registry', 'registryRemove', 'callback'], {
        description: 'The path of the last one (/api/registry, /api/registryRemove, /api/callback).',
        examples: ['registry'],
      }),
      detail: Type.String({
        description: 'The answer the executor got the last time (XXL-JOB’s words).',
        examples: ['The access token is wrong.'],
      }),
      count: Type.Integer({
        minimum: 1,
        description:
          'Refusals counted since firstSeen. Each instance of the function writes a key at most every 10 s, so the count may lack the refusals of the last 10 s of a burst.',
        examples: [42],
      }),
      firstSeen: Instant('The first refusal counted (ISO-8601 UTC).'),
      lastSeen: Instant('The last refusal counted (ISO-8601 UTC).'),
    },
    {
      additionalProperties: false,
      description:
        'Executor requests refused for the same reason from the same app name and address; kept until a day passes without one. Never holds a token.',
    },
  ),
);

export const ExecutorsQuery = Type.Object({
  appName: Type.Optional(
    Type.String({ description: 'Only this group (404 when it does not exist).', examples: ['my-app'] }),
  ),
});

export const Executors = named(
  'Executors',
  Type.Object(
    {
      items: Type.Array(
        Type.Object(
          {
            appName: Group.properties.appName,
            title: Group.properties.title,
            addressType: Group.properties.addressType,
            executors: Type.Array(
              Type.Object(
                {
                  address: Type.String({
                    description: 'The executor’s address.',
                    examples: ['http://10.0.0.5:9999/'],
                  }),
                  online: Type.Union([Type.Boolean(), Type.Null()], {
                    description:
                      'Seen within the registry’s dead timeout (90 s); null: not known (a MANUAL address that does not register).',
                    examples: [true],
                  }),
                  lastHeartbeat: InstantOrNull(
                    'Its last registration (ISO-8601 UTC); null when none is kept.',
                  ),
                },
                { additionalProperties: false },
              ),
              { description: 'AUTO: its registrations; MANUAL: its configured addresses.', examples: [] },
            ),
            refusedRegistrations: Type.Integer({
              minimum: 0,
              description:
                'How many (address, reason) pairs were refused under this app name in the last day (listed in `refused`).',
              examples: [0],
            }),
          },
          { additionalProperties: false, description: 'A group and its executors.' },
        ),
        { description: 'Groups by appName.', examples: [] },
      ),
      refused: Type.Array(RefusedRegistration, {
        description:
          'Executor requests refused in the last day (of the group asked for, when appName is given), the last seen first: those of the groups the caller sees; those under an app name no group has only to a caller who sees every group.',
        examples: [],
      }),
    },
    { additionalProperties: false, description: 'Executors with their last heartbeat, by group.' },
  ),
);
