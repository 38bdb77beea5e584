// Which field of a form a failed call's problems are about: shown beside each field, and the rest
// shown once above or below the form (nothing shown twice, nothing lost). Pure.

/** A failed call as shown (`ShownError`), as far as the fields are concerned. */
interface ErrorLike {
  readonly message: string;
  readonly field?: string;
  readonly problems: readonly { readonly field?: string; readonly message: string }[];
}

/** Whether a problem's field (`password`, `body.password`, `/password`) is one of `fields`. */
export function isFormField(name: string | undefined, fields: readonly string[]): boolean {
  return name !== undefined && fields.some((f) => name === f || name.endsWith(`.${f}`) || name === `/${f}`);
}

/** The problems a failed call reported for one field (`scheduleConf`, `body.scheduleConf`, ...). */
export function problemsFor(error: ErrorLike | undefined, field: string): string[] {
  if (!error) return [];
  const found = error.problems.filter((p) => isFormField(p.field, [field])).map((p) => p.message);
  if (found.length === 0 && isFormField(error.field, [field])) found.push(error.message);
  return found;
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
