import { ENV, type Env, optionalString } from '@tickring/core/config';

/** The part of a function's config that names where the workflow engine hands the nodes it fires. */
export interface DispatcherHandOffConfig {
  /** The dispatcher function decided workflow nodes are handed to (AWS); absent: they go on the ring. */
  readonly dispatcherFunction?: string;
}

/**
 * The dispatcher function a function that runs the workflow engine hands decided nodes to (AWS: the
 * stack sets TICKRING_DISPATCHER_FUNCTION and grants lambda:InvokeFunction on it); unset, node fires
 * go on the ring. The dispatcher (`self`) hands them to itself: its own name, which Lambda sets (a
 * function's environment cannot name the function itself in CloudFormation).
 */
export function loadDispatcherFunction(
  env: Env,
  options: { readonly self: boolean },
): DispatcherHandOffConfig {
  const name = optionalString(env, options.self ? ENV.ownFunctionName : ENV.dispatcherFunction);
  return name === undefined ? {} : { dispatcherFunction: name };
}
