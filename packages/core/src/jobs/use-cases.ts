export {
  type AdminJobsDeps,
  createJob,
  deleteJob,
  getJob,
  listJobs,
  previewSchedule,
  specOf,
  startJob,
  stopJob,
  updateJob,
} from './admin-jobs.js';
