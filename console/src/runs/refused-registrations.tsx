import { Time } from '../components/common';
import { type RefusedInfo, refusalHints } from './executors';

/**
 * Executor requests tickring refused in the last day, per app name, address and reason: an executor
 * with a wrong token or app name retries every 30 s and is told no each time, and shows nowhere
 * else. With the fix for each reason under the table.
 */
const WRAP = { overflowWrap: 'anywhere' } as const;
/** Fixed columns that wrap their text: the table never gets wider than the page (a phone's too). */
const TABLE = { tableLayout: 'fixed', width: '100%', overflowWrap: 'anywhere' } as const;

export function RefusedRegistrations({ refused }: { refused: readonly RefusedInfo[] }) {
  if (refused.length === 0) return null;
  return (
    <section aria-labelledby="refused-heading">
      <h2 id="refused-heading" style={{ fontSize: '1.25rem', marginBottom: '0.25rem' }}>
        Refused executor requests
      </h2>
      {/* Outside the notice's box, the table keeps a phone's whole width (no sideways scroll). */}
      <p class="notice error small">
        These executors tried to register (or report results) in the last 24 hours and were refused; they keep
        retrying until they are fixed.
      </p>
      {/* No sideways scroll (a scrolled region would need keyboard focus): long names and addresses wrap. */}
      <table style={TABLE}>
        <colgroup>
          <col style={{ width: '40%' }} />
          <col style={{ width: '22%' }} />
          <col style={{ width: '12%' }} />
          <col style={{ width: '26%' }} />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">App name and address</th>
            <th scope="col">Reason</th>
            <th scope="col" class="num">
              Count
            </th>
            <th scope="col">Seen</th>
          </tr>
        </thead>
        <tbody>
          {refused.map((r) => (
            <tr key={`${r.appName}\n${r.address}\n${r.reason}`}>
              <td class="mono" style={WRAP}>
                <div>{r.appName || <span class="muted">(no app name)</span>}</div>
                <div class="small">{r.address || <span class="muted">(no address)</span>}</div>
              </td>
              <td title={r.detail}>
                <strong>{r.reason}</strong>
              </td>
              <td class="num">{r.count}</td>
              <td class="small">
                <div>
                  <span class="muted">first</span> <Time at={r.firstSeen} />
                </div>
                <div>
                  <span class="muted">last</span> <Time at={r.lastSeen} />
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul class="small">
        {refusalHints(refused).map(({ reason, hint }) => (
          <li key={reason}>
            <strong>{reason}</strong>: {hint}
          </li>
        ))}
      </ul>
    </section>
  );
}
