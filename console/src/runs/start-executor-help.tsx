import { Link } from 'wouter-preact';

/** How to start an executor against this scheduler (empty states of the executors page and the overview). */
export function StartExecutorHelp({ onExecutorsPage = false }: { onExecutorsPage?: boolean }) {
  const origin = window.location.origin;
  return (
    <>
      <p>
        Start an executor and point it at this scheduler: a Node service with the SDK{' '}
        <code>@tickring/executor</code> (
        <code>{`createExecutor({ appName: 'my-app', adminAddresses: '${origin}', accessToken })`}</code>), or
        any XXL-JOB executor with <code>xxl.job.admin.addresses={origin}</code> and the access token.
        Executors register at <code>{origin}/api/registry</code> and report results to{' '}
        <code>{origin}/api/callback</code>.
      </p>
      <p>
        Then give it a group with the same AppName (
        {onExecutorsPage ? 'New group' : <Link href="/executors">Executors → New group</Link>}, address type
        AUTO) so that jobs can run on it.
      </p>
    </>
  );
}
