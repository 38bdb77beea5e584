/**
 * The executor-facing XXL-JOB admin API (`/api/registry`, `/api/registryRemove`, `/api/callback`,
 * also under `/xxl-job-admin/api/...`), as the document describes it. The shapes are
 * @tickring/protocol's (its types are checked against these schemas below); the callback function
 * parses requests with the protocol's own parsers, so these schemas only describe.
 */
import { type Static, Type } from '@sinclair/typebox';
import {
  ACCESS_TOKEN_HEADER,
  APPNAME_HEADER,
  type CallbackData,
  type CallbackRequest,
  HANDLE_CODE,
  type HandleCallbackParam,
  LEGACY_ADMIN_CONTEXT_PATH,
  MSG,
  REGISTRY_LIMITS,
  type RegistryParam as RegistryParamType,
  type ReturnT as ReturnTType,
  SUCCESS_CODE,
} from '@tickring/protocol';
import { named, StringEnum } from './kit.js';

const LogId = Type.Integer({
  minimum: 1,
  description: 'The run’s logId, as the trigger gave it.',
  examples: [30064771073],
});
const HandleCode = Type.Integer({
  description: `${HANDLE_CODE.success} success, ${HANDLE_CODE.fail} fail, ${HANDLE_CODE.timeout} timeout.`,
  examples: [HANDLE_CODE.success],
});
const HandleMsg = Type.Optional(
  Type.String({ description: 'The result message (the admin keeps 15,000 characters).', examples: ['done'] }),
);
const LogTime = (name: string) =>
  Type.Integer({
    description: `${name}: the trigger’s logDateTime (epoch ms), echoed back.`,
    examples: [1893546000000],
  });

export const HandleCallbackParamSchema = named(
  'HandleCallbackParam',
  Type.Object(
    {
      logId: LogId,
      logDateTim: LogTime('Sic (XXL-JOB ≤ 3.4 spells it so)'),
      handleCode: HandleCode,
      handleMsg: HandleMsg,
    },
    { description: 'One result, as executors 2.3 – 3.4 send it (in a bare array).' },
  ),
);

export const CallbackDataSchema = named(
  'CallbackData',
  Type.Object(
    {
      logId: LogId,
      logDateTime: LogTime('3.5’s spelling (some 3.5 builds send logDateTim)'),
      handleCode: HandleCode,
      handleMsg: HandleMsg,
    },
    { description: 'One result, as 3.5 executors send it (in callbackList).' },
  ),
);

export const LegacyCallbackParamSchema = named(
  'LegacyCallbackParam',
  Type.Object(
    {
      logId: LogId,
      logDateTim: LogTime('Sic'),
      executeResult: Type.Object(
        {
          code: HandleCode,
          msg: Type.Optional(Type.String({ description: 'The result message.', examples: ['done'] })),
        },
        { description: 'The result (2.2 wraps it).', examples: [{ code: 200, msg: 'done' }] },
      ),
    },
    { description: 'One result, as executors 2.2 send it (in a bare array).' },
  ),
);

export const CallbackRequestSchema = named(
  'CallbackRequest',
  Type.Object(
    {
      callbackList: Type.Array(CallbackDataSchema, { description: 'The results.', examples: [] }),
    },
    { description: 'The 3.5 callback body.' },
  ),
);

export const CallbackBodySchema = named(
  'CallbackBody',
  Type.Union(
    [
      Type.Array(Type.Union([HandleCallbackParamSchema, LegacyCallbackParamSchema]), {
        description: 'Executors 2.2 – 3.4: a bare array of results.',
      }),
      CallbackRequestSchema,
    ],
    {
      description:
        'Results of runs, of any protocol generation. A malformed item refuses the whole batch (nothing of it is applied).',
    },
  ),
);

export const RegistryParamSchema = named(
  'RegistryParam',
  Type.Object(
    {
      registryGroup: StringEnum(['EXECUTOR', 'ADMIN'], {
        description: 'EXECUTOR (only executor registrations mean anything; ADMIN is accepted and ignored).',
        examples: ['EXECUTOR'],
      }),
      registryKey: Type.String({
        minLength: 1,
        maxLength: REGISTRY_LIMITS.registryKey,
        description: 'The executor’s AppName (its group).',
        examples: ['my-app'],
      }),
      registryValue: Type.String({
        minLength: 1,
        maxLength: REGISTRY_LIMITS.registryValue,
        description: 'The executor’s address.',
        examples: ['http://10.0.0.5:9999/'],
      }),
    },
    { description: 'A registration (heartbeat, every 30 s) or its removal; every field non-blank.' },
  ),
);

export const ReturnTSchema = named(
  'ReturnT',
  Type.Object(
    {
      code: Type.Integer({
        description: `${SUCCESS_CODE}: done; 500: refused (msg says why).`,
        examples: [SUCCESS_CODE],
      }),
      msg: Type.Optional(Type.String({ description: 'Why, when refused.', examples: [MSG.wrongToken] })),
    },
    {
      description:
        'XXL-JOB’s answer envelope (its payload, `content` up to 3.2 and `data` from 3.3, is never sent by these routes). Every answer is HTTP 200 with this body: a refusal is code 500 with msg.',
    },
  ),
);

// The protocol's types are these schemas' types (a compile-time check: edit one, the other follows).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShapes: [
  Same<Static<typeof HandleCallbackParamSchema>, HandleCallbackParam>,
  Same<Static<typeof CallbackDataSchema>, CallbackData>,
  Same<Static<typeof CallbackRequestSchema>, CallbackRequest>,
  Same<Static<typeof RegistryParamSchema>, RegistryParamType>,
  Static<typeof ReturnTSchema> extends ReturnTType<unknown> ? true : false,
] = [true, true, true, true, true];
void sameShapes;

/** The schemas of the executor API, for the document's components. */
export const EXECUTOR_API_SCHEMAS = [
  HandleCallbackParamSchema,
  LegacyCallbackParamSchema,
  CallbackDataSchema,
  CallbackRequestSchema,
  CallbackBodySchema,
  RegistryParamSchema,
  ReturnTSchema,
];

export const EXECUTOR_SECURITY = [
  { executorAccessToken: [], executorAppName: [] },
  { executorAccessToken: [] },
] as const;

export const EXECUTOR_SECURITY_SCHEMES = {
  executorAccessToken: {
    type: 'apiKey',
    in: 'header',
    name: ACCESS_TOKEN_HEADER,
    description:
      'The group’s own token when it has one (PUT /v1/groups/{appName}/access-token), else the global access token; checked against the group the request speaks for (a registration’s appName, the jobs of the reported runs).',
  },
  executorAppName: {
    type: 'apiKey',
    in: 'header',
    name: APPNAME_HEADER,
    description: 'Sent by 3.5 executors beside the token: it must name the group the request speaks for.',
  },
} as const;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const envelope = (examples: Record<string, { summary: string; value: unknown }>) => ({
  200: {
    description: 'Always HTTP 200: code 200 when done, 500 with msg when refused.',
    content: { 'application/json': { schema: ref('ReturnT'), examples } },
  },
});
const refusals = {
  wrongToken: { summary: 'A missing or wrong token', value: { code: 500, msg: MSG.wrongToken } },
  appNameMismatch: {
    summary: `${APPNAME_HEADER} given, token missing`,
    value: { code: 500, msg: MSG.tokenOrAppNameEmpty },
  },
  bodyEmpty: { summary: 'No body', value: { code: 500, msg: MSG.bodyEmpty } },
};

function registryOperation(operationId: string, summary: string, description: string) {
  return {
    post: {
      operationId,
      tags: ['executor-api'],
      summary,
      description,
      security: EXECUTOR_SECURITY,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: ref('RegistryParam'),
            examples: {
              executor: {
                summary: 'An executor',
                value: {
                  registryGroup: 'EXECUTOR',
                  registryKey: 'my-app',
                  registryValue: 'http://10.0.0.5:9999/',
                },
              },
            },
          },
        },
      },
      responses: envelope({
        ok: { summary: 'Done', value: { code: SUCCESS_CODE } },
        illegal: { summary: 'A blank field', value: { code: 500, msg: MSG.illegalArgument } },
        ...refusals,
      }),
    },
  };
}

/** The path items of the executor API. */
export const EXECUTOR_PATH_ITEMS = {
  ExecutorRegistry: registryOperation(
    'executorRegistry',
    'Register an executor (heartbeat)',
    'An executor says it is alive at its address; an AUTO group lists it while it keeps doing so (90 s).',
  ),
  ExecutorRegistryRemove: registryOperation(
    'executorRegistryRemove',
    'Remove an executor’s registration',
    'An executor stopping says goodbye: it leaves its AUTO group at once.',
  ),
  ExecutorCallback: {
    post: {
      operationId: 'executorCallback',
      tags: ['executor-api'],
      summary: 'Report results of runs',
      description:
        'Executors report what their runs did. The first result of a run stands (a repeat is ignored); results for unknown logIds are ignored and named in msg.',
      security: EXECUTOR_SECURITY,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: ref('CallbackBody'),
            examples: {
              bareArray: {
                summary: 'XXL-JOB 2.3 – 3.4',
                value: [
                  { logId: 30064771073, logDateTim: 1893546000000, handleCode: 200, handleMsg: 'done' },
                ],
              },
              callbackList: {
                summary: 'XXL-JOB 3.5',
                value: {
                  callbackList: [
                    { logId: 30064771073, logDateTime: 1893546000000, handleCode: 500, handleMsg: 'boom' },
                  ],
                },
              },
            },
          },
        },
      },
      responses: envelope({
        ok: { summary: 'Stored', value: { code: SUCCESS_CODE } },
        unknown: {
          summary: 'Some logIds are not known',
          value: { code: SUCCESS_CODE, msg: 'unknown logId ignored: 42' },
        },
        retry: {
          summary: 'Not stored: send them again',
          value: { code: 500, msg: 'results not stored, send them again: logId 30064771073' },
        },
        ...refusals,
      }),
    },
  },
} as const;

/** `/api/<name>`, each to its path item (also served under the classic context path, see `servers`). */
export const EXECUTOR_PATHS = {
  '/api/registry': EXECUTOR_PATH_ITEMS.ExecutorRegistry,
  '/api/registryRemove': EXECUTOR_PATH_ITEMS.ExecutorRegistryRemove,
  '/api/callback': EXECUTOR_PATH_ITEMS.ExecutorCallback,
} as const;

/** The executor API's servers: each of the document's, at its root and at XXL-JOB's classic context path. */
export function executorServers(
  servers: readonly { readonly url: string; readonly description: string }[],
): { url: string; description: string }[] {
  return servers.flatMap((server) => [
    server,
    {
      ...server,
      url: `${server.url}${LEGACY_ADMIN_CONTEXT_PATH}`,
      description: `${server.description} With the classic context path of XXL-JOB 2.x – 3.4.0 admins.`,
    },
  ]);
}
