/** The Java side's messages, word for word (the XXL-JOB console shows them; clients match some). */
export const MSG = {
  wrongToken: 'The access token is wrong.',
  /** 3.5: a request without both `XXL-JOB-ACCESS-TOKEN` and `XXL-JOB-APPNAME`. */
  tokenOrAppNameEmpty: 'invalid request, accessToken or appname is empty.',
  /** 3.5: a request whose token or app name is not the executor's (or the group's). */
  tokenOrAppNameInvalid: 'invalid request, accessToken or appname invalid.',
  methodNotSupported: 'invalid request, HttpMethod not support.',
  uriNotFound: (uri: string) => `invalid request, uri-mapping(${uri}) not found.`,
  bodyEmpty: 'requestBody empty.',
  illegalArgument: 'Illegal Argument.',
  /** The admin's answer to a second result for a run that already has one (the item is ignored). */
  repeatCallback: 'log repeate callback.',
  handlerNotFound: (name: string) => `job handler [${name}] not found.`,
  glueTypeInvalid: (glueType: string) => `glueType[${glueType}] is not valid.`,
  discardLater: 'block strategy effect：Discard Later',
  coverEarly: 'block strategy effect：Cover Early',
  changedHandler: 'change jobhandler or glue type, and terminate the old job thread.',
  repeatTrigger: (logId: number) => `repeate trigger job, logId:${logId}`,
  idleBeatBusy: 'job thread is running or has trigger queue.',
  alreadyKilled: 'job thread already killed.',
  killReason: 'scheduling center kill job.',
  idleReason: 'excutor idel times over limit.',
  runningKilled: (reason: string) => `${reason} [job running, killed]`,
  queuedKilled: (reason: string) => `${reason} [job not executed, in the job queue, killed.]`,
  timeout: 'job execute timeout',
  resultLost: 'job handle result lost.',
} as const;
