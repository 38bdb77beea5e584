/**
 * The identity use-cases' lifecycle, written once and run over each PrincipalStore: in memory (unit,
 * packages/core/src/identity/lifecycle.test.ts) and on DynamoDB Local (integration,
 * packages/aws/src/dynamodb/principal-store.int.test.ts). A fresh store per test (the bootstrap
 * token is one per table).
 */

import {
  ConflictError,
  ForbiddenError,
  METRIC,
  NotFoundError,
  RequestValidationError,
  TooManyRequestsError,
  UnauthorizedError,
  ValidationError,
} from '@tickring/core/common';
import type { PrincipalStore } from '@tickring/core/identity';
import { BOOTSTRAP_PRINCIPAL, type Principal } from '@tickring/core/identity';
import {
  authenticate,
  bootstrapRotation,
  changeOwnPassword,
  createApiToken,
  createUser,
  deleteUser,
  getUser,
  INVALID_BEARER_MESSAGE,
  LOGIN_FAILED_MESSAGE,
  listApiTokens,
  listUsers,
  login,
  logout,
  me,
  revokeApiToken,
  rotateBootstrapToken,
  signInOptions,
  updateUser,
} from '@tickring/core/identity/use-cases';
import { describe, expect, it } from 'vitest';
import { CONFIGURED_BOOTSTRAP, IDLE_MS, identityFixture, loggedText, MAX_MS } from './identity-doubles.js';

const HERE = { ip: '203.0.113.9', userAgent: 'vitest' };
const THERE = { ip: '198.51.100.7', userAgent: 'vitest' };
const MINUTE = 60_000;
const DAY = 86_400_000;
const PASSWORD = 'correct horse battery staple';

/** The error a promise rejects with (fails the test when it resolves). */
async function refusal(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a refusal, but it succeeded');
}

export function identityLifecycleSuite(label: string, newStore: () => Promise<PrincipalStore>): void {
  async function setup(options: { bootstrapToken?: string } = {}) {
    const deps = identityFixture({ store: await newStore(), ...options });
    const auth = (bearer: string, source = HERE) => authenticate(deps, bearer, source);
    const addUser = (username: string, extra: Partial<Parameters<typeof createUser>[2]> = {}) =>
      createUser(deps, BOOTSTRAP_PRINCIPAL, {
        username,
        password: PASSWORD,
        role: 'operator',
        groups: ['billing'],
        ...extra,
      });
    const signIn = async (username: string, password = PASSWORD, source = HERE) =>
      (await login(deps, { username, password }, source)).token;
    return { deps, auth, addUser, signIn };
  }

  describe(`identity lifecycle (${label})`, () => {
    describe('the bootstrap token', () => {
      it('is the configured token, until rotated; anything else is refused with one message', async () => {
        const { auth } = await setup();
        expect(await auth(CONFIGURED_BOOTSTRAP)).toEqual(BOOTSTRAP_PRINCIPAL);
        for (const wrong of ['', 'nope', `${CONFIGURED_BOOTSTRAP}x`, 'trb_whatever']) {
          const err = await refusal(auth(wrong));
          expect(err).toBeInstanceOf(UnauthorizedError);
          expect(err.message).toBe(INVALID_BEARER_MESSAGE);
        }
      });

      it('fails closed when none is configured', async () => {
        const { auth } = await setup({ bootstrapToken: '' });
        expect(await refusal(auth(''))).toBeInstanceOf(UnauthorizedError);
      });

      it('once rotated, only the new one works (the configured one and earlier rotations do not)', async () => {
        const { deps, auth, addUser, signIn } = await setup();
        await addUser('root-ops', { role: 'admin', groups: undefined });
        const admin = await auth(await signIn('root-ops'));
        expect(await bootstrapRotation(deps)).toBeUndefined();

        deps.clock.advance(MINUTE);
        const first = await rotateBootstrapToken(deps, admin);
        expect(first.token).toMatch(/^trb_[A-Za-z0-9_-]{43}$/);
        expect(first).toMatchObject({ rotatedBy: 'root-ops', rotatedAt: deps.clock.now() });
        expect(await refusal(auth(CONFIGURED_BOOTSTRAP))).toBeInstanceOf(UnauthorizedError);
        expect(await auth(first.token)).toEqual(BOOTSTRAP_PRINCIPAL);
        expect(await bootstrapRotation(deps)).toEqual({ rotatedAt: first.rotatedAt, rotatedBy: 'root-ops' });

        deps.clock.advance(MINUTE);
        const second = await rotateBootstrapToken(deps, BOOTSTRAP_PRINCIPAL);
        expect(await refusal(auth(first.token))).toBeInstanceOf(UnauthorizedError);
        expect(await auth(second.token)).toEqual(BOOTSTRAP_PRINCIPAL);
        expect(await bootstrapRotation(deps)).toEqual({
          rotatedAt: second.rotatedAt,
          rotatedBy: 'bootstrap',
        });
        expect(loggedText(deps.logger)).not.toContain(second.token);
      });
    });

    describe('users', () => {
      it('are created by the bootstrap token, kept lower-case, listed and read without the hash', async () => {
        const { deps, addUser } = await setup();
        const ana = await addUser('Ana', { displayName: 'Ana Lima', groups: ['reports', 'billing'] });
        expect(ana).toMatchObject({
          username: 'ana',
          displayName: 'Ana Lima',
          grant: { role: 'operator', groups: ['billing', 'reports'], glue: false },
          disabled: false,
          createdBy: 'bootstrap',
          version: 1,
        });
        expect(ana).not.toHaveProperty('passwordHash');
        await addUser('bob', { role: 'viewer', groups: '*' });
        expect((await listUsers(deps)).map((u) => u.username)).toEqual(['ana', 'bob']);
        expect(await getUser(deps, 'ANA')).toEqual(ana);
        expect(await refusal(getUser(deps, 'nobody'))).toBeInstanceOf(NotFoundError);
        for (const user of await listUsers(deps)) expect(user).not.toHaveProperty('passwordHash');
      });

      it('refuses a taken username in any case (409)', async () => {
        const { addUser } = await setup();
        await addUser('ana');
        const err = await refusal(addUser('ANA'));
        expect(err).toBeInstanceOf(ConflictError);
      });

      it('reports every problem of a new user at once, without echoing the password', async () => {
        const { addUser } = await setup();
        const err = await refusal(
          addUser('x y', { password: 'x y x y', role: 'admin', groups: ['billing'], glue: false }),
        );
        expect(err).toBeInstanceOf(RequestValidationError);
        expect((err as RequestValidationError).problems.map((p) => p.field)).toEqual([
          'username',
          'groups',
          'glue',
          'password',
          'password',
        ]);
        expect(JSON.stringify((err as RequestValidationError).problems)).not.toContain('x y x y');
      });

      it('make passwords a way to sign in only while one of them is not disabled', async () => {
        const { deps, addUser } = await setup();
        expect(await signInOptions(deps)).toEqual({ passwords: false });
        await addUser('dora', { disabled: true });
        expect(await signInOptions(deps)).toEqual({ passwords: false });
        await addUser('ana');
        expect(await signInOptions(deps)).toEqual({ passwords: true });
        await updateUser(deps, BOOTSTRAP_PRINCIPAL, 'ana', { disabled: true });
        expect(await signInOptions(deps)).toEqual({ passwords: false });
        await updateUser(deps, BOOTSTRAP_PRINCIPAL, 'dora', { disabled: false });
        expect(await signInOptions(deps)).toEqual({ passwords: true });
        await deleteUser(deps, BOOTSTRAP_PRINCIPAL, 'dora');
        expect(await signInOptions(deps)).toEqual({ passwords: false });
      });

      it('are found enabled past many disabled ones (the store reads them a page at a time)', async () => {
        const { deps, addUser } = await setup();
        for (let i = 0; i < 60; i++) await addUser(`off-${String(i).padStart(2, '0')}`, { disabled: true });
        expect(await signInOptions(deps)).toEqual({ passwords: false });
        await addUser('zed');
        expect(await signInOptions(deps)).toEqual({ passwords: true });
      });

      it('updates at the version read (409 otherwise); a grant change is checked as a whole', async () => {
        const { deps, addUser } = await setup();
        await addUser('ana');
        const changed = await updateUser(deps, BOOTSTRAP_PRINCIPAL, 'ana', {
          displayName: 'Ana L.',
          groups: ['billing', 'etl-jobs'],
          glue: true,
          version: 1,
        });
        expect(changed).toMatchObject({ displayName: 'Ana L.', version: 2 });
        expect(changed.grant).toEqual({ role: 'operator', groups: ['billing', 'etl-jobs'], glue: true });
        expect(
          await refusal(updateUser(deps, BOOTSTRAP_PRINCIPAL, 'ana', { disabled: true, version: 1 })),
        ).toBeInstanceOf(ConflictError);
        const admin = await updateUser(deps, BOOTSTRAP_PRINCIPAL, 'ana', { role: 'admin' });
        expect(admin.grant).toEqual({ role: 'admin', groups: '*', glue: true });
        const viewer = await updateUser(deps, BOOTSTRAP_PRINCIPAL, 'ana', { role: 'viewer' });
        expect(viewer.grant).toEqual({ role: 'viewer', groups: '*', glue: false });
        const bad = await refusal(
          updateUser(deps, BOOTSTRAP_PRINCIPAL, 'ana', { role: 'operator', groups: [], password: 'short' }),
        );
        expect((bad as RequestValidationError).problems.map((p) => p.field)).toEqual(['groups', 'password']);
        expect(
          await refusal(updateUser(deps, BOOTSTRAP_PRINCIPAL, 'nobody', { disabled: true })),
        ).toBeInstanceOf(NotFoundError);
      });

      it('nobody deletes or disables themselves', async () => {
        const { deps, auth, addUser, signIn } = await setup();
        await addUser('root-ops', { role: 'admin', groups: undefined });
        const self = await auth(await signIn('root-ops'));
        expect(await refusal(deleteUser(deps, self, 'root-ops'))).toBeInstanceOf(ConflictError);
        expect(await refusal(updateUser(deps, self, 'root-ops', { disabled: true }))).toBeInstanceOf(
          ConflictError,
        );
        expect((await getUser(deps, 'root-ops')).disabled).toBe(false);
      });

      it('a user of a grant gives no more than it has (403)', async () => {
        const { deps, addUser } = await setup();
        const operator: Principal = {
          kind: 'token',
          id: 'abcdefabcdef0000',
          name: 'token:ops',
          grant: { role: 'operator', groups: ['billing'], glue: false },
        };
        expect(
          await refusal(createUser(deps, operator, { username: 'eve', password: PASSWORD, role: 'admin' })),
        ).toBeInstanceOf(ForbiddenError);
        await addUser('ana');
        expect(await refusal(updateUser(deps, operator, 'ana', { groups: '*' }))).toBeInstanceOf(
          ForbiddenError,
        );
      });
    });

    describe('sessions', () => {
      it('sign a user in: the token authenticates as the user, with the grant as it is now', async () => {
        const { deps, auth, addUser } = await setup();
        await addUser('ana');
        const result = await login(deps, { username: ' ANA ', password: PASSWORD }, HERE);
        expect(result.token).toMatch(/^trs_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
        expect(result.expiresAt).toBe(deps.clock.now() + IDLE_MS);
        expect(result.endsAt).toBe(deps.clock.now() + MAX_MS);
        expect(result.user).not.toHaveProperty('passwordHash');
        expect(result.user.lastLoginAt).toBe(deps.clock.now());
        const principal = await auth(result.token);
        expect(principal).toEqual({
          kind: 'session',
          id: 'ana',
          name: 'ana',
          grant: { role: 'operator', groups: ['billing'], glue: false },
          credentialId: result.sessionId,
        });
        expect((await getUser(deps, 'ana')).lastLoginAt).toBe(deps.clock.now());
      });

      it('refuse a session whose secret part is wrong, or that does not exist', async () => {
        const { auth, addUser, signIn } = await setup();
        await addUser('ana');
        const token = await signIn('ana');
        const wrongSecret = token.slice(0, -3) + (token.endsWith('AAA') ? 'BBB' : 'AAA');
        const unknown = `trs_0000000000000000_${token.slice(-43)}`;
        for (const bad of [wrongSecret, unknown]) {
          const err = await refusal(auth(bad));
          expect(err).toBeInstanceOf(UnauthorizedError);
          expect(err.message).toBe(INVALID_BEARER_MESSAGE);
        }
      });

      it('end when unused for the idle time; each use (noted at most once a minute) moves it on', async () => {
        const { deps, auth, addUser, signIn } = await setup();
        await addUser('ana');
        const token = await signIn('ana');
        const { credentialId } = await auth(token);
        const session = async () => deps.store.getSession(credentialId as string);
        const started = deps.clock.now();

        deps.clock.advance(30_000);
        await auth(token);
        expect((await session())?.lastUsedAt).toBe(started); // not within the minute

        deps.clock.advance(40_000);
        await auth(token);
        expect((await session())?.lastUsedAt).toBe(started + 70_000);
        expect((await session())?.idleUntil).toBe(started + 70_000 + IDLE_MS);

        deps.clock.advance(IDLE_MS - 1);
        await auth(token); // still within the idle time since its last noted use
        deps.clock.advance(IDLE_MS);
        const err = await refusal(auth(token));
        expect(err).toBeInstanceOf(UnauthorizedError);
        expect(err.message).toBe(INVALID_BEARER_MESSAGE);
      });

      it('end after the maximum time, however much they are used', async () => {
        const { deps, auth, addUser, signIn } = await setup();
        await addUser('ana');
        const token = await signIn('ana');
        const start = deps.clock.now();
        while (deps.clock.now() + 20 * MINUTE < start + MAX_MS) {
          deps.clock.advance(20 * MINUTE);
          await auth(token);
        }
        deps.clock.advance(start + MAX_MS - 1 - deps.clock.now());
        expect((await auth(token)).id).toBe('ana');
        deps.clock.advance(1);
        expect(await refusal(auth(token))).toBeInstanceOf(UnauthorizedError);
      });

      it('end at sign-out; only a session signs out', async () => {
        const { deps, auth, addUser, signIn } = await setup();
        await addUser('ana');
        const token = await signIn('ana');
        const other = await signIn('ana');
        await logout(deps, await auth(token));
        expect(await refusal(auth(token))).toBeInstanceOf(UnauthorizedError);
        expect((await auth(other)).id).toBe('ana');
        expect(await refusal(logout(deps, BOOTSTRAP_PRINCIPAL))).toBeInstanceOf(ValidationError);
      });

      it("a user's own password change ends their other sessions, not this one", async () => {
        const { deps, auth, addUser, signIn } = await setup();
        await addUser('ana');
        const current = await signIn('ana');
        const other = await signIn('ana', PASSWORD, THERE);
        deps.clock.advance(MINUTE);
        const newPassword = 'a longer and newer passphrase';
        const changed = await changeOwnPassword(
          deps,
          await auth(current),
          { currentPassword: PASSWORD, newPassword },
          HERE,
        );
        expect(changed.passwordChangedAt).toBe(deps.clock.now());
        expect(changed).not.toHaveProperty('passwordHash');
        expect((await auth(current)).id).toBe('ana');
        expect(await refusal(auth(other))).toBeInstanceOf(UnauthorizedError);
        expect(await refusal(signIn('ana'))).toBeInstanceOf(UnauthorizedError);
        expect(await auth(await signIn('ana', newPassword))).toMatchObject({ kind: 'session', id: 'ana' });
      });

      it('a password change needs the current password (a wrong one counts as a failed sign-in) and the policy', async () => {
        const { deps, auth, addUser, signIn } = await setup();
        await addUser('ana');
        const me = await auth(await signIn('ana'));
        const wrong = await refusal(
          changeOwnPassword(
            deps,
            me,
            { currentPassword: 'not the password', newPassword: 'a fine new passphrase' },
            HERE,
          ),
        );
        expect(wrong).toBeInstanceOf(ValidationError);
        expect((wrong as ValidationError).field).toBe('currentPassword');
        expect(deps.metrics.sum(METRIC.failedLogins)).toBe(1);
        const policy = await refusal(
          changeOwnPassword(deps, me, { currentPassword: PASSWORD, newPassword: PASSWORD }, HERE),
        );
        expect((policy as RequestValidationError).problems).toEqual([
          { field: 'newPassword', message: 'newPassword must differ from currentPassword' },
        ]);
        expect(
          await refusal(
            changeOwnPassword(deps, BOOTSTRAP_PRINCIPAL, { currentPassword: 'x', newPassword: 'y' }, HERE),
          ),
        ).toBeInstanceOf(ValidationError);
      });

      it("an admin's new password for a user ends all of that user's sessions", async () => {
        const { deps, auth, addUser, signIn } = await setup();
        await addUser('ana');
        const token = await signIn('ana');
        deps.clock.advance(1);
        await updateUser(deps, BOOTSTRAP_PRINCIPAL, 'ana', { password: 'set by the admin here' });
        expect(await refusal(auth(token))).toBeInstanceOf(UnauthorizedError);
        expect((await auth(await signIn('ana', 'set by the admin here'))).id).toBe('ana');
      });

      it('disabling ends the sessions and signing in (the same 401); enabling again does not revive them', async () => {
        const { deps, auth, addUser, signIn } = await setup();
        await addUser('ana');
        const token = await signIn('ana');
        deps.clock.advance(1);
        await updateUser(deps, BOOTSTRAP_PRINCIPAL, 'ana', { disabled: true });
        expect(await refusal(auth(token))).toBeInstanceOf(UnauthorizedError);
        const err = await refusal(signIn('ana'));
        expect(err).toBeInstanceOf(UnauthorizedError);
        expect(err.message).toBe(LOGIN_FAILED_MESSAGE);
        await updateUser(deps, BOOTSTRAP_PRINCIPAL, 'ana', { disabled: false });
        expect(await refusal(auth(token))).toBeInstanceOf(UnauthorizedError);
        expect((await auth(await signIn('ana'))).id).toBe('ana');
      });

      it('a grant change ends the sessions; a display name change does not', async () => {
        const { deps, auth, addUser, signIn } = await setup();
        await addUser('ana');
        const token = await signIn('ana');
        deps.clock.advance(1);
        await updateUser(deps, BOOTSTRAP_PRINCIPAL, 'ana', { displayName: 'Ana' });
        expect((await auth(token)).grant.groups).toEqual(['billing']);
        deps.clock.advance(1);
        await updateUser(deps, BOOTSTRAP_PRINCIPAL, 'ana', { groups: ['billing', 'etl-jobs'] });
        expect(await refusal(auth(token))).toBeInstanceOf(UnauthorizedError);
        expect((await auth(await signIn('ana'))).grant.groups).toEqual(['billing', 'etl-jobs']);
      });

      it('deleting a user ends their sessions, also against a new user of the same name', async () => {
        const { deps, auth, addUser, signIn } = await setup();
        await addUser('ana');
        const token = await signIn('ana');
        await deleteUser(deps, BOOTSTRAP_PRINCIPAL, 'ana');
        expect(await refusal(auth(token))).toBeInstanceOf(UnauthorizedError);
        expect(await refusal(deleteUser(deps, BOOTSTRAP_PRINCIPAL, 'ana'))).toBeInstanceOf(NotFoundError);
        deps.clock.advance(1);
        await addUser('ana');
        expect(await refusal(auth(token))).toBeInstanceOf(UnauthorizedError);
      });
    });

    describe('failed sign-ins', () => {
      it('answer the same 401 for an unknown user, a wrong password and a disabled user, each counted', async () => {
        const { deps, addUser } = await setup();
        await addUser('ana');
        await addUser('bob', { disabled: true });
        const errors = [
          await refusal(login(deps, { username: 'nobody', password: PASSWORD }, HERE)),
          await refusal(login(deps, { username: 'ana', password: 'not the password' }, THERE)),
          await refusal(
            login(deps, { username: 'bob', password: PASSWORD }, { ip: '192.0.2.1', userAgent: '' }),
          ),
          await refusal(
            login(deps, { username: 'x', password: PASSWORD }, { ip: '192.0.2.2', userAgent: '' }),
          ),
        ];
        for (const err of errors) {
          expect(err).toBeInstanceOf(UnauthorizedError);
          expect(err.message).toBe(LOGIN_FAILED_MESSAGE);
        }
        expect(deps.metrics.sum(METRIC.failedLogins)).toBe(4);
      });

      it('lock a username after 5 failures, for 1 s, 2 s, 4 s ... (429, not looked at); success resets it', async () => {
        const { deps, addUser, signIn } = await setup();
        await addUser('ana');
        const ips = [
          '192.0.2.1',
          '192.0.2.2',
          '192.0.2.3',
          '192.0.2.4',
          '192.0.2.5',
          '192.0.2.6',
          '192.0.2.7',
        ];
        const attempt = (password: string, i: number) =>
          login(deps, { username: 'ana', password }, { ip: ips[i % ips.length] as string, userAgent: '' });
        for (let i = 0; i < 5; i++)
          expect(await refusal(attempt('wrong password!', i))).toBeInstanceOf(UnauthorizedError);

        const locked = await refusal(attempt(PASSWORD, 5)); // even the right password: not looked at
        expect(locked).toBeInstanceOf(TooManyRequestsError);
        expect((locked as TooManyRequestsError).retryAfterSeconds).toBe(1);
        expect(locked.message).toBe('too many failed sign-ins; try again in 1 second');

        deps.clock.advance(1_000);
        expect(await refusal(attempt('wrong password!', 6))).toBeInstanceOf(UnauthorizedError);
        expect(((await refusal(attempt(PASSWORD, 0))) as TooManyRequestsError).retryAfterSeconds).toBe(2);
        deps.clock.advance(2_000);
        expect(await refusal(attempt('wrong password!', 1))).toBeInstanceOf(UnauthorizedError);
        expect(((await refusal(attempt(PASSWORD, 2))) as TooManyRequestsError).retryAfterSeconds).toBe(4);
        expect(deps.metrics.sum(METRIC.failedLogins)).toBe(10); // 7 failures, 3 refusals

        deps.clock.advance(4_000);
        expect(await signIn('ana', PASSWORD, { ip: '192.0.2.50', userAgent: '' })).toMatch(/^trs_/);
        // Reset: four more failures lock nothing.
        for (let i = 0; i < 4; i++)
          expect(await refusal(attempt('wrong password!', i + 3))).toBeInstanceOf(UnauthorizedError);
        expect(await signIn('ana', PASSWORD, { ip: '192.0.2.51', userAgent: '' })).toMatch(/^trs_/);
      });

      it('lock a source address after 5 failures over any usernames; other addresses go on; success does not reset it', async () => {
        const { deps, addUser, signIn } = await setup();
        await addUser('ana');
        await addUser('bob');
        await signIn('ana', PASSWORD, HERE);
        for (let i = 0; i < 5; i++) {
          expect(
            await refusal(login(deps, { username: `guess${i}`, password: PASSWORD }, HERE)),
          ).toBeInstanceOf(UnauthorizedError);
        }
        const locked = await refusal(signIn('bob', PASSWORD, HERE));
        expect(locked).toBeInstanceOf(TooManyRequestsError);
        expect(await signIn('bob', PASSWORD, THERE)).toMatch(/^trs_/);
        deps.clock.advance(1_000);
        expect(await signIn('bob', PASSWORD, HERE)).toMatch(/^trs_/);
        // The address's count stands: its next failure locks for 2 s.
        expect(await refusal(login(deps, { username: 'guess', password: PASSWORD }, HERE))).toBeInstanceOf(
          UnauthorizedError,
        );
        expect(
          ((await refusal(signIn('ana', PASSWORD, HERE))) as TooManyRequestsError).retryAfterSeconds,
        ).toBe(2);
      });

      it('forget failures 15 minutes after the last one', async () => {
        const { deps, addUser, signIn } = await setup();
        await addUser('ana');
        for (let i = 0; i < 4; i++) await refusal(signIn('ana', 'wrong password!'));
        deps.clock.advance(15 * MINUTE);
        await refusal(signIn('ana', 'wrong password!'));
        expect(await signIn('ana')).toMatch(/^trs_/);
      });
    });

    describe('API tokens', () => {
      it('authenticate as token:<name> with their grant, noting their use at most once a minute', async () => {
        const { deps, auth } = await setup();
        const created = await createApiToken(deps, BOOTSTRAP_PRINCIPAL, {
          name: 'ci-deploy',
          role: 'operator',
          groups: ['billing'],
          expiresInDays: 30,
        });
        expect(created.token).toMatch(new RegExp(`^trk_${created.id}_[A-Za-z0-9_-]{43}$`));
        expect(created).toMatchObject({ name: 'ci-deploy', status: 'active', createdBy: 'bootstrap' });
        expect(created).not.toHaveProperty('secretHash');
        expect(created.lastUsedAt).toBeUndefined();
        expect(await auth(created.token)).toEqual({
          kind: 'token',
          id: created.id,
          name: 'token:ci-deploy',
          grant: { role: 'operator', groups: ['billing'], glue: false },
          credentialId: created.id,
        });
        const firstUse = deps.clock.now();
        expect((await deps.store.getToken(created.id))?.lastUsedAt).toBe(firstUse);
        deps.clock.advance(59_000);
        await auth(created.token);
        expect((await deps.store.getToken(created.id))?.lastUsedAt).toBe(firstUse);
        deps.clock.advance(1_000);
        await auth(created.token);
        expect((await deps.store.getToken(created.id))?.lastUsedAt).toBe(firstUse + 60_000);
      });

      it('stop working when they expire', async () => {
        const { deps, auth } = await setup();
        const created = await createApiToken(deps, BOOTSTRAP_PRINCIPAL, {
          name: 'short',
          role: 'viewer',
          groups: '*',
          expiresAt: deps.clock.now() + DAY,
        });
        deps.clock.advance(DAY - 1);
        expect((await auth(created.token)).kind).toBe('token');
        deps.clock.advance(1);
        const err = await refusal(auth(created.token));
        expect(err).toBeInstanceOf(UnauthorizedError);
        expect(err.message).toBe(INVALID_BEARER_MESSAGE);
        expect((await listApiTokens(deps)).find((t) => t.id === created.id)?.status).toBe('expired');
      });

      it('stop working when revoked; the list shows them without secrets', async () => {
        const { deps, auth } = await setup();
        const created = await createApiToken(deps, BOOTSTRAP_PRINCIPAL, {
          name: 'grafana',
          role: 'viewer',
          groups: '*',
          expiresInDays: 365,
        });
        deps.clock.advance(MINUTE);
        const revoked = await revokeApiToken(deps, BOOTSTRAP_PRINCIPAL, created.id);
        expect(revoked).toMatchObject({ status: 'revoked', revokedAt: deps.clock.now() });
        expect(await refusal(auth(created.token))).toBeInstanceOf(UnauthorizedError);
        deps.clock.advance(MINUTE);
        expect((await revokeApiToken(deps, BOOTSTRAP_PRINCIPAL, created.id)).revokedAt).toBe(
          revoked.revokedAt,
        );
        expect(await refusal(revokeApiToken(deps, BOOTSTRAP_PRINCIPAL, '0123456789abcdef'))).toBeInstanceOf(
          NotFoundError,
        );
        const list = await listApiTokens(deps);
        expect(list).toHaveLength(1);
        expect(list[0]).toMatchObject({ id: created.id, status: 'revoked', createdBy: 'bootstrap' });
        expect(JSON.stringify(list)).not.toContain(created.token.slice(-43));
        expect(list[0]).not.toHaveProperty('secretHash');
      });

      it('have a name unique among active tokens (any case); it is free again once revoked or expired', async () => {
        const { deps } = await setup();
        const input = { name: 'ci-deploy', role: 'viewer' as const, groups: '*' as const, expiresInDays: 1 };
        const first = await createApiToken(deps, BOOTSTRAP_PRINCIPAL, input);
        expect(
          await refusal(createApiToken(deps, BOOTSTRAP_PRINCIPAL, { ...input, name: 'CI-Deploy' })),
        ).toBeInstanceOf(ConflictError);
        await revokeApiToken(deps, BOOTSTRAP_PRINCIPAL, first.id);
        await createApiToken(deps, BOOTSTRAP_PRINCIPAL, input);
        // Revoking the first again does not free the name the second holds.
        await revokeApiToken(deps, BOOTSTRAP_PRINCIPAL, first.id);
        expect(await refusal(createApiToken(deps, BOOTSTRAP_PRINCIPAL, input))).toBeInstanceOf(ConflictError);
        deps.clock.advance(DAY);
        expect((await createApiToken(deps, BOOTSTRAP_PRINCIPAL, input)).status).toBe('active');
      });

      it('have no more than their creator (403), and need a valid name, grant and expiry (all problems at once)', async () => {
        const { deps } = await setup();
        const operator: Principal = {
          kind: 'session',
          id: 'ana',
          name: 'ana',
          grant: { role: 'operator', groups: ['billing'], glue: false },
          credentialId: 'abcdefabcdef0000',
        };
        const wider = await refusal(
          createApiToken(deps, operator, {
            name: 'x',
            role: 'operator',
            groups: ['billing', 'etl-jobs'],
            expiresInDays: 1,
          }),
        );
        expect(wider).toBeInstanceOf(ForbiddenError);
        expect(wider.message).toContain('groups etl-jobs are not yours');
        const narrower = await createApiToken(deps, operator, {
          name: 'mine',
          role: 'viewer',
          groups: ['billing'],
          expiresInDays: 1,
        });
        expect(narrower.createdBy).toBe('ana');
        const bad = await refusal(
          createApiToken(deps, BOOTSTRAP_PRINCIPAL, {
            name: 'has space',
            role: 'operator',
            expiresInDays: 400,
          }),
        );
        expect((bad as RequestValidationError).problems.map((p) => p.field)).toEqual([
          'name',
          'groups',
          'expiresInDays',
        ]);
      });
    });

    describe('who am I', () => {
      it('tells each kind of caller what it may do', async () => {
        const { deps, auth, addUser, signIn } = await setup();
        await addUser('ana', { displayName: 'Ana Lima', groups: ['billing'], glue: true });
        expect(await me(deps, await auth(await signIn('ana')))).toEqual({
          kind: 'session',
          name: 'ana',
          username: 'ana',
          displayName: 'Ana Lima',
          role: 'operator',
          groups: ['billing'],
          glue: true,
          permissions: { admin: false, readGroups: ['billing'], operateGroups: ['billing'], glue: true },
        });
        expect(await me(deps, BOOTSTRAP_PRINCIPAL)).toEqual({
          kind: 'bootstrap',
          name: 'bootstrap',
          role: 'admin',
          groups: '*',
          glue: true,
          permissions: { admin: true, readGroups: '*', operateGroups: '*', glue: true },
        });
        const viewer = await createApiToken(deps, BOOTSTRAP_PRINCIPAL, {
          name: 'v',
          role: 'viewer',
          groups: ['etl-jobs'],
          expiresInDays: 1,
        });
        expect(await me(deps, await auth(viewer.token))).toEqual({
          kind: 'token',
          name: 'token:v',
          role: 'viewer',
          groups: ['etl-jobs'],
          glue: false,
          permissions: { admin: false, readGroups: ['etl-jobs'], operateGroups: [], glue: false },
        });
      });
    });

    describe('secrets', () => {
      it('appear in no answer but the one creating them, no error and no log line', async () => {
        const { deps, auth, addUser, signIn } = await setup();
        const secrets: string[] = [PASSWORD, CONFIGURED_BOOTSTRAP];
        const answers: unknown[] = [];
        const errors: unknown[] = [];
        const keep = async (p: Promise<unknown>) => answers.push(await p);
        const fail = async (p: Promise<unknown>) => errors.push(await refusal(p));

        await keep(addUser('ana', { role: 'admin', groups: undefined }));
        const session = await login(deps, { username: 'ana', password: PASSWORD }, HERE);
        secrets.push(session.token);
        answers.push({ ...session, token: undefined });
        const admin = await auth(session.token);
        const token = await createApiToken(deps, admin, {
          name: 'ci',
          role: 'viewer',
          groups: '*',
          expiresInDays: 1,
        });
        secrets.push(token.token);
        answers.push({ ...token, token: undefined });
        const newPassword = 'the second secret of hers';
        secrets.push(newPassword);
        await keep(changeOwnPassword(deps, admin, { currentPassword: PASSWORD, newPassword }, HERE));
        await keep(updateUser(deps, admin, 'ana', { displayName: 'Ana' }));
        await keep(listUsers(deps));
        await keep(listApiTokens(deps));
        await keep(me(deps, admin));
        await addUser('bob');
        await fail(signIn('bob', 'a wrong password typed'));
        secrets.push('a wrong password typed');
        await fail(signIn('a password in the name field', PASSWORD));
        secrets.push('a password in the name field');
        await fail(auth(`${session.token.slice(0, -1)}x`));
        await fail(auth(`${token.token.slice(0, -1)}x`));
        await fail(
          createUser(deps, admin, {
            username: 'carl',
            password: 'carl-carl-carl',
            role: 'viewer',
            groups: '*',
          }),
        );
        secrets.push('carl-carl-carl');
        const rotated = await rotateBootstrapToken(deps, admin);
        secrets.push(rotated.token);
        answers.push({ ...rotated, token: undefined });
        await fail(auth(CONFIGURED_BOOTSTRAP));
        await logout(deps, await auth(session.token));

        const hashes = [
          (await deps.store.getUser('ana'))?.passwordHash,
          (await deps.store.getUser('bob'))?.passwordHash,
          (await deps.store.getSession(session.sessionId))?.secretHash,
          (await deps.store.getToken(token.id))?.secretHash,
          (await deps.store.getBootstrap())?.secretHash,
        ].filter((h): h is string => h !== undefined);
        expect(hashes.length).toBe(4); // the session is gone after sign-out
        const secretParts = secrets.map((s) => (/^tr[ks]_/.test(s) ? s.slice(-43) : s));
        const seen = [
          ['answers', JSON.stringify(answers)],
          [
            'errors',
            JSON.stringify(errors.map((e) => ({ ...(e as object), message: (e as Error).message }))),
          ],
          ['logs', loggedText(deps.logger)],
        ] as const;
        for (const [where, text] of seen) {
          for (const secret of [...secretParts, ...hashes]) {
            expect(text.includes(secret), `${where} must not contain ${secret.slice(0, 8)}...`).toBe(false);
          }
        }
        expect(deps.logger.lines.length).toBeGreaterThan(5);
      });
    });
  });
}
