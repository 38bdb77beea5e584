import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ErrorNotice } from '../components/common';
import { api, describeError, type ShownError } from '../lib/api';
import { useDocumentVisible } from '../lib/hooks';
import { appendSlice, EMPTY_LOG, followAfterScroll, type LogState, nextPollDelay } from './log-follow';

/**
 * A run's log, read from its executor slice by slice (every second while the run writes it and the
 * tab is visible, until the server says it ended). The view follows new lines while it is scrolled to
 * the end; scrolling up pauses that, scrolling back down (or "Jump to end") resumes it.
 */
export function LiveLog({
  logId,
  onEnded,
}: {
  logId: number /** The log ended: the run has its result (read it again). */;
  onEnded?: () => void;
}) {
  const [log, setLog] = useState<LogState>(EMPTY_LOG);
  const [error, setError] = useState<ShownError | undefined>();
  const [attempt, setAttempt] = useState(0);
  const [following, setFollowing] = useState(true);
  const [reading, setReading] = useState(true);
  const visible = useDocumentVisible();
  const logRef = useRef(log);
  const box = useRef<HTMLDivElement>(null);
  const onEndedRef = useRef(onEnded);
  onEndedRef.current = onEnded;

  // Another run: start over.
  useEffect(() => {
    logRef.current = EMPTY_LOG;
    setLog(EMPTY_LOG);
    setError(undefined);
    setFollowing(true);
  }, [logId]);

  useEffect(() => {
    if (!visible || logRef.current.ended) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      setReading(true);
      try {
        const slice = await api().getRunOutput({
          path: { logId },
          query: { fromLineNum: logRef.current.nextLine },
        });
        if (cancelled) return;
        const next = appendSlice(logRef.current, slice);
        const justEnded = next.ended && !logRef.current.ended;
        logRef.current = next;
        setLog(next);
        if (justEnded) onEndedRef.current?.();
        setError(undefined);
        const delay = nextPollDelay(next, false, true);
        if (delay !== undefined) timer = setTimeout(read, delay);
      } catch (err) {
        if (!cancelled) setError(describeError(err));
      } finally {
        if (!cancelled) setReading(false);
      }
    };
    void read();
    return () => {
      cancelled = true;
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [logId, visible, attempt]);

  // New lines while following: keep the end in view.
  useLayoutEffect(() => {
    const el = box.current;
    if (el && following) el.scrollTop = el.scrollHeight;
  }, [log.lines, following]);

  const jumpToEnd = () => {
    const el = box.current;
    if (el) el.scrollTop = el.scrollHeight;
    setFollowing(true);
  };

  const nothingYet = log.lines.length === 0;
  return (
    <section aria-labelledby="log-heading">
      <header>
        <h2 id="log-heading">Log</h2>
        <p class="muted small" aria-live="polite">
          {log.ended ? (
            'End of log: the run has finished.'
          ) : error ? (
            'Not reading the log.'
          ) : !visible ? (
            'Paused while this tab is hidden.'
          ) : following ? (
            <>Following new lines.</>
          ) : (
            <>
              Paused: scrolled up.{' '}
              <button type="button" class="link-button" onClick={jumpToEnd}>
                Jump to end
              </button>
            </>
          )}
        </p>
      </header>
      {error && (
        <>
          <ErrorNotice
            error={error}
            title={error.status ? `Log not available (${error.status})` : 'Log not available'}
          />
          {error.status !== 409 && error.status !== 404 && (
            <p>
              <button
                type="button"
                class="secondary small"
                onClick={() => {
                  setError(undefined);
                  setAttempt((n) => n + 1);
                }}
              >
                Read the log again
              </button>
            </p>
          )}
        </>
      )}
      {log.dropped > 0 && (
        <p class="muted small">
          The first {log.dropped.toLocaleString()} lines are not shown (only the newest lines are kept here).
        </p>
      )}
      {(!nothingYet || !error) && (
        <div
          ref={box}
          class="log-view"
          role="log"
          aria-live="off"
          aria-label={`Log of run ${logId}`}
          aria-busy={nothingYet && reading && !log.ended}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
          tabIndex={0}
          onScroll={(e) => setFollowing(followAfterScroll(e.currentTarget))}
        >
          {nothingYet ? (
            <span class="muted">
              {log.ended ? 'The log is empty.' : reading ? 'Reading the log…' : 'No lines yet.'}
            </span>
          ) : (
            log.lines.join('\n')
          )}
        </div>
      )}
    </section>
  );
}
