import { api } from '../lib/api';
import { type Activity, type ActivityWindow, normalizeActivity } from './activity';

/** GET /v1/activity: the runs of a window per bucket, lateness, runs in progress and the last failures. */
export async function loadActivity(window: ActivityWindow, appName?: string): Promise<Activity> {
  const activity = await api().getActivity({ query: { window, ...(appName ? { appName } : {}) } });
  return normalizeActivity(activity);
}
