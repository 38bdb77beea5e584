/** Executor groups: the fields an admin sets, the group as read, and its own access token. */
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { GROUP_TOKEN_LIMITS } from '@tickring/core/executors/use-cases';
import {
  ADDRESS_TYPES,
  type GROUP_EDITABLE_FIELDS,
  GROUP_LIMITS,
  type GROUP_READ_ONLY_FIELDS,
  MAX_JOB_ALERT_CHANNELS,
} from '@tickring/core/jobs';
import { annotate, Expect, Noun, named, StringEnum } from './kit.js';
import { ADDRESS_WORDS, Instant, InstantOrNull, iso, optional, readOnlyEcho } from './schemas-common.js';

type GroupField = (typeof GROUP_EDITABLE_FIELDS)[number];

export const AppNameParam = Type.String({
  description: 'The executor group’s AppName.',
  examples: ['my-app'],
});

const GROUP_FIELDS = {
  appName: annotate(
    Type.String({
      minLength: GROUP_LIMITS.appNameMin,
      maxLength: GROUP_LIMITS.appName,
      description: `The executors’ AppName: ${GROUP_LIMITS.appNameMin}-${GROUP_LIMITS.appName} letters, digits, '_', '.' and '-'; cannot be changed.`,
      examples: ['my-app'],
    }),
    {
      [Expect]: `${GROUP_LIMITS.appNameMin}-${GROUP_LIMITS.appName} characters of letters, digits, '_', '.' and '-'`,
    },
  ),
  title: Type.String({
    maxLength: GROUP_LIMITS.title,
    description: 'A name for people; not blank.',
    examples: ['My application'],
  }),
  addressType: StringEnum(ADDRESS_TYPES, {
    description: 'AUTO: the executors that register under the AppName; MANUAL: the addressList given.',
    examples: ['AUTO'],
  }),
  addressList: Type.Array(Type.String({ maxLength: GROUP_LIMITS.address }), {
    maxItems: GROUP_LIMITS.addressList,
    description: `MANUAL: the executors’ addresses (${ADDRESS_WORDS}; http(s) ones end with /). AUTO: the executors online now, from their registrations (read-only).`,
    examples: [['http://10.0.0.5:9999/', 'lambda:executor-runner']],
  }),
  alertChannels: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
    maxItems: MAX_JOB_ALERT_CHANNELS,
    description:
      'Alert channels (ids) the alarms of the group’s jobs go to when a job names none of its own (a job’s null alertChannels); each must exist. Empty: none.',
    examples: [['5b1c2f7e-8d8e-4b0c-9d55-2f0a6f1f3c11']],
  }),
} satisfies { readonly [K in GroupField]: TSchema };

/** In a request, addressList may also be XXL-JOB's comma-separated string. */
const AddressListInput = annotate(
  Type.Union(
    [
      GROUP_FIELDS.addressList,
      Type.String({ description: 'Addresses separated by commas (XXL-JOB’s form).' }),
    ],
    {
      description: `MANUAL: at least one executor address (${ADDRESS_WORDS}), as an array or separated by commas. AUTO: empty, or the list as read (it is ignored).`,
      examples: [['http://10.0.0.5:9999'], 'http://10.0.0.5:9999,http://10.0.0.6:9999'],
    },
  ),
  { [Expect]: `an array of executor addresses (${ADDRESS_WORDS}) or a comma-separated string of them` },
);

const GROUP_READ_ONLY = {
  accessTokenSetAt: readOnlyEcho(),
  createdAt: readOnlyEcho(),
  updatedAt: readOnlyEcho(),
} satisfies { readonly [K in (typeof GROUP_READ_ONLY_FIELDS)[number]]: TSchema };

const GROUP_INPUT = {
  ...GROUP_FIELDS,
  addressList: AddressListInput,
  alertChannels: Type.Union([GROUP_FIELDS.alertChannels, Type.Null()], {
    description:
      'Alert channels (ids) the alarms of the group’s jobs go to when a job names none of its own; each must exist. null or []: none.',
    examples: [['5b1c2f7e-8d8e-4b0c-9d55-2f0a6f1f3c11'], null],
  }),
};

export const GroupCreate = named(
  'GroupCreate',
  annotate(
    Type.Object(
      {
        appName: GROUP_INPUT.appName,
        title: GROUP_INPUT.title,
        addressType: GROUP_INPUT.addressType,
        addressList: Type.Optional(GROUP_INPUT.addressList),
        alertChannels: Type.Optional(GROUP_INPUT.alertChannels),
        ...optional(GROUP_READ_ONLY),
      },
      { additionalProperties: false, description: 'A new executor group. Unknown fields are refused.' },
    ),
    { [Noun]: 'group' },
  ),
);

export const GroupUpdate = named(
  'GroupUpdate',
  annotate(
    Type.Object(
      { ...optional(GROUP_INPUT), ...optional(GROUP_READ_ONLY) },
      {
        additionalProperties: false,
        description:
          'The fields to change (a group read with GET may be sent back whole: read-only fields, and an AUTO group’s addressList, are ignored). appName cannot change.',
      },
    ),
    { [Noun]: 'group' },
  ),
);

export const Group = named(
  'Group',
  Type.Object(
    {
      ...GROUP_FIELDS,
      accessTokenSetAt: InstantOrNull(
        'When the group got its own access token (ISO-8601 UTC); null: its executors use the global token.',
      ),
      createdAt: Instant(iso('When the group was created')),
      updatedAt: Instant(iso('When the group last changed')),
    },
    { additionalProperties: false, description: 'An executor group (XXL-JOB’s xxl_job_group).' },
  ),
);

export const GroupList = named(
  'GroupList',
  Type.Object(
    { items: Type.Array(Group, { description: 'Every group.', examples: [] }) },
    { additionalProperties: false, description: 'Every executor group.' },
  ),
);

export const GroupTokenBody = named(
  'GroupTokenRequest',
  annotate(
    Type.Object(
      {
        accessToken: Type.Optional(
          Type.String({
            minLength: GROUP_TOKEN_LIMITS.min,
            maxLength: GROUP_TOKEN_LIMITS.max,
            description: `The token to use (${GROUP_TOKEN_LIMITS.min}-${GROUP_TOKEN_LIMITS.max} printable ASCII characters, no spaces); absent: a new random one.`,
            examples: ['s3cret-token-of-my-app'],
          }),
        ),
      },
      {
        additionalProperties: false,
        description:
          '{} (or no body) for a new random token, or the token the group’s executors are configured with.',
      },
    ),
    { [Noun]: 'token', [Expect]: 'a JSON object: {} for a new token, or {"accessToken": "..."}' },
  ),
);

export const GroupToken = named(
  'GroupToken',
  Type.Object(
    {
      appName: Type.String({ description: 'The group.', examples: ['my-app'] }),
      accessToken: Type.String({
        description: 'The group’s own token: shown in this answer only.',
        examples: ['q9V2k1bY0cXh3Lr8TQm7WnJpZsE4aGfD6uHoRtKyNiB'],
      }),
      accessTokenSetAt: Instant(iso('When it was set')),
      note: Type.String({
        description: 'What to do with it.',
        examples: ['This token is shown once. Configure it on the group’s executors (XXL-JOB-ACCESS-TOKEN).'],
      }),
    },
    { additionalProperties: false, description: 'A group’s own access token, as it was set.' },
  ),
);

export type GroupView = Static<typeof Group>;
export type GroupCreateRequest = Static<typeof GroupCreate>;
export type GroupUpdateRequest = Static<typeof GroupUpdate>;
