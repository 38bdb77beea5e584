export { ACTIVITY_FAILURE_MSG_MAX, ACTIVITY_MAX_RUNS, type Activity, activity } from './admin-activity.js';
export { type AdminDashboardDeps, DASHBOARD_DAYS, dashboard } from './admin-dashboard.js';
