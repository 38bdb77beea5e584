// A failed call's problems split between the form's fields (shown beside each) and the rest (shown
// once below the form): nothing is shown twice, nothing is lost.

interface ErrorLike {
  readonly status?: number;
  readonly message: string;
  readonly field?: string;
  readonly problems: readonly { readonly field?: string; readonly message: string }[];
}

/** Whether a problem's field (`password`, `body.password`, `/password`) is one of the form's fields. */
export function isFormField(name: string | undefined, fields: readonly string[]): boolean {
  return name !== undefined && fields.some((f) => name === f || name.endsWith(`.${f}`) || name === `/${f}`);
}

/** The part of an error no field of the form shows; undefined when every problem has its field. */
export function unplacedError<E extends ErrorLike>(
  error: E | undefined,
  fields: readonly string[],
): E | undefined {
  if (!error) return undefined;
  if (error.problems.length === 0) return isFormField(error.field, fields) ? undefined : error;
  const rest = error.problems.filter((p) => !isFormField(p.field, fields));
  if (rest.length === 0) return undefined;
  if (rest.length === error.problems.length) return error;
  return {
    ...error,
    message: rest.length === 1 ? rest[0]!.message : `${rest.length} more problems`,
    problems: rest,
  };
}
