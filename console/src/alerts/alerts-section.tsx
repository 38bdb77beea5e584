import type { ComponentChildren } from 'preact';
import { Link, useLocation } from 'wouter-preact';
import { PageHeader } from '../components/common';
import { isAdmin, useAuth } from '../lib/auth';
import './alerts.css';

const TABS = [
  { href: '/alerts', label: 'History' },
  { href: '/alerts/channels', label: 'Channels' },
  { href: '/alerts/silences', label: 'Silences' },
] as const;

/**
 * The gate of an alerts page: every alert route is an admin's (the contract's `access: admin`), so
 * anyone else gets a note instead, and the page's own reads never start (`children` is rendered only
 * for an admin).
 */
export function AlertsAdminOnly({ title, children }: { title: string; children: ComponentChildren }) {
  const { me } = useAuth();
  if (isAdmin(me)) return <>{children}</>;
  return (
    <>
      <PageHeader title={title} />
      <div class="notice" role="note">
        <p>
          <strong>Only admins see and route alerts.</strong> Ask an admin to send a job’s alerts to a channel,
          or to silence them for a while.
        </p>
      </div>
    </>
  );
}

/** An alerts page's frame: its heading with its actions, the section's tabs, then the page. */
export function AlertsSection({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ComponentChildren;
  children: ComponentChildren;
}) {
  const [location] = useLocation();
  return (
    <>
      <PageHeader title={title}>{actions}</PageHeader>
      <nav class="alerts-tabs" aria-label="Alerts">
        <ul>
          {TABS.map((tab) => (
            <li key={tab.href}>
              <Link href={tab.href} aria-current={location === tab.href ? 'page' : undefined}>
                {tab.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {children}
    </>
  );
}
