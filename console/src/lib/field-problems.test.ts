import { describe, expect, it } from 'vitest';
import { problemsFor, unplacedError } from './field-problems';

describe('unplacedError', () => {
  const fields = ['username', 'password'];

  it('keeps nothing when every problem has its field', () => {
    const error = {
      message: 'username must be…',
      field: 'username',
      problems: [
        { field: 'username', message: 'username must be…' },
        { field: 'body.password', message: 'password is short' },
      ],
    };
    expect(unplacedError(error, fields)).toBeUndefined();
  });

  it('keeps the problems no field shows', () => {
    const error = {
      message: 'a',
      problems: [
        { field: 'username', message: 'a' },
        { field: 'groups', message: 'b' },
      ],
    };
    expect(unplacedError(error, fields)).toMatchObject({ message: 'b', problems: [{ field: 'groups' }] });
  });

  it('keeps an error without problems unless its field is on the form', () => {
    expect(unplacedError({ status: 409, message: 'taken', problems: [] }, fields)).toMatchObject({
      status: 409,
    });
    expect(unplacedError({ message: 'wrong', field: 'password', problems: [] }, fields)).toBeUndefined();
    expect(unplacedError(undefined, fields)).toBeUndefined();
  });
});

describe('problemsFor', () => {
  it('reads the problems of a field by its name, as a body path or as a pointer', () => {
    const error = {
      message: 'two problems',
      problems: [
        { field: 'body.scheduleConf', message: 'not a cron' },
        { field: '/timeZone', message: 'no such zone' },
        { message: 'no field' },
      ],
    };
    expect(problemsFor(error, 'scheduleConf')).toEqual(['not a cron']);
    expect(problemsFor(error, 'timeZone')).toEqual(['no such zone']);
    expect(problemsFor(error, 'name')).toEqual([]);
    expect(problemsFor(undefined, 'name')).toEqual([]);
  });

  it('takes the message of an error without problems that names the field', () => {
    expect(problemsFor({ message: 'taken', field: 'username', problems: [] }, 'username')).toEqual(['taken']);
  });
});
