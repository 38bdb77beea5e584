import type { Job } from '@tickring/client';
import { Link } from 'wouter-preact';
import { ErrorNotice, PageHeader } from '../components/common';
import { api } from '../lib/api';
import { type Loaded, useLoad } from '../lib/hooks';

/** A job read by its id (again every `refreshMs` while the page is visible, when given). */
export function useJob(id: number, refreshMs?: number): Loaded<Job> {
  return useLoad(() => api().getJob({ path: { id } }), `job:${id}`, refreshMs);
}

/** A job's page until the job is read: its title, and "reading" or why it could not be read. */
export function JobNotRead({ title, job }: { title: string; job: Loaded<Job> }) {
  return (
    <>
      <PageHeader title={title} />
      <ErrorNotice error={job.error} />
      {job.error ? (
        <p>
          <Link href="/jobs">Back to the jobs</Link>
        </p>
      ) : (
        <p aria-busy="true">Reading the job…</p>
      )}
    </>
  );
}
