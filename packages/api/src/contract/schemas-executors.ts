/** Executors by group, with their last heartbeat. */
import { Type } from '@sinclair/typebox';
import { named } from './kit.js';
import { InstantOrNull } from './schemas-common.js';
import { Group } from './schemas-groups.js';

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
          },
          { additionalProperties: false, description: 'A group and its executors.' },
        ),
        { description: 'Groups by appName.', examples: [] },
      ),
    },
    { additionalProperties: false, description: 'Executors with their last heartbeat, by group.' },
  ),
);
