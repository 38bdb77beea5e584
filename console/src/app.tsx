import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter-preact';
import { AlertHistoryPage } from './alerts/alert-history-page';
import { AlertChannelsPage } from './alerts/channels-page';
import { AlertSilencesPage } from './alerts/silences-page';
import { CalendarPage } from './calendars/calendar-page';
import { CalendarsPage } from './calendars/calendars-page';
import { Empty } from './components/common';
import { AuthProvider, isAdmin, useAuth } from './lib/auth';
import { AuditPage } from './pages/audit';
import { ExecutorsPage } from './pages/executors';
import { JobDetailPage } from './pages/job-detail';
import { JobEditorPage } from './pages/job-editor';
import { JobsPage } from './pages/jobs';
import { OverviewPage } from './pages/overview';
import { RunDetailPage } from './pages/run-detail';
import { RunsPage } from './pages/runs';
import { SignInPage } from './pages/sign-in';
import { TokensPage } from './pages/tokens';
import { UsersPage } from './pages/users';
import { WorkflowDetailPage } from './pages/workflow-detail';
import { WorkflowNewPage } from './pages/workflow-new';
import { WorkflowRunDetailPage } from './pages/workflow-run-detail';
import { WorkflowRunsPage } from './pages/workflow-runs';
import { WorkflowsPage } from './pages/workflows';
import { ChangePasswordDialog } from './people/change-password';

export function App() {
  return (
    <AuthProvider>
      <Shell />
    </AuthProvider>
  );
}

const NAV: readonly { href: string; label: string; admin?: boolean }[] = [
  { href: '/', label: 'Overview' },
  { href: '/jobs', label: 'Jobs' },
  { href: '/runs', label: 'Runs' },
  { href: '/workflows', label: 'Workflows' },
  { href: '/calendars', label: 'Calendars' },
  { href: '/executors', label: 'Executors' },
  // Every alert route is an admin's (the contract's access).
  { href: '/alerts', label: 'Alerts', admin: true },
  { href: '/users', label: 'Users', admin: true },
  { href: '/tokens', label: 'Tokens', admin: true },
  { href: '/audit', label: 'Audit' },
];

function Shell() {
  const auth = useAuth();
  const [location] = useLocation();
  const mainRef = useRef<HTMLElement>(null);
  const [changingPassword, setChangingPassword] = useState(false);

  // A new page moves focus to its content (keyboard and screen-reader users land on it).
  useEffect(() => {
    mainRef.current?.focus({ preventScroll: true });
  }, [location]);

  if (auth.checking) return <main class="container" aria-busy="true" />;
  if (!auth.me) {
    return (
      <main class="container sign-in" ref={mainRef} tabIndex={-1}>
        <SignInPage />
      </main>
    );
  }
  const me = auth.me;
  return (
    <>
      <a class="skip-link" href="#content">
        Skip to content
      </a>
      <header class="topbar">
        <nav class="container-fluid" aria-label="Main">
          <ul>
            <li>
              <Link href="/" class="brand" aria-label="tickring overview">
                tickring
              </Link>
            </li>
          </ul>
          <ul class="nav-links">
            {NAV.filter((item) => !item.admin || isAdmin(me)).map((item) => (
              <li key={item.href}>
                <NavLink href={item.href}>{item.label}</NavLink>
              </li>
            ))}
            <li>
              <details class="dropdown">
                <summary aria-label={`Signed in as ${me.displayName ?? me.name}`}>
                  {me.displayName ?? me.name}
                </summary>
                <ul dir="rtl">
                  <li>
                    <span class="muted">{me.role}</span>
                  </li>
                  {me.kind === 'session' && me.username !== undefined && (
                    <li>
                      <button
                        type="button"
                        class="link-button"
                        onClick={(e) => {
                          e.currentTarget.closest('details')?.removeAttribute('open');
                          setChangingPassword(true);
                        }}
                      >
                        Change my password
                      </button>
                    </li>
                  )}
                  <li>
                    <button type="button" class="link-button" onClick={() => void auth.signOut()}>
                      Sign out
                    </button>
                  </li>
                </ul>
              </details>
            </li>
          </ul>
        </nav>
      </header>
      {me.kind === 'session' && me.username !== undefined && (
        <ChangePasswordDialog
          open={changingPassword}
          username={me.username}
          onClose={() => setChangingPassword(false)}
        />
      )}
      <main class="container-fluid page" id="content" ref={mainRef} tabIndex={-1}>
        <Switch>
          <Route path="/" component={OverviewPage} />
          <Route path="/sign-in">
            <Redirect to="/" />
          </Route>
          <Route path="/jobs" component={JobsPage} />
          <Route path="/jobs/new" component={JobEditorPage} />
          <Route path="/jobs/:id/edit" component={JobEditorPage} />
          <Route path="/jobs/:id" component={JobDetailPage} />
          <Route path="/runs" component={RunsPage} />
          <Route path="/runs/:logId" component={RunDetailPage} />
          <Route path="/workflows" component={WorkflowsPage} />
          <Route path="/workflows/new" component={WorkflowNewPage} />
          <Route path="/workflows/runs" component={WorkflowRunsPage} />
          <Route path="/workflows/runs/:runId" component={WorkflowRunDetailPage} />
          <Route path="/workflows/:id" component={WorkflowDetailPage} />
          <Route path="/calendars" component={CalendarsPage} />
          <Route path="/calendars/:id" component={CalendarPage} />
          <Route path="/executors" component={ExecutorsPage} />
          <Route path="/alerts" component={AlertHistoryPage} />
          <Route path="/alerts/channels" component={AlertChannelsPage} />
          <Route path="/alerts/silences" component={AlertSilencesPage} />
          <Route path="/users" component={UsersPage} />
          <Route path="/tokens" component={TokensPage} />
          <Route path="/audit" component={AuditPage} />
          <Route>
            <Empty title="No page here">
              <p>
                <Link href="/">Go to the overview</Link>
              </p>
            </Empty>
          </Route>
        </Switch>
      </main>
    </>
  );
}

function NavLink({ href, children }: { href: string; children: ComponentChildren }) {
  const [location] = useLocation();
  const active = href === '/' ? location === '/' : location === href || location.startsWith(`${href}/`);
  return (
    <Link href={href} aria-current={active ? 'page' : undefined}>
      {children}
    </Link>
  );
}
