// Generated from openapi.json by `npm run openapi` (tools/client-codegen.ts): do not edit.

export interface paths {
    "/v1/groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List executor groups
         * @description Every executor group; an AUTO group’s addressList lists its executors online now.
         *
         *     Access: any role reaching the group (lists only the groups the caller reaches).
         */
        get: operations["listGroups"];
        put?: never;
        /**
         * Create an executor group
         * @description AUTO groups take their executors from registration (XXL-JOB’s executors register under the AppName); MANUAL groups list them.
         *
         *     Access: the admin role.
         */
        post: operations["createGroup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/groups/{appName}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an executor group
         * @description One group; an AUTO group’s addressList lists its executors online now.
         *
         *     Access: any role reaching the group (the group in the path).
         */
        get: operations["getGroup"];
        /**
         * Change an executor group
         * @description Lays the given fields over the group. Switching a MANUAL group to AUTO without a list clears its list; its appName cannot change.
         *
         *     Access: the admin role.
         */
        put: operations["updateGroup"];
        post?: never;
        /**
         * Delete an executor group
         * @description Refused while jobs use the group, as XXL-JOB refuses it.
         *
         *     Access: the admin role.
         */
        delete: operations["deleteGroup"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/groups/{appName}/access-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Give a group its own executor access token
         * @description XXL-JOB 3.5’s per-group token: the group’s executors must then present it (XXL-JOB-ACCESS-TOKEN) and the dispatcher sends it to them, instead of the global token. The token is stored sealed and shown in this answer only.
         *
         *     Access: the admin role.
         */
        put: operations["setGroupAccessToken"];
        post?: never;
        /**
         * Drop a group’s own access token
         * @description The group’s executors and the dispatcher go back to the global access token.
         *
         *     Access: the admin role.
         */
        delete: operations["clearGroupAccessToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List jobs
         * @description Jobs page by page, optionally of one group or in one trigger status.
         *
         *     Access: any role reaching the group (lists only the groups the caller reaches).
         */
        get: operations["listJobs"];
        put?: never;
        /**
         * Create a job
         * @description A job with a new id. Created RUNNING, it is scheduled at once (its first fire is the first after now + 5 s). XXL-JOB’s field names jobDesc, jobGroup (an AppName) and childJobId (ids separated by commas) are taken too.
         *
         *     Access: admin, or operator of the group (the new job's or workflow's group).
         */
        post: operations["createJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a job
         * @description One job, with where it stands against its deadline and how long its runs are kept with an estimate of what that costs (retention).
         *
         *     Access: any role reaching the group (the job's group (and the group it moves to)).
         */
        get: operations["getJob"];
        /**
         * Change a job
         * @description Lays the given fields over the job and checks the result as a whole. A running job whose schedule changes is re-planned from now; other edits keep its next fire. A `version` in the body must be the job’s (409 otherwise).
         *
         *     Access: admin, or operator of the group (the job's group (and the group it moves to)).
         */
        put: operations["updateJob"];
        post?: never;
        /**
         * Delete a job
         * @description Fires already on their way find no job and are dropped; jobs naming it as a child skip it.
         *
         *     Access: admin, or operator of the group (the job's group (and the group it moves to)).
         */
        delete: operations["deleteJob"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start scheduling a job
         * @description Schedules the job from now (its first fire after now + 5 s); a running job is left as it is. A NONE schedule, or one that never fires again, cannot be started (400).
         *
         *     Access: admin, or operator of the group (the job's group (and the group it moves to)).
         */
        post: operations["startJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop scheduling a job
         * @description Takes effect from the next fire (fires already planned are dropped); a stopped job is left as it is.
         *
         *     Access: admin, or operator of the group (the job's group (and the group it moves to)).
         */
        post: operations["stopJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}/trigger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Fire a job once, now
         * @description XXL-JOB’s "execute once": a MANUAL fire, whatever the job’s schedule and status; the overrides apply to this run only.
         *
         *     Access: admin, or operator of the group (the job's group (and the group it moves to)).
         */
        post: operations["triggerJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/schedule/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Preview a schedule
         * @description The next fire times of a schedule, as a job with it would fire: within its bounds (startAt, endAt, maxRuns; `ends` says why it stops), each with its real time under jitterSeconds (give jobId), and the clock changes it meets (DST) with what the job does there: Quartz’s policy (a skipped local time does not fire that day; a repeated one fires once, at the second pass).
         *
         *     Access: any role reaching the group (no group involved).
         */
        get: operations["previewSchedule"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List runs
         * @description Runs (XXL-JOB’s trigger log), newest first, page by page; a page may come back short, with a cursor. Skipped runs (misfires) are listed under their job only; one skipped run may stand for a range of its job’s fires (skippedCount fires, from scheduledTime to skippedUntil).
         *
         *     Access: any role reaching the group (lists only the groups the caller reaches).
         */
        get: operations["listRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/logs/{logId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a run
         * @description One run.
         *
         *     Access: any role reaching the group (the run's group).
         */
        get: operations["getRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/logs/{logId}/output": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a run’s log
         * @description Lines of the run’s log from fromLineNum on, read from the executor that ran it (its /log); read on from toLineNum + 1 until isEnd.
         *
         *     Access: any role reaching the group (the run's group).
         */
        get: operations["getRunOutput"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/logs/{logId}/kill": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop a running run
         * @description Records the run as failed ("killed by user"; not retried, no alarm), then tells its executor (/kill).
         *
         *     Access: admin, or operator of the group (the run's group).
         */
        post: operations["killRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/executors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List executors
         * @description Each group’s executors with their last heartbeat (an AUTO group’s registrations, a MANUAL group’s addresses), and the executor requests refused in the last day (a wrong or missing token, an app name no group has, a body it cannot read), counted per app name, address and reason.
         *
         *     Access: any role reaching the group (lists only the groups the caller reaches).
         */
        get: operations["listExecutors"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Dashboard
         * @description Job and executor counts, and runs per day (running, success, fail) over the last days, with the fires recorded as skipped (misfires and overtaken fires, never sent).
         *
         *     Access: any role reaching the group (lists only the groups the caller reaches).
         */
        get: operations["dashboard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Recent activity
         * @description The runs of the last hour (or 6 or 24 hours) per bucket of their scheduled time: how many succeeded, failed and are running, how late they were dispatched (p50, p99), the runs in progress and the last failures; for a live chart. Read from the runs (as GET /v1/logs lists them, skipped runs not among them), at most 5,000, newest first: `truncated` says when there were more. Only the groups the caller sees.
         *
         *     Access: any role reaching the group (lists only the groups the caller reaches).
         */
        get: operations["getActivity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document
         * @description The OpenAPI 3.1 description of the admin API and the executor-facing XXL-JOB API; no token needed.
         *
         *     Access: open, no token.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}/occurrences": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a job’s upcoming occurrences
         * @description The schedule’s next occurrences (within its bounds) with their one-off exceptions: a skipped one without a fire time, a moved one at its new time beside its scheduled one; `changeable` false for those too close to change. `exceptions` lists every exception the job holds.
         *
         *     Access: any role reaching the group (the job's group (and the group it moves to)).
         */
        get: operations["listOccurrences"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}/occurrences/{time}/skip": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Skip one occurrence
         * @description The occurrence does not fire; the schedule goes on (no pause). An earlier skip or move of it is replaced. `{time}` is the occurrence’s scheduled time (ISO-8601 with a zone, or epoch ms); it must be a future fire of the job’s schedule (400 naming the nearest fires before and after otherwise). One planned already, or within 15 s (the tick plans that far ahead), answers 409: too late. A job holds at most 100 exceptions ahead. The answer is the job, with its `occurrenceExceptions`; the change is audited with who and why.
         *
         *     Access: admin, or operator of the group (the job's group (and the group it moves to)).
         */
        post: operations["skipOccurrence"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}/occurrences/{time}/move": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move one occurrence
         * @description The occurrence fires at `to` instead (not jittered), keeping its scheduled time as its identity: the run’s scheduledTime, which the handler sees, is the original one. `to` must be in the future and strictly between the fires before and after it (400 naming that window), so the job’s fires stay in order. `{time}` is the occurrence’s scheduled time (ISO-8601 with a zone, or epoch ms); it must be a future fire of the job’s schedule (400 naming the nearest fires before and after otherwise). One planned already, or within 15 s (the tick plans that far ahead), answers 409: too late. A job holds at most 100 exceptions ahead. The answer is the job, with its `occurrenceExceptions`; the change is audited with who and why.
         *
         *     Access: admin, or operator of the group (the job's group (and the group it moves to)).
         */
        post: operations["moveOccurrence"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}/occurrences/{time}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Take an occurrence’s skip or move back
         * @description The occurrence fires at its own time again. 400 when it has no exception; 409 when it (or its move’s time) is planned already or within 15 s.
         *
         *     Access: admin, or operator of the group (the job's group (and the group it moves to)).
         */
        delete: operations["restoreOccurrence"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}/ledger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every fire a job’s schedule owed in a window, and what became of it
         * @description The fires of [from, to) as the schedule made them (CRON, FIX_RATE or ONCE in its zone, within startAt / endAt, its calendars, one-off exceptions), each matched to its run by scheduled time: ran (logId, status), skipped (the rule), not owed (a calendar, an exception, the job stopped), not yet due, or unexplained. The schedule's history in the window (edits, stops, starts, pauses by the failure policy, a schedule's end) is rebuilt from the audit log; calendars are read as they are now. Runs of the same fate in a row are one entry with a count. At most 10000 fires (400 naming the limit).
         *
         *     Access: any role reaching the group (the job's group (and the group it moves to)).
         */
        get: operations["getJobLedger"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows/{id}/ledger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every fire a workflow’s schedule owed in a window, and the run each started
         * @description The fires of [from, to) as the workflow's schedule made them (its schedule job's: CRON, FIX_RATE or ONCE in its zone, within startAt / endAt, its calendars), each matched to the workflow run it started: ran (runId, its status; logId the schedule job's run), skipped (the rule; overlap when the overlap policy started no run), not owed (a calendar, an exception, the workflow stopped), not yet due, or unexplained (also: claimed, and no workflow run came of it). The schedule's history in the window is rebuilt from the workflow's audit records (its saves, starts and stops) and its schedule job's (a schedule's end); calendars are read as they are now. A workflow without a schedule owes no fire. At most 10000 fires (400 naming the limit).
         *
         *     Access: any role reaching the group (the workflow's group (and the group it moves to)).
         */
        get: operations["getWorkflowLedger"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List workflows
         * @description Workflows page by page, optionally of one group; only the groups the caller sees.
         *
         *     Access: any role reaching the group (lists only the groups the caller reaches).
         */
        get: operations["listWorkflows"];
        put?: never;
        /**
         * Create a workflow
         * @description A workflow with a new id, version 1; STOPPED unless the body says RUNNING. A schedule other than NONE gets a schedule job in the group (`starterJobId`), which the workflow manages. The body is checked as a whole and every problem is answered at once (400): fields, keys, upstream keys, each cycle named, templates, the group, and every node’s job (it must exist and be of the group).
         *
         *     Access: admin, or operator of the group (the new job's or workflow's group).
         */
        post: operations["createWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a workflow
         * @description One workflow: its current definition, schedule and runs in progress.
         *
         *     Access: any role reaching the group (the workflow's group (and the group it moves to)).
         */
        get: operations["getWorkflow"];
        /**
         * Change a workflow
         * @description Replaces the definition with the body’s: a new version (runs in progress keep theirs). A `version` in the body must be the workflow’s (409 otherwise); `triggerStatus` may come along (absent: unchanged). Checked as on create, every problem at once. Its schedule job follows the new schedule.
         *
         *     Access: admin, or operator of the group (the workflow's group (and the group it moves to)).
         */
        put: operations["updateWorkflow"];
        post?: never;
        /**
         * Delete a workflow
         * @description Deletes the workflow and its schedule job. Refused while a run of it is running or waiting: cancel them first. Its ended runs stay readable until they expire.
         *
         *     Access: admin, or operator of the group (the workflow's group (and the group it moves to)).
         */
        delete: operations["deleteWorkflow"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows/{id}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a workflow’s schedule
         * @description Its schedule fires from now on (the first fire after now + 5 s); a running one is left as it is. A NONE schedule, or one that never fires again, cannot be started (400).
         *
         *     Access: admin, or operator of the group (the workflow's group (and the group it moves to)).
         */
        post: operations["startWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows/{id}/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop a workflow’s schedule
         * @description Its schedule fires no more (fires already planned are dropped); runs in progress go on, and it can still be triggered.
         *
         *     Access: admin, or operator of the group (the workflow's group (and the group it moves to)).
         */
        post: operations["stopWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows/{id}/trigger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a workflow once, now
         * @description Starts a run of the current version with the body’s input, whatever the schedule’s status, as the overlap policy allows: started (RUNNING, its root nodes fired), or QUEUED (BUFFER_ONE, while another runs); under SKIP while another runs, or BUFFER_ONE with one waiting already, it is not started (409, naming the policy).
         *
         *     Access: admin, or operator of the group (the workflow's group (and the group it moves to)).
         */
        post: operations["triggerWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflow-runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List workflow runs
         * @description Runs of workflows, newest first, page by page, optionally of one workflow or group or in one status; only the groups the caller sees. Each run with its nodes counted by status (GET a run for its nodes). A page may come back short, with a cursor.
         *
         *     Access: any role reaching the group (lists only the groups the caller reaches).
         */
        get: operations["listWorkflowRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflow-runs/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a workflow run
         * @description One run with every node of its definition version, in definition order: status, attempt, result, and the job runs of its current attempt (GET /v1/logs/{logId} for each).
         *
         *     Access: any role reaching the group (the workflow run's group).
         */
        get: operations["getWorkflowRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflow-runs/{runId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a failed or cancelled workflow run
         * @description Runs again, as a new attempt each, the nodes whose failure was not handled, the cancelled ones and those skipped because of them; succeeded nodes keep their results and do not run again. The run is RUNNING again.
         *
         *     Access: admin, or operator of the group (the workflow run's group).
         */
        post: operations["retryWorkflowRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflow-runs/{runId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a workflow run
         * @description Nothing more of the run is fired: its pending nodes are CANCELLED and the job runs of its running nodes are killed (their outcomes are still recorded when they come); a QUEUED run is dropped. The run is CANCELLED at once; it can be resumed (retry) once no node runs.
         *
         *     Access: admin, or operator of the group (the workflow run's group).
         */
        post: operations["cancelWorkflowRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/calendars": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List calendars
         * @description Every calendar, by id, page by page. Calendars belong to no group: every signed-in role reads them.
         *
         *     Access: any valid token.
         */
        get: operations["listCalendars"];
        put?: never;
        /**
         * Create a calendar
         * @description A calendar under the body’s id, version 1. Checked as a whole, every problem answered at once (400): dates that are not real dates or out of range, a range ending before it starts or longer than a year, overlapping exclusions, a date included twice, an unknown zone or weekday, the sizes.
         *
         *     Access: admin, or operator of the group (no group involved).
         */
        post: operations["createCalendar"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/calendars/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import a calendar from iCalendar (.ics)
         * @description A new calendar from an iCalendar text, sent as JSON (`{id, ics, ...}`) or as the text itself (`Content-Type: text/calendar`, the id in the query). Each all-day VEVENT is an excluded date or range labelled with its SUMMARY; one with CATEGORIES:WORKDAY is a make-up day; a recurring one (a yearly holiday’s RRULE) is expanded into dates from January 1 of last year to December 31 5 years ahead (import again to move the horizon on). Timed events and exceptions of a series are left out, overlapping events merged; `notes` says which. At most 1048576 bytes and 2000 events; a text that cannot be read, or a calendar that would break a limit, is refused (400) and nothing is stored.
         *
         *     Access: admin, or operator of the group (no group involved).
         */
        post: operations["importCalendar"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/calendars/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a calendar
         * @description One calendar; its version is also the answer’s ETag (`"3"`), for If-Match.
         *
         *     Access: any valid token.
         */
        get: operations["getCalendar"];
        /**
         * Change a calendar
         * @description Replaces the calendar with the body’s, as a new version. The version read must be named, as `expectedVersion` in the body or as `If-Match: "<version>"` (the ETag a read answers): a calendar changed meanwhile is not overwritten (409). Checked as on create.
         *
         *     Access: admin, or operator of the group (no group involved).
         */
        put: operations["updateCalendar"];
        post?: never;
        /**
         * Delete a calendar
         * @description Deletes the calendar, at the version named (`expectedVersion` or If-Match) if one is. No schedule refers to calendars yet.
         *
         *     Access: admin, or operator of the group (no group involved).
         */
        delete: operations["deleteCalendar"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/calendars/{id}/days": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The days of a calendar
         * @description Every day from `from` to `to` (at most a leap year’s), allowed or not and why: WORKDAY, WEEKEND, HOLIDAY (with its label) or MAKEUP_DAY. A make-up day wins over an exclusion, an exclusion over the weekly pattern.
         *
         *     Access: any valid token.
         */
        get: operations["listCalendarDays"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/calendars/{id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export a calendar as iCalendar (.ics)
         * @description The calendar as an iCalendar text: each exclusion an all-day event (CATEGORIES:HOLIDAY), each make-up day one with CATEGORIES:WORKDAY, the weekly pattern as X-TICKRING-WORKING-DAYS; an import reads it back as it was.
         *
         *     Access: any valid token.
         */
        get: operations["exportCalendar"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}/backfill/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * How many fires a backfill of a range makes
         * @description Counts the fires the job’s schedule would have made in [from, to) (within its startAt / endAt), without starting anything. Every problem at once: from or to not an instant, to not after from or in the future, a parallelism or rate out of range, a job whose schedule is not CRON or FIX_RATE (a workflow’s starter job: backfill the workflow).
         *
         *     Access: any role reaching the group (the job's group (and the group it moves to)).
         */
        post: operations["previewBackfill"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}/backfill": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run the fires of a past range
         * @description Runs the fires the job’s schedule (CRON or FIX_RATE) would have made in [from, to), within its startAt / endAt, each as a BACKFILL run with its own scheduled time (the handler’s logDateTime), oldest first, at most `parallelism` at once and `ratePerMinute` a minute. The live schedule is not touched: a backfill fire is never a misfire, nor overtakes the live fires. The first fires start before the answer; the monitors move the rest on (about once a second while one runs). A job has at most one active backfill.
         *
         *     Access: admin, or operator of the group (the job's group (and the group it moves to)).
         */
        post: operations["startBackfill"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}/backfills": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A job’s backfills
         * @description Newest first, page by page.
         *
         *     Access: any role reaching the group (the job's group (and the group it moves to)).
         */
        get: operations["listJobBackfills"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/backfills/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A backfill and its progress
         * @description Its counts (total, dispatched, succeeded, failed, running), state, failed fires and times.
         *
         *     Access: any role reaching the group (the backfill's job's group).
         */
        get: operations["getBackfill"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/backfills/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a backfill
         * @description No fire starts after it; the fires running finish and are counted, then `endedAt` is set.
         *
         *     Access: admin, or operator of the group (the backfill's job's group).
         */
        post: operations["cancelBackfill"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows/{id}/backfill/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * How many workflow runs a backfill of a range starts
         * @description Counts the fires the workflow’s schedule would have made in [from, to) (within its startAt / endAt and its calendars), without starting anything.
         *
         *     Access: any role reaching the group (the workflow's group (and the group it moves to)).
         */
        post: operations["previewWorkflowBackfill"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows/{id}/backfill": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start the workflow runs of a past range
         * @description Starts a workflow run for each fire the workflow’s schedule (CRON or FIX_RATE) would have made in [from, to) (within its startAt / endAt and its calendars), oldest first: trigger BACKFILL, its scheduled time in the run’s `trigger.scheduledTime` and in its input (`{"scheduledTime": "…"}`, so nodes can use `{{input.scheduledTime}}`). At most `parallelism` of its runs run at once (a fire counts until its workflow run ends) and `ratePerMinute` start a minute; the overlap policy does not hold them back, but they count as running runs for the live schedule’s. Progress counts the workflow runs’ results. A workflow has at most one active backfill.
         *
         *     Access: admin, or operator of the group (the workflow's group (and the group it moves to)).
         */
        post: operations["startWorkflowBackfill"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows/{id}/backfills": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A workflow’s backfills
         * @description Newest first, page by page (none for a workflow without a schedule).
         *
         *     Access: any role reaching the group (the workflow's group (and the group it moves to)).
         */
        get: operations["listWorkflowBackfills"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/alert-channels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List alert channels
         * @description Every channel, by id; a webhook’s secret only as `signed`.
         *
         *     Access: the admin role.
         */
        get: operations["listAlertChannels"];
        put?: never;
        /**
         * Create an alert channel
         * @description A webhook (optionally templated and HMAC-signed), a Slack-compatible incoming webhook, or email through the alarm topic. Every problem is answered at once (400). A webhook’s secret is sealed and never shown again.
         *
         *     Access: the admin role.
         */
        post: operations["createAlertChannel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/alert-channels/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete an alert channel
         * @description Refused (409) while a job or a group names it in its alertChannels, naming them (a check that reads every job and group).
         *
         *     Access: the admin role.
         */
        delete: operations["deleteAlertChannel"];
        options?: never;
        head?: never;
        /**
         * Change an alert channel
         * @description Lays the fields given over the channel and checks the result as a whole, every problem at once (400). Its secret is kept unless a new one is given (sealed, never answered) or null (no longer signed); its kind cannot change. Alerts not yet delivered go out as the channel now is.
         *
         *     Access: the admin role.
         */
        patch: operations["updateAlertChannel"];
        trace?: never;
    };
    "/v1/alert-channels/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test message through an alert channel
         * @description One message at once, made and sent by the delivery code itself (the body template rendered over a test alert — `alert.kind` and `alert.message` "test", job 0 —, signed with the secret, as Slack JSON, or published to the alarm topic), and what happened: delivered, or the receiver’s HTTP status and the error (still a 200: the test ran). Not retried; no alert is recorded.
         *
         *     Access: the admin role.
         */
        post: operations["testAlertChannel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/alert-silences": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List silences
         * @description Every silence, past ones included until deleted.
         *
         *     Access: the admin role.
         */
        get: operations["listAlertSilences"];
        put?: never;
        /**
         * Silence alerts for a while
         * @description Alerts matching it between from and to are recorded (state `silenced`) and sent nowhere: not to channels, not on the job’s own alarm path (alarmEmail / alarmWebhook). Every problem is answered at once (400).
         *
         *     Access: the admin role.
         */
        post: operations["createAlertSilence"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/alert-silences/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * End a silence
         * @description Deletes it: alerts from now on are sent.
         *
         *     Access: the admin role.
         */
        delete: operations["deleteAlertSilence"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The alert history
         * @description Alerts newest first: one per (job, kind) condition and 10-minute window with its count, sent / silenced / unrouted, each delivery with its attempts, and a failed workflow run’s workflow. Filtered by job, kind, state and time; a page may hold fewer alerts than `limit` (even none) while `nextCursor` says more may follow.
         *
         *     Access: the admin role.
         */
        get: operations["listAlerts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in
         * @description A new session for a user: its token (shown in this answer only) is sent as `Authorization: Bearer <token>`. A session ends when unused for the idle time (30 minutes by default; each use moves it on) and at the latest after the maximum time (12 hours by default), and when the user’s password, grant or disabled state changes. An unknown username, a wrong password and a disabled user get the same 401.
         *
         *     Access: open, no token.
         */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sign-in-options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * How to sign in
         * @description Whether signing in with a username and password can work here (some user is not disabled), for a sign-in page to offer that form or the token form. Says nothing else about the users (no names, no counts).
         *
         *     Access: open, no token.
         */
        get: operations["getSignInOptions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/current": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Sign out
         * @description Ends the session whose token the request carries. An API token is revoked instead (DELETE /v1/tokens/{id}); the bootstrap token is rotated (400 for either).
         *
         *     Access: any valid token.
         */
        delete: operations["logout"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who am I
         * @description The caller (a signed-in user, an API token or the bootstrap token), their role and groups, and what they may do, for a console to offer only what works.
         *
         *     Access: any valid token.
         */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/me/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change my password
         * @description A signed-in user sets a new password, giving the current one. Their other sessions end; this one goes on. A wrong current password is a 400 and counts as a failed sign-in. API tokens and the bootstrap token have no password (400).
         *
         *     Access: any valid token.
         */
        put: operations["changeOwnPassword"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List users
         * @description Every user, by username (never a password or its hash).
         *
         *     Access: the admin role.
         */
        get: operations["listUsers"];
        put?: never;
        /**
         * Create a user
         * @description A person who signs in with a username and password, with a role over executor groups. There is no default user: the first one is created with the bootstrap admin token. Every problem (username, grant, password policy) is reported at once.
         *
         *     Access: the admin role.
         */
        post: operations["createUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/{username}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a user
         * @description One user (never the password or its hash).
         *
         *     Access: the admin role.
         */
        get: operations["getUser"];
        /**
         * Change a user
         * @description Lays the given fields over the user. A new password, a changed role, groups or glue, or disabling ends the user’s sessions (the caller’s own goes on). Nobody disables themselves (409).
         *
         *     Access: the admin role.
         */
        put: operations["updateUser"];
        post?: never;
        /**
         * Delete a user
         * @description The user’s sessions end with them. Nobody deletes themselves (409).
         *
         *     Access: the admin role.
         */
        delete: operations["deleteUser"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API tokens
         * @description Every API token, newest first, without secrets: its grant, status, creator, expiry, revocation and last use. Revoked and expired tokens stay listed for 30 days.
         *
         *     Access: the admin role.
         */
        get: operations["listApiTokens"];
        put?: never;
        /**
         * Create an API token
         * @description A token for automation (CI, scripts), sent as `Authorization: Bearer <token>`: a role over executor groups no wider than the creator’s, and an expiry at most a year ahead. The token is shown in this answer only, and kept only as a hash.
         *
         *     Access: the admin role.
         */
        post: operations["createApiToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API token
         * @description The token stops working at once (revoking it again changes nothing); its name is free for a new token. It stays listed, revoked, for 30 days.
         *
         *     Access: the admin role.
         */
        delete: operations["revokeApiToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tokens/bootstrap/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the bootstrap admin token
         * @description Replaces the deployment’s bootstrap admin token (the one configured, `TICKRING_ADMIN_TOKEN` or its secret) by a new random one, shown in this answer only and kept only as a hash. From now on only the new one works as the bootstrap token; rotate again to replace it.
         *
         *     Access: the admin role.
         */
        post: operations["rotateBootstrapToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the audit log
         * @description Every accepted change through the admin API (users, tokens, groups, jobs, start, stop, trigger, kill), newest first, page by page: when, who and from where, what was done to which target, and the changed fields before and after (secrets redacted). An admin sees every record; any other caller only the records of the groups it reaches (their jobs, runs and the groups themselves), never those of users and tokens. Records are kept for the audit retention (365 days by default). A page may come back short, with a cursor.
         *
         *     Access: any role reaching the group (lists only the groups the caller reaches).
         */
        get: operations["listAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/registry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register an executor (heartbeat)
         * @description An executor says it is alive at its address; an AUTO group lists it while it keeps doing so (90 s).
         */
        post: operations["executorRegistry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/registryRemove": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Remove an executor’s registration
         * @description An executor stopping says goodbye: it leaves its AUTO group at once.
         */
        post: operations["executorRegistryRemove"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Report results of runs
         * @description Executors report what their runs did. The first result of a run stands (a repeat is ignored); results for unknown logIds are ignored and named in msg.
         */
        post: operations["executorCallback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description Every error answer of the admin API. */
        Error: {
            /**
             * @description The kind of error: ValidationError (400), UnauthorizedError (401), ForbiddenError (403), NotFoundError (404), MethodNotAllowedError (405), ConflictError (409), TooManyRequestsError (429, with Retry-After), ExecutorCallError (502), InternalError (500), StoreUnavailableError (503, with Retry-After: the single-box database cannot take writes), ServiceUnavailable (503 while the stack starts or stops).
             * @example NotFoundError
             */
            error: string;
            /**
             * @description What is wrong, for a person.
             * @example job 7 does not exist
             */
            message: string;
            /**
             * @description ValidationError: the first problem’s field.
             * @example limit
             */
            field?: string;
            /** @description ValidationError: every problem found. */
            problems?: components["schemas"]["Problem"][];
        };
        /** @description One problem of a request. */
        Problem: {
            /**
             * @description The path or query parameter, or the top-level body field, the problem is about (`body` for the body as a whole).
             * @example scheduleType
             */
            field?: string;
            /**
             * @description What is wrong: names the field, what is expected and what was given.
             * @example scheduleType must be one of NONE, CRON, FIX_RATE, ONCE; got "HOURLY"
             */
            message: string;
        };
        /** @description A request that is not valid (400). */
        ValidationError: {
            /**
             * @description Always ValidationError.
             * @example ValidationError
             * @enum {string}
             */
            error: "ValidationError";
            /**
             * @description Every problem’s message, joined by "; ".
             * @example limit must be an integer between 1 and 100; got "ten"; status must be one of running, success, fail, skipped; got "done"
             */
            message: string;
            /**
             * @description The first problem’s field.
             * @example limit
             */
            field?: string;
            /**
             * @description Every problem found: all structural ones (types, required fields, value lists, lengths, unknown fields) of the path, query and body together; or the one a later check (a cron that does not parse, a group that does not exist, ...) found.
             * @example [
             *       {
             *         "field": "limit",
             *         "message": "limit must be an integer between 1 and 100; got \"ten\""
             *       }
             *     ]
             */
            problems: components["schemas"]["Problem"][];
        };
        /** @description Every executor group. */
        GroupList: {
            /** @description Every group. */
            items: components["schemas"]["Group"][];
        };
        /** @description An executor group (XXL-JOB’s xxl_job_group). */
        Group: {
            /**
             * @description The executors’ AppName: 4-64 letters, digits, '_', '.' and '-'; cannot be changed.
             * @example my-app
             */
            appName: string;
            /**
             * @description A name for people; not blank.
             * @example My application
             */
            title: string;
            /**
             * @description AUTO: the executors that register under the AppName; MANUAL: the addressList given.
             * @example AUTO
             * @enum {string}
             */
            addressType: "AUTO" | "MANUAL";
            /**
             * @description MANUAL: the executors’ addresses (http(s) URLs or lambda:<function>; http(s) ones end with /). AUTO: the executors online now, from their registrations (read-only).
             * @example [
             *       "http://10.0.0.5:9999/",
             *       "lambda:executor-runner"
             *     ]
             */
            addressList: string[];
            /**
             * @description Alert channels (ids) the alarms of the group’s jobs go to when a job names none of its own (a job’s null alertChannels); each must exist. Empty: none.
             * @example [
             *       "5b1c2f7e-8d8e-4b0c-9d55-2f0a6f1f3c11"
             *     ]
             */
            alertChannels: string[];
            /**
             * @description When the group got its own access token (ISO-8601 UTC); null: its executors use the global token.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            accessTokenSetAt: string | null;
            /**
             * Format: date-time
             * @description When the group was created, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description When the group last changed, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            updatedAt: string;
        };
        /** @description A new executor group. Unknown fields are refused. */
        GroupCreate: {
            /**
             * @description The executors’ AppName: 4-64 letters, digits, '_', '.' and '-'; cannot be changed.
             * @example my-app
             */
            appName: string;
            /**
             * @description A name for people; not blank.
             * @example My application
             */
            title: string;
            /**
             * @description AUTO: the executors that register under the AppName; MANUAL: the addressList given.
             * @example AUTO
             * @enum {string}
             */
            addressType: "AUTO" | "MANUAL";
            /**
             * @description MANUAL: at least one executor address (http(s) URLs or lambda:<function>), as an array or separated by commas. AUTO: empty, or the list as read (it is ignored).
             * @example [
             *       "http://10.0.0.5:9999"
             *     ]
             * @example http://10.0.0.5:9999,http://10.0.0.6:9999
             */
            addressList?: string[] | string;
            /**
             * @description Alert channels (ids) the alarms of the group’s jobs go to when a job names none of its own; each must exist. null or []: none.
             * @example [
             *       "5b1c2f7e-8d8e-4b0c-9d55-2f0a6f1f3c11"
             *     ]
             * @example null
             */
            alertChannels?: string[] | null;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example 2030-01-01T02:00:00.000Z
             */
            readonly accessTokenSetAt?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example 2030-01-01T02:00:00.000Z
             */
            readonly createdAt?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example 2030-01-01T02:00:00.000Z
             */
            readonly updatedAt?: unknown;
        };
        /** @description The fields to change (a group read with GET may be sent back whole: read-only fields, and an AUTO group’s addressList, are ignored). appName cannot change. */
        GroupUpdate: {
            /**
             * @description The executors’ AppName: 4-64 letters, digits, '_', '.' and '-'; cannot be changed.
             * @example my-app
             */
            appName?: string;
            /**
             * @description A name for people; not blank.
             * @example My application
             */
            title?: string;
            /**
             * @description AUTO: the executors that register under the AppName; MANUAL: the addressList given.
             * @example AUTO
             * @enum {string}
             */
            addressType?: "AUTO" | "MANUAL";
            /**
             * @description MANUAL: at least one executor address (http(s) URLs or lambda:<function>), as an array or separated by commas. AUTO: empty, or the list as read (it is ignored).
             * @example [
             *       "http://10.0.0.5:9999"
             *     ]
             * @example http://10.0.0.5:9999,http://10.0.0.6:9999
             */
            addressList?: string[] | string;
            /**
             * @description Alert channels (ids) the alarms of the group’s jobs go to when a job names none of its own; each must exist. null or []: none.
             * @example [
             *       "5b1c2f7e-8d8e-4b0c-9d55-2f0a6f1f3c11"
             *     ]
             * @example null
             */
            alertChannels?: string[] | null;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example 2030-01-01T02:00:00.000Z
             */
            readonly accessTokenSetAt?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example 2030-01-01T02:00:00.000Z
             */
            readonly createdAt?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example 2030-01-01T02:00:00.000Z
             */
            readonly updatedAt?: unknown;
        };
        /** @description A group’s own access token, as it was set. */
        GroupToken: {
            /**
             * @description The group.
             * @example my-app
             */
            appName: string;
            /**
             * @description The group’s own token: shown in this answer only.
             * @example q9V2k1bY0cXh3Lr8TQm7WnJpZsE4aGfD6uHoRtKyNiB
             */
            accessToken: string;
            /**
             * Format: date-time
             * @description When it was set, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            accessTokenSetAt: string;
            /**
             * @description What to do with it.
             * @example This token is shown once. Configure it on the group’s executors (XXL-JOB-ACCESS-TOKEN).
             */
            note: string;
        };
        /** @description {} (or no body) for a new random token, or the token the group’s executors are configured with. */
        GroupTokenRequest: {
            /**
             * @description The token to use (8-255 printable ASCII characters, no spaces); absent: a new random one.
             * @example s3cret-token-of-my-app
             */
            accessToken?: string;
        };
        /** @description A page of jobs. */
        JobPage: {
            /** @description Jobs in id order. */
            items: components["schemas"]["Job"][];
            /**
             * @description Pass it as `cursor` for the next page; null at the end. A page may come back short (even empty) with a cursor.
             * @example eyJpZCI6NDJ9
             * @example null
             */
            nextCursor: string | null;
        };
        /** @description A job, with XXL-JOB’s field names. */
        Job: {
            /**
             * @description The job’s id.
             * @example 7
             */
            id: number;
            /**
             * @description The executor group (its AppName) whose executors run the job; the group must exist.
             * @example my-app
             */
            appName: string;
            /**
             * @description What the job does (XXL-JOB’s jobDesc); not blank.
             * @example Nightly report
             */
            name: string;
            /**
             * @description Who owns the job; not blank.
             * @example ops
             */
            author: string;
            /**
             * @description E-mail addresses to alarm when a run fails for good, separated by commas; empty for none.
             * @example ops@example.com,oncall@example.com
             */
            alarmEmail: string;
            /**
             * @description An http(s) URL the failed run is POSTed to when its last retry fails; empty for none.
             * @example https://hooks.example.com/tickring
             */
            alarmWebhook: string;
            /**
             * @description NONE: runs only when triggered (manually, by the API, as a child); CRON: scheduleConf is a Quartz cron; FIX_RATE: scheduleConf is seconds between fires; ONCE: scheduleConf is an ISO-8601 instant. Required when scheduleConf is given.
             * @example CRON
             * @enum {string}
             */
            scheduleType: "NONE" | "CRON" | "FIX_RATE" | "ONCE";
            /**
             * @description The schedule, read by scheduleType: a Quartz cron (`0 0 2 * * ?`), whole seconds >= 1 (`30`), or an instant with a zone (`2030-06-01T12:00:00Z`); empty for NONE.
             * @example 0 0 2 * * ?
             */
            scheduleConf: string;
            /**
             * @description The IANA time zone a cron is read in.
             * @example Europe/Berlin
             */
            timeZone: string;
            /**
             * @description A scheduled fire that comes more than 5 s late: DO_NOTHING records it as a skipped run; FIRE_ONCE_NOW runs one catch-up.
             * @example DO_NOTHING
             * @enum {string}
             */
            misfireStrategy: "DO_NOTHING" | "FIRE_ONCE_NOW";
            /**
             * @description No scheduled fire before this instant (ISO-8601 with Z or an offset); null or absent: none. A cron fires at its first time from here; a FIX_RATE schedule counts its rate from here.
             * @example 2030-01-01T00:00:00Z
             */
            startAt: string | null;
            /**
             * @description No scheduled fire after this instant (a fire’s scheduled time, before its jitter); must be after startAt. When it has passed, the job stops itself (scheduleEnded.reason endAt). null or absent: none.
             * @example 2030-12-31T23:59:59Z
             */
            endAt: string | null;
            /**
             * @description At most this many scheduled fires, counted from when the limit is set (a fire counts when the scheduler plans it; manual, API, parent and retry runs do not count); then the job stops itself (scheduleEnded.reason maxRuns). Raising it keeps the count (runsRemaining grows); null removes the limit and its count.
             * @example 3
             */
            maxRuns: number | null;
            /**
             * @description Delays each scheduled fire by an offset in [0, jitterSeconds) s, the same for every copy of the fire (a hash of the job and its scheduled time); the fire keeps its scheduled time as its identity. At most 3600, and less than the schedule’s smallest interval between fires. 0: none.
             * @example 30
             */
            jitterSeconds: number;
            /**
             * @description Pause the job after too many final failures; null or absent: never (a failed run alarms as before).
             * @example {
             *       "pauseAfter": {
             *         "failures": 3,
             *         "ofLast": 5
             *       },
             *       "resumeAfterSeconds": 600
             *     }
             */
            failurePolicy: components["schemas"]["FailurePolicy"] | null;
            /**
             * @description Must have succeeded by a local time each day; null or absent: none.
             * @example {
             *       "time": "06:00",
             *       "timeZone": "Europe/Berlin"
             *     }
             */
            deadline: components["schemas"]["Deadline"] | null;
            /**
             * @description The calendars the schedule follows, by id (empty lists: none). A calendar marks each local date of its zone as a working day or not (weekly pattern, minus its excluded dates and ranges, plus its make-up days). only: a fire is made only on a date that is a working day of every calendar listed (a make-up Saturday fires, a holiday Monday does not). exclude: no fire on a date a calendar listed excludes (its holidays and ranges), whatever its weekly pattern and make-up days say. A fire’s date is taken in each calendar’s own zone; with both lists a fire must pass both. Fires removed are not made (they do not count towards maxRuns); triggerNextTime is the next one allowed, and a schedule with none in the next 5 years stops itself (scheduleEnded.reason calendar). A calendar change re-plans every RUNNING job that names it from the save: its next fire is the first allowed after now + 5 s, and the fires already planned under the old calendar are dropped. Each calendar must exist; one a job names cannot be deleted.
             * @example {
             *       "only": [
             *         "cn-workdays"
             *       ],
             *       "exclude": []
             *     }
             */
            calendars: {
                /**
                 * @description Fires only on working days of every one of these.
                 * @example [
                 *       "cn-workdays"
                 *     ]
                 */
                only: string[];
                /**
                 * @description Never fires on a date one of these excludes.
                 * @example [
                 *       "cn-holidays"
                 *     ]
                 */
                exclude: string[];
            };
            /**
             * @description Days the job's run records (and the results and messages they hold) are kept after their trigger, 1 to 3650; null or absent: the deployment's TICKRING_LOG_RETENTION_DAYS (30 by default). Applies to runs claimed from the change on; a run keeps the expiry it was recorded with.
             * @example 90
             */
            logRetentionDays: number | null;
            /**
             * @description The share of successful runs kept for the whole retention, greater than 0 and at most 1; the others (sampled-out successes, chosen by a hash of the logId, so the same runs every time) are kept 1 day after their trigger, so the recent lists and the dashboard still see them. Failed, skipped and running runs are always kept for the whole retention. null, absent or 1: every success is kept.
             * @example 0.1
             */
            keepSuccessfulRuns: number | null;
            /**
             * @description How a run picks its executor among the group’s (XXL-JOB’s strategies).
             * @example ROUND
             * @enum {string}
             */
            executorRouteStrategy: "FIRST" | "LAST" | "ROUND" | "RANDOM" | "CONSISTENT_HASH" | "LEAST_FREQUENTLY_USED" | "LEAST_RECENTLY_USED" | "FAILOVER" | "BUSYOVER" | "SHARDING_BROADCAST";
            /**
             * @description The handler the executor runs; required when glueType is BEAN.
             * @example demoJobHandler
             */
            executorHandler: string;
            /**
             * @description The parameter the handler gets.
             * @example region=eu
             */
            executorParam: string;
            /**
             * @description What an executor does with a run while the job’s previous one is still running.
             * @example SERIAL_EXECUTION
             * @enum {string}
             */
            executorBlockStrategy: "SERIAL_EXECUTION" | "DISCARD_LATER" | "COVER_EARLY";
            /**
             * @description Seconds a run may take before the executor stops it; 0 for no timeout.
             * @example 0
             */
            executorTimeout: number;
            /**
             * @description How often a failed run is tried again.
             * @example 2
             */
            executorFailRetryCount: number;
            /**
             * @description Seconds before the first retry; doubled for each further one.
             * @example 10
             */
            retryBackoffSeconds: number;
            /**
             * @description BEAN: a handler registered in the executor; GLUE_*: glueSource is the code to run.
             * @example BEAN
             * @enum {string}
             */
            glueType: "BEAN" | "GLUE_GROOVY" | "GLUE_SHELL" | "GLUE_PYTHON" | "GLUE_PYTHON2" | "GLUE_NODEJS" | "GLUE_POWERSHELL" | "GLUE_PHP";
            /**
             * @description The script of a GLUE job.
             * @example echo "hello"
             */
            glueSource: string;
            /**
             * @description Alert channels (ids) the job’s alarms go to, besides alarmEmail / alarmWebhook; null: its group’s default; []: none.
             * @example [
             *       "5b1c2f7e-8d8e-4b0c-9d55-2f0a6f1f3c11"
             *     ]
             */
            alertChannels?: string[] | null;
            /**
             * @description Jobs triggered when a run of this one succeeds; each must exist, no cycles, not the job itself.
             * @example [
             *       8,
             *       9
             *     ]
             */
            childJobIds: number[];
            /**
             * @description RUNNING: scheduled; STOPPED: fires only when triggered.
             * @example STOPPED
             * @enum {string}
             */
            triggerStatus: "RUNNING" | "STOPPED";
            /**
             * @description The next scheduled fire while RUNNING, ISO-8601 UTC; null when stopped.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            triggerNextTime: string | null;
            /**
             * @description The last fire handed to the ring, ISO-8601 UTC; null before the first.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            triggerLastTime: string | null;
            /**
             * @description Scheduled fires left under maxRuns; null without a limit.
             * @example 2
             */
            runsRemaining: number | null;
            /**
             * @description Set when the schedule stopped itself (the job is STOPPED): why and when; cleared when the job is started again. null otherwise.
             * @example null
             * @example {
             *       "reason": "maxRuns",
             *       "at": "2030-01-03T02:00:00.000Z"
             *     }
             */
            scheduleEnded: components["schemas"]["ScheduleEnded"] | null;
            /**
             * @description Set while the job is stopped by its failure policy: when, the failures that met the rule, when it starts again; cleared when it is started (by a user, or by the resume). null otherwise.
             * @example null
             */
            pausedBy: components["schemas"]["PausedBy"] | null;
            /**
             * @description GET /v1/jobs/{id} only: where the job stands against its deadline (null without one). Not in lists.
             * @example null
             */
            deadlineStatus?: components["schemas"]["DeadlineStatus"] | null;
            retention?: components["schemas"]["JobRetention"];
            /**
             * @description One-off exceptions of the schedule: occurrences skipped or moved (changed through /v1/jobs/{id}/occurrences), by time; [] when none.
             * @example []
             */
            occurrenceExceptions: components["schemas"]["OccurrenceException"][];
            /**
             * Format: date-time
             * @description When the glue (type or source) last changed, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            glueUpdatetime: string;
            /**
             * @description Moves on with every change of the schedule or the trigger status.
             * @example 1
             */
            scheduleRevision: number;
            /**
             * @description Moves on with every write; send it back in a PUT to refuse (409) a lost update.
             * @example 1
             */
            version: number;
            /**
             * @description Set on the job whose schedule starts a workflow (its schedule job, managed by the workflow): the job routes refuse to change, start, stop or delete it (409); change the workflow instead. null for any other job.
             * @example null
             * @example 3
             */
            workflowId: number | null;
            /**
             * Format: date-time
             * @description When the job was created, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description When the job last changed, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            updatedAt: string;
        };
        /** @description Pause the job (triggerStatus STOPPED, pausedBy set, an alarm sent to its alarm channels) when the rule is met; a success right after a final failure sends a recovery notice. */
        FailurePolicy: {
            /**
             * @description The rule: {consecutive: N} or {failures: N, ofLast: M}. A run counts when its outcome is final: a success, or a failure with its retries used up (a failure followed by a retry does not count; the retry’s outcome does). Killed, skipped and workflow-node runs do not count.
             * @example {
             *       "consecutive": 3
             *     }
             * @example {
             *       "failures": 3,
             *       "ofLast": 5
             *     }
             */
            pauseAfter: {
                /**
                 * @description Pause after this many final failures in a row.
                 * @example 3
                 */
                consecutive: number;
            } | {
                /**
                 * @description Pause when this many of the last `ofLast` final outcomes failed…
                 * @example 3
                 */
                failures: number;
                /**
                 * @description …among this many of the newest final outcomes (failures ≤ ofLast).
                 * @example 5
                 */
                ofLast: number;
            };
            /**
             * @description Start the job again this long after the pause (within a minute: the monitors do it). Absent: it stays stopped until a user starts it.
             * @example 600
             */
            resumeAfterSeconds?: number;
        };
        /** @description Must have succeeded by this local time: each deadline closes a window that began at the one before; a window with no successful final outcome raises one deadlineMissed alarm. */
        Deadline: {
            /**
             * @description Local time HH:MM (24 h) a run must have succeeded by.
             * @example 06:00
             */
            time: string;
            /**
             * @description The IANA zone the time is read in.
             * @example Europe/Berlin
             */
            timeZone: string;
            /**
             * @description The days it applies to: daily (default) or weekdays (Monday to Friday in the zone).
             * @example weekdays
             * @enum {string}
             */
            days?: "daily" | "weekdays";
        };
        /** @description A schedule that stopped itself: why and when. */
        ScheduleEnded: {
            /**
             * @description maxRuns: its scheduled fires are used up; endAt: its next fire would be after endAt; noNextFire: the schedule fires no more (a ONCE instant passed, a cron’s last year); calendar: its calendars allow none of its fires in the next 5 years.
             * @example maxRuns
             * @enum {string}
             */
            reason: "maxRuns" | "endAt" | "noNextFire" | "calendar";
            /**
             * Format: date-time
             * @description When the scheduler stopped the job (it plans up to 15 s ahead: the last fire may follow), ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            at: string;
        };
        /** @description A job its failure policy stopped. */
        PausedBy: {
            /**
             * @description failurePolicy: its failure policy’s rule was met.
             * @example failurePolicy
             * @enum {string}
             */
            reason: "failurePolicy";
            /**
             * Format: date-time
             * @description When the job was paused, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            at: string;
            /**
             * @description Final failures among the last ofLast.
             * @example 3
             */
            failures: number;
            /**
             * @description Final outcomes the rule looked at.
             * @example 3
             */
            ofLast: number;
            /**
             * @description When the monitors start it again; null: a user starts it.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            resumeAt: string | null;
        };
        /** @description Where the job stands against its deadline. */
        DeadlineStatus: {
            /**
             * @description The window shown: from the deadline before (exclusive) to its deadline.
             * @example {
             *       "from": "2030-03-29T05:00:00.000Z",
             *       "to": "2030-03-30T04:00:00.000Z"
             *     }
             */
            window: {
                /**
                 * Format: date-time
                 * @description The window’s start (the deadline before), ISO-8601 UTC.
                 * @example 2030-01-01T02:00:00.000Z
                 */
                from: string;
                /**
                 * Format: date-time
                 * @description The window’s deadline, ISO-8601 UTC.
                 * @example 2030-01-01T02:00:00.000Z
                 */
                to: string;
            };
            /**
             * @description met: a run succeeded in the current window; missed: the last window closed without one (shown until a success); pending: the current window, no success yet.
             * @example met
             * @enum {string}
             */
            state: "met" | "missed" | "pending";
            /**
             * @description met: when the success was recorded; missed: the deadline; pending: null.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            at: string | null;
        };
        /** @description GET /v1/jobs/{id} only: how long the job’s run records are kept and what keeping them costs, an estimate. Not in lists. */
        JobRetention: {
            /**
             * @description Days its run records are kept: logRetentionDays, else the deployment’s default.
             * @example 30
             */
            days: number;
            /**
             * @description The share of successful runs kept for the whole retention (keepSuccessfulRuns; 1: all).
             * @example 0.1
             */
            successSample: number;
            /**
             * @description Run records kept at any time, an estimate: the schedule’s fires in the next day (calendars and bounds not applied; manual runs, retries and children not counted) × days, sampled-out successes counted for one day (every fire counted as a success).
             * @example 4380
             */
            estimatedRecords: number;
            /**
             * @description estimatedRecords × 1150 bytes, the size of a typical run in the runs table with its share of the fire, dispatch and hour-index records (measured on DynamoDB’s item-size rules).
             * @example 3942000
             */
            estimatedBytes: number;
            /**
             * @description estimatedBytes at DynamoDB’s Standard storage price, 0.25 USD per GB-month (us-east-1; the account’s free 25 GB and the request costs left out), four significant digits. An estimate, not a bill.
             * @example 0.0009178
             */
            estimatedMonthlyCostUsd: number;
        };
        /** @description One occurrence of the schedule skipped or moved. */
        OccurrenceException: {
            /**
             * Format: date-time
             * @description The occurrence’s scheduled time (its identity: the run keeps it), ISO-8601 UTC.
             * @example 2030-01-02T09:00:00.000Z
             */
            at: string;
            /**
             * @description skip: the occurrence does not fire; move: it fires at `to` instead.
             * @example skip
             * @enum {string}
             */
            action: "skip" | "move";
            /**
             * @description A move’s new time, ISO-8601 UTC; null for a skip.
             * @example 2030-01-02T09:30:00.000Z
             * @example null
             */
            to: string | null;
            /**
             * @description Why, as given; null when none was.
             * @example public holiday
             */
            reason: string | null;
            /**
             * @description Who made it (user or token name).
             * @example ana
             */
            by: string;
            /**
             * Format: date-time
             * @description When it was made, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            createdAt: string;
        };
        /** @description A new job: appName (or jobGroup), name (or jobDesc) and author are required; the rest has XXL-JOB’s defaults. Unknown fields are refused. */
        JobCreate: {
            /**
             * @description The executor group (its AppName) whose executors run the job; the group must exist.
             * @example my-app
             */
            appName?: string;
            /**
             * @description What the job does (XXL-JOB’s jobDesc); not blank.
             * @example Nightly report
             */
            name?: string;
            /**
             * @description Who owns the job; not blank.
             * @example ops
             */
            author: string;
            /**
             * @description E-mail addresses to alarm when a run fails for good, separated by commas; empty for none.
             * @default
             * @example ops@example.com,oncall@example.com
             */
            alarmEmail?: string;
            /**
             * @description An http(s) URL the failed run is POSTed to when its last retry fails; empty for none.
             * @default
             * @example https://hooks.example.com/tickring
             */
            alarmWebhook?: string;
            /**
             * @description NONE: runs only when triggered (manually, by the API, as a child); CRON: scheduleConf is a Quartz cron; FIX_RATE: scheduleConf is seconds between fires; ONCE: scheduleConf is an ISO-8601 instant. Required when scheduleConf is given.
             * @default NONE
             * @example CRON
             * @enum {string}
             */
            scheduleType?: "NONE" | "CRON" | "FIX_RATE" | "ONCE";
            /**
             * @description The schedule, read by scheduleType: a Quartz cron (`0 0 2 * * ?`), whole seconds >= 1 (`30`), or an instant with a zone (`2030-06-01T12:00:00Z`); empty for NONE.
             * @default
             * @example 0 0 2 * * ?
             */
            scheduleConf?: string;
            /**
             * @description The IANA time zone a cron is read in.
             * @default UTC
             * @example Europe/Berlin
             */
            timeZone?: string;
            /**
             * @description A scheduled fire that comes more than 5 s late: DO_NOTHING records it as a skipped run; FIRE_ONCE_NOW runs one catch-up.
             * @default DO_NOTHING
             * @example DO_NOTHING
             * @enum {string}
             */
            misfireStrategy?: "DO_NOTHING" | "FIRE_ONCE_NOW";
            /**
             * @description No scheduled fire before this instant (ISO-8601 with Z or an offset); null or absent: none. A cron fires at its first time from here; a FIX_RATE schedule counts its rate from here.
             * @example 2030-01-01T00:00:00Z
             */
            startAt?: string | null;
            /**
             * @description No scheduled fire after this instant (a fire’s scheduled time, before its jitter); must be after startAt. When it has passed, the job stops itself (scheduleEnded.reason endAt). null or absent: none.
             * @example 2030-12-31T23:59:59Z
             */
            endAt?: string | null;
            /**
             * @description At most this many scheduled fires, counted from when the limit is set (a fire counts when the scheduler plans it; manual, API, parent and retry runs do not count); then the job stops itself (scheduleEnded.reason maxRuns). Raising it keeps the count (runsRemaining grows); null removes the limit and its count.
             * @example 3
             */
            maxRuns?: number | null;
            /**
             * @description Delays each scheduled fire by an offset in [0, jitterSeconds) s, the same for every copy of the fire (a hash of the job and its scheduled time); the fire keeps its scheduled time as its identity. At most 3600, and less than the schedule’s smallest interval between fires. 0: none.
             * @default 0
             * @example 30
             */
            jitterSeconds?: number;
            /**
             * @description Pause the job after too many final failures; null or absent: never (a failed run alarms as before).
             * @example {
             *       "pauseAfter": {
             *         "failures": 3,
             *         "ofLast": 5
             *       },
             *       "resumeAfterSeconds": 600
             *     }
             */
            failurePolicy?: components["schemas"]["FailurePolicy"] | null;
            /**
             * @description Must have succeeded by a local time each day; null or absent: none.
             * @example {
             *       "time": "06:00",
             *       "timeZone": "Europe/Berlin"
             *     }
             */
            deadline?: components["schemas"]["Deadline"] | null;
            /**
             * @description The calendars the schedule follows, by id; null, {} or empty lists: none (a job read shows empty lists). A calendar marks each local date of its zone as a working day or not (weekly pattern, minus its excluded dates and ranges, plus its make-up days). only: a fire is made only on a date that is a working day of every calendar listed (a make-up Saturday fires, a holiday Monday does not). exclude: no fire on a date a calendar listed excludes (its holidays and ranges), whatever its weekly pattern and make-up days say. A fire’s date is taken in each calendar’s own zone; with both lists a fire must pass both. Fires removed are not made (they do not count towards maxRuns); triggerNextTime is the next one allowed, and a schedule with none in the next 5 years stops itself (scheduleEnded.reason calendar). A calendar change re-plans every RUNNING job that names it from the save: its next fire is the first allowed after now + 5 s, and the fires already planned under the old calendar are dropped. Each calendar must exist; one a job names cannot be deleted.
             * @example {
             *       "only": [
             *         "cn-workdays"
             *       ],
             *       "exclude": []
             *     }
             */
            calendars?: {
                /**
                 * @description Fire only on working days of every one of these (at most 10).
                 * @example [
                 *       "cn-workdays"
                 *     ]
                 */
                only?: string[];
                /**
                 * @description Never fire on a date one of these excludes (at most 10).
                 * @example [
                 *       "cn-holidays"
                 *     ]
                 */
                exclude?: string[];
            } | null;
            /**
             * @description Days the job's run records (and the results and messages they hold) are kept after their trigger, 1 to 3650; null or absent: the deployment's TICKRING_LOG_RETENTION_DAYS (30 by default). Applies to runs claimed from the change on; a run keeps the expiry it was recorded with.
             * @example 90
             */
            logRetentionDays?: number | null;
            /**
             * @description The share of successful runs kept for the whole retention, greater than 0 and at most 1; the others (sampled-out successes, chosen by a hash of the logId, so the same runs every time) are kept 1 day after their trigger, so the recent lists and the dashboard still see them. Failed, skipped and running runs are always kept for the whole retention. null, absent or 1: every success is kept.
             * @example 0.1
             */
            keepSuccessfulRuns?: number | null;
            /**
             * @description How a run picks its executor among the group’s (XXL-JOB’s strategies).
             * @default FIRST
             * @example ROUND
             * @enum {string}
             */
            executorRouteStrategy?: "FIRST" | "LAST" | "ROUND" | "RANDOM" | "CONSISTENT_HASH" | "LEAST_FREQUENTLY_USED" | "LEAST_RECENTLY_USED" | "FAILOVER" | "BUSYOVER" | "SHARDING_BROADCAST";
            /**
             * @description The handler the executor runs; required when glueType is BEAN.
             * @default
             * @example demoJobHandler
             */
            executorHandler?: string;
            /**
             * @description The parameter the handler gets.
             * @default
             * @example region=eu
             */
            executorParam?: string;
            /**
             * @description What an executor does with a run while the job’s previous one is still running.
             * @default SERIAL_EXECUTION
             * @example SERIAL_EXECUTION
             * @enum {string}
             */
            executorBlockStrategy?: "SERIAL_EXECUTION" | "DISCARD_LATER" | "COVER_EARLY";
            /**
             * @description Seconds a run may take before the executor stops it; 0 for no timeout.
             * @default 0
             * @example 0
             */
            executorTimeout?: number;
            /**
             * @description How often a failed run is tried again.
             * @default 0
             * @example 2
             */
            executorFailRetryCount?: number;
            /**
             * @description Seconds before the first retry; doubled for each further one.
             * @default 10
             * @example 10
             */
            retryBackoffSeconds?: number;
            /**
             * @description BEAN: a handler registered in the executor; GLUE_*: glueSource is the code to run.
             * @default BEAN
             * @example BEAN
             * @enum {string}
             */
            glueType?: "BEAN" | "GLUE_GROOVY" | "GLUE_SHELL" | "GLUE_PYTHON" | "GLUE_PYTHON2" | "GLUE_NODEJS" | "GLUE_POWERSHELL" | "GLUE_PHP";
            /**
             * @description The script of a GLUE job.
             * @default
             * @example echo "hello"
             */
            glueSource?: string;
            /**
             * @description Alert channels (ids) the job’s alarms go to, besides alarmEmail / alarmWebhook; null: its group’s default; []: none.
             * @example [
             *       "5b1c2f7e-8d8e-4b0c-9d55-2f0a6f1f3c11"
             *     ]
             */
            alertChannels?: string[] | null;
            /**
             * @description Jobs triggered when a run of this one succeeds; each must exist, no cycles, not the job itself.
             * @default []
             * @example [
             *       8,
             *       9
             *     ]
             */
            childJobIds?: number[];
            /**
             * @description RUNNING: scheduled; STOPPED: fires only when triggered.
             * @default STOPPED
             * @example STOPPED
             * @enum {string}
             */
            triggerStatus?: "RUNNING" | "STOPPED";
            /**
             * @description XXL-JOB’s name for `name`; give one of the two (or both, equal).
             * @example Nightly report
             */
            jobDesc?: string;
            /**
             * @description XXL-JOB’s name for `appName`: the group’s AppName (XXL-JOB’s numeric group id means nothing here); give one of the two (or both, equal).
             * @example my-app
             */
            jobGroup?: string;
            /**
             * @description XXL-JOB’s name for `childJobIds`: job ids separated by commas (an array is taken too).
             * @example 8,9
             */
            childJobId?: string | number[];
            /**
             * @description Read-only. On PUT, when given, it must be the id in the path.
             * @example 7
             */
            readonly id?: unknown;
            /**
             * @description Read-only. On PUT, when given, it must be the job’s current version, or the answer is 409 (optimistic concurrency).
             * @example 3
             */
            readonly version?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example 2030-01-01T02:00:00.000Z
             */
            readonly triggerNextTime?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example 2030-01-01T02:00:00.000Z
             */
            readonly triggerLastTime?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example 2030-01-01T02:00:00.000Z
             */
            readonly glueUpdatetime?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example 1
             */
            readonly scheduleRevision?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example 2030-01-01T02:00:00.000Z
             */
            readonly createdAt?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example 2030-01-01T02:00:00.000Z
             */
            readonly updatedAt?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example null
             */
            readonly workflowId?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example null
             */
            readonly scheduleEnded?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example null
             */
            readonly pausedBy?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example null
             */
            readonly deadlineSetAt?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example []
             */
            readonly occurrenceExceptions?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example null
             */
            readonly runsRemaining?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example null
             */
            readonly deadlineStatus?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example null
             */
            readonly retention?: unknown;
        } & ((unknown | unknown) & (unknown | unknown));
        /** @description The fields to change, laid over the job (a job read with GET may be sent back whole: read-only fields are ignored). The result is checked as a whole. Unknown fields are refused. */
        JobUpdate: {
            /**
             * @description The executor group (its AppName) whose executors run the job; the group must exist.
             * @example my-app
             */
            appName?: string;
            /**
             * @description What the job does (XXL-JOB’s jobDesc); not blank.
             * @example Nightly report
             */
            name?: string;
            /**
             * @description Who owns the job; not blank.
             * @example ops
             */
            author?: string;
            /**
             * @description E-mail addresses to alarm when a run fails for good, separated by commas; empty for none.
             * @example ops@example.com,oncall@example.com
             */
            alarmEmail?: string;
            /**
             * @description An http(s) URL the failed run is POSTed to when its last retry fails; empty for none.
             * @example https://hooks.example.com/tickring
             */
            alarmWebhook?: string;
            /**
             * @description NONE: runs only when triggered (manually, by the API, as a child); CRON: scheduleConf is a Quartz cron; FIX_RATE: scheduleConf is seconds between fires; ONCE: scheduleConf is an ISO-8601 instant. Required when scheduleConf is given.
             * @example CRON
             * @enum {string}
             */
            scheduleType?: "NONE" | "CRON" | "FIX_RATE" | "ONCE";
            /**
             * @description The schedule, read by scheduleType: a Quartz cron (`0 0 2 * * ?`), whole seconds >= 1 (`30`), or an instant with a zone (`2030-06-01T12:00:00Z`); empty for NONE.
             * @example 0 0 2 * * ?
             */
            scheduleConf?: string;
            /**
             * @description The IANA time zone a cron is read in.
             * @example Europe/Berlin
             */
            timeZone?: string;
            /**
             * @description A scheduled fire that comes more than 5 s late: DO_NOTHING records it as a skipped run; FIRE_ONCE_NOW runs one catch-up.
             * @example DO_NOTHING
             * @enum {string}
             */
            misfireStrategy?: "DO_NOTHING" | "FIRE_ONCE_NOW";
            /**
             * @description No scheduled fire before this instant (ISO-8601 with Z or an offset); null or absent: none. A cron fires at its first time from here; a FIX_RATE schedule counts its rate from here.
             * @example 2030-01-01T00:00:00Z
             */
            startAt?: string | null;
            /**
             * @description No scheduled fire after this instant (a fire’s scheduled time, before its jitter); must be after startAt. When it has passed, the job stops itself (scheduleEnded.reason endAt). null or absent: none.
             * @example 2030-12-31T23:59:59Z
             */
            endAt?: string | null;
            /**
             * @description At most this many scheduled fires, counted from when the limit is set (a fire counts when the scheduler plans it; manual, API, parent and retry runs do not count); then the job stops itself (scheduleEnded.reason maxRuns). Raising it keeps the count (runsRemaining grows); null removes the limit and its count.
             * @example 3
             */
            maxRuns?: number | null;
            /**
             * @description Delays each scheduled fire by an offset in [0, jitterSeconds) s, the same for every copy of the fire (a hash of the job and its scheduled time); the fire keeps its scheduled time as its identity. At most 3600, and less than the schedule’s smallest interval between fires. 0: none.
             * @example 30
             */
            jitterSeconds?: number;
            /**
             * @description Pause the job after too many final failures; null or absent: never (a failed run alarms as before).
             * @example {
             *       "pauseAfter": {
             *         "failures": 3,
             *         "ofLast": 5
             *       },
             *       "resumeAfterSeconds": 600
             *     }
             */
            failurePolicy?: components["schemas"]["FailurePolicy"] | null;
            /**
             * @description Must have succeeded by a local time each day; null or absent: none.
             * @example {
             *       "time": "06:00",
             *       "timeZone": "Europe/Berlin"
             *     }
             */
            deadline?: components["schemas"]["Deadline"] | null;
            /**
             * @description The calendars the schedule follows, by id; null, {} or empty lists: none (a job read shows empty lists). A calendar marks each local date of its zone as a working day or not (weekly pattern, minus its excluded dates and ranges, plus its make-up days). only: a fire is made only on a date that is a working day of every calendar listed (a make-up Saturday fires, a holiday Monday does not). exclude: no fire on a date a calendar listed excludes (its holidays and ranges), whatever its weekly pattern and make-up days say. A fire’s date is taken in each calendar’s own zone; with both lists a fire must pass both. Fires removed are not made (they do not count towards maxRuns); triggerNextTime is the next one allowed, and a schedule with none in the next 5 years stops itself (scheduleEnded.reason calendar). A calendar change re-plans every RUNNING job that names it from the save: its next fire is the first allowed after now + 5 s, and the fires already planned under the old calendar are dropped. Each calendar must exist; one a job names cannot be deleted.
             * @example {
             *       "only": [
             *         "cn-workdays"
             *       ],
             *       "exclude": []
             *     }
             */
            calendars?: {
                /**
                 * @description Fire only on working days of every one of these (at most 10).
                 * @example [
                 *       "cn-workdays"
                 *     ]
                 */
                only?: string[];
                /**
                 * @description Never fire on a date one of these excludes (at most 10).
                 * @example [
                 *       "cn-holidays"
                 *     ]
                 */
                exclude?: string[];
            } | null;
            /**
             * @description Days the job's run records (and the results and messages they hold) are kept after their trigger, 1 to 3650; null or absent: the deployment's TICKRING_LOG_RETENTION_DAYS (30 by default). Applies to runs claimed from the change on; a run keeps the expiry it was recorded with.
             * @example 90
             */
            logRetentionDays?: number | null;
            /**
             * @description The share of successful runs kept for the whole retention, greater than 0 and at most 1; the others (sampled-out successes, chosen by a hash of the logId, so the same runs every time) are kept 1 day after their trigger, so the recent lists and the dashboard still see them. Failed, skipped and running runs are always kept for the whole retention. null, absent or 1: every success is kept.
             * @example 0.1
             */
            keepSuccessfulRuns?: number | null;
            /**
             * @description How a run picks its executor among the group’s (XXL-JOB’s strategies).
             * @example ROUND
             * @enum {string}
             */
            executorRouteStrategy?: "FIRST" | "LAST" | "ROUND" | "RANDOM" | "CONSISTENT_HASH" | "LEAST_FREQUENTLY_USED" | "LEAST_RECENTLY_USED" | "FAILOVER" | "BUSYOVER" | "SHARDING_BROADCAST";
            /**
             * @description The handler the executor runs; required when glueType is BEAN.
             * @example demoJobHandler
             */
            executorHandler?: string;
            /**
             * @description The parameter the handler gets.
             * @example region=eu
             */
            executorParam?: string;
            /**
             * @description What an executor does with a run while the job’s previous one is still running.
             * @example SERIAL_EXECUTION
             * @enum {string}
             */
            executorBlockStrategy?: "SERIAL_EXECUTION" | "DISCARD_LATER" | "COVER_EARLY";
            /**
             * @description Seconds a run may take before the executor stops it; 0 for no timeout.
             * @example 0
             */
            executorTimeout?: number;
            /**
             * @description How often a failed run is tried again.
             * @example 2
             */
            executorFailRetryCount?: number;
            /**
             * @description Seconds before the first retry; doubled for each further one.
             * @example 10
             */
            retryBackoffSeconds?: number;
            /**
             * @description BEAN: a handler registered in the executor; GLUE_*: glueSource is the code to run.
             * @example BEAN
             * @enum {string}
             */
            glueType?: "BEAN" | "GLUE_GROOVY" | "GLUE_SHELL" | "GLUE_PYTHON" | "GLUE_PYTHON2" | "GLUE_NODEJS" | "GLUE_POWERSHELL" | "GLUE_PHP";
            /**
             * @description The script of a GLUE job.
             * @example echo "hello"
             */
            glueSource?: string;
            /**
             * @description Alert channels (ids) the job’s alarms go to, besides alarmEmail / alarmWebhook; null: its group’s default; []: none.
             * @example [
             *       "5b1c2f7e-8d8e-4b0c-9d55-2f0a6f1f3c11"
             *     ]
             */
            alertChannels?: string[] | null;
            /**
             * @description Jobs triggered when a run of this one succeeds; each must exist, no cycles, not the job itself.
             * @example [
             *       8,
             *       9
             *     ]
             */
            childJobIds?: number[];
            /**
             * @description RUNNING: scheduled; STOPPED: fires only when triggered.
             * @example STOPPED
             * @enum {string}
             */
            triggerStatus?: "RUNNING" | "STOPPED";
            /**
             * @description XXL-JOB’s name for `name`; give one of the two (or both, equal).
             * @example Nightly report
             */
            jobDesc?: string;
            /**
             * @description XXL-JOB’s name for `appName`: the group’s AppName (XXL-JOB’s numeric group id means nothing here); give one of the two (or both, equal).
             * @example my-app
             */
            jobGroup?: string;
            /**
             * @description XXL-JOB’s name for `childJobIds`: job ids separated by commas (an array is taken too).
             * @example 8,9
             */
            childJobId?: string | number[];
            /**
             * @description Read-only. On PUT, when given, it must be the id in the path.
             * @example 7
             */
            readonly id?: unknown;
            /**
             * @description Read-only. On PUT, when given, it must be the job’s current version, or the answer is 409 (optimistic concurrency).
             * @example 3
             */
            readonly version?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example 2030-01-01T02:00:00.000Z
             */
            readonly triggerNextTime?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example 2030-01-01T02:00:00.000Z
             */
            readonly triggerLastTime?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example 2030-01-01T02:00:00.000Z
             */
            readonly glueUpdatetime?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example 1
             */
            readonly scheduleRevision?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example 2030-01-01T02:00:00.000Z
             */
            readonly createdAt?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example 2030-01-01T02:00:00.000Z
             */
            readonly updatedAt?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example null
             */
            readonly workflowId?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example null
             */
            readonly scheduleEnded?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example null
             */
            readonly pausedBy?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example null
             */
            readonly deadlineSetAt?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example []
             */
            readonly occurrenceExceptions?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example null
             */
            readonly runsRemaining?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example null
             */
            readonly deadlineStatus?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (as read) and it is ignored.
             * @example null
             */
            readonly retention?: unknown;
        };
        /** @description A manual fire, accepted: it runs at once, asynchronously. */
        TriggerAccepted: {
            /**
             * @description The job fired.
             * @example 7
             */
            jobId: number;
            /**
             * @description The fire’s key; its run(s) carry it as dedupKey (GET /v1/logs?jobId= shows them).
             * @example manual#1b4e28ba-2fa1-11d2-883f-0016d3cca427
             */
            dedupKey: string;
            /**
             * Format: date-time
             * @description When the run is due: now, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            scheduledTime: string;
            /**
             * @description The run’s logId: GET /v1/logs/{logId} reads it once the dispatcher has recorded it (at once, unless the ring is backed up), and /v1/logs/{logId}/output follows its log. For a SHARDING_BROADCAST job, the first shard’s.
             * @example 30064771073
             */
            logId: number;
            /**
             * @description One logId per run, in shard order: one, or one per executor of a SHARDING_BROADCAST job (its executors are fixed when it is triggered: the trigger’s addressList, else the group’s online executors; with none, one run that fails for want of an executor).
             * @example [
             *       30064771073
             *     ]
             */
            logIds: number[];
        };
        /** @description The overrides of one manual trigger (XXL-JOB’s JobTriggerRequest); the body may be absent. */
        TriggerRequest: {
            /**
             * @description Replaces the job’s executorParam for this run only (also when empty); null: the job’s.
             * @example region=us
             */
            executorParam?: string | null;
            /**
             * @description Sends this run to these executors instead of the group’s (http(s) URLs or lambda:<function>); empty or null: the group’s.
             * @example [
             *       "http://10.0.0.5:9999/"
             *     ]
             * @example http://10.0.0.5:9999,http://10.0.0.6:9999
             */
            addressList?: string[] | string | null;
        };
        /** @description The next fire times of a schedule, with its bounds, its jitter and its DST marks. */
        SchedulePreview: {
            /**
             * @description The next scheduled fire times, ISO-8601 UTC, oldest first; fewer than count when the schedule ends (see ends).
             * @example [
             *       "2030-01-04T09:00:00.000Z",
             *       "2030-01-04T09:15:00.000Z"
             *     ]
             */
            times: string[];
            /** @description The same fires, each with its real time and its DST mark. */
            fires: {
                /**
                 * Format: date-time
                 * @description The fire’s scheduled time (its identity).
                 * @example 2030-01-04T09:00:00.000Z
                 */
                time: string;
                /**
                 * @description When it really fires: its scheduled time plus its jitter, or its move’s time; null when skipped, or when there is jitter but no jobId to derive it from.
                 * @example 2030-01-04T09:00:12.345Z
                 */
                fireAt: string | null;
                /**
                 * @description The job’s one-off exception of this fire (with jobId): skipped (fireAt null) or moved (fireAt its new time); null otherwise.
                 * @example null
                 */
                exception: components["schemas"]["OccurrenceException"] | null;
                /**
                 * @description Set when the fire falls in a local hour that happens twice (clocks fall back).
                 * @example null
                 * @example {
                 *       "kind": "repeatedHour",
                 *       "note": "2030-10-27T02:30:00 happens twice (+02:00, then +01:00): the job fires once, at the second (+01:00); the first is skipped."
                 *     }
                 */
                dst: {
                    /**
                     * @description repeatedHour: the fire’s local time happens twice (clocks fall back).
                     * @example repeatedHour
                     * @enum {string}
                     */
                    kind: "repeatedHour";
                    /**
                     * @description What the job does there, in words.
                     * @example 2030-10-27T02:30:00 happens twice (+02:00, then +01:00): the job fires once, at the second (+01:00); the first is skipped.
                     */
                    note: string;
                } | null;
            }[];
            /** @description Fires the calendars removed, between now and the last fire shown: the first of each run of days removed (an every-second schedule lists a removed day once), at most count. */
            skipped: {
                /**
                 * Format: date-time
                 * @description The fire’s scheduled time: the first fire removed of a run of days removed.
                 * @example 2030-10-01T01:00:00.000Z
                 */
                time: string;
                /**
                 * @description The calendar that removed it.
                 * @example cn-workdays
                 */
                calendarId: string;
                /**
                 * @description The list that names the calendar.
                 * @example only
                 * @enum {string}
                 */
                list: "only" | "exclude";
                /**
                 * Format: date
                 * @description The fire’s date in the calendar’s zone.
                 * @example 2030-10-01
                 */
                date: string;
                /**
                 * @description Why the calendar removes the date: WEEKEND or HOLIDAY.
                 * @example HOLIDAY
                 * @enum {string}
                 */
                reason: "WORKDAY" | "WEEKEND" | "HOLIDAY" | "MAKEUP_DAY";
                /**
                 * @description The holiday’s label, when it has one.
                 * @example National Day
                 */
                label: string | null;
            }[];
            /**
             * @description Why the schedule ends after the last fire shown (maxRuns, endAt, noNextFire, calendar), as the job would stop itself; null when it goes on.
             * @example null
             */
            ends: ("maxRuns" | "endAt" | "noNextFire" | "calendar") | null;
            /**
             * @description Daylight saving: the policy and the clock changes the fires meet.
             * @example {
             *       "policy": "Quartz: a local time that does not exist (clocks spring forward) is skipped, no fire that day; a local time that exists twice (clocks fall back) fires once, at the second (standard-time) pass.",
             *       "transitions": []
             *     }
             */
            dst: {
                /**
                 * @description What the job does where the clocks change.
                 * @example Quartz: a local time that does not exist (clocks spring forward) is skipped, no fire that day; a local time that exists twice (clocks fall back) fires once, at the second (standard-time) pass.
                 */
                policy: string;
                /**
                 * @description The clock changes between from and the last fire shown where the schedule names a local time that is skipped or repeated (CRON only).
                 * @example []
                 */
                transitions: {
                    /**
                     * @description skippedHour: clocks spring forward; repeatedHour: clocks fall back.
                     * @example skippedHour
                     * @enum {string}
                     */
                    kind: "skippedHour" | "repeatedHour";
                    /**
                     * Format: date-time
                     * @description When the clocks change, ISO-8601 UTC.
                     * @example 2030-03-31T01:00:00.000Z
                     */
                    at: string;
                    /**
                     * @description The local times skipped or repeated, from (YYYY-MM-DDTHH:mm:ss) …
                     * @example 2030-03-31T02:00:00
                     */
                    localFrom: string;
                    /**
                     * @description … to (not included).
                     * @example 2030-03-31T03:00:00
                     */
                    localTo: string;
                    /**
                     * @description The zone’s offset before the change.
                     * @example +01:00
                     */
                    offsetBefore: string;
                    /**
                     * @description The zone’s offset after it.
                     * @example +02:00
                     */
                    offsetAfter: string;
                    /**
                     * @description How many of the schedule’s local times fall there.
                     * @example 1
                     */
                    matches: number;
                    /**
                     * @description The first few of them (at most 5), local.
                     * @example [
                     *       "2030-03-31T02:30:00"
                     *     ]
                     */
                    firstMatches: string[];
                    /**
                     * @description What the job does there, in words.
                     * @example The schedule names 1 time in the skipped hour: no fire for it that day (the clocks jump from 2030-03-31T02:00:00 to 2030-03-31T03:00:00).
                     */
                    note: string;
                }[];
            };
        };
        /** @description A page of runs. */
        RunPage: {
            /** @description Runs, newest first. */
            items: components["schemas"]["Run"][];
            /**
             * @description Pass it as `cursor` for the next page; null at the end. A page may come back short (even empty) with a cursor.
             * @example eyJpZCI6NDJ9
             * @example null
             */
            nextCursor: string | null;
        };
        /** @description A run: one execution of a job on one executor (XXL-JOB’s log row). */
        Run: {
            /**
             * @description The run’s id: jobId × 2^32 + n.
             * @example 30064771073
             */
            logId: number;
            /**
             * @description Its job.
             * @example 7
             */
            jobId: number;
            /**
             * @description Its job’s name when it was triggered.
             * @example Nightly report
             */
            jobName: string;
            /**
             * @description Its job’s group.
             * @example my-app
             */
            appName: string;
            /**
             * @description running: sent, no result yet; success: handled with 200; fail: refused, failed or timed out; skipped: a misfire, never sent (one record may stand for a range of its job’s fires: skippedCount, skippedUntil).
             * @example success
             * @enum {string}
             */
            status: "running" | "success" | "fail" | "skipped";
            /**
             * @description What fired it.
             * @example CRON
             * @enum {string}
             */
            triggerType: "CRON" | "FIX_RATE" | "ONCE" | "MANUAL" | "RETRY" | "PARENT" | "MISFIRE" | "API" | "WORKFLOW" | "BACKFILL";
            /**
             * @description The fire it belongs to.
             * @example 7#1893470400000
             */
            dedupKey: string;
            /**
             * Format: date-time
             * @description When it was due (XXL-JOB’s logDateTime), ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            scheduledTime: string;
            /**
             * Format: date-time
             * @description When its record was made, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            triggerTime: string;
            /**
             * @description The executor it was sent to; null when none was.
             * @example http://10.0.0.5:9999/
             * @example null
             */
            executorAddress: string | null;
            /**
             * @description The handler run.
             * @example demoJobHandler
             */
            executorHandler: string;
            /**
             * @description The parameter it got.
             * @example region=eu
             */
            executorParam: string;
            /**
             * @description How its executor was picked.
             * @example ROUND
             */
            executorRouteStrategy: string;
            /**
             * @description Its timeout in seconds; 0: none.
             * @example 0
             */
            executorTimeout: number;
            /**
             * @description Its shard as index/total (0/1 unless broadcast).
             * @example 0/1
             */
            shard: string;
            /**
             * @description 1 for the first try, 2 for the first retry, ...
             * @example 1
             */
            attempt: number;
            /**
             * @description Retries still allowed after it.
             * @example 2
             */
            retriesLeft: number;
            /**
             * @description The run whose success fired it (a child job’s run); null otherwise.
             * @example null
             */
            parentLogId: number | null;
            /**
             * @description The workflow node it is a run of (its first try or a retry); null for a run outside workflows.
             * @example null
             */
            workflow: {
                /**
                 * @description The workflow run (GET /v1/workflow-runs/{runId}).
                 * @example wr-s30064771073
                 */
                runId: string;
                /**
                 * @description The node’s key.
                 * @example extract
                 */
                node: string;
                /**
                 * @description The node’s attempt it belongs to.
                 * @example 1
                 */
                attempt: number;
            } | null;
            /**
             * @description 0 not sent yet, 200 accepted by the executor, 500 refused or no executor, 600 skipped.
             * @example 200
             */
            triggerCode: number;
            /**
             * @description How the trigger went.
             * @example executor accepted the run
             */
            triggerMsg: string;
            /**
             * @description When the executor accepted or refused it (ISO-8601 UTC); null before.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            dispatchedAt: string | null;
            /**
             * @description 0 no result yet, 200 success, 500 fail, 502 timeout.
             * @example 200
             */
            handleCode: number;
            /**
             * @description The result message.
             * @example done
             */
            handleMsg: string;
            /**
             * @description When the result came (ISO-8601 UTC); null before.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            handleTime: string | null;
            /**
             * @description DEFAULT, NOT_NEEDED, SENT or FAILED (XXL-JOB’s alarm_status).
             * @example NOT_NEEDED
             */
            alarmStatus: string;
            /**
             * @description How many fires it stands for; null unless skipped. A skipped run may stand for a range of skipped fires of its job: from scheduledTime to skippedUntil, skippedCount fires.
             * @example null
             * @example 12
             */
            skippedCount: number | null;
            /**
             * @description When the last fire it stands for was due (ISO-8601 UTC; scheduledTime when it stands for one); null unless skipped. A skipped run may stand for a range of skipped fires of its job: from scheduledTime to skippedUntil, skippedCount fires.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            skippedUntil: string | null;
        };
        /** @description A slice of a run’s log, read from its executor. */
        RunOutput: {
            /**
             * @description The first line read.
             * @example 1
             */
            fromLineNum: number;
            /**
             * @description The last line read (fromLineNum - 1 when none).
             * @example 2
             */
            toLineNum: number;
            /**
             * @description The lines, each ending with a newline.
             * @example start
             *     done
             */
            logContent: string;
            /**
             * @description True once the run has its result and every line was read: stop polling.
             * @example true
             */
            isEnd: boolean;
        };
        /** @description The run as recorded after the kill (failed, "killed by user"). */
        KilledRun: {
            /**
             * @description The run’s id: jobId × 2^32 + n.
             * @example 30064771073
             */
            logId: number;
            /**
             * @description Its job.
             * @example 7
             */
            jobId: number;
            /**
             * @description Its job’s name when it was triggered.
             * @example Nightly report
             */
            jobName: string;
            /**
             * @description Its job’s group.
             * @example my-app
             */
            appName: string;
            /**
             * @description running: sent, no result yet; success: handled with 200; fail: refused, failed or timed out; skipped: a misfire, never sent (one record may stand for a range of its job’s fires: skippedCount, skippedUntil).
             * @example success
             * @enum {string}
             */
            status: "running" | "success" | "fail" | "skipped";
            /**
             * @description What fired it.
             * @example CRON
             * @enum {string}
             */
            triggerType: "CRON" | "FIX_RATE" | "ONCE" | "MANUAL" | "RETRY" | "PARENT" | "MISFIRE" | "API" | "WORKFLOW" | "BACKFILL";
            /**
             * @description The fire it belongs to.
             * @example 7#1893470400000
             */
            dedupKey: string;
            /**
             * Format: date-time
             * @description When it was due (XXL-JOB’s logDateTime), ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            scheduledTime: string;
            /**
             * Format: date-time
             * @description When its record was made, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            triggerTime: string;
            /**
             * @description The executor it was sent to; null when none was.
             * @example http://10.0.0.5:9999/
             * @example null
             */
            executorAddress: string | null;
            /**
             * @description The handler run.
             * @example demoJobHandler
             */
            executorHandler: string;
            /**
             * @description The parameter it got.
             * @example region=eu
             */
            executorParam: string;
            /**
             * @description How its executor was picked.
             * @example ROUND
             */
            executorRouteStrategy: string;
            /**
             * @description Its timeout in seconds; 0: none.
             * @example 0
             */
            executorTimeout: number;
            /**
             * @description Its shard as index/total (0/1 unless broadcast).
             * @example 0/1
             */
            shard: string;
            /**
             * @description 1 for the first try, 2 for the first retry, ...
             * @example 1
             */
            attempt: number;
            /**
             * @description Retries still allowed after it.
             * @example 2
             */
            retriesLeft: number;
            /**
             * @description The run whose success fired it (a child job’s run); null otherwise.
             * @example null
             */
            parentLogId: number | null;
            /**
             * @description The workflow node it is a run of (its first try or a retry); null for a run outside workflows.
             * @example null
             */
            workflow: {
                /**
                 * @description The workflow run (GET /v1/workflow-runs/{runId}).
                 * @example wr-s30064771073
                 */
                runId: string;
                /**
                 * @description The node’s key.
                 * @example extract
                 */
                node: string;
                /**
                 * @description The node’s attempt it belongs to.
                 * @example 1
                 */
                attempt: number;
            } | null;
            /**
             * @description 0 not sent yet, 200 accepted by the executor, 500 refused or no executor, 600 skipped.
             * @example 200
             */
            triggerCode: number;
            /**
             * @description How the trigger went.
             * @example executor accepted the run
             */
            triggerMsg: string;
            /**
             * @description When the executor accepted or refused it (ISO-8601 UTC); null before.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            dispatchedAt: string | null;
            /**
             * @description 0 no result yet, 200 success, 500 fail, 502 timeout.
             * @example 200
             */
            handleCode: number;
            /**
             * @description The result message.
             * @example done
             */
            handleMsg: string;
            /**
             * @description When the result came (ISO-8601 UTC); null before.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            handleTime: string | null;
            /**
             * @description DEFAULT, NOT_NEEDED, SENT or FAILED (XXL-JOB’s alarm_status).
             * @example NOT_NEEDED
             */
            alarmStatus: string;
            /**
             * @description How many fires it stands for; null unless skipped. A skipped run may stand for a range of skipped fires of its job: from scheduledTime to skippedUntil, skippedCount fires.
             * @example null
             * @example 12
             */
            skippedCount: number | null;
            /**
             * @description When the last fire it stands for was due (ISO-8601 UTC; scheduledTime when it stands for one); null unless skipped. A skipped run may stand for a range of skipped fires of its job: from scheduledTime to skippedUntil, skippedCount fires.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            skippedUntil: string | null;
            /**
             * @description The executor’s answer to /kill.
             * @example
             */
            executorMsg: string;
        };
        /** @description Executors with their last heartbeat, by group. */
        Executors: {
            /** @description Groups by appName. */
            items: {
                /**
                 * @description The executors’ AppName: 4-64 letters, digits, '_', '.' and '-'; cannot be changed.
                 * @example my-app
                 */
                appName: string;
                /**
                 * @description A name for people; not blank.
                 * @example My application
                 */
                title: string;
                /**
                 * @description AUTO: the executors that register under the AppName; MANUAL: the addressList given.
                 * @example AUTO
                 * @enum {string}
                 */
                addressType: "AUTO" | "MANUAL";
                /** @description AUTO: its registrations; MANUAL: its configured addresses. */
                executors: {
                    /**
                     * @description The executor’s address.
                     * @example http://10.0.0.5:9999/
                     */
                    address: string;
                    /**
                     * @description Seen within the registry’s dead timeout (90 s); null: not known (a MANUAL address that does not register).
                     * @example true
                     */
                    online: boolean | null;
                    /**
                     * @description Its last registration (ISO-8601 UTC); null when none is kept.
                     * @example 2030-01-01T02:00:00.000Z
                     * @example null
                     */
                    lastHeartbeat: string | null;
                }[];
                /**
                 * @description How many (address, reason) pairs were refused under this app name in the last day (listed in `refused`).
                 * @example 0
                 */
                refusedRegistrations: number;
            }[];
            /** @description Executor requests refused in the last day (of the group asked for, when appName is given), the last seen first: those of the groups the caller sees; those under an app name no group has only to a caller who sees every group. */
            refused: components["schemas"]["RefusedRegistration"][];
        };
        /** @description Executor requests refused for the same reason from the same app name and address; kept until a day passes without one. Never holds a token. */
        RefusedRegistration: {
            /**
             * @description The app name the request gave (its registryKey, else its XXL-JOB-APPNAME header); empty when none.
             * @example my-app
             */
            appName: string;
            /**
             * @description The executor’s address (registryValue); for a request whose body names none, the address it came from.
             * @example http://10.0.0.5:9999/
             */
            address: string;
            /**
             * @description Why it was refused: missing-token: No access token was sent (XXL-JOB-ACCESS-TOKEN). Set the executor’s access token (xxl.job.accessToken): its group’s own token if the group has one, else the global access token. wrong-token: The access token is not the one for this app name. Give the executor its group’s own token if the group has one (PUT /v1/groups/{appName}/access-token sets it), else the global access token. unknown-app-name: No executor group has this app name, and the token sent is not the global one (a group’s own token works only under that group’s app name). Fix the executor’s app name (xxl.job.executor.appname), or create the group. app-name-mismatch: The XXL-JOB-APPNAME header names another group than the request speaks for (the registration’s app name, or the groups of the reported runs). Give the executor one app name. malformed-request: The body is not one tickring can read (empty, not JSON, a blank or too long field): see the detail. Fix or upgrade the executor. token-unavailable: tickring could not read the access token to check against (its secret or the token key): see the error log of the function that serves /api/registry. Every executor is refused until it can.
             * @example wrong-token
             * @enum {string}
             */
            reason: "missing-token" | "wrong-token" | "unknown-app-name" | "app-name-mismatch" | "malformed-request" | "token-unavailable";
            /**
             * @description What to change, in words (the reason’s).
             * @example The access token is not the one for this app name. Give the executor its group’s own token if the group has one (PUT /v1/groups/{appName}/access-token sets it), else the global access token.
             */
            hint: string;
            /**
             * @description The path of the last one (/api/registry, /api/registryRemove, /api/callback).
             * @example registry
             * @enum {string}
             */
            request: "registry" | "registryRemove" | "callback";
            /**
             * @description The answer the executor got the last time (XXL-JOB’s words).
             * @example The access token is wrong.
             */
            detail: string;
            /**
             * @description Refusals counted since firstSeen. Each instance of the function writes a key at most every 10 s, so the count may lack the refusals of the last 10 s of a burst.
             * @example 42
             */
            count: number;
            /**
             * Format: date-time
             * @description The first refusal counted (ISO-8601 UTC).
             * @example 2030-01-01T02:00:00.000Z
             */
            firstSeen: string;
            /**
             * Format: date-time
             * @description The last refusal counted (ISO-8601 UTC).
             * @example 2030-01-01T02:00:00.000Z
             */
            lastSeen: string;
        };
        /** @description Totals and daily runs (XXL-JOB’s dashboard), with the daily skipped fires. */
        Dashboard: {
            /**
             * @description The period’s days.
             * @example 7
             */
            days: number;
            /**
             * Format: date
             * @description The first day of the period (UTC).
             * @example 2030-01-07
             */
            fromDay: string;
            /**
             * Format: date
             * @description The last day of the period: today (UTC).
             * @example 2030-01-07
             */
            toDay: string;
            /**
             * @description Counts.
             * @example {
             *       "jobs": 12,
             *       "runningJobs": 9,
             *       "runs": 1340,
             *       "running": 2,
             *       "success": 1330,
             *       "fail": 8,
             *       "skipped": 4,
             *       "onlineExecutors": 3
             *     }
             */
            totals: {
                /**
                 * @description Jobs.
                 * @example 12
                 */
                jobs: number;
                /**
                 * @description Jobs whose schedule is on.
                 * @example 9
                 */
                runningJobs: number;
                /**
                 * @description Runs triggered in the period (running + success + fail; skipped fires apart).
                 * @example 1340
                 */
                runs: number;
                /**
                 * @description Of those, running.
                 * @example 2
                 */
                running: number;
                /**
                 * @description Of those, succeeded.
                 * @example 1330
                 */
                success: number;
                /**
                 * @description Of those, failed.
                 * @example 8
                 */
                fail: number;
                /**
                 * @description Fires of the period recorded as skipped (misfires: late or overtaken fires, never sent); not among runs.
                 * @example 4
                 */
                skipped: number;
                /**
                 * @description Distinct executor addresses online now.
                 * @example 3
                 */
                onlineExecutors: number;
            };
            /** @description One entry per day, oldest first. */
            series: {
                /**
                 * Format: date
                 * @description The day (UTC).
                 * @example 2030-01-07
                 */
                day: string;
                /**
                 * @description Runs of the day still running.
                 * @example 0
                 */
                running: number;
                /**
                 * @description Runs of the day that succeeded.
                 * @example 190
                 */
                success: number;
                /**
                 * @description Runs of the day that failed.
                 * @example 1
                 */
                fail: number;
                /**
                 * @description Fires of the day recorded as skipped (misfires, never sent).
                 * @example 0
                 */
                skipped: number;
            }[];
        };
        /** @description The runs of the recent past per bucket of their scheduled time, for a live chart: counts, lateness, runs in progress and the last failures, of the groups the caller sees. */
        Activity: {
            /**
             * @description The period read.
             * @example 1h
             * @enum {string}
             */
            window: "1h" | "6h" | "24h";
            /**
             * @description The length of a bucket in milliseconds.
             * @example 60000
             */
            bucketMs: number;
            /**
             * Format: date-time
             * @description The first bucket’s start (buckets are aligned on their length), ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            from: string;
            /**
             * Format: date-time
             * @description The last bucket’s end: the end of the bucket now falls in (the last bucket is still filling), ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            to: string;
            /** @description The runs of each bucket by their scheduled time, oldest first, one entry per bucket (zeros when none). Skipped runs (misfires) are not counted: see the dashboard’s skipped. */
            buckets: {
                /**
                 * Format: date-time
                 * @description The bucket’s start; it holds the runs scheduled from then for bucketMs, ISO-8601 UTC.
                 * @example 2030-01-01T02:00:00.000Z
                 */
                start: string;
                /**
                 * @description Runs of the bucket that succeeded.
                 * @example 58
                 */
                success: number;
                /**
                 * @description Runs of the bucket that failed (refused, failed, timed out, lost, killed).
                 * @example 1
                 */
                fail: number;
                /**
                 * @description Runs of the bucket still running.
                 * @example 1
                 */
                running: number;
                /**
                 * @description The median lateness of the bucket’s dispatched runs (dispatchedAt − scheduledTime, ms); null when none was dispatched.
                 * @example 3
                 * @example null
                 */
                latenessP50Ms: number | null;
                /**
                 * @description The 99th percentile (nearest rank) of the same lateness; null when none was dispatched.
                 * @example 41
                 * @example null
                 */
                latenessP99Ms: number | null;
            }[];
            /**
             * @description Runs of the period still running.
             * @example 1
             */
            inProgress: number;
            /** @description The period’s failed runs, newest (by scheduled time) first, at most 10. */
            lastFailures: {
                /**
                 * @description The run’s id: jobId × 2^32 + n.
                 * @example 30064771073
                 */
                logId: number;
                /**
                 * @description Its job.
                 * @example 7
                 */
                jobId: number;
                /**
                 * @description Its job’s name when it was triggered.
                 * @example Nightly report
                 */
                jobName: string;
                /**
                 * @description Its job’s group.
                 * @example my-app
                 */
                appName: string;
                /**
                 * @description The result message, cut after 1000 characters (then ending in ...; the run has all of it); empty for a trigger no executor accepted (its triggerMsg says why).
                 * @example java.lang.IllegalStateException: report source unavailable
                 */
                handleMsg: string;
                /**
                 * @description When the result came (ISO-8601 UTC); null for a refused trigger.
                 * @example 2030-01-01T02:00:00.000Z
                 * @example null
                 */
                handleTime: string | null;
                /**
                 * Format: date-time
                 * @description When it was due (XXL-JOB’s logDateTime), ISO-8601 UTC.
                 * @example 2030-01-01T02:00:00.000Z
                 */
                scheduledTime: string;
            }[];
            /**
             * @description Runs of the period read and counted (at most 5000).
             * @example 60
             */
            sampled: number;
            /**
             * @description true when the period had more runs than were read (over 5000, newest first, or more than one answer reads): the oldest buckets count short.
             * @example false
             */
            truncated: boolean;
        };
        /** @description A job’s upcoming occurrences with their exceptions. */
        OccurrenceList: {
            /**
             * @description The job’s id.
             * @example 7
             */
            jobId: number;
            /**
             * @description The upcoming occurrences, within the job’s bounds, oldest first.
             * @example []
             */
            occurrences: {
                /**
                 * Format: date-time
                 * @description The occurrence’s scheduled time, ISO-8601 UTC.
                 * @example 2030-01-02T09:00:00.000Z
                 */
                time: string;
                /**
                 * @description When it fires: its scheduled time plus its jitter, or its move’s time; null when skipped.
                 * @example 2030-01-01T02:00:00.000Z
                 * @example null
                 */
                fireAt: string | null;
                /**
                 * @description Its skip or move; null when it fires as scheduled.
                 * @example null
                 */
                exception: components["schemas"]["OccurrenceException"] | null;
                /**
                 * @description false when it is planned already (or about to be): too late to skip, move or restore.
                 * @example true
                 */
                changeable: boolean;
            }[];
            /**
             * @description Every exception the job holds (at most 100 ahead; passed ones are pruned an hour later).
             * @example []
             */
            exceptions: components["schemas"]["OccurrenceException"][];
        };
        /** @description Optional: why the occurrence is skipped. */
        OccurrenceSkip: {
            /**
             * @description Why (kept with the exception and in the audit log).
             * @example public holiday
             */
            reason?: string;
        };
        /** @description Where the occurrence moves to, and why. */
        OccurrenceMove: {
            /**
             * @description The new fire time: in the future and strictly between the fires before and after the occurrence (the job’s fires stay in order).
             * @example 2030-01-02T09:30:00Z
             */
            to: string | number;
            /**
             * @description Why (kept with the exception and in the audit log).
             * @example public holiday
             */
            reason?: string;
        };
        /** @description The fires a job’s schedule owed in a window and what became of each. */
        FireLedger: {
            /**
             * @description The job.
             * @example 7
             */
            jobId: number;
            /**
             * Format: date-time
             * @description The window’s start, ISO-8601 UTC.
             * @example 2030-01-02T09:00:00.000Z
             */
            from: string;
            /**
             * Format: date-time
             * @description The window’s end, ISO-8601 UTC.
             * @example 2030-01-02T10:00:00.000Z
             */
            to: string;
            /**
             * @description Fires per outcome, and skipped fires per rule.
             * @example {
             *       "ran": 58,
             *       "skipped": 2,
             *       "calendar": 0,
             *       "exception": 0,
             *       "paused": 0,
             *       "notYetDue": 0,
             *       "unexplained": 0,
             *       "skippedBy": {
             *         "misfire": 2,
             *         "overload": 0,
             *         "overlap": 0,
             *         "block": 0
             *       }
             *     }
             */
            summary: {
                /**
                 * @description Fires whose outcome is ran.
                 * @example 0
                 */
                ran: number;
                /**
                 * @description Fires whose outcome is skipped.
                 * @example 0
                 */
                skipped: number;
                /**
                 * @description Fires whose outcome is calendar.
                 * @example 0
                 */
                calendar: number;
                /**
                 * @description Fires whose outcome is exception.
                 * @example 0
                 */
                exception: number;
                /**
                 * @description Fires whose outcome is paused.
                 * @example 0
                 */
                paused: number;
                /**
                 * @description Fires whose outcome is notYetDue.
                 * @example 0
                 */
                notYetDue: number;
                /**
                 * @description Fires whose outcome is unexplained.
                 * @example 0
                 */
                unexplained: number;
                /**
                 * @description Skipped fires per rule.
                 * @example {
                 *       "misfire": 2,
                 *       "overload": 0,
                 *       "overlap": 0,
                 *       "block": 0
                 *     }
                 */
                skippedBy: {
                    /**
                     * @description Fires skipped by the misfire rule.
                     * @example 0
                     */
                    misfire: number;
                    /**
                     * @description Fires skipped by the overload rule.
                     * @example 0
                     */
                    overload: number;
                    /**
                     * @description Fires skipped by the overlap rule.
                     * @example 0
                     */
                    overlap: number;
                    /**
                     * @description Fires skipped by the block rule.
                     * @example 0
                     */
                    block: number;
                };
            };
            /**
             * @description An audit record in the window changed the schedule; the ledger follows each change.
             * @example false
             */
            definitionChangedInWindow: boolean;
            /**
             * @description audit: the schedule’s history rebuilt from the audit log; current: the schedule as it is now.
             * @example audit
             * @enum {string}
             */
            history: "audit" | "current";
            /**
             * @description The calendars the schedule named in the window, each read as it was at the time of each fire (from its audit records), with its version now and the versions applied.
             * @example [
             *       {
             *         "id": "de-holidays",
             *         "version": 3,
             *         "versionsUsed": [
             *           2,
             *           3
             *         ]
             *       }
             *     ]
             */
            calendars: {
                /**
                 * @description The calendar.
                 * @example de-holidays
                 */
                id: string;
                /**
                 * @description Its version as read now; null when it is missing.
                 * @example 3
                 */
                version: number | null;
                /**
                 * @description The versions the ledger applied, each where it held (rebuilt from the calendar’s audit records).
                 * @example [
                 *       2,
                 *       3
                 *     ]
                 */
                versionsUsed: number[];
            }[];
            /**
             * @description Calendars changed inside the window (the ledger follows each of their versions).
             * @example []
             */
            calendarsChangedInWindow: string[];
            /**
             * @description Runs read to build the ledger.
             * @example 60
             */
            runsRead: number;
            /**
             * @description The fires, oldest first.
             * @example []
             */
            entries: components["schemas"]["LedgerEntry"][];
        };
        /** @description One fire, or consecutive fires with the same fate. */
        LedgerEntry: {
            /**
             * Format: date-time
             * @description The fire’s scheduled time (its run keeps it), ISO-8601 UTC.
             * @example 2030-01-02T09:00:00.000Z
             */
            scheduledTime: string;
            /**
             * @description The last fire of a run of fires with the same fate, ISO-8601 UTC; null for one fire.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            until: string | null;
            /**
             * @description How many fires the entry stands for.
             * @example 1
             */
            count: number;
            /**
             * @description ran: a run has it (logId, status); skipped: recorded as skipped (rule); calendar: a calendar removed it (not owed); exception: a one-off exception skipped it (not owed); paused: the job was stopped (not owed; stoppedBy names the change that stopped it); notYetDue: due too recently to judge; unexplained: owed, and nothing explains it.
             * @example ran
             * @enum {string}
             */
            outcome: "ran" | "skipped" | "calendar" | "exception" | "paused" | "notYetDue" | "unexplained";
            /**
             * @description The run (a skip range’s first run); null when none.
             * @example 30064771072
             */
            logId: number | null;
            /**
             * @description ran: the run’s status (a broadcast’s worst shard).
             * @example success
             */
            status: ("running" | "success" | "fail") | null;
            /**
             * @description skipped: misfire (not planned in time, or a FIRE_ONCE_NOW catch-up stood for it), overload (it reached the dispatcher past the misfire threshold), overlap (a later fire was claimed first; for a workflow also: its overlap policy started no run), block (the executor’s block strategy refused it).
             * @example misfire
             */
            rule: ("misfire" | "overload" | "overlap" | "block") | null;
            /**
             * @description When it was due to fire, when not at its scheduled time (jitter, a move), ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            fireAt: string | null;
            /**
             * @description calendar: what removed the fire.
             * @example null
             */
            calendar: {
                /**
                 * @description The calendar that removed the fire.
                 * @example de-holidays
                 */
                calendarId: string;
                /**
                 * @description Which of the schedule’s lists named it.
                 * @example exclude
                 * @enum {string}
                 */
                list: "only" | "exclude";
                /**
                 * @description The fire’s date in the calendar’s zone.
                 * @example 2030-01-01
                 */
                date: string;
                /**
                 * @description WEEKEND or HOLIDAY.
                 * @example HOLIDAY
                 */
                reason: string;
                /**
                 * @description The excluded date’s label, if it has one.
                 * @example New Year
                 */
                label: string | null;
            } | null;
            /**
             * @description exception, or a moved fire: the one-off exception.
             * @example null
             */
            exception: {
                /**
                 * @description skip or move.
                 * @example skip
                 * @enum {string}
                 */
                action: "skip" | "move";
                /**
                 * @description A move’s new time, ISO-8601 UTC; null for a skip.
                 * @example 2030-01-01T02:00:00.000Z
                 * @example null
                 */
                to: string | null;
                /**
                 * @description Who made it.
                 * @example ana
                 */
                by: string;
                /**
                 * @description Why, as given.
                 * @example deploy
                 */
                reason: string | null;
            } | null;
            /**
             * @description paused: the audit action that stopped the job (job.stop, job.pausedByPolicy, job.scheduleEnded, workflow.stop, …).
             * @example job.stop
             */
            stoppedBy: string | null;
        };
        /** @description The fires a workflow’s schedule owed in a window and the workflow run each started, or why none. */
        WorkflowFireLedger: {
            /**
             * @description The workflow.
             * @example 3
             */
            workflowId: number;
            /**
             * @description The schedule job whose fires start the workflow’s runs; null without a schedule.
             * @example 12
             */
            starterJobId: number | null;
            /**
             * Format: date-time
             * @description The window’s start, ISO-8601 UTC.
             * @example 2030-01-02T09:00:00.000Z
             */
            from: string;
            /**
             * Format: date-time
             * @description The window’s end, ISO-8601 UTC.
             * @example 2030-01-02T10:00:00.000Z
             */
            to: string;
            /**
             * @description Fires per outcome, and skipped fires per rule.
             * @example {
             *       "ran": 58,
             *       "skipped": 2,
             *       "calendar": 0,
             *       "exception": 0,
             *       "paused": 0,
             *       "notYetDue": 0,
             *       "unexplained": 0,
             *       "skippedBy": {
             *         "misfire": 2,
             *         "overload": 0,
             *         "overlap": 0,
             *         "block": 0
             *       }
             *     }
             */
            summary: {
                /**
                 * @description Fires whose outcome is ran.
                 * @example 0
                 */
                ran: number;
                /**
                 * @description Fires whose outcome is skipped.
                 * @example 0
                 */
                skipped: number;
                /**
                 * @description Fires whose outcome is calendar.
                 * @example 0
                 */
                calendar: number;
                /**
                 * @description Fires whose outcome is exception.
                 * @example 0
                 */
                exception: number;
                /**
                 * @description Fires whose outcome is paused.
                 * @example 0
                 */
                paused: number;
                /**
                 * @description Fires whose outcome is notYetDue.
                 * @example 0
                 */
                notYetDue: number;
                /**
                 * @description Fires whose outcome is unexplained.
                 * @example 0
                 */
                unexplained: number;
                /**
                 * @description Skipped fires per rule.
                 * @example {
                 *       "misfire": 2,
                 *       "overload": 0,
                 *       "overlap": 0,
                 *       "block": 0
                 *     }
                 */
                skippedBy: {
                    /**
                     * @description Fires skipped by the misfire rule.
                     * @example 0
                     */
                    misfire: number;
                    /**
                     * @description Fires skipped by the overload rule.
                     * @example 0
                     */
                    overload: number;
                    /**
                     * @description Fires skipped by the overlap rule.
                     * @example 0
                     */
                    overlap: number;
                    /**
                     * @description Fires skipped by the block rule.
                     * @example 0
                     */
                    block: number;
                };
            };
            /**
             * @description An audit record in the window changed the schedule; the ledger follows each change.
             * @example false
             */
            definitionChangedInWindow: boolean;
            /**
             * @description audit: the schedule’s history rebuilt from the audit log; current: the schedule as it is now.
             * @example audit
             * @enum {string}
             */
            history: "audit" | "current";
            /**
             * @description The calendars the schedule named in the window, each read as it was at the time of each fire (from its audit records), with its version now and the versions applied.
             * @example [
             *       {
             *         "id": "de-holidays",
             *         "version": 3,
             *         "versionsUsed": [
             *           2,
             *           3
             *         ]
             *       }
             *     ]
             */
            calendars: {
                /**
                 * @description The calendar.
                 * @example de-holidays
                 */
                id: string;
                /**
                 * @description Its version as read now; null when it is missing.
                 * @example 3
                 */
                version: number | null;
                /**
                 * @description The versions the ledger applied, each where it held (rebuilt from the calendar’s audit records).
                 * @example [
                 *       2,
                 *       3
                 *     ]
                 */
                versionsUsed: number[];
            }[];
            /**
             * @description Calendars changed inside the window (the ledger follows each of their versions).
             * @example []
             */
            calendarsChangedInWindow: string[];
            /**
             * @description The schedule job’s runs read to build the ledger.
             * @example 60
             */
            runsRead: number;
            /**
             * @description Workflow runs read to build the ledger.
             * @example 58
             */
            workflowRunsRead: number;
            /**
             * @description The fires, oldest first.
             * @example []
             */
            entries: components["schemas"]["WorkflowLedgerEntry"][];
        };
        /** @description One fire of a workflow’s schedule, or consecutive fires with the same fate: ran is the workflow run it started; unexplained also when its schedule job claimed it and no workflow run came of it. */
        WorkflowLedgerEntry: {
            /**
             * Format: date-time
             * @description The fire’s scheduled time (its run keeps it), ISO-8601 UTC.
             * @example 2030-01-02T09:00:00.000Z
             */
            scheduledTime: string;
            /**
             * @description The last fire of a run of fires with the same fate, ISO-8601 UTC; null for one fire.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            until: string | null;
            /**
             * @description How many fires the entry stands for.
             * @example 1
             */
            count: number;
            /**
             * @description ran: a run has it (logId, status); skipped: recorded as skipped (rule); calendar: a calendar removed it (not owed); exception: a one-off exception skipped it (not owed); paused: the job was stopped (not owed; stoppedBy names the change that stopped it); notYetDue: due too recently to judge; unexplained: owed, and nothing explains it.
             * @example ran
             * @enum {string}
             */
            outcome: "ran" | "skipped" | "calendar" | "exception" | "paused" | "notYetDue" | "unexplained";
            /**
             * @description The schedule job’s run of the fire (a skip range’s first run); null when none.
             * @example 30064771072
             */
            logId: number | null;
            /**
             * @description ran: the workflow run’s status in short (QUEUED and RUNNING: running, SUCCEEDED: success, FAILED and CANCELLED: fail); fail without a runId when the start itself failed (the schedule job’s run says why); null when the run is no longer stored.
             * @example success
             */
            status: ("running" | "success" | "fail") | null;
            /**
             * @description skipped: misfire (not planned in time, or a FIRE_ONCE_NOW catch-up stood for it), overload (it reached the dispatcher past the misfire threshold), overlap (a later fire was claimed first; for a workflow also: its overlap policy started no run), block (the executor’s block strategy refused it).
             * @example misfire
             */
            rule: ("misfire" | "overload" | "overlap" | "block") | null;
            /**
             * @description When it was due to fire, when not at its scheduled time (jitter, a move), ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            fireAt: string | null;
            /**
             * @description calendar: what removed the fire.
             * @example null
             */
            calendar: {
                /**
                 * @description The calendar that removed the fire.
                 * @example de-holidays
                 */
                calendarId: string;
                /**
                 * @description Which of the schedule’s lists named it.
                 * @example exclude
                 * @enum {string}
                 */
                list: "only" | "exclude";
                /**
                 * @description The fire’s date in the calendar’s zone.
                 * @example 2030-01-01
                 */
                date: string;
                /**
                 * @description WEEKEND or HOLIDAY.
                 * @example HOLIDAY
                 */
                reason: string;
                /**
                 * @description The excluded date’s label, if it has one.
                 * @example New Year
                 */
                label: string | null;
            } | null;
            /**
             * @description exception, or a moved fire: the one-off exception.
             * @example null
             */
            exception: {
                /**
                 * @description skip or move.
                 * @example skip
                 * @enum {string}
                 */
                action: "skip" | "move";
                /**
                 * @description A move’s new time, ISO-8601 UTC; null for a skip.
                 * @example 2030-01-01T02:00:00.000Z
                 * @example null
                 */
                to: string | null;
                /**
                 * @description Who made it.
                 * @example ana
                 */
                by: string;
                /**
                 * @description Why, as given.
                 * @example deploy
                 */
                reason: string | null;
            } | null;
            /**
             * @description paused: the audit action that stopped the job (job.stop, job.pausedByPolicy, job.scheduleEnded, workflow.stop, …).
             * @example job.stop
             */
            stoppedBy: string | null;
            /**
             * @description ran: the workflow run the fire started; skipped by misfire: the catch-up run that stood for it; null otherwise.
             * @example wr-s30064771072
             */
            runId: string | null;
            /**
             * @description The workflow run’s status; null without a run, or when it is no longer stored (past its retention).
             * @example SUCCEEDED
             */
            runStatus: ("QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED") | null;
        };
        /** @description A page of workflows. */
        WorkflowPage: {
            /** @description Workflows in id order. */
            items: components["schemas"]["Workflow"][];
            /**
             * @description Pass it as `cursor` for the next page; null at the end. A page may come back short (even empty) with a cursor.
             * @example eyJpZCI6NDJ9
             * @example null
             */
            nextCursor: string | null;
        };
        /** @description A workflow: a DAG of jobs of one group, with its schedule. */
        Workflow: {
            /**
             * @description The workflow’s id.
             * @example 3
             */
            id: number;
            /**
             * @description The definition’s version: 1 on create, +1 per PUT. Runs keep the version they started with; send it back in a PUT to refuse (409) a lost update.
             * @example 1
             */
            version: number;
            /**
             * @description What the workflow does; not blank.
             * @example Nightly ETL
             */
            name: string;
            /**
             * @description The executor group the workflow belongs to (its AppName): every node’s job must be of it, and access to the workflow is access to the group.
             * @example my-app
             */
            appName: string;
            /**
             * @description NONE: runs only when triggered (POST /v1/workflows/{id}/trigger); CRON, FIX_RATE, ONCE: as a job’s schedule (the workflow’s schedule job fires it).
             * @example CRON
             * @enum {string}
             */
            scheduleType: "NONE" | "CRON" | "FIX_RATE" | "ONCE";
            /**
             * @description The schedule, read by scheduleType: a Quartz cron (`0 0 2 * * ?`), whole seconds >= 1 (`30`), or an instant with a zone; empty for NONE.
             * @example 0 0 2 * * ?
             */
            scheduleConf: string;
            /**
             * @description The IANA time zone a cron is read in.
             * @example Europe/Berlin
             */
            timeZone: string;
            /**
             * @description A scheduled fire more than 5 s late: DO_NOTHING skips it; FIRE_ONCE_NOW starts one catch-up run.
             * @example DO_NOTHING
             * @enum {string}
             */
            misfireStrategy: "DO_NOTHING" | "FIRE_ONCE_NOW";
            /**
             * @description The calendars the schedule follows, by id (empty lists: none). A calendar marks each local date of its zone as a working day or not (weekly pattern, minus its excluded dates and ranges, plus its make-up days). only: a fire is made only on a date that is a working day of every calendar listed (a make-up Saturday fires, a holiday Monday does not). exclude: no fire on a date a calendar listed excludes (its holidays and ranges), whatever its weekly pattern and make-up days say. A fire’s date is taken in each calendar’s own zone; with both lists a fire must pass both. Fires removed are not made (they do not count towards maxRuns); triggerNextTime is the next one allowed, and a schedule with none in the next 5 years stops itself (scheduleEnded.reason calendar). A calendar change re-plans every RUNNING job that names it from the save: its next fire is the first allowed after now + 5 s, and the fires already planned under the old calendar are dropped. Each calendar must exist; one a job names cannot be deleted.
             * @example {
             *       "only": [
             *         "cn-workdays"
             *       ],
             *       "exclude": []
             *     }
             */
            calendars: {
                /**
                 * @description Fires only on working days of every one of these.
                 * @example [
                 *       "cn-workdays"
                 *     ]
                 */
                only: string[];
                /**
                 * @description Never fires on a date one of these excludes.
                 * @example [
                 *       "cn-holidays"
                 *     ]
                 */
                exclude: string[];
            };
            /**
             * @description A new run (scheduled or triggered) while another runs: SKIP does not start it (a trigger answers 409); BUFFER_ONE lets one wait (QUEUED) and starts it when the running one ends, later ones are skipped; ALLOW starts it beside the others; CANCEL_PREVIOUS cancels the running ones and starts it.
             * @example SKIP
             * @enum {string}
             */
            overlapPolicy: "SKIP" | "BUFFER_ONE" | "ALLOW" | "CANCEL_PREVIOUS";
            /**
             * @description Must have succeeded by a local time each day, as a job’s deadline: a window (from the deadline before to this one) in which no run of the workflow ended SUCCEEDED raises one deadlineMissed alarm (through its schedule job’s alarm paths; a workflow without a schedule, its first node’s job’s). null or absent: none.
             * @example {
             *       "time": "06:00",
             *       "timeZone": "Europe/Berlin",
             *       "days": "weekdays"
             *     }
             */
            deadline: components["schemas"]["Deadline"] | null;
            /**
             * @description The DAG: 1-200 nodes, keys unique, no cycles (each cycle is named), at least one root, no node that no combination of outcomes can run.
             * @example [
             *       {
             *         "key": "extract",
             *         "jobId": 7,
             *         "upstream": []
             *       }
             *     ]
             */
            nodes: components["schemas"]["WorkflowNode"][];
            /**
             * @description No scheduled fire before this instant (ISO-8601 with Z or an offset); null or absent: none. A cron fires at its first time from here; a FIX_RATE schedule counts its rate from here.
             * @example 2030-01-01T00:00:00Z
             */
            startAt: string | null;
            /**
             * @description No scheduled fire after this instant (a fire’s scheduled time, before its jitter); must be after startAt. When it has passed, the job stops itself (scheduleEnded.reason endAt). null or absent: none.
             * @example 2030-12-31T23:59:59Z
             */
            endAt: string | null;
            /**
             * @description At most this many scheduled fires, counted from when the limit is set (a fire counts when the scheduler plans it; manual, API, parent and retry runs do not count); then the job stops itself (scheduleEnded.reason maxRuns). Raising it keeps the count (runsRemaining grows); null removes the limit and its count.
             * @example 3
             */
            maxRuns: number | null;
            /**
             * @description Delays each scheduled fire by an offset in [0, jitterSeconds) s, the same for every copy of the fire (a hash of the job and its scheduled time); the fire keeps its scheduled time as its identity. At most 3600, and less than the schedule’s smallest interval between fires. 0: none.
             * @example 30
             */
            jitterSeconds: number;
            /**
             * @description RUNNING: the schedule fires; STOPPED: the workflow runs only when triggered. A NONE schedule is always STOPPED.
             * @example RUNNING
             * @enum {string}
             */
            triggerStatus: "RUNNING" | "STOPPED";
            /**
             * @description The job of the group whose schedule starts the workflow (managed by the workflow: the job routes refuse to change it, 409); null for a NONE schedule.
             * @example 12
             * @example null
             */
            starterJobId: number | null;
            /**
             * @description The schedule’s next fire while RUNNING (its schedule job’s), ISO-8601 UTC; null when stopped or NONE.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            triggerNextTime: string | null;
            /**
             * @description Scheduled fires left under maxRuns (its schedule job’s count); null without a limit.
             * @example null
             */
            runsRemaining: number | null;
            /**
             * @description Set when the schedule stopped itself (maxRuns used up, past endAt, no next fire): why and when; the workflow is then STOPPED. Cleared when it is started again. null otherwise.
             * @example null
             */
            scheduleEnded: components["schemas"]["ScheduleEnded"] | null;
            /**
             * @description Where the workflow stands against its deadline: met (a run ended SUCCEEDED in the current window, at), missed (the last window closed without one; shown until a success), pending; null without a deadline.
             * @example null
             */
            deadlineStatus: components["schemas"]["DeadlineStatus"] | null;
            /**
             * @description Runs RUNNING now.
             * @example 0
             */
            activeRuns: number;
            /**
             * @description The run BUFFER_ONE keeps waiting (QUEUED); null when none.
             * @example null
             */
            bufferedRunId: string | null;
            /**
             * Format: date-time
             * @description When the workflow was created, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description When the workflow last changed, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            updatedAt: string;
        };
        /** @description A node: one run of a job per attempt. */
        WorkflowNode: {
            /**
             * @description The node’s key, unique in the workflow: 1-64 characters of letters, digits, '_' and '-', starting with a letter.
             * @example extract
             */
            key: string;
            /**
             * @description The job the node runs: a job of the workflow’s group (not a workflow’s schedule job). Its handler, routing, timeout and retries apply.
             * @example 7
             */
            jobId: number;
            /**
             * @description A template for the run’s executorParam (at most 65536 bytes): `{{ input.x }}` reads the run’s input, `{{ nodes.<key>.result.a[0] }}` an upstream node’s result (parsed as JSON when it is JSON), `{{ '{{' }}` is a literal. Only ancestors’ results may be named; a value missing at run time fails the node with the path named. Absent: the job’s own executorParam.
             * @example {"date": "{{ input.date }}", "rows": {{ nodes.extract.result.rows }}}
             */
            executorParam?: string;
            /**
             * @description The nodes it runs after; empty (or absent) for a root, which runs when the run starts.
             * @default []
             * @example [
             *       {
             *         "key": "extract",
             *         "condition": "ON_SUCCESS"
             *       }
             *     ]
             */
            upstream?: components["schemas"]["WorkflowEdge"][];
        };
        /** @description An edge from an upstream node. */
        WorkflowEdge: {
            /**
             * @description The upstream node’s key: another node of the workflow, listed once per node.
             * @example extract
             */
            key: string;
            /**
             * @description When the node may run after this upstream node: ON_SUCCESS (it succeeded), ON_FAILURE (it failed: a failure handler, which makes that failure handled), ALWAYS (it finished in any way, skipped included: cleanup, notification). A node runs once every upstream node has finished and each edge’s condition holds; it is skipped as soon as one cannot hold any more.
             * @default ON_SUCCESS
             * @example ON_SUCCESS
             * @enum {string}
             */
            condition?: "ON_SUCCESS" | "ON_FAILURE" | "ALWAYS";
        };
        /** @description A workflow definition: the whole of it (a PUT replaces the definition, as a new version). Checked as a whole, every problem at once: the fields, the graph (each cycle named), the templates, the group and every node’s job. A workflow read with GET may be sent back: read-only fields are ignored. */
        WorkflowRequest: {
            /**
             * @description What the workflow does; not blank.
             * @example Nightly ETL
             */
            name: string;
            /**
             * @description The executor group the workflow belongs to (its AppName): every node’s job must be of it, and access to the workflow is access to the group.
             * @example my-app
             */
            appName: string;
            /**
             * @description NONE: runs only when triggered (POST /v1/workflows/{id}/trigger); CRON, FIX_RATE, ONCE: as a job’s schedule (the workflow’s schedule job fires it).
             * @default NONE
             * @example CRON
             * @enum {string}
             */
            scheduleType?: "NONE" | "CRON" | "FIX_RATE" | "ONCE";
            /**
             * @description The schedule, read by scheduleType: a Quartz cron (`0 0 2 * * ?`), whole seconds >= 1 (`30`), or an instant with a zone; empty for NONE.
             * @default
             * @example 0 0 2 * * ?
             */
            scheduleConf?: string;
            /**
             * @description The IANA time zone a cron is read in.
             * @default UTC
             * @example Europe/Berlin
             */
            timeZone?: string;
            /**
             * @description A scheduled fire more than 5 s late: DO_NOTHING skips it; FIRE_ONCE_NOW starts one catch-up run.
             * @default DO_NOTHING
             * @example DO_NOTHING
             * @enum {string}
             */
            misfireStrategy?: "DO_NOTHING" | "FIRE_ONCE_NOW";
            /**
             * @description No scheduled fire before this instant (ISO-8601 with Z or an offset); null or absent: none. A cron fires at its first time from here; a FIX_RATE schedule counts its rate from here.
             * @example 2030-01-01T00:00:00Z
             */
            startAt?: string | null;
            /**
             * @description No scheduled fire after this instant (a fire’s scheduled time, before its jitter); must be after startAt. When it has passed, the job stops itself (scheduleEnded.reason endAt). null or absent: none.
             * @example 2030-12-31T23:59:59Z
             */
            endAt?: string | null;
            /**
             * @description At most this many scheduled fires, counted from when the limit is set (a fire counts when the scheduler plans it; manual, API, parent and retry runs do not count); then the job stops itself (scheduleEnded.reason maxRuns). Raising it keeps the count (runsRemaining grows); null removes the limit and its count.
             * @example 3
             */
            maxRuns?: number | null;
            /**
             * @description Delays each scheduled fire by an offset in [0, jitterSeconds) s, the same for every copy of the fire (a hash of the job and its scheduled time); the fire keeps its scheduled time as its identity. At most 3600, and less than the schedule’s smallest interval between fires. 0: none.
             * @default 0
             * @example 30
             */
            jitterSeconds?: number;
            /**
             * @description The calendars the schedule follows, by id, as a job’s (its schedule job carries them); null, {} or empty lists: none (a workflow read shows empty lists). A calendar marks each local date of its zone as a working day or not (weekly pattern, minus its excluded dates and ranges, plus its make-up days). only: a fire is made only on a date that is a working day of every calendar listed (a make-up Saturday fires, a holiday Monday does not). exclude: no fire on a date a calendar listed excludes (its holidays and ranges), whatever its weekly pattern and make-up days say. A fire’s date is taken in each calendar’s own zone; with both lists a fire must pass both. Fires removed are not made (they do not count towards maxRuns); triggerNextTime is the next one allowed, and a schedule with none in the next 5 years stops itself (scheduleEnded.reason calendar). A calendar change re-plans every RUNNING job that names it from the save: its next fire is the first allowed after now + 5 s, and the fires already planned under the old calendar are dropped. Each calendar must exist; one a job names cannot be deleted.
             * @example {
             *       "only": [
             *         "cn-workdays"
             *       ],
             *       "exclude": []
             *     }
             */
            calendars?: {
                /**
                 * @description Fire only on working days of every one of these (at most 10).
                 * @example [
                 *       "cn-workdays"
                 *     ]
                 */
                only?: string[];
                /**
                 * @description Never fire on a date one of these excludes (at most 10).
                 * @example [
                 *       "cn-holidays"
                 *     ]
                 */
                exclude?: string[];
            } | null;
            /**
             * @description A new run (scheduled or triggered) while another runs: SKIP does not start it (a trigger answers 409); BUFFER_ONE lets one wait (QUEUED) and starts it when the running one ends, later ones are skipped; ALLOW starts it beside the others; CANCEL_PREVIOUS cancels the running ones and starts it.
             * @default SKIP
             * @example SKIP
             * @enum {string}
             */
            overlapPolicy?: "SKIP" | "BUFFER_ONE" | "ALLOW" | "CANCEL_PREVIOUS";
            /**
             * @description Must have succeeded by a local time each day, as a job’s deadline: a window (from the deadline before to this one) in which no run of the workflow ended SUCCEEDED raises one deadlineMissed alarm (through its schedule job’s alarm paths; a workflow without a schedule, its first node’s job’s). null or absent: none.
             * @example {
             *       "time": "06:00",
             *       "timeZone": "Europe/Berlin",
             *       "days": "weekdays"
             *     }
             */
            deadline?: components["schemas"]["Deadline"] | null;
            /**
             * @description The DAG: 1-200 nodes, keys unique, no cycles (each cycle is named), at least one root, no node that no combination of outcomes can run.
             * @example [
             *       {
             *         "key": "extract",
             *         "jobId": 7,
             *         "upstream": []
             *       }
             *     ]
             */
            nodes: components["schemas"]["WorkflowNode"][];
            /**
             * @description RUNNING: the schedule fires; STOPPED: the workflow runs only when triggered. A NONE schedule is always STOPPED. POST: STOPPED when absent; PUT: the workflow’s when absent.
             * @example RUNNING
             * @enum {string}
             */
            triggerStatus?: "RUNNING" | "STOPPED";
            /**
             * @description PUT: when given, it must be the id in the path. POST: ignored.
             * @example 3
             */
            readonly id?: unknown;
            /**
             * @description PUT: when given, it must be the workflow’s current version, or the answer is 409 (optimistic concurrency). POST: ignored.
             * @example 1
             */
            readonly version?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (a workflow as read) and it is ignored.
             * @example null
             */
            readonly starterJobId?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (a workflow as read) and it is ignored.
             * @example null
             */
            readonly triggerNextTime?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (a workflow as read) and it is ignored.
             * @example 0
             */
            readonly activeRuns?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (a workflow as read) and it is ignored.
             * @example null
             */
            readonly bufferedRunId?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (a workflow as read) and it is ignored.
             * @example null
             */
            readonly runsRemaining?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (a workflow as read) and it is ignored.
             * @example null
             */
            readonly scheduleEnded?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (a workflow as read) and it is ignored.
             * @example null
             */
            readonly deadlineStatus?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (a workflow as read) and it is ignored.
             * @example 2030-01-01T02:00:00.000Z
             */
            readonly createdAt?: unknown;
            /**
             * @description Read-only: shown in answers; a body may carry it (a workflow as read) and it is ignored.
             * @example 2030-01-01T02:00:00.000Z
             */
            readonly updatedAt?: unknown;
        };
        /** @description A run of a workflow, with its nodes. */
        WorkflowRun: {
            /**
             * @description The run’s id.
             * @example wr-m5x8k2a1-3f9c1d2e6b8a
             */
            id: string;
            /**
             * @description Its workflow.
             * @example 3
             */
            workflowId: number;
            /**
             * @description The definition version it follows, whatever edits came later.
             * @example 1
             */
            version: number;
            /**
             * @description The workflow’s name when it started.
             * @example Nightly ETL
             */
            workflowName: string;
            /**
             * @description The workflow’s group.
             * @example my-app
             */
            appName: string;
            /**
             * @description QUEUED: waiting for the running run (BUFFER_ONE); RUNNING; SUCCEEDED: every failure handled; FAILED: a node’s failure was not handled (failedNodes); CANCELLED.
             * @example RUNNING
             * @enum {string}
             */
            status: "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
            /**
             * @description The run’s input (JSON).
             * @example {
             *       "date": "2030-01-01"
             *     }
             */
            input: unknown;
            /**
             * @description What started it.
             * @example {
             *       "type": "MANUAL",
             *       "starterLogId": null,
             *       "scheduledTime": null,
             *       "by": "ana"
             *     }
             */
            trigger: {
                /**
                 * @description SCHEDULE: its schedule fired; MANUAL: POST /v1/workflows/{id}/trigger; BACKFILL: a backfill of its schedule (POST /v1/workflows/{id}/backfill).
                 * @example MANUAL
                 * @enum {string}
                 */
                type: "SCHEDULE" | "MANUAL" | "BACKFILL";
                /**
                 * @description SCHEDULE and BACKFILL: the run of the schedule job that started it; null otherwise.
                 * @example null
                 */
                starterLogId: number | null;
                /**
                 * @description BACKFILL: the past fire’s scheduled time (also the run’s input `scheduledTime`); null otherwise, ISO-8601 UTC.
                 * @example 2030-01-01T02:00:00.000Z
                 * @example null
                 */
                scheduledTime: string | null;
                /**
                 * @description MANUAL: who triggered it (a username, `token:<name>` or `bootstrap`); null otherwise.
                 * @example ana
                 */
                by: string | null;
            };
            /**
             * Format: date-time
             * @description When the run was made, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            createdAt: string;
            /**
             * @description When it started running (a QUEUED run later than it was made), ISO-8601 UTC; null before.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            startedAt: string | null;
            /**
             * @description When it ended (SUCCEEDED, FAILED, CANCELLED), ISO-8601 UTC; null before.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            finishedAt: string | null;
            /**
             * @description FAILED: the nodes whose failure no ON_FAILURE node handled, in definition order; else empty.
             * @example [
             *       "load"
             *     ]
             */
            failedNodes: string[];
            /** @description Every node of the run’s definition version, in definition order. */
            nodes: components["schemas"]["WorkflowRunNode"][];
        };
        /** @description A node of a run: its state, result and job runs. */
        WorkflowRunNode: {
            /**
             * @description The node’s key.
             * @example extract
             */
            key: string;
            /**
             * @description The job it runs.
             * @example 7
             */
            jobId: number;
            /**
             * @description PENDING until fired; RUNNING until its job run (every shard of a broadcast) ended for good, retries included; then SUCCEEDED or FAILED; SKIPPED when an upstream condition can no longer hold; CANCELLED when the run was cancelled before it ran.
             * @example SUCCEEDED
             * @enum {string}
             */
            status: "PENDING" | "RUNNING" | "SUCCEEDED" | "FAILED" | "SKIPPED" | "CANCELLED";
            /**
             * @description Times the node was fired (0 before the first; a retry of the run fires it again).
             * @example 1
             */
            attempt: number;
            /**
             * @description Its edges, as defined.
             * @example [
             *       {
             *         "key": "extract",
             *         "condition": "ON_SUCCESS"
             *       }
             *     ]
             */
            upstream: {
                /**
                 * @description The upstream node.
                 * @example extract
                 */
                key: string;
                /**
                 * @description The edge’s condition.
                 * @example ON_SUCCESS
                 * @enum {string}
                 */
                condition: "ON_SUCCESS" | "ON_FAILURE" | "ALWAYS";
            }[];
            /**
             * @description SUCCEEDED or FAILED: its job run’s result message (handleMsg; a broadcast’s: the shards’ results as a JSON array); null otherwise.
             * @example {"rows": 1204}
             */
            result: string | null;
            /**
             * @description The result parsed as JSON, as templates read it; null when it is not JSON (or none).
             * @example {
             *       "rows": 1204
             *     }
             */
            resultJson: unknown;
            /**
             * @description SKIPPED or CANCELLED: why; null otherwise.
             * @example null
             */
            reason: string | null;
            /**
             * @description The job runs of its current attempt (GET /v1/logs/{logId}): one, or one per broadcast shard (their latest retries); empty before a dispatcher claimed them.
             * @example [
             *       30064771073
             *     ]
             */
            logIds: number[];
            /**
             * @description When its current attempt was fired, ISO-8601 UTC; null before.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            firedAt: string | null;
            /**
             * @description When it last finished (or was skipped or cancelled), ISO-8601 UTC; null before.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            finishedAt: string | null;
        };
        /** @description What a run started by hand gets; the body may be absent. */
        WorkflowTriggerRequest: {
            /**
             * @description The run’s input, any JSON (at most 64 KiB as JSON); templates read it as `input`. Absent: `{}`.
             * @example {
             *       "date": "2030-01-01"
             *     }
             */
            input?: unknown;
        };
        /** @description A page of workflow runs. */
        WorkflowRunPage: {
            /** @description Runs, newest first. */
            items: components["schemas"]["WorkflowRunSummary"][];
            /**
             * @description Pass it as `cursor` for the next page; null at the end. A page may come back short (even empty) with a cursor.
             * @example eyJpZCI6NDJ9
             * @example null
             */
            nextCursor: string | null;
        };
        /** @description A run of a workflow as lists show it: its nodes counted by status (GET the run for them). */
        WorkflowRunSummary: {
            /**
             * @description The run’s id.
             * @example wr-m5x8k2a1-3f9c1d2e6b8a
             */
            id: string;
            /**
             * @description Its workflow.
             * @example 3
             */
            workflowId: number;
            /**
             * @description The definition version it follows, whatever edits came later.
             * @example 1
             */
            version: number;
            /**
             * @description The workflow’s name when it started.
             * @example Nightly ETL
             */
            workflowName: string;
            /**
             * @description The workflow’s group.
             * @example my-app
             */
            appName: string;
            /**
             * @description QUEUED: waiting for the running run (BUFFER_ONE); RUNNING; SUCCEEDED: every failure handled; FAILED: a node’s failure was not handled (failedNodes); CANCELLED.
             * @example RUNNING
             * @enum {string}
             */
            status: "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
            /**
             * @description The run’s input (JSON).
             * @example {
             *       "date": "2030-01-01"
             *     }
             */
            input: unknown;
            /**
             * @description What started it.
             * @example {
             *       "type": "MANUAL",
             *       "starterLogId": null,
             *       "scheduledTime": null,
             *       "by": "ana"
             *     }
             */
            trigger: {
                /**
                 * @description SCHEDULE: its schedule fired; MANUAL: POST /v1/workflows/{id}/trigger; BACKFILL: a backfill of its schedule (POST /v1/workflows/{id}/backfill).
                 * @example MANUAL
                 * @enum {string}
                 */
                type: "SCHEDULE" | "MANUAL" | "BACKFILL";
                /**
                 * @description SCHEDULE and BACKFILL: the run of the schedule job that started it; null otherwise.
                 * @example null
                 */
                starterLogId: number | null;
                /**
                 * @description BACKFILL: the past fire’s scheduled time (also the run’s input `scheduledTime`); null otherwise, ISO-8601 UTC.
                 * @example 2030-01-01T02:00:00.000Z
                 * @example null
                 */
                scheduledTime: string | null;
                /**
                 * @description MANUAL: who triggered it (a username, `token:<name>` or `bootstrap`); null otherwise.
                 * @example ana
                 */
                by: string | null;
            };
            /**
             * Format: date-time
             * @description When the run was made, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            createdAt: string;
            /**
             * @description When it started running (a QUEUED run later than it was made), ISO-8601 UTC; null before.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            startedAt: string | null;
            /**
             * @description When it ended (SUCCEEDED, FAILED, CANCELLED), ISO-8601 UTC; null before.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            finishedAt: string | null;
            /**
             * @description FAILED: the nodes whose failure no ON_FAILURE node handled, in definition order; else empty.
             * @example [
             *       "load"
             *     ]
             */
            failedNodes: string[];
            /**
             * @description The run’s nodes by status (a QUEUED run has none yet).
             * @example {
             *       "PENDING": 1,
             *       "RUNNING": 1,
             *       "SUCCEEDED": 1,
             *       "FAILED": 0,
             *       "SKIPPED": 0,
             *       "CANCELLED": 0
             *     }
             */
            nodeCounts: {
                /**
                 * @description Nodes waiting for their upstream nodes.
                 * @example 1
                 */
                PENDING: number;
                /**
                 * @description Nodes whose job runs.
                 * @example 1
                 */
                RUNNING: number;
                /**
                 * @description Nodes that succeeded.
                 * @example 1
                 */
                SUCCEEDED: number;
                /**
                 * @description Nodes that failed.
                 * @example 1
                 */
                FAILED: number;
                /**
                 * @description Nodes skipped (an upstream condition can no longer hold).
                 * @example 1
                 */
                SKIPPED: number;
                /**
                 * @description Nodes cancelled before they ran.
                 * @example 1
                 */
                CANCELLED: number;
            };
        };
        CalendarPage: {
            /**
             * @description Calendars, by id.
             * @example []
             */
            items: components["schemas"]["Calendar"][];
            /**
             * @description Pass it as `cursor` for the next page; null at the end. A page may come back short (even empty) with a cursor.
             * @example eyJpZCI6NDJ9
             * @example null
             */
            nextCursor: string | null;
        };
        /** @description A business calendar. */
        Calendar: {
            /**
             * @description The calendar’s id.
             * @example cn-workdays
             */
            id: string;
            /**
             * @description What the calendar is; not blank.
             * @example China workdays
             */
            name: string;
            /**
             * @description Notes (may be empty).
             * @example Public holidays
             */
            description: string;
            /**
             * @description The IANA zone its dates are local to.
             * @example Asia/Shanghai
             */
            timeZone: string;
            /**
             * @description The working weekdays, Monday first.
             * @example [
             *       "MON",
             *       "TUE",
             *       "WED",
             *       "THU",
             *       "FRI"
             *     ]
             */
            workingDays: ("MON" | "TUE" | "WED" | "THU" | "FRI" | "SAT" | "SUN")[];
            /**
             * @description Excluded dates and ranges, sorted by `from`.
             * @example [
             *       {
             *         "from": "2030-10-01",
             *         "to": "2030-10-07",
             *         "label": "National Day"
             *       }
             *     ]
             */
            excluded: components["schemas"]["CalendarExclusion"][];
            /**
             * @description Make-up workdays, sorted by date.
             * @example [
             *       {
             *         "date": "2030-09-28",
             *         "label": "Make-up for National Day"
             *       }
             *     ]
             */
            included: components["schemas"]["CalendarInclusion"][];
            /**
             * @description 1 on create, +1 on every change (also the ETag).
             * @example 3
             */
            version: number;
            /**
             * Format: date-time
             * @description When it was created, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description When it last changed, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            updatedAt: string;
            /**
             * @description Who changed it last.
             * @example ana
             */
            updatedBy: string;
        };
        /** @description Days taken out: one date or a range. */
        CalendarExclusion: {
            /**
             * Format: date
             * @description A local date of the calendar’s zone, YYYY-MM-DD, from 1970-01-01 to 2199-12-31.
             * @example 2030-10-01
             */
            from: string;
            /**
             * Format: date
             * @description The range’s last day (included); absent for one day. At most 366 days.
             * @example 2030-10-01
             */
            to?: string;
            /**
             * @description What the days are (a holiday’s name).
             * @example National Day
             */
            label?: string;
        };
        /** @description A make-up workday: allowed whatever the weekly pattern and the exclusions say. */
        CalendarInclusion: {
            /**
             * Format: date
             * @description A local date of the calendar’s zone, YYYY-MM-DD, from 1970-01-01 to 2199-12-31.
             * @example 2030-10-01
             */
            date: string;
            /**
             * @description What the days are (a holiday’s name).
             * @example National Day
             */
            label?: string;
        };
        /** @description A new calendar. */
        CalendarCreate: {
            /**
             * @description The new calendar’s id: schedules will name it.
             * @example cn-workdays
             */
            id: string;
            /**
             * @description What the calendar is; not blank.
             * @example China workdays
             */
            name: string;
            /**
             * @description Notes; empty by default.
             * @example Public holidays and make-up days
             */
            description?: string;
            /**
             * @description The IANA zone its dates are local to (default UTC): an instant is judged by its date there.
             * @example Asia/Shanghai
             */
            timeZone?: string;
            /**
             * @description The weekly pattern: the working weekdays. Default MON to FRI; [] for none.
             * @example [
             *       "MON",
             *       "TUE",
             *       "WED",
             *       "THU",
             *       "FRI"
             *     ]
             */
            workingDays?: ("MON" | "TUE" | "WED" | "THU" | "FRI" | "SAT" | "SUN")[];
            /**
             * @description Excluded dates and ranges (holidays), at most 1000, none overlapping; stored sorted.
             * @example [
             *       {
             *         "from": "2030-10-01",
             *         "to": "2030-10-07",
             *         "label": "National Day"
             *       }
             *     ]
             */
            excluded?: components["schemas"]["CalendarExclusion"][];
            /**
             * @description Make-up workdays, at most 400, each date once; they win over the pattern and the exclusions.
             * @example [
             *       {
             *         "date": "2030-09-28",
             *         "label": "Make-up for National Day"
             *       }
             *     ]
             */
            included?: components["schemas"]["CalendarInclusion"][];
        };
        CalendarImported: {
            calendar: components["schemas"]["Calendar"];
            /**
             * @description What was left out or merged: timed events, exceptions of a series, overlapping events.
             * @example [
             *       "event 2 (Standup): not an all-day event (DTSTART has a time), left out"
             *     ]
             */
            notes: string[];
        };
        /** @description A new calendar from an iCalendar text; the fields given win over the text’s (X-WR-CALNAME, X-WR-TIMEZONE, X-TICKRING-WORKING-DAYS). */
        CalendarImportRequest: {
            /**
             * @description The calendar’s id.
             * @example cn-workdays
             */
            id: string;
            /**
             * @description The iCalendar (.ics) text: at most 1048576 bytes and 2000 events.
             * @example BEGIN:VCALENDAR
             *     VERSION:2.0
             *     PRODID:-//example//EN
             *     END:VCALENDAR
             */
            ics: string;
            /**
             * @description What the calendar is; not blank.
             * @example China workdays
             */
            name?: string;
            /**
             * @description Notes; empty by default.
             * @example Public holidays and make-up days
             */
            description?: string;
            /**
             * @description The IANA zone its dates are local to (default UTC): an instant is judged by its date there.
             * @example Asia/Shanghai
             */
            timeZone?: string;
            /**
             * @description The weekly pattern: the working weekdays. Default MON to FRI; [] for none.
             * @example [
             *       "MON",
             *       "TUE",
             *       "WED",
             *       "THU",
             *       "FRI"
             *     ]
             */
            workingDays?: ("MON" | "TUE" | "WED" | "THU" | "FRI" | "SAT" | "SUN")[];
        };
        /** @description The whole calendar, replacing the stored one. */
        CalendarUpdate: {
            /**
             * @description What the calendar is; not blank.
             * @example China workdays
             */
            name: string;
            /**
             * @description Notes; empty by default.
             * @example Public holidays and make-up days
             */
            description?: string;
            /**
             * @description The IANA zone its dates are local to (default UTC): an instant is judged by its date there.
             * @example Asia/Shanghai
             */
            timeZone?: string;
            /**
             * @description The weekly pattern: the working weekdays. Default MON to FRI; [] for none.
             * @example [
             *       "MON",
             *       "TUE",
             *       "WED",
             *       "THU",
             *       "FRI"
             *     ]
             */
            workingDays?: ("MON" | "TUE" | "WED" | "THU" | "FRI" | "SAT" | "SUN")[];
            /**
             * @description Excluded dates and ranges (holidays), at most 1000, none overlapping; stored sorted.
             * @example [
             *       {
             *         "from": "2030-10-01",
             *         "to": "2030-10-07",
             *         "label": "National Day"
             *       }
             *     ]
             */
            excluded?: components["schemas"]["CalendarExclusion"][];
            /**
             * @description Make-up workdays, at most 400, each date once; they win over the pattern and the exclusions.
             * @example [
             *       {
             *         "date": "2030-09-28",
             *         "label": "Make-up for National Day"
             *       }
             *     ]
             */
            included?: components["schemas"]["CalendarInclusion"][];
            /**
             * @description The version read; or send it as `If-Match: "3"`. One of the two is required.
             * @example 3
             */
            expectedVersion?: number;
        };
        CalendarDays: {
            /**
             * @description The calendar’s id.
             * @example cn-workdays
             */
            calendarId: string;
            /**
             * @description The version the days were read from.
             * @example 3
             */
            version: number;
            /**
             * @description The zone the dates are local to.
             * @example Asia/Shanghai
             */
            timeZone: string;
            /**
             * @description Every day of the range, in order.
             * @example []
             */
            days: components["schemas"]["CalendarDay"][];
        };
        CalendarDay: {
            /**
             * Format: date
             * @description A local date of the calendar’s zone, YYYY-MM-DD, from 1970-01-01 to 2199-12-31.
             * @example 2030-10-01
             */
            date: string;
            /**
             * @description The day of the week.
             * @example TUE
             * @enum {string}
             */
            weekday: "MON" | "TUE" | "WED" | "THU" | "FRI" | "SAT" | "SUN";
            /**
             * @description Whether a schedule limited to the calendar may fire that day.
             * @example false
             */
            allowed: boolean;
            /**
             * @description WORKDAY: a working weekday; WEEKEND: a weekday the pattern leaves out; HOLIDAY: excluded; MAKEUP_DAY: a make-up workday.
             * @example HOLIDAY
             * @enum {string}
             */
            reason: "WORKDAY" | "WEEKEND" | "HOLIDAY" | "MAKEUP_DAY";
            /**
             * @description The exclusion’s or make-up day’s label.
             * @example National Day
             * @example null
             */
            label: string | null;
        };
        BackfillPreview: {
            /**
             * @description The job (a workflow’s: its starter job).
             * @example 7
             */
            jobId: number;
            /**
             * @description The workflow whose schedule it previews; null: a job’s.
             * @example null
             */
            workflowId: number | null;
            /**
             * Format: date-time
             * @description The range’s start, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            from: string;
            /**
             * Format: date-time
             * @description The range’s end, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            to: string;
            /**
             * @description The fires the range holds, counted up to the limit + 1.
             * @example 288
             */
            total: number;
            /**
             * @description More fires than a backfill may make: split the range.
             * @example false
             */
            tooMany: boolean;
            /**
             * @description Most fires of one backfill.
             * @example 10000
             */
            limit: number;
            /**
             * @description The first fire’s scheduled time (null: none), ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            first: string | null;
            /**
             * @description The last fire’s scheduled time, within the limit (null: none), ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            last: string | null;
        };
        /** @description A past range of the job’s schedule. */
        BackfillPreviewRequest: {
            /**
             * Format: date-time
             * @description The range’s start: the first fire is at or after it, ISO-8601 UTC.
             * @example 2030-01-01T00:00:00.000Z
             */
            from: string;
            /**
             * Format: date-time
             * @description The range’s end: every fire is before it; not in the future, ISO-8601 UTC.
             * @example 2030-01-02T00:00:00.000Z
             */
            to: string;
        };
        Backfill: {
            /**
             * @description The backfill’s id (it names its job).
             * @example bf-7-mfx3k2a1-9c1e
             */
            id: string;
            /**
             * @description The job whose schedule it runs (a workflow’s: its starter job).
             * @example 7
             */
            jobId: number;
            /**
             * @description The workflow whose schedule it runs: each fire starts a workflow run (trigger BACKFILL) and runs until that run ends; null: a job’s.
             * @example null
             */
            workflowId: number | null;
            /**
             * @description The job’s group.
             * @example orders
             */
            appName: string;
            /**
             * Format: date-time
             * @description The range’s start, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            from: string;
            /**
             * Format: date-time
             * @description The range’s end, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            to: string;
            /**
             * @description Most of its fires running at once.
             * @example 2
             */
            parallelism: number;
            /**
             * @description Most fires started a minute; null: no rate limit.
             * @example 30
             * @example null
             */
            ratePerMinute: number | null;
            /**
             * @description The schedule it follows, as the job had it when it started.
             * @example CRON
             * @enum {string}
             */
            scheduleType: "CRON" | "FIX_RATE";
            /**
             * @description The schedule’s cron or seconds.
             * @example 0 0 * * * ?
             */
            scheduleConf: string;
            /**
             * @description The zone its cron is read in.
             * @example Europe/Berlin
             */
            timeZone: string;
            /**
             * @description RUNNING: fires are being started or run. COMPLETED: every fire ran (`failed` of them failed). CANCELLED: no fire started after the cancel (those running then finish and are counted; `endedAt` says when).
             * @example RUNNING
             * @enum {string}
             */
            state: "RUNNING" | "COMPLETED" | "CANCELLED";
            /**
             * @description The fires the range holds.
             * @example 24
             */
            total: number;
            /**
             * @description Fires started.
             * @example 10
             */
            dispatched: number;
            /**
             * @description Fires whose run succeeded.
             * @example 7
             */
            succeeded: number;
            /**
             * @description Fires whose run failed (or was refused).
             * @example 1
             */
            failed: number;
            /**
             * @description Fires started and not finished.
             * @example 2
             */
            running: number;
            /**
             * @description The fires running now, with their runs.
             * @example [
             *       {
             *         "scheduledTime": "2030-01-01T08:00:00.000Z",
             *         "logId": 32212254729
             *       }
             *     ]
             */
            runningFires: {
                /**
                 * Format: date-time
                 * @description The fire’s scheduled time, ISO-8601 UTC.
                 * @example 2030-01-01T02:00:00.000Z
                 */
                scheduledTime: string;
                /**
                 * @description Its run (a broadcast’s first shard).
                 * @example 32212254721
                 */
                logId: number;
            }[];
            /**
             * @description The failed fires’ scheduled times, oldest first (the first 100).
             * @example [
             *       "2030-01-01T03:00:00.000Z"
             *     ]
             */
            failures: string[];
            /**
             * @description The next fire to start (null: none left), ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            nextFireTime: string | null;
            /**
             * Format: date-time
             * @description Started, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            createdAt: string;
            /**
             * @description Who started it.
             * @example ana
             */
            createdBy: string;
            /**
             * @description Cancelled (null: not cancelled), ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            cancelledAt: string | null;
            /**
             * @description Who cancelled it (null: not cancelled).
             * @example null
             * @example ana
             */
            cancelledBy: string | null;
            /**
             * @description Why the system stopped it (its job was deleted); null otherwise.
             * @example null
             */
            stopReason: string | null;
            /**
             * @description When its last fire finished (null while any runs), ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            endedAt: string | null;
        };
        /** @description Runs the fires the job’s schedule (CRON or FIX_RATE) would have made in [from, to), within its startAt / endAt, each with its own scheduled time; at most 10000 fires. */
        BackfillRequest: {
            /**
             * Format: date-time
             * @description The range’s start: the first fire is at or after it, ISO-8601 UTC.
             * @example 2030-01-01T00:00:00.000Z
             */
            from: string;
            /**
             * Format: date-time
             * @description The range’s end: every fire is before it; not in the future, ISO-8601 UTC.
             * @example 2030-01-02T00:00:00.000Z
             */
            to: string;
            /**
             * @description Most of the backfill’s fires running at once; 1 (the default) runs them one after another.
             * @default 1
             * @example 2
             */
            parallelism?: number;
            /**
             * @description Most fires started a minute (spread evenly); absent: as fast as the parallelism allows.
             * @example 30
             */
            ratePerMinute?: number;
        };
        BackfillPage: {
            /**
             * @description Newest first.
             * @example []
             */
            items: components["schemas"]["Backfill"][];
            /**
             * @description Pass it as `cursor` for the next page; null at the end. A page may come back short (even empty) with a cursor.
             * @example eyJpZCI6NDJ9
             * @example null
             */
            nextCursor: string | null;
        };
        AlertChannelList: {
            /**
             * @description Every channel, by id.
             * @example []
             */
            items: components["schemas"]["AlertChannel"][];
        };
        AlertChannel: {
            /**
             * @description The channel’s id.
             * @example 5b1c2f7e-8d8e-4b0c-9d55-2f0a6f1f3c11
             */
            id: string;
            /**
             * @description Its name.
             * @example ops webhook
             */
            name: string;
            /**
             * @description webhook, slack or email.
             * @example webhook
             * @enum {string}
             */
            kind: "webhook" | "slack" | "email";
            /**
             * @description Where it POSTs.
             * @example https://hooks.example.com/tickring
             */
            url?: string;
            /**
             * @description Its body template.
             * @example {"text":"{{ text }}"}
             */
            bodyTemplate?: string;
            /**
             * @description Whether it signs its bodies (its secret is never shown).
             * @example true
             */
            signed: boolean;
            /**
             * @description Moves with each change.
             * @example 1
             */
            revision: number;
            /**
             * Format: date-time
             * @description When it was created, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            createdAt: string;
            /**
             * @description Who created it.
             * @example ana
             */
            createdBy: string;
            /**
             * Format: date-time
             * @description When it last changed, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            updatedAt: string;
        };
        /** @description A new alert channel. */
        AlertChannelCreate: {
            /**
             * @description Its name, for people.
             * @example ops webhook
             */
            name: string;
            /**
             * @description webhook, slack (incoming-webhook JSON) or email (the alarm topic).
             * @example webhook
             * @enum {string}
             */
            kind: "webhook" | "slack" | "email";
            /**
             * @description webhook and slack: where to POST.
             * @example https://hooks.example.com/tickring
             */
            url?: string;
            /**
             * @description webhook: the body, with `{{ path }}` placeholders over the alert’s fields (`text`, `alert.kind`, `alert.count`, `alert.firstAt`, `job.id`, `job.name`, `job.appName`, `workflow.name`, `workflow.runId` (`workflow` is null on a job’s alert), …); absent: the alert as JSON.
             * @example {"job":{{ job.id }},"text":"{{ text }}"}
             */
            bodyTemplate?: string;
            /**
             * @description webhook: signs each body (`X-Tickring-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of "<t>.<body>">`); stored sealed, never answered.
             * @example a-long-random-shared-secret
             */
            secret?: string;
        };
        /** @description The fields to change, laid over the channel and checked as a whole. A channel’s kind cannot change. */
        AlertChannelUpdate: {
            /**
             * @description Its name.
             * @example ops
             */
            name?: string;
            /**
             * @description Cannot change: sent back as read, it must be the channel’s kind.
             * @example webhook
             * @enum {string}
             */
            kind?: "webhook" | "slack" | "email";
            /**
             * @description webhook and slack: where to POST (a webhook and a slack channel need one).
             * @example https://hooks.example.com/tickring-v2
             */
            url?: string | null;
            /**
             * @description webhook: the body template; null: the alert as JSON.
             * @example {"text":"{{ text }}"}
             */
            bodyTemplate?: string | null;
            /**
             * @description webhook: a new HMAC secret (sealed, never answered); absent: the secret is kept; null: bodies are no longer signed.
             * @example another-long-random-shared-secret
             */
            secret?: string | null;
            /**
             * @description The revision read: the change is refused (409) when the channel moved on since.
             * @example 1
             */
            revision?: number;
        };
        /** @description What one test message through the channel met. */
        AlertChannelTestResult: {
            /**
             * @description The channel.
             * @example 5b1c2f7e-8d8e-4b0c-9d55-2f0a6f1f3c11
             */
            channelId: string;
            /**
             * @description Its kind.
             * @example webhook
             * @enum {string}
             */
            kind: "webhook" | "slack" | "email";
            /**
             * @description Whether the receiver took it (a 2xx answer; email: published to the topic).
             * @example true
             */
            delivered: boolean;
            /**
             * Format: date-time
             * @description When it was sent, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            at: string;
            /**
             * @description The HTTP status the receiver answered.
             * @example 200
             */
            status?: number;
            /**
             * @description Why it was not delivered.
             * @example HTTP 401
             */
            error?: string;
        };
        AlertSilenceList: {
            /**
             * @description Every silence, by id.
             * @example []
             */
            items: components["schemas"]["AlertSilence"][];
        };
        AlertSilence: {
            /**
             * @description The silence’s id.
             * @example 0f6a1d2e-4c3b-4a59-8e7d-6b5a4c3d2e1f
             */
            id: string;
            /**
             * @description Matches this job’s alerts.
             * @example 7
             */
            jobId?: number;
            /**
             * @description Matches the alerts of this group’s jobs.
             * @example orders
             */
            appName?: string;
            /**
             * @description Matches alerts of this kind.
             * @example runFailed
             * @enum {string}
             */
            kind?: "runFailed" | "jobPaused" | "jobRecovered" | "deadlineMissed" | "fireUnexplained";
            /**
             * Format: date-time
             * @description When it starts, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            from: string;
            /**
             * Format: date-time
             * @description When it ends, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            to: string;
            /**
             * @description Why.
             * @example database maintenance
             */
            reason: string;
            /**
             * @description Who created it.
             * @example ana
             */
            createdBy: string;
            /**
             * Format: date-time
             * @description When it was created, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            createdAt: string;
        };
        /** @description Alerts matching every field given (at least one of jobId, appName, kind) are recorded, not sent, between from and to. */
        AlertSilenceCreate: {
            /**
             * @description Matches this job’s alerts.
             * @example 7
             */
            jobId?: number;
            /**
             * @description Matches the alerts of this group’s jobs.
             * @example orders
             */
            appName?: string;
            /**
             * @description Matches alerts of this kind.
             * @example runFailed
             * @enum {string}
             */
            kind?: "runFailed" | "jobPaused" | "jobRecovered" | "deadlineMissed" | "fireUnexplained";
            /**
             * Format: date-time
             * @description When it starts; absent: now, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            from?: string;
            /**
             * Format: date-time
             * @description When it ends, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            to: string;
            /**
             * @description Why.
             * @example database maintenance
             */
            reason: string;
        };
        AlertPage: {
            /**
             * @description Alerts, newest first.
             * @example []
             */
            items: components["schemas"]["Alert"][];
            /**
             * @description Pass it as `cursor` for the next page; null at the end. A page may come back short (even empty) with a cursor.
             * @example eyJpZCI6NDJ9
             * @example null
             */
            nextCursor: string | null;
        };
        Alert: {
            /**
             * @description The job, kind and window.
             * @example 7#runFailed#1893492000000
             */
            id: string;
            /**
             * @description The job.
             * @example 7
             */
            jobId: number;
            /**
             * @description The job’s name.
             * @example nightly
             */
            jobName: string;
            /**
             * @description The job’s group.
             * @example orders
             */
            appName: string;
            /**
             * @description What the alarms are about.
             * @example runFailed
             * @enum {string}
             */
            kind: "runFailed" | "jobPaused" | "jobRecovered" | "deadlineMissed" | "fireUnexplained";
            /**
             * @description sent: routed to its channels; silenced: a silence matched (nothing sent, on the job’s own alarm path neither); unrouted: neither the job nor its group names a channel.
             * @example sent
             * @enum {string}
             */
            state: "sent" | "silenced" | "unrouted";
            /**
             * @description The silence that matched.
             * @example 0f6a1d2e-4c3b-4a59-8e7d-6b5a4c3d2e1f
             */
            silenceId?: string;
            /**
             * @description Alarms of the condition in its window.
             * @example 3
             */
            count: number;
            /**
             * @description The first alarm’s line.
             * @example job 7 (nightly) failed: exit 1
             */
            summary: string;
            /**
             * @description The first alarm’s run.
             * @example 30064771073
             */
            logId?: number;
            /**
             * @description A workflow’s alert: a failed run’s (the job is its first failed node’s), or the workflow’s own (its schedule job’s).
             * @example {
             *       "id": 3,
             *       "name": "nightly-etl",
             *       "runId": "wr-m5x8k2a1-3f9c1d2e6b8a"
             *     }
             */
            workflow?: {
                /**
                 * @description The workflow.
                 * @example 3
                 */
                id: number;
                /**
                 * @description Its name.
                 * @example nightly-etl
                 */
                name: string;
                /**
                 * @description The workflow run that failed; absent for an alert about the workflow itself (a missed deadline, a fire its schedule owed).
                 * @example wr-m5x8k2a1-3f9c1d2e6b8a
                 */
                runId?: string;
            };
            /**
             * Format: date-time
             * @description The first alarm, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            firstAt: string;
            /**
             * Format: date-time
             * @description The last alarm, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            lastAt: string;
            /**
             * Format: date-time
             * @description When its window closes, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            windowEnd: string;
            /**
             * @description Its messages to its channels.
             * @example []
             */
            deliveries: {
                /**
                 * @description The channel.
                 * @example 5b1c2f7e-8d8e-4b0c-9d55-2f0a6f1f3c11
                 */
                channelId: string;
                /**
                 * @description The first alarm, or the window’s count.
                 * @example first
                 * @enum {string}
                 */
                message: "first" | "summary";
                /**
                 * @description Alarms counted in the message.
                 * @example 1
                 */
                count: number;
                /**
                 * @description pending, delivered, or failed after its last attempt.
                 * @example delivered
                 * @enum {string}
                 */
                state: "pending" | "delivered" | "failed";
                /**
                 * @description Its attempts, oldest first (at most 3).
                 * @example [
                 *       {
                 *         "at": "2030-01-01T10:02:00.000Z",
                 *         "ok": true,
                 *         "status": 200
                 *       }
                 *     ]
                 */
                attempts: {
                    /**
                     * Format: date-time
                     * @description When it was made, ISO-8601 UTC.
                     * @example 2030-01-01T02:00:00.000Z
                     */
                    at: string;
                    /**
                     * @description Whether the receiver took it (a 2xx answer; email: published).
                     * @example true
                     */
                    ok: boolean;
                    /**
                     * @description The HTTP status answered.
                     * @example 200
                     */
                    status?: number;
                    /**
                     * @description Why it failed.
                     * @example HTTP 502
                     */
                    error?: string;
                }[];
                /**
                 * Format: date-time
                 * @description The next attempt, while pending, ISO-8601 UTC.
                 * @example 2030-01-01T02:00:00.000Z
                 */
                nextAttemptAt?: string;
            }[];
            /**
             * @description The job’s own alarm path (alarmEmail / alarmWebhook: the alarm topic or log, and its webhook), grouped too: the window’s first alarm at once (made by the alarm itself; a failed one again by the window’s next alarm, at most 3 attempts), then the window’s count once it closed, when it counted more than one.
             * @example {
             *       "first": {
             *         "message": "first",
             *         "count": 1,
             *         "state": "delivered",
             *         "attempts": [
             *           {
             *             "at": "2030-01-01T10:02:00.000Z",
             *             "ok": true
             *           }
             *         ]
             *       }
             *     }
             */
            legacy?: {
                /**
                 * @description The window’s first alarm on the job’s own path.
                 * @example {
                 *       "message": "first",
                 *       "count": 1,
                 *       "state": "delivered",
                 *       "attempts": []
                 *     }
                 */
                first: {
                    /**
                     * @description The first alarm, or the window’s count.
                     * @example first
                     * @enum {string}
                     */
                    message: "first" | "summary";
                    /**
                     * @description Alarms counted in the message.
                     * @example 1
                     */
                    count: number;
                    /**
                     * @description pending, delivered, or failed after its last attempt.
                     * @example delivered
                     * @enum {string}
                     */
                    state: "pending" | "delivered" | "failed";
                    /**
                     * @description Its attempts, oldest first (at most 3).
                     * @example [
                     *       {
                     *         "at": "2030-01-01T10:02:00.000Z",
                     *         "ok": true,
                     *         "status": 200
                     *       }
                     *     ]
                     */
                    attempts: {
                        /**
                         * Format: date-time
                         * @description When it was made, ISO-8601 UTC.
                         * @example 2030-01-01T02:00:00.000Z
                         */
                        at: string;
                        /**
                         * @description Whether the receiver took it (a 2xx answer; email: published).
                         * @example true
                         */
                        ok: boolean;
                        /**
                         * @description The HTTP status answered.
                         * @example 200
                         */
                        status?: number;
                        /**
                         * @description Why it failed.
                         * @example HTTP 502
                         */
                        error?: string;
                    }[];
                    /**
                     * Format: date-time
                     * @description The next attempt, while pending, ISO-8601 UTC.
                     * @example 2030-01-01T02:00:00.000Z
                     */
                    nextAttemptAt?: string;
                };
                /**
                 * @description The window’s count on the job’s own path, once the window closed.
                 * @example {
                 *       "message": "summary",
                 *       "count": 3,
                 *       "state": "pending",
                 *       "attempts": []
                 *     }
                 */
                summary?: {
                    /**
                     * @description The first alarm, or the window’s count.
                     * @example first
                     * @enum {string}
                     */
                    message: "first" | "summary";
                    /**
                     * @description Alarms counted in the message.
                     * @example 1
                     */
                    count: number;
                    /**
                     * @description pending, delivered, or failed after its last attempt.
                     * @example delivered
                     * @enum {string}
                     */
                    state: "pending" | "delivered" | "failed";
                    /**
                     * @description Its attempts, oldest first (at most 3).
                     * @example [
                     *       {
                     *         "at": "2030-01-01T10:02:00.000Z",
                     *         "ok": true,
                     *         "status": 200
                     *       }
                     *     ]
                     */
                    attempts: {
                        /**
                         * Format: date-time
                         * @description When it was made, ISO-8601 UTC.
                         * @example 2030-01-01T02:00:00.000Z
                         */
                        at: string;
                        /**
                         * @description Whether the receiver took it (a 2xx answer; email: published).
                         * @example true
                         */
                        ok: boolean;
                        /**
                         * @description The HTTP status answered.
                         * @example 200
                         */
                        status?: number;
                        /**
                         * @description Why it failed.
                         * @example HTTP 502
                         */
                        error?: string;
                    }[];
                    /**
                     * Format: date-time
                     * @description The next attempt, while pending, ISO-8601 UTC.
                     * @example 2030-01-01T02:00:00.000Z
                     */
                    nextAttemptAt?: string;
                };
            };
        };
        /** @description A new session: its token (this once) and the user signed in. */
        Session: {
            /**
             * @description The session token, shown in this answer only: send it as `Authorization: Bearer <token>`. Kept only as a hash.
             * @example trs_9d0c6e2b41a7f355_Qm3nX0v8aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX
             */
            token: string;
            /**
             * Format: date-time
             * @description The session ends if unused until then; each use (at most once a minute) moves it on, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            expiresAt: string;
            /**
             * Format: date-time
             * @description The session ends then at the latest, however much it is used, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            endsAt: string;
            user: components["schemas"]["User"];
        };
        /** @description A person who signs in (never with the password or its hash). */
        User: {
            /**
             * @description 3-64 characters of letters, digits, '.', '_' and '-'; case does not matter (kept lower-case); cannot be changed.
             * @example ana
             */
            username: string;
            /**
             * @description A name for people; the username when left out or blank.
             * @example Ana Lima
             */
            displayName: string;
            /**
             * @description admin: everything, including users, tokens, executor groups and GLUE sources; operator: create, edit, start, stop, trigger, kill and delete the jobs of its groups, read their runs and logs; viewer: read its groups’ jobs, runs, executors and figures.
             * @example operator
             * @enum {string}
             */
            role: "admin" | "operator" | "viewer";
            /**
             * @description The executor groups the role applies to: "*" for every group, or a list of AppNames. An admin’s is always "*"; an operator needs at least one group.
             * @example [
             *       "billing",
             *       "reports"
             *     ]
             * @example *
             */
            groups: "*" | string[];
            /**
             * @description An operator may also edit GLUE sources (an admin always may, a viewer never).
             * @example false
             */
            glue: boolean;
            /**
             * @description A disabled user cannot sign in; disabling ends their sessions.
             * @example false
             */
            disabled: boolean;
            /**
             * Format: date-time
             * @description When the user was created, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            createdAt: string;
            /**
             * @description Who created the user: a username, `token:<name>` or `bootstrap`.
             * @example bootstrap
             */
            createdBy: string;
            /**
             * Format: date-time
             * @description When the user last changed, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            updatedAt: string;
            /**
             * Format: date-time
             * @description When the password was last set, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            passwordChangedAt: string;
            /**
             * @description The last sign-in; null before the first, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            lastLoginAt: string | null;
            /**
             * @description Moves on with every change; send it back in a PUT to refuse (409) a lost update.
             * @example 3
             */
            version: number;
        };
        /** @description A username and its password. */
        Login: {
            /**
             * @description The username (case does not matter).
             * @example ana
             */
            username: string;
            /**
             * @description The password.
             * @example correct horse battery staple
             */
            password: string;
        };
        /** @description How one can sign in here, for a sign-in page. */
        SignInOptions: {
            /**
             * @description true when at least one user who is not disabled exists: sign in with a username and password (POST /v1/sessions); false: only tokens work (the bootstrap admin token, API tokens).
             * @example true
             */
            passwords: boolean;
        };
        /** @description Who the caller is and what they may do. */
        Me: {
            /**
             * @description session: a signed-in user; token: an API token; bootstrap: the deployment’s admin token.
             * @example session
             * @enum {string}
             */
            kind: "session" | "token" | "bootstrap";
            /**
             * @description How the audit log names the caller: the username, `token:<name>` or `bootstrap`.
             * @example ana
             */
            name: string;
            /**
             * @description A signed-in user’s username.
             * @example ana
             */
            username?: string;
            /**
             * @description A signed-in user’s display name.
             * @example Ana Lima
             */
            displayName?: string;
            /**
             * @description admin: everything, including users, tokens, executor groups and GLUE sources; operator: create, edit, start, stop, trigger, kill and delete the jobs of its groups, read their runs and logs; viewer: read its groups’ jobs, runs, executors and figures.
             * @example operator
             * @enum {string}
             */
            role: "admin" | "operator" | "viewer";
            /**
             * @description The executor groups the role applies to: "*" for every group, or a list of AppNames. An admin’s is always "*"; an operator needs at least one group.
             * @example [
             *       "billing",
             *       "reports"
             *     ]
             * @example *
             */
            groups: "*" | string[];
            /**
             * @description An operator may also edit GLUE sources (an admin always may, a viewer never).
             * @example false
             */
            glue: boolean;
            permissions: components["schemas"]["Permissions"];
        };
        /** @description What the caller may do. */
        Permissions: {
            /**
             * @description Users, API tokens, executor groups, the bootstrap token and the whole audit log.
             * @example false
             */
            admin: boolean;
            /**
             * @description The groups whose jobs, runs, executors and figures the caller reads.
             * @example [
             *       "billing",
             *       "reports"
             *     ]
             * @example *
             */
            readGroups: "*" | string[];
            /**
             * @description The groups whose jobs and runs the caller changes (create, edit, start, stop, trigger, kill, delete); [] for a viewer.
             * @example [
             *       "billing",
             *       "reports"
             *     ]
             * @example *
             */
            operateGroups: "*" | string[];
            /**
             * @description Whether the caller edits GLUE sources (in the groups they operate).
             * @example false
             */
            glue: boolean;
        };
        /** @description A signed-in user’s new password, with the current one. */
        PasswordChange: {
            /**
             * @description The password now (a wrong one counts as a failed sign-in).
             * @example correct horse battery staple
             */
            currentPassword: string;
            /**
             * @description At least 12 and at most 256 characters, not containing the username, not one character repeated. Never shown again, kept only as a scrypt hash. Must differ from the current one.
             * @example correct horse battery staple
             */
            newPassword: string;
        };
        /** @description Every user. */
        UserList: {
            /** @description Every user, by username. */
            items: components["schemas"]["User"][];
        };
        /** @description A new user: username, password and role; groups for an operator or viewer. Every problem (username, grant, password policy) is reported at once. Unknown fields are refused. */
        UserCreate: {
            /**
             * @description 3-64 characters of letters, digits, '.', '_' and '-'; case does not matter (kept lower-case); cannot be changed.
             * @example ana
             */
            username: string;
            /**
             * @description A name for people; the username when left out or blank.
             * @example Ana Lima
             */
            displayName?: string;
            /**
             * @description At least 12 and at most 256 characters, not containing the username, not one character repeated. Never shown again, kept only as a scrypt hash.
             * @example correct horse battery staple
             */
            password: string;
            /**
             * @description admin: everything, including users, tokens, executor groups and GLUE sources; operator: create, edit, start, stop, trigger, kill and delete the jobs of its groups, read their runs and logs; viewer: read its groups’ jobs, runs, executors and figures.
             * @example operator
             * @enum {string}
             */
            role: "admin" | "operator" | "viewer";
            /**
             * @description The executor groups the role applies to: "*" for every group, or a list of AppNames. An admin’s is always "*"; an operator needs at least one group.
             * @example [
             *       "billing",
             *       "reports"
             *     ]
             * @example *
             */
            groups?: "*" | string[];
            /**
             * @description An operator may also edit GLUE sources (an admin always may, a viewer never).
             * @example false
             */
            glue?: boolean;
            /**
             * @description A disabled user cannot sign in; disabling ends their sessions.
             * @example false
             */
            disabled?: boolean;
        };
        /** @description The fields to change. A new password, a changed grant or disabling ends the user’s sessions (but the caller’s own). Becoming an admin implies every group and GLUE; a viewer never has GLUE. The username cannot change. */
        UserUpdate: {
            /**
             * @description A name for people; the username when left out or blank.
             * @example Ana Lima
             */
            displayName?: string;
            /**
             * @description admin: everything, including users, tokens, executor groups and GLUE sources; operator: create, edit, start, stop, trigger, kill and delete the jobs of its groups, read their runs and logs; viewer: read its groups’ jobs, runs, executors and figures.
             * @example operator
             * @enum {string}
             */
            role?: "admin" | "operator" | "viewer";
            /**
             * @description The executor groups the role applies to: "*" for every group, or a list of AppNames. An admin’s is always "*"; an operator needs at least one group.
             * @example [
             *       "billing",
             *       "reports"
             *     ]
             * @example *
             */
            groups?: "*" | string[];
            /**
             * @description An operator may also edit GLUE sources (an admin always may, a viewer never).
             * @example false
             */
            glue?: boolean;
            /**
             * @description A disabled user cannot sign in; disabling ends their sessions.
             * @example false
             */
            disabled?: boolean;
            /**
             * @description At least 12 and at most 256 characters, not containing the username, not one character repeated. Never shown again, kept only as a scrypt hash.
             * @example correct horse battery staple
             */
            password?: string;
            /**
             * @description When given, it must be the user’s current version, or the answer is 409.
             * @example 3
             */
            version?: number;
        };
        /** @description Every API token kept. */
        ApiTokenList: {
            /** @description The tokens, newest first. */
            items: components["schemas"]["ApiToken"][];
        };
        /** @description An API token, without its secret. Revoked and expired tokens stay listed for 30 days after they ended. */
        ApiToken: {
            /**
             * @description The token’s id: the part of the token between `trk_` and the next `_`.
             * @example 4f9c2a7be01d5c33
             */
            id: string;
            /**
             * @description Its name.
             * @example ci-deploy
             */
            name: string;
            /**
             * @description admin: everything, including users, tokens, executor groups and GLUE sources; operator: create, edit, start, stop, trigger, kill and delete the jobs of its groups, read their runs and logs; viewer: read its groups’ jobs, runs, executors and figures.
             * @example operator
             * @enum {string}
             */
            role: "admin" | "operator" | "viewer";
            /**
             * @description The executor groups the role applies to: "*" for every group, or a list of AppNames. An admin’s is always "*"; an operator needs at least one group.
             * @example [
             *       "billing",
             *       "reports"
             *     ]
             * @example *
             */
            groups: "*" | string[];
            /**
             * @description An operator may also edit GLUE sources (an admin always may, a viewer never).
             * @example false
             */
            glue: boolean;
            /**
             * @description Whether the token works now.
             * @example active
             * @enum {string}
             */
            status: "active" | "expired" | "revoked";
            /**
             * Format: date-time
             * @description When it was created, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            createdAt: string;
            /**
             * @description Who created it: a username, `token:<name>` or `bootstrap`.
             * @example ana
             */
            createdBy: string;
            /**
             * Format: date-time
             * @description When it expires, ISO-8601 UTC.
             * @example 2030-06-30T00:00:00.000Z
             */
            expiresAt: string;
            /**
             * @description When it was revoked; null while not, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            revokedAt: string | null;
            /**
             * @description Its last use (noted at most once a minute); null before the first, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            lastUsedAt: string | null;
        };
        /** @description A new API token, with its secret this once. */
        ApiTokenCreated: {
            /**
             * @description The token’s id: the part of the token between `trk_` and the next `_`.
             * @example 4f9c2a7be01d5c33
             */
            id: string;
            /**
             * @description Its name.
             * @example ci-deploy
             */
            name: string;
            /**
             * @description admin: everything, including users, tokens, executor groups and GLUE sources; operator: create, edit, start, stop, trigger, kill and delete the jobs of its groups, read their runs and logs; viewer: read its groups’ jobs, runs, executors and figures.
             * @example operator
             * @enum {string}
             */
            role: "admin" | "operator" | "viewer";
            /**
             * @description The executor groups the role applies to: "*" for every group, or a list of AppNames. An admin’s is always "*"; an operator needs at least one group.
             * @example [
             *       "billing",
             *       "reports"
             *     ]
             * @example *
             */
            groups: "*" | string[];
            /**
             * @description An operator may also edit GLUE sources (an admin always may, a viewer never).
             * @example false
             */
            glue: boolean;
            /**
             * @description Whether the token works now.
             * @example active
             * @enum {string}
             */
            status: "active" | "expired" | "revoked";
            /**
             * Format: date-time
             * @description When it was created, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            createdAt: string;
            /**
             * @description Who created it: a username, `token:<name>` or `bootstrap`.
             * @example ana
             */
            createdBy: string;
            /**
             * Format: date-time
             * @description When it expires, ISO-8601 UTC.
             * @example 2030-06-30T00:00:00.000Z
             */
            expiresAt: string;
            /**
             * @description When it was revoked; null while not, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            revokedAt: string | null;
            /**
             * @description Its last use (noted at most once a minute); null before the first, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             * @example null
             */
            lastUsedAt: string | null;
            /**
             * @description The token, shown in this answer only: send it as `Authorization: Bearer <token>`. Kept only as a hash.
             * @example trk_4f9c2a7be01d5c33_Zx8yW7vU6tS5rQ4pO3nM2lK1jI0hG9fE8dC7bA6zY5x
             */
            token: string;
            /**
             * @description What to do with the token.
             * @example This token is shown once: store it now (e.g. in your CI’s secrets).
             */
            note: string;
        };
        /** @description A new API token: a name, a grant no wider than the creator’s, and an expiry (expiresAt or expiresInDays). Unknown fields are refused. */
        ApiTokenCreate: {
            /**
             * @description 1-64 letters, digits, '.', '_' and '-'; unique among active tokens (case does not matter). The audit log names the token `token:<name>`.
             * @example ci-deploy
             */
            name: string;
            /**
             * @description admin: everything, including users, tokens, executor groups and GLUE sources; operator: create, edit, start, stop, trigger, kill and delete the jobs of its groups, read their runs and logs; viewer: read its groups’ jobs, runs, executors and figures.
             * @example operator
             * @enum {string}
             */
            role: "admin" | "operator" | "viewer";
            /**
             * @description The executor groups the role applies to: "*" for every group, or a list of AppNames. An admin’s is always "*"; an operator needs at least one group.
             * @example [
             *       "billing",
             *       "reports"
             *     ]
             * @example *
             */
            groups?: "*" | string[];
            /**
             * @description An operator may also edit GLUE sources (an admin always may, a viewer never).
             * @example false
             */
            glue?: boolean;
            /**
             * Format: date-time
             * @description When the token expires, at most 365 days ahead; give this or expiresInDays.
             * @example 2030-06-30T00:00:00Z
             */
            expiresAt?: string;
            /**
             * @description In how many days the token expires; give this or expiresAt.
             * @example 90
             */
            expiresInDays?: number;
        };
        /** @description The bootstrap admin token, rotated. */
        BootstrapRotated: {
            /**
             * @description The new bootstrap admin token, shown in this answer only. From now on only it works; the configured one (and any rotated before) no longer does.
             * @example trb_Hk2mP9qR4sT7uV0wX3yZ6aB1cD5eF8gJ2kL4mN7oP9q
             */
            token: string;
            /**
             * Format: date-time
             * @description When it was rotated, ISO-8601 UTC.
             * @example 2030-01-01T02:00:00.000Z
             */
            rotatedAt: string;
            /**
             * @description Who rotated it: a username, `token:<name>` or `bootstrap`.
             * @example ana
             */
            rotatedBy: string;
            /**
             * @description What to do with the token.
             * @example This token is shown once: store it now. The configured admin token no longer works.
             */
            note: string;
        };
        /** @description A page of audit records. */
        AuditPage: {
            /** @description Records, newest first. */
            items: components["schemas"]["AuditRecord"][];
            /**
             * @description Pass it as `cursor` for the next page; null at the end. A page may come back short (even empty) with a cursor.
             * @example eyJpZCI6NDJ9
             * @example null
             */
            nextCursor: string | null;
        };
        /** @description One accepted change through the admin API. */
        AuditRecord: {
            /**
             * @description The record’s id, a ULID: unique, and ordered by time (records of the same millisecond each have their own).
             * @example 01Q3DK7480BK2SRJDHQG4QM1HT
             */
            id: string;
            /**
             * Format: date-time
             * @description When the change was accepted (ISO-8601 UTC).
             * @example 2030-01-01T02:00:00.000Z
             */
            at: string;
            /**
             * @description Who made the change, as they were then.
             * @example {
             *       "kind": "session",
             *       "id": "ana",
             *       "name": "ana",
             *       "credentialId": null
             *     }
             */
            actor: {
                /**
                 * @description session: a signed-in user; token: an API token; bootstrap: the deployment’s admin token; anonymous: none.
                 * @example session
                 * @enum {string}
                 */
                kind: "bootstrap" | "session" | "token" | "anonymous" | "system";
                /**
                 * @description The username, the token’s id, or `bootstrap`.
                 * @example ana
                 */
                id: string;
                /**
                 * @description The username, `token:<name>`, or `bootstrap`.
                 * @example ana
                 */
                name: string;
                /**
                 * @description The session’s or token’s id; null for the bootstrap token.
                 * @example 3f9c1d2e-6b8a-4c57-9e0d-1a2b3c4d5e6f
                 * @example null
                 */
                credentialId: string | null;
            };
            /**
             * @description Where the change came from.
             * @example {
             *       "ip": "203.0.113.7",
             *       "userAgent": "tickring-cli/0.1.0"
             *     }
             */
            source: {
                /**
                 * @description The caller’s address.
                 * @example 203.0.113.7
                 */
                ip: string;
                /**
                 * @description The caller’s User-Agent (its first 512 characters).
                 * @example tickring-cli/0.1.0
                 */
                userAgent: string;
            };
            /**
             * @description What was done.
             * @example job.update
             */
            action: string;
            /**
             * @description What it was done to: `job#7`, `group#my-app`, `user#ana`, `token#<id>`, `run#<logId>`, `workflow#3`, `workflowRun#<runId>` or `bootstrap`.
             * @example job#7
             */
            target: string;
            /**
             * @description The target’s executor group; null for users, tokens and the bootstrap (only admins see those).
             * @example my-app
             * @example null
             */
            appName: string | null;
            /**
             * @description The changed fields only, by name, each with its value before and after (all of them for a creation or a deletion; none when nothing changed, e.g. a job started while running). Secrets (passwords, tokens, their hashes) read "[redacted]", at any depth.
             * @example {
             *       "executorParam": {
             *         "before": "region=eu",
             *         "after": "region=us"
             *       }
             *     }
             */
            changes: {
                [key: string]: {
                    /**
                     * @description The field’s value before; absent when the field was not there (a creation).
                     * @example region=eu
                     */
                    before?: unknown;
                    /**
                     * @description The field’s value after; absent when it is gone (a deletion).
                     * @example region=us
                     */
                    after?: unknown;
                };
            };
            /**
             * @description What the change took besides the target’s fields: a trigger’s overrides and the runs it made, a kill’s executor answer; null when nothing. Secrets redacted.
             * @example {
             *       "executorParam": "date=2030-01-01",
             *       "logIds": [
             *         30064771073
             *       ]
             *     }
             * @example null
             */
            detail: {
                [key: string]: unknown;
            } | null;
            /**
             * @description The API request that made the change (its x-request-id / API Gateway request id).
             * @example Jk2Vb0abCwEEMfQ=
             */
            requestId: string;
        };
        /** @description One result, as executors 2.3 – 3.4 send it (in a bare array). */
        HandleCallbackParam: {
            /**
             * @description The run’s logId, as the trigger gave it.
             * @example 30064771073
             */
            logId: number;
            /**
             * @description Sic (XXL-JOB ≤ 3.4 spells it so): the trigger’s logDateTime (epoch ms), echoed back.
             * @example 1893546000000
             */
            logDateTim: number;
            /**
             * @description 200 success, 500 fail, 502 timeout.
             * @example 200
             */
            handleCode: number;
            /**
             * @description The result message (the admin keeps 15,000 characters).
             * @example done
             */
            handleMsg?: string;
        };
        /** @description One result, as executors 2.2 send it (in a bare array). */
        LegacyCallbackParam: {
            /**
             * @description The run’s logId, as the trigger gave it.
             * @example 30064771073
             */
            logId: number;
            /**
             * @description Sic: the trigger’s logDateTime (epoch ms), echoed back.
             * @example 1893546000000
             */
            logDateTim: number;
            /**
             * @description The result (2.2 wraps it).
             * @example {
             *       "code": 200,
             *       "msg": "done"
             *     }
             */
            executeResult: {
                /**
                 * @description 200 success, 500 fail, 502 timeout.
                 * @example 200
                 */
                code: number;
                /**
                 * @description The result message.
                 * @example done
                 */
                msg?: string;
            };
        };
        /** @description One result, as 3.5 executors send it (in callbackList). */
        CallbackData: {
            /**
             * @description The run’s logId, as the trigger gave it.
             * @example 30064771073
             */
            logId: number;
            /**
             * @description 3.5’s spelling (some 3.5 builds send logDateTim): the trigger’s logDateTime (epoch ms), echoed back.
             * @example 1893546000000
             */
            logDateTime: number;
            /**
             * @description 200 success, 500 fail, 502 timeout.
             * @example 200
             */
            handleCode: number;
            /**
             * @description The result message (the admin keeps 15,000 characters).
             * @example done
             */
            handleMsg?: string;
        };
        /** @description The 3.5 callback body. */
        CallbackRequest: {
            /** @description The results. */
            callbackList: components["schemas"]["CallbackData"][];
        };
        /** @description Results of runs, of any protocol generation. A malformed item refuses the whole batch (nothing of it is applied). */
        CallbackBody: (components["schemas"]["HandleCallbackParam"] | components["schemas"]["LegacyCallbackParam"])[] | components["schemas"]["CallbackRequest"];
        /** @description A registration (heartbeat, every 30 s) or its removal; every field non-blank. */
        RegistryParam: {
            /**
             * @description EXECUTOR (only executor registrations mean anything; ADMIN is accepted and ignored).
             * @example EXECUTOR
             * @enum {string}
             */
            registryGroup: "EXECUTOR" | "ADMIN";
            /**
             * @description The executor’s AppName (its group).
             * @example my-app
             */
            registryKey: string;
            /**
             * @description The executor’s address.
             * @example http://10.0.0.5:9999/
             */
            registryValue: string;
        };
        /** @description XXL-JOB’s answer envelope (its payload, `content` up to 3.2 and `data` from 3.3, is never sent by these routes). Every answer is HTTP 200 with this body: a refusal is code 500 with msg. */
        ReturnT: {
            /**
             * @description 200: done; 500: refused (msg says why).
             * @example 200
             */
            code: number;
            /**
             * @description Why, when refused.
             * @example The access token is wrong.
             */
            msg?: string;
        };
    };
    responses: {
        /** @description The request is not valid: every structural problem of its path, query and body at once, or the one a later check found; also a body that is not JSON. */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "ValidationError",
                 *       "message": "scheduleType must be one of NONE, CRON, FIX_RATE, ONCE; got \"HOURLY\"; executorTimeout must be an integer >= 0; got -1",
                 *       "field": "scheduleType",
                 *       "problems": [
                 *         {
                 *           "field": "scheduleType",
                 *           "message": "scheduleType must be one of NONE, CRON, FIX_RATE, ONCE; got \"HOURLY\""
                 *         },
                 *         {
                 *           "field": "executorTimeout",
                 *           "message": "executorTimeout must be an integer >= 0; got -1"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["ValidationError"];
            };
        };
        /** @description The bearer token is missing, wrong, expired or revoked (one answer for all), or its user is disabled. */
        Unauthorized: {
            headers: {
                /** @description Always `Bearer`. */
                "WWW-Authenticate"?: "Bearer";
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "UnauthorizedError",
                 *       "message": "the bearer token is not valid, or has expired or been revoked"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Something unexpected failed; the detail is only logged. */
        InternalError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "InternalError",
                 *       "message": "Internal server error"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Not now; try again after `Retry-After` seconds: the stack is starting or stopping (`ServiceUnavailable`, 1 s), or the single-box database cannot take writes, its disk full (`StoreUnavailableError`, 30 s; the refused write changed nothing, though a request may have made other writes before it). */
        Unavailable: {
            headers: {
                /** @description Seconds to wait before trying again. */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "StoreUnavailableError",
                 *       "message": "the database cannot take writes: database or disk is full (free space on its disk; the refused write changed nothing)"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type Error = components['schemas']['Error'];
export type Problem = components['schemas']['Problem'];
export type ValidationError = components['schemas']['ValidationError'];
export type GroupList = components['schemas']['GroupList'];
export type Group = components['schemas']['Group'];
export type GroupCreate = components['schemas']['GroupCreate'];
export type GroupUpdate = components['schemas']['GroupUpdate'];
export type GroupToken = components['schemas']['GroupToken'];
export type GroupTokenRequest = components['schemas']['GroupTokenRequest'];
export type JobPage = components['schemas']['JobPage'];
export type Job = components['schemas']['Job'];
export type FailurePolicy = components['schemas']['FailurePolicy'];
export type Deadline = components['schemas']['Deadline'];
export type ScheduleEnded = components['schemas']['ScheduleEnded'];
export type PausedBy = components['schemas']['PausedBy'];
export type DeadlineStatus = components['schemas']['DeadlineStatus'];
export type JobRetention = components['schemas']['JobRetention'];
export type OccurrenceException = components['schemas']['OccurrenceException'];
export type JobCreate = components['schemas']['JobCreate'];
export type JobUpdate = components['schemas']['JobUpdate'];
export type TriggerAccepted = components['schemas']['TriggerAccepted'];
export type TriggerRequest = components['schemas']['TriggerRequest'];
export type SchedulePreview = components['schemas']['SchedulePreview'];
export type RunPage = components['schemas']['RunPage'];
export type Run = components['schemas']['Run'];
export type RunOutput = components['schemas']['RunOutput'];
export type KilledRun = components['schemas']['KilledRun'];
export type Executors = components['schemas']['Executors'];
export type RefusedRegistration = components['schemas']['RefusedRegistration'];
export type Dashboard = components['schemas']['Dashboard'];
export type Activity = components['schemas']['Activity'];
export type OccurrenceList = components['schemas']['OccurrenceList'];
export type OccurrenceSkip = components['schemas']['OccurrenceSkip'];
export type OccurrenceMove = components['schemas']['OccurrenceMove'];
export type FireLedger = components['schemas']['FireLedger'];
export type LedgerEntry = components['schemas']['LedgerEntry'];
export type WorkflowFireLedger = components['schemas']['WorkflowFireLedger'];
export type WorkflowLedgerEntry = components['schemas']['WorkflowLedgerEntry'];
export type WorkflowPage = components['schemas']['WorkflowPage'];
export type Workflow = components['schemas']['Workflow'];
export type WorkflowNode = components['schemas']['WorkflowNode'];
export type WorkflowEdge = components['schemas']['WorkflowEdge'];
export type WorkflowRequest = components['schemas']['WorkflowRequest'];
export type WorkflowRun = components['schemas']['WorkflowRun'];
export type WorkflowRunNode = components['schemas']['WorkflowRunNode'];
export type WorkflowTriggerRequest = components['schemas']['WorkflowTriggerRequest'];
export type WorkflowRunPage = components['schemas']['WorkflowRunPage'];
export type WorkflowRunSummary = components['schemas']['WorkflowRunSummary'];
export type CalendarPage = components['schemas']['CalendarPage'];
export type Calendar = components['schemas']['Calendar'];
export type CalendarExclusion = components['schemas']['CalendarExclusion'];
export type CalendarInclusion = components['schemas']['CalendarInclusion'];
export type CalendarCreate = components['schemas']['CalendarCreate'];
export type CalendarImported = components['schemas']['CalendarImported'];
export type CalendarImportRequest = components['schemas']['CalendarImportRequest'];
export type CalendarUpdate = components['schemas']['CalendarUpdate'];
export type CalendarDays = components['schemas']['CalendarDays'];
export type CalendarDay = components['schemas']['CalendarDay'];
export type BackfillPreview = components['schemas']['BackfillPreview'];
export type BackfillPreviewRequest = components['schemas']['BackfillPreviewRequest'];
export type Backfill = components['schemas']['Backfill'];
export type BackfillRequest = components['schemas']['BackfillRequest'];
export type BackfillPage = components['schemas']['BackfillPage'];
export type AlertChannelList = components['schemas']['AlertChannelList'];
export type AlertChannel = components['schemas']['AlertChannel'];
export type AlertChannelCreate = components['schemas']['AlertChannelCreate'];
export type AlertChannelUpdate = components['schemas']['AlertChannelUpdate'];
export type AlertChannelTestResult = components['schemas']['AlertChannelTestResult'];
export type AlertSilenceList = components['schemas']['AlertSilenceList'];
export type AlertSilence = components['schemas']['AlertSilence'];
export type AlertSilenceCreate = components['schemas']['AlertSilenceCreate'];
export type AlertPage = components['schemas']['AlertPage'];
export type Alert = components['schemas']['Alert'];
export type Session = components['schemas']['Session'];
export type User = components['schemas']['User'];
export type Login = components['schemas']['Login'];
export type SignInOptions = components['schemas']['SignInOptions'];
export type Me = components['schemas']['Me'];
export type Permissions = components['schemas']['Permissions'];
export type PasswordChange = components['schemas']['PasswordChange'];
export type UserList = components['schemas']['UserList'];
export type UserCreate = components['schemas']['UserCreate'];
export type UserUpdate = components['schemas']['UserUpdate'];
export type ApiTokenList = components['schemas']['ApiTokenList'];
export type ApiToken = components['schemas']['ApiToken'];
export type ApiTokenCreated = components['schemas']['ApiTokenCreated'];
export type ApiTokenCreate = components['schemas']['ApiTokenCreate'];
export type BootstrapRotated = components['schemas']['BootstrapRotated'];
export type AuditPage = components['schemas']['AuditPage'];
export type AuditRecord = components['schemas']['AuditRecord'];
export type HandleCallbackParam = components['schemas']['HandleCallbackParam'];
export type LegacyCallbackParam = components['schemas']['LegacyCallbackParam'];
export type CallbackData = components['schemas']['CallbackData'];
export type CallbackRequest = components['schemas']['CallbackRequest'];
export type CallbackBody = components['schemas']['CallbackBody'];
export type RegistryParam = components['schemas']['RegistryParam'];
export type ReturnT = components['schemas']['ReturnT'];
export type ResponseBadRequest = components['responses']['BadRequest'];
export type ResponseUnauthorized = components['responses']['Unauthorized'];
export type ResponseInternalError = components['responses']['InternalError'];
export type ResponseUnavailable = components['responses']['Unavailable'];
export type $defs = Record<string, never>;
export interface operations {
    listGroups: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The groups. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "appName": "my-app",
                     *           "title": "My application",
                     *           "addressType": "AUTO",
                     *           "addressList": [
                     *             "http://10.0.0.5:9999/"
                     *           ],
                     *           "accessTokenSetAt": null,
                     *           "alertChannels": [],
                     *           "createdAt": "2030-01-01T02:00:00.000Z",
                     *           "updatedAt": "2030-01-01T02:00:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["GroupList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    createGroup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The group. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["GroupCreate"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "appName": "my-app",
                     *       "title": "My application",
                     *       "addressType": "AUTO",
                     *       "addressList": [],
                     *       "accessTokenSetAt": null,
                     *       "alertChannels": [],
                     *       "createdAt": "2030-01-01T02:00:00.000Z",
                     *       "updatedAt": "2030-01-01T02:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Group"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is not an admin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A group with this appName exists. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The executor group’s AppName. */
                appName: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The group. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "appName": "my-app",
                     *       "title": "My application",
                     *       "addressType": "AUTO",
                     *       "addressList": [
                     *         "http://10.0.0.5:9999/"
                     *       ],
                     *       "accessTokenSetAt": null,
                     *       "alertChannels": [],
                     *       "createdAt": "2030-01-01T02:00:00.000Z",
                     *       "updatedAt": "2030-01-01T02:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Group"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description No group has this appName. Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The executor group’s AppName. */
                appName: string;
            };
            cookie?: never;
        };
        /** @description The fields to change. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["GroupUpdate"];
            };
        };
        responses: {
            /** @description The group as changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "appName": "my-app",
                     *       "title": "My application",
                     *       "addressType": "AUTO",
                     *       "addressList": [
                     *         "http://10.0.0.5:9999/"
                     *       ],
                     *       "accessTokenSetAt": null,
                     *       "alertChannels": [],
                     *       "createdAt": "2030-01-01T02:00:00.000Z",
                     *       "updatedAt": "2030-01-01T02:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Group"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is not an admin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No group has this appName. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The executor group’s AppName. */
                appName: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is not an admin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No group has this appName. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Jobs still use the group. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    setGroupAccessToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The executor group’s AppName. */
                appName: string;
            };
            cookie?: never;
        };
        /** @description {} or no body for a new random token, or the token to use. */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["GroupTokenRequest"];
            };
        };
        responses: {
            /** @description The token, this once. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "appName": "my-app",
                     *       "accessToken": "q9V2k1bY0cXh3Lr8TQm7WnJpZsE4aGfD6uHoRtKyNiB",
                     *       "accessTokenSetAt": "2030-01-01T02:00:00.000Z",
                     *       "note": "This token is shown once. Configure it on the group’s executors (XXL-JOB-ACCESS-TOKEN); the global token no longer works for them."
                     *     }
                     */
                    "application/json": components["schemas"]["GroupToken"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is not an admin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No group has this appName. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    clearGroupAccessToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The executor group’s AppName. */
                appName: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Dropped. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is not an admin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No group has this appName. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listJobs: {
        parameters: {
            query?: {
                /** @description Only the jobs of this executor group. */
                appName?: string;
                /** @description Only running or only stopped jobs. */
                triggerStatus?: "RUNNING" | "STOPPED";
                /** @description Most items on one page. */
                limit?: number;
                /** @description Where the next page starts: the `nextCursor` of the previous page, as it was given. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of jobs. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": 7,
                     *           "appName": "my-app",
                     *           "name": "Nightly report",
                     *           "author": "ops",
                     *           "alarmEmail": "ops@example.com",
                     *           "alarmWebhook": "",
                     *           "scheduleType": "CRON",
                     *           "scheduleConf": "0 0 2 * * ?",
                     *           "timeZone": "Europe/Berlin",
                     *           "misfireStrategy": "DO_NOTHING",
                     *           "startAt": null,
                     *           "endAt": "2030-12-31T23:00:00.000Z",
                     *           "maxRuns": 300,
                     *           "jitterSeconds": 30,
                     *           "calendars": {
                     *             "only": [],
                     *             "exclude": [
                     *               "de-holidays"
                     *             ]
                     *           },
                     *           "logRetentionDays": 90,
                     *           "keepSuccessfulRuns": 0.1,
                     *           "runsRemaining": 299,
                     *           "scheduleEnded": null,
                     *           "failurePolicy": {
                     *             "pauseAfter": {
                     *               "failures": 3,
                     *               "ofLast": 5
                     *             },
                     *             "resumeAfterSeconds": 600
                     *           },
                     *           "deadline": {
                     *             "time": "06:00",
                     *             "timeZone": "Europe/Berlin"
                     *           },
                     *           "pausedBy": null,
                     *           "occurrenceExceptions": [],
                     *           "executorRouteStrategy": "ROUND",
                     *           "executorHandler": "reportHandler",
                     *           "executorParam": "region=eu",
                     *           "executorBlockStrategy": "SERIAL_EXECUTION",
                     *           "executorTimeout": 600,
                     *           "executorFailRetryCount": 2,
                     *           "retryBackoffSeconds": 10,
                     *           "glueType": "BEAN",
                     *           "glueSource": "",
                     *           "childJobIds": [],
                     *           "triggerStatus": "RUNNING",
                     *           "triggerNextTime": "2030-01-02T01:00:00.000Z",
                     *           "triggerLastTime": "2030-01-01T01:00:00.000Z",
                     *           "glueUpdatetime": "2030-01-01T02:00:00.000Z",
                     *           "scheduleRevision": 2,
                     *           "version": 3,
                     *           "workflowId": null,
                     *           "createdAt": "2030-01-01T02:00:00.000Z",
                     *           "updatedAt": "2030-01-01T02:00:00.000Z"
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["JobPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    createJob: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The job. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["JobCreate"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 7,
                     *       "appName": "my-app",
                     *       "name": "Nightly report",
                     *       "author": "ops",
                     *       "alarmEmail": "ops@example.com",
                     *       "alarmWebhook": "",
                     *       "scheduleType": "CRON",
                     *       "scheduleConf": "0 0 2 * * ?",
                     *       "timeZone": "Europe/Berlin",
                     *       "misfireStrategy": "DO_NOTHING",
                     *       "startAt": null,
                     *       "endAt": "2030-12-31T23:00:00.000Z",
                     *       "maxRuns": 300,
                     *       "jitterSeconds": 30,
                     *       "calendars": {
                     *         "only": [],
                     *         "exclude": [
                     *           "de-holidays"
                     *         ]
                     *       },
                     *       "logRetentionDays": 90,
                     *       "keepSuccessfulRuns": 0.1,
                     *       "runsRemaining": 299,
                     *       "scheduleEnded": null,
                     *       "failurePolicy": {
                     *         "pauseAfter": {
                     *           "failures": 3,
                     *           "ofLast": 5
                     *         },
                     *         "resumeAfterSeconds": 600
                     *       },
                     *       "deadline": {
                     *         "time": "06:00",
                     *         "timeZone": "Europe/Berlin"
                     *       },
                     *       "pausedBy": null,
                     *       "occurrenceExceptions": [],
                     *       "executorRouteStrategy": "ROUND",
                     *       "executorHandler": "reportHandler",
                     *       "executorParam": "region=eu",
                     *       "executorBlockStrategy": "SERIAL_EXECUTION",
                     *       "executorTimeout": 600,
                     *       "executorFailRetryCount": 2,
                     *       "retryBackoffSeconds": 10,
                     *       "glueType": "BEAN",
                     *       "glueSource": "",
                     *       "childJobIds": [],
                     *       "triggerStatus": "RUNNING",
                     *       "triggerNextTime": "2030-01-02T01:00:00.000Z",
                     *       "triggerLastTime": "2030-01-01T01:00:00.000Z",
                     *       "glueUpdatetime": "2030-01-01T02:00:00.000Z",
                     *       "scheduleRevision": 2,
                     *       "version": 3,
                     *       "workflowId": null,
                     *       "createdAt": "2030-01-01T02:00:00.000Z",
                     *       "updatedAt": "2030-01-01T02:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Job"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller reaches the group but may only read it (a viewer), or may not edit GLUE sources. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job’s id. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 7,
                     *       "appName": "my-app",
                     *       "name": "Nightly report",
                     *       "author": "ops",
                     *       "alarmEmail": "ops@example.com",
                     *       "alarmWebhook": "",
                     *       "scheduleType": "CRON",
                     *       "scheduleConf": "0 0 2 * * ?",
                     *       "timeZone": "Europe/Berlin",
                     *       "misfireStrategy": "DO_NOTHING",
                     *       "startAt": null,
                     *       "endAt": "2030-12-31T23:00:00.000Z",
                     *       "maxRuns": 300,
                     *       "jitterSeconds": 30,
                     *       "calendars": {
                     *         "only": [],
                     *         "exclude": [
                     *           "de-holidays"
                     *         ]
                     *       },
                     *       "logRetentionDays": 90,
                     *       "keepSuccessfulRuns": 0.1,
                     *       "runsRemaining": 299,
                     *       "scheduleEnded": null,
                     *       "failurePolicy": {
                     *         "pauseAfter": {
                     *           "failures": 3,
                     *           "ofLast": 5
                     *         },
                     *         "resumeAfterSeconds": 600
                     *       },
                     *       "deadline": {
                     *         "time": "06:00",
                     *         "timeZone": "Europe/Berlin"
                     *       },
                     *       "pausedBy": null,
                     *       "occurrenceExceptions": [],
                     *       "executorRouteStrategy": "ROUND",
                     *       "executorHandler": "reportHandler",
                     *       "executorParam": "region=eu",
                     *       "executorBlockStrategy": "SERIAL_EXECUTION",
                     *       "executorTimeout": 600,
                     *       "executorFailRetryCount": 2,
                     *       "retryBackoffSeconds": 10,
                     *       "glueType": "BEAN",
                     *       "glueSource": "",
                     *       "childJobIds": [],
                     *       "triggerStatus": "RUNNING",
                     *       "triggerNextTime": "2030-01-02T01:00:00.000Z",
                     *       "triggerLastTime": "2030-01-01T01:00:00.000Z",
                     *       "glueUpdatetime": "2030-01-01T02:00:00.000Z",
                     *       "scheduleRevision": 2,
                     *       "version": 3,
                     *       "workflowId": null,
                     *       "createdAt": "2030-01-01T02:00:00.000Z",
                     *       "updatedAt": "2030-01-01T02:00:00.000Z",
                     *       "deadlineStatus": null,
                     *       "retention": {
                     *         "days": 90,
                     *         "successSample": 0.1,
                     *         "estimatedRecords": 10,
                     *         "estimatedBytes": 11500,
                     *         "estimatedMonthlyCostUsd": 0.000002678
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Job"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description No job has this id. Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job’s id. */
                id: number;
            };
            cookie?: never;
        };
        /** @description The fields to change (or the job as read, changed). */
        requestBody: {
            content: {
                "application/json": components["schemas"]["JobUpdate"];
            };
        };
        responses: {
            /** @description The job as changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 7,
                     *       "appName": "my-app",
                     *       "name": "Nightly report",
                     *       "author": "ops",
                     *       "alarmEmail": "ops@example.com",
                     *       "alarmWebhook": "",
                     *       "scheduleType": "CRON",
                     *       "scheduleConf": "0 0 2 * * ?",
                     *       "timeZone": "Europe/Berlin",
                     *       "misfireStrategy": "DO_NOTHING",
                     *       "startAt": null,
                     *       "endAt": "2030-12-31T23:00:00.000Z",
                     *       "maxRuns": 300,
                     *       "jitterSeconds": 30,
                     *       "calendars": {
                     *         "only": [],
                     *         "exclude": [
                     *           "de-holidays"
                     *         ]
                     *       },
                     *       "logRetentionDays": 90,
                     *       "keepSuccessfulRuns": 0.1,
                     *       "runsRemaining": 299,
                     *       "scheduleEnded": null,
                     *       "failurePolicy": {
                     *         "pauseAfter": {
                     *           "failures": 3,
                     *           "ofLast": 5
                     *         },
                     *         "resumeAfterSeconds": 600
                     *       },
                     *       "deadline": {
                     *         "time": "06:00",
                     *         "timeZone": "Europe/Berlin"
                     *       },
                     *       "pausedBy": null,
                     *       "occurrenceExceptions": [],
                     *       "executorRouteStrategy": "ROUND",
                     *       "executorHandler": "reportHandler",
                     *       "executorParam": "region=eu",
                     *       "executorBlockStrategy": "SERIAL_EXECUTION",
                     *       "executorTimeout": 600,
                     *       "executorFailRetryCount": 2,
                     *       "retryBackoffSeconds": 10,
                     *       "glueType": "BEAN",
                     *       "glueSource": "",
                     *       "childJobIds": [],
                     *       "triggerStatus": "RUNNING",
                     *       "triggerNextTime": "2030-01-02T01:00:00.000Z",
                     *       "triggerLastTime": "2030-01-01T01:00:00.000Z",
                     *       "glueUpdatetime": "2030-01-01T02:00:00.000Z",
                     *       "scheduleRevision": 2,
                     *       "version": 3,
                     *       "workflowId": null,
                     *       "createdAt": "2030-01-01T02:00:00.000Z",
                     *       "updatedAt": "2030-01-01T02:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Job"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller reaches the group but may only read it (a viewer), or may not edit GLUE sources. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No job has this id. Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body’s version is not the job’s (read it again and retry), or the job is a workflow’s schedule job (change the workflow). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job’s id. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller reaches the group but may only read it (a viewer), or may not edit GLUE sources. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No job has this id. Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The job is a workflow’s schedule job (workflowId): change the workflow instead. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    startJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job’s id. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job, RUNNING. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 7,
                     *       "appName": "my-app",
                     *       "name": "Nightly report",
                     *       "author": "ops",
                     *       "alarmEmail": "ops@example.com",
                     *       "alarmWebhook": "",
                     *       "scheduleType": "CRON",
                     *       "scheduleConf": "0 0 2 * * ?",
                     *       "timeZone": "Europe/Berlin",
                     *       "misfireStrategy": "DO_NOTHING",
                     *       "startAt": null,
                     *       "endAt": "2030-12-31T23:00:00.000Z",
                     *       "maxRuns": 300,
                     *       "jitterSeconds": 30,
                     *       "calendars": {
                     *         "only": [],
                     *         "exclude": [
                     *           "de-holidays"
                     *         ]
                     *       },
                     *       "logRetentionDays": 90,
                     *       "keepSuccessfulRuns": 0.1,
                     *       "runsRemaining": 299,
                     *       "scheduleEnded": null,
                     *       "failurePolicy": {
                     *         "pauseAfter": {
                     *           "failures": 3,
                     *           "ofLast": 5
                     *         },
                     *         "resumeAfterSeconds": 600
                     *       },
                     *       "deadline": {
                     *         "time": "06:00",
                     *         "timeZone": "Europe/Berlin"
                     *       },
                     *       "pausedBy": null,
                     *       "occurrenceExceptions": [],
                     *       "executorRouteStrategy": "ROUND",
                     *       "executorHandler": "reportHandler",
                     *       "executorParam": "region=eu",
                     *       "executorBlockStrategy": "SERIAL_EXECUTION",
                     *       "executorTimeout": 600,
                     *       "executorFailRetryCount": 2,
                     *       "retryBackoffSeconds": 10,
                     *       "glueType": "BEAN",
                     *       "glueSource": "",
                     *       "childJobIds": [],
                     *       "triggerStatus": "RUNNING",
                     *       "triggerNextTime": "2030-01-02T01:00:00.000Z",
                     *       "triggerLastTime": "2030-01-01T01:00:00.000Z",
                     *       "glueUpdatetime": "2030-01-01T02:00:00.000Z",
                     *       "scheduleRevision": 2,
                     *       "version": 3,
                     *       "workflowId": null,
                     *       "createdAt": "2030-01-01T02:00:00.000Z",
                     *       "updatedAt": "2030-01-01T02:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Job"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller reaches the group but may only read it (a viewer), or may not edit GLUE sources. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No job has this id. Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The job is a workflow’s schedule job (workflowId): change the workflow instead. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    stopJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job’s id. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job, STOPPED. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 7,
                     *       "appName": "my-app",
                     *       "name": "Nightly report",
                     *       "author": "ops",
                     *       "alarmEmail": "ops@example.com",
                     *       "alarmWebhook": "",
                     *       "scheduleType": "CRON",
                     *       "scheduleConf": "0 0 2 * * ?",
                     *       "timeZone": "Europe/Berlin",
                     *       "misfireStrategy": "DO_NOTHING",
                     *       "startAt": null,
                     *       "endAt": "2030-12-31T23:00:00.000Z",
                     *       "maxRuns": 300,
                     *       "jitterSeconds": 30,
                     *       "calendars": {
                     *         "only": [],
                     *         "exclude": [
                     *           "de-holidays"
                     *         ]
                     *       },
                     *       "logRetentionDays": 90,
                     *       "keepSuccessfulRuns": 0.1,
                     *       "runsRemaining": 299,
                     *       "scheduleEnded": null,
                     *       "failurePolicy": {
                     *         "pauseAfter": {
                     *           "failures": 3,
                     *           "ofLast": 5
                     *         },
                     *         "resumeAfterSeconds": 600
                     *       },
                     *       "deadline": {
                     *         "time": "06:00",
                     *         "timeZone": "Europe/Berlin"
                     *       },
                     *       "pausedBy": null,
                     *       "occurrenceExceptions": [],
                     *       "executorRouteStrategy": "ROUND",
                     *       "executorHandler": "reportHandler",
                     *       "executorParam": "region=eu",
                     *       "executorBlockStrategy": "SERIAL_EXECUTION",
                     *       "executorTimeout": 600,
                     *       "executorFailRetryCount": 2,
                     *       "retryBackoffSeconds": 10,
                     *       "glueType": "BEAN",
                     *       "glueSource": "",
                     *       "childJobIds": [],
                     *       "triggerStatus": "STOPPED",
                     *       "triggerNextTime": null,
                     *       "triggerLastTime": "2030-01-01T01:00:00.000Z",
                     *       "glueUpdatetime": "2030-01-01T02:00:00.000Z",
                     *       "scheduleRevision": 2,
                     *       "version": 3,
                     *       "workflowId": null,
                     *       "createdAt": "2030-01-01T02:00:00.000Z",
                     *       "updatedAt": "2030-01-01T02:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Job"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller reaches the group but may only read it (a viewer), or may not edit GLUE sources. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No job has this id. Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The job is a workflow’s schedule job (workflowId): change the workflow instead. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    triggerJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job’s id. */
                id: number;
            };
            cookie?: never;
        };
        /** @description Overrides for this run; no body for none. */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["TriggerRequest"];
            };
        };
        responses: {
            /** @description Accepted: the run is dispatched at once, asynchronously. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "jobId": 7,
                     *       "dedupKey": "manual#1b4e28ba-2fa1-11d2-883f-0016d3cca427",
                     *       "scheduledTime": "2030-01-01T02:00:00.000Z",
                     *       "logId": 32212254721,
                     *       "logIds": [
                     *         32212254721
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["TriggerAccepted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller reaches the group but may only read it (a viewer), or may not edit GLUE sources. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No job has this id. Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    previewSchedule: {
        parameters: {
            query: {
                /** @description How scheduleConf is read. */
                scheduleType: "NONE" | "CRON" | "FIX_RATE" | "ONCE";
                /** @description The schedule, as on a job; empty for NONE. */
                scheduleConf?: string;
                /** @description The IANA time zone the cron is read in; UTC when absent. */
                timeZone?: string;
                /** @description Fires after this instant (ISO-8601 with Z or an offset); now when absent. */
                from?: string;
                /** @description How many fire times at most. */
                count?: number;
                /** @description The schedule’s startAt, as on a job. */
                startAt?: string;
                /** @description The schedule’s endAt, as on a job. */
                endAt?: string;
                /** @description At most this many fires (a new job’s maxRuns, or an existing job’s runsRemaining). */
                maxRuns?: number;
                /** @description The job’s jitterSeconds: each fire’s real time is shown beside its scheduled one. */
                jitterSeconds?: number;
                /** @description The job the fires are of: a fire’s jitter depends on it (without it, fireAt is null when there is jitter), and its skipped and moved occurrences are marked (when the caller may read the job). */
                jobId?: number;
                /** @description The schedule’s calendars.only: calendar ids separated by commas. Fires on other days are listed in skipped, not in fires. */
                onlyCalendars?: string;
                /** @description The schedule’s calendars.exclude: calendar ids separated by commas. */
                excludeCalendars?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The fire times. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "times": [
                     *         "2030-03-30T01:30:00.000Z",
                     *         "2030-04-01T00:30:00.000Z"
                     *       ],
                     *       "fires": [
                     *         {
                     *           "time": "2030-03-30T01:30:00.000Z",
                     *           "fireAt": "2030-03-30T01:30:12.345Z",
                     *           "exception": null,
                     *           "dst": null
                     *         },
                     *         {
                     *           "time": "2030-04-01T00:30:00.000Z",
                     *           "fireAt": "2030-04-01T00:30:07.021Z",
                     *           "exception": null,
                     *           "dst": null
                     *         }
                     *       ],
                     *       "skipped": [
                     *         {
                     *           "time": "2030-03-31T00:30:00.000Z",
                     *           "calendarId": "de-workdays",
                     *           "list": "only",
                     *           "date": "2030-03-31",
                     *           "reason": "WEEKEND",
                     *           "label": null
                     *         }
                     *       ],
                     *       "ends": "maxRuns",
                     *       "dst": {
                     *         "policy": "Quartz: a local time that does not exist (clocks spring forward) is skipped, no fire that day; a local time that exists twice (clocks fall back) fires once, at the second (standard-time) pass.",
                     *         "transitions": [
                     *           {
                     *             "kind": "skippedHour",
                     *             "at": "2030-03-31T01:00:00.000Z",
                     *             "localFrom": "2030-03-31T02:00:00",
                     *             "localTo": "2030-03-31T03:00:00",
                     *             "offsetBefore": "+01:00",
                     *             "offsetAfter": "+02:00",
                     *             "matches": 1,
                     *             "firstMatches": [
                     *               "2030-03-31T02:30:00"
                     *             ],
                     *             "note": "The schedule names 1 time in the skipped hour: no fire for it that day (the clocks jump from 2030-03-31T02:00:00 to 2030-03-31T03:00:00)."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["SchedulePreview"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listRuns: {
        parameters: {
            query?: {
                /** @description Only this job’s runs. */
                jobId?: number;
                /** @description Only the runs of this group’s jobs. */
                appName?: string;
                /** @description Only runs in this status (skipped runs are listed under their job only). */
                status?: "running" | "success" | "fail" | "skipped";
                /** @description Runs triggered at or after this instant (ISO-8601 with Z or an offset). */
                from?: string;
                /** @description Runs triggered at or before this instant; not before from. */
                to?: string;
                /** @description Most items on one page. */
                limit?: number;
                /** @description Where the next page starts: the `nextCursor` of the previous page, as it was given. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of runs. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "logId": 30064771201,
                     *           "jobId": 7,
                     *           "jobName": "Nightly report",
                     *           "appName": "my-app",
                     *           "status": "skipped",
                     *           "triggerType": "CRON",
                     *           "dedupKey": "7#1893546120000",
                     *           "scheduledTime": "2030-01-02T01:02:00.000Z",
                     *           "triggerTime": "2030-01-02T01:02:09.120Z",
                     *           "executorAddress": null,
                     *           "executorHandler": "reportHandler",
                     *           "executorParam": "region=eu",
                     *           "executorRouteStrategy": "ROUND",
                     *           "executorTimeout": 600,
                     *           "shard": "0/1",
                     *           "attempt": 1,
                     *           "retriesLeft": 2,
                     *           "parentLogId": null,
                     *           "workflow": null,
                     *           "triggerCode": 600,
                     *           "triggerMsg": "Trigger type: CRON\nMisfire strategy: DO_NOTHING\nSkipped, never sent: reached the dispatcher 9.1 s after its time (threshold 5 s); DO_NOTHING skips it",
                     *           "dispatchedAt": null,
                     *           "handleCode": 0,
                     *           "handleMsg": "",
                     *           "handleTime": null,
                     *           "alarmStatus": "NOT_NEEDED",
                     *           "skippedCount": 12,
                     *           "skippedUntil": "2030-01-02T01:02:11.000Z"
                     *         },
                     *         {
                     *           "logId": 30064771073,
                     *           "jobId": 7,
                     *           "jobName": "Nightly report",
                     *           "appName": "my-app",
                     *           "status": "success",
                     *           "triggerType": "CRON",
                     *           "dedupKey": "7#1893546000000",
                     *           "scheduledTime": "2030-01-02T01:00:00.000Z",
                     *           "triggerTime": "2030-01-02T00:59:59.750Z",
                     *           "executorAddress": "http://10.0.0.5:9999/",
                     *           "executorHandler": "reportHandler",
                     *           "executorParam": "region=eu",
                     *           "executorRouteStrategy": "ROUND",
                     *           "executorTimeout": 600,
                     *           "shard": "0/1",
                     *           "attempt": 1,
                     *           "retriesLeft": 2,
                     *           "parentLogId": null,
                     *           "workflow": null,
                     *           "triggerCode": 200,
                     *           "triggerMsg": "executor accepted the run",
                     *           "dispatchedAt": "2030-01-02T01:00:00.004Z",
                     *           "handleCode": 200,
                     *           "handleMsg": "report sent",
                     *           "handleTime": "2030-01-02T01:00:41.200Z",
                     *           "alarmStatus": "NOT_NEEDED",
                     *           "skippedCount": null,
                     *           "skippedUntil": null
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["RunPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The run’s logId (jobId × 2^32 + n). */
                logId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "logId": 30064771073,
                     *       "jobId": 7,
                     *       "jobName": "Nightly report",
                     *       "appName": "my-app",
                     *       "status": "success",
                     *       "triggerType": "CRON",
                     *       "dedupKey": "7#1893546000000",
                     *       "scheduledTime": "2030-01-02T01:00:00.000Z",
                     *       "triggerTime": "2030-01-02T00:59:59.750Z",
                     *       "executorAddress": "http://10.0.0.5:9999/",
                     *       "executorHandler": "reportHandler",
                     *       "executorParam": "region=eu",
                     *       "executorRouteStrategy": "ROUND",
                     *       "executorTimeout": 600,
                     *       "shard": "0/1",
                     *       "attempt": 1,
                     *       "retriesLeft": 2,
                     *       "parentLogId": null,
                     *       "workflow": null,
                     *       "triggerCode": 200,
                     *       "triggerMsg": "executor accepted the run",
                     *       "dispatchedAt": "2030-01-02T01:00:00.004Z",
                     *       "handleCode": 200,
                     *       "handleMsg": "report sent",
                     *       "handleTime": "2030-01-02T01:00:41.200Z",
                     *       "alarmStatus": "NOT_NEEDED",
                     *       "skippedCount": null,
                     *       "skippedUntil": null
                     *     }
                     */
                    "application/json": components["schemas"]["Run"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description No run has this logId (or its record expired). Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getRunOutput: {
        parameters: {
            query?: {
                /** @description The first line to read (1-based). */
                fromLineNum?: number;
            };
            header?: never;
            path: {
                /** @description The run’s logId (jobId × 2^32 + n). */
                logId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The lines. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "fromLineNum": 1,
                     *       "toLineNum": 2,
                     *       "logContent": "start\nreport sent\n",
                     *       "isEnd": true
                     *     }
                     */
                    "application/json": components["schemas"]["RunOutput"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description No run has this logId (or its record expired). Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run has no executor to ask (never sent, refused, skipped) or ran on a Lambda executor (see CloudWatch). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            /** @description The executor did not answer, or not with a log. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["Unavailable"];
        };
    };
    killRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The run’s logId (jobId × 2^32 + n). */
                logId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Killed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "logId": 30064771073,
                     *       "jobId": 7,
                     *       "jobName": "Nightly report",
                     *       "appName": "my-app",
                     *       "status": "fail",
                     *       "triggerType": "CRON",
                     *       "dedupKey": "7#1893546000000",
                     *       "scheduledTime": "2030-01-02T01:00:00.000Z",
                     *       "triggerTime": "2030-01-02T00:59:59.750Z",
                     *       "executorAddress": "http://10.0.0.5:9999/",
                     *       "executorHandler": "reportHandler",
                     *       "executorParam": "region=eu",
                     *       "executorRouteStrategy": "ROUND",
                     *       "executorTimeout": 600,
                     *       "shard": "0/1",
                     *       "attempt": 1,
                     *       "retriesLeft": 2,
                     *       "parentLogId": null,
                     *       "workflow": null,
                     *       "triggerCode": 200,
                     *       "triggerMsg": "executor accepted the run",
                     *       "dispatchedAt": "2030-01-02T01:00:00.004Z",
                     *       "handleCode": 500,
                     *       "handleMsg": "killed by user",
                     *       "handleTime": "2030-01-02T01:00:41.200Z",
                     *       "alarmStatus": "NOT_NEEDED",
                     *       "skippedCount": null,
                     *       "skippedUntil": null,
                     *       "executorMsg": ""
                     *     }
                     */
                    "application/json": components["schemas"]["KilledRun"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller reaches the group but may only read it (a viewer), or may not edit GLUE sources. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No run has this logId (or its record expired). Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run has finished, was never accepted by an executor, or ran on a Lambda executor. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            /** @description The run is recorded as killed, but its executor did not confirm it. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["Unavailable"];
        };
    };
    listExecutors: {
        parameters: {
            query?: {
                /** @description Only this group (404 when it does not exist). */
                appName?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Executors by group, and refused executor requests. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "appName": "my-app",
                     *           "title": "My application",
                     *           "addressType": "AUTO",
                     *           "executors": [
                     *             {
                     *               "address": "http://10.0.0.5:9999/",
                     *               "online": true,
                     *               "lastHeartbeat": "2030-01-01T02:00:00.000Z"
                     *             }
                     *           ],
                     *           "refusedRegistrations": 1
                     *         }
                     *       ],
                     *       "refused": [
                     *         {
                     *           "appName": "my-app",
                     *           "address": "http://10.0.0.6:9999/",
                     *           "reason": "wrong-token",
                     *           "hint": "The access token is not the one for this app name. Give the executor its group’s own token if the group has one (PUT /v1/groups/{appName}/access-token sets it), else the global access token.",
                     *           "request": "registry",
                     *           "detail": "The access token is wrong.",
                     *           "count": 42,
                     *           "firstSeen": "2030-01-01T02:00:00.000Z",
                     *           "lastSeen": "2030-01-01T02:00:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Executors"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description No group has the appName asked for. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    dashboard: {
        parameters: {
            query?: {
                /** @description The period: this many days up to today (UTC). */
                days?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dashboard. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "days": 1,
                     *       "fromDay": "2030-01-07",
                     *       "toDay": "2030-01-07",
                     *       "totals": {
                     *         "jobs": 12,
                     *         "runningJobs": 9,
                     *         "runs": 191,
                     *         "running": 0,
                     *         "success": 190,
                     *         "fail": 1,
                     *         "skipped": 2,
                     *         "onlineExecutors": 3
                     *       },
                     *       "series": [
                     *         {
                     *           "day": "2030-01-07",
                     *           "running": 0,
                     *           "success": 190,
                     *           "fail": 1,
                     *           "skipped": 2
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getActivity: {
        parameters: {
            query?: {
                /** @description The period up to now: 1h (60 buckets of 1 minute), 6h (72 of 5 minutes) or 24h (96 of 15 minutes). */
                window?: "1h" | "6h" | "24h";
                /** @description Only the runs of this group’s jobs (none for a group the caller does not see). */
                appName?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The activity. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "window": "1h",
                     *       "bucketMs": 60000,
                     *       "from": "2030-01-07T09:01:00.000Z",
                     *       "to": "2030-01-07T10:01:00.000Z",
                     *       "buckets": [
                     *         {
                     *           "start": "2030-01-07T09:01:00.000Z",
                     *           "success": 58,
                     *           "fail": 1,
                     *           "running": 0,
                     *           "latenessP50Ms": 3,
                     *           "latenessP99Ms": 41
                     *         },
                     *         {
                     *           "start": "2030-01-07T09:02:00.000Z",
                     *           "success": 0,
                     *           "fail": 0,
                     *           "running": 0,
                     *           "latenessP50Ms": null,
                     *           "latenessP99Ms": null
                     *         }
                     *       ],
                     *       "inProgress": 1,
                     *       "lastFailures": [
                     *         {
                     *           "logId": 30064771073,
                     *           "jobId": 7,
                     *           "jobName": "Nightly report",
                     *           "appName": "my-app",
                     *           "handleMsg": "java.lang.IllegalStateException: report source unavailable",
                     *           "handleTime": "2030-01-07T09:01:42.310Z",
                     *           "scheduledTime": "2030-01-07T09:01:00.000Z"
                     *         }
                     *       ],
                     *       "sampled": 60,
                     *       "truncated": false
                     *     }
                     */
                    "application/json": components["schemas"]["Activity"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description The OpenAPI version.
                         * @example 3.1.0
                         */
                        openapi: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listOccurrences: {
        parameters: {
            query?: {
                /** @description List from here (default and at the earliest: now). */
                from?: string;
                /** @description List up to here (inclusive). */
                to?: string;
                /** @description How many occurrences at most. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The job’s id. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The occurrences and the exceptions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "jobId": 7,
                     *       "occurrences": [
                     *         {
                     *           "time": "2030-01-02T09:00:00.000Z",
                     *           "fireAt": null,
                     *           "exception": {
                     *             "at": "2030-01-02T09:00:00.000Z",
                     *             "action": "skip",
                     *             "to": null,
                     *             "reason": "public holiday",
                     *             "by": "ana",
                     *             "createdAt": "2030-01-01T12:00:00.000Z"
                     *           },
                     *           "changeable": true
                     *         },
                     *         {
                     *           "time": "2030-01-03T09:00:00.000Z",
                     *           "fireAt": "2030-01-03T09:00:00.000Z",
                     *           "exception": null,
                     *           "changeable": true
                     *         }
                     *       ],
                     *       "exceptions": [
                     *         {
                     *           "at": "2030-01-02T09:00:00.000Z",
                     *           "action": "skip",
                     *           "to": null,
                     *           "reason": "public holiday",
                     *           "by": "ana",
                     *           "createdAt": "2030-01-01T12:00:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["OccurrenceList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description No job has this id. Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    skipOccurrence: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job’s id. */
                id: number;
                /** @description The occurrence’s scheduled time: an ISO-8601 instant with a zone (2030-01-02T09:00:00Z) or epoch milliseconds. It must be a future fire of the job’s schedule. */
                time: string;
            };
            cookie?: never;
        };
        /** @description Why (optional). */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["OccurrenceSkip"];
            };
        };
        responses: {
            /** @description The job as changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller reaches the group but may only read it (a viewer), or may not edit GLUE sources. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No job has this id. Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too late: the occurrence is planned already (or within 15 s); or the job changed meanwhile too often; or it is a workflow’s schedule job. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    moveOccurrence: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job’s id. */
                id: number;
                /** @description The occurrence’s scheduled time: an ISO-8601 instant with a zone (2030-01-02T09:00:00Z) or epoch milliseconds. It must be a future fire of the job’s schedule. */
                time: string;
            };
            cookie?: never;
        };
        /** @description The new time, and why. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["OccurrenceMove"];
            };
        };
        responses: {
            /** @description The job as changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller reaches the group but may only read it (a viewer), or may not edit GLUE sources. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No job has this id. Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too late: the occurrence is planned already (or within 15 s); or the job changed meanwhile too often; or it is a workflow’s schedule job. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    restoreOccurrence: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job’s id. */
                id: number;
                /** @description The occurrence’s scheduled time: an ISO-8601 instant with a zone (2030-01-02T09:00:00Z) or epoch milliseconds. It must be a future fire of the job’s schedule. */
                time: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job as changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller reaches the group but may only read it (a viewer), or may not edit GLUE sources. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No job has this id. Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too late: the occurrence is planned already (or within 15 s); or the job changed meanwhile too often; or it is a workflow’s schedule job. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getJobLedger: {
        parameters: {
            query: {
                /** @description The window’s start (inclusive): ISO-8601 with a zone, or epoch milliseconds. */
                from: string;
                /** @description The window’s end (exclusive): ISO-8601 with a zone, or epoch milliseconds. At most 10000 fires of the schedule in the window. */
                to: string;
            };
            header?: never;
            path: {
                /** @description The job’s id. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ledger. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "jobId": 7,
                     *       "from": "2030-01-02T09:00:00.000Z",
                     *       "to": "2030-01-02T09:05:00.000Z",
                     *       "summary": {
                     *         "ran": 2,
                     *         "skipped": 2,
                     *         "calendar": 0,
                     *         "exception": 1,
                     *         "paused": 0,
                     *         "notYetDue": 0,
                     *         "unexplained": 0,
                     *         "skippedBy": {
                     *           "misfire": 2,
                     *           "overload": 0,
                     *           "overlap": 0,
                     *           "block": 0
                     *         }
                     *       },
                     *       "entries": [
                     *         {
                     *           "until": null,
                     *           "logId": 30064771072,
                     *           "status": "success",
                     *           "rule": null,
                     *           "fireAt": null,
                     *           "calendar": null,
                     *           "exception": null,
                     *           "stoppedBy": null,
                     *           "scheduledTime": "2030-01-02T09:00:00.000Z",
                     *           "count": 1,
                     *           "outcome": "ran"
                     *         },
                     *         {
                     *           "until": "2030-01-02T09:02:00.000Z",
                     *           "logId": 30064771073,
                     *           "status": null,
                     *           "rule": "misfire",
                     *           "fireAt": null,
                     *           "calendar": null,
                     *           "exception": null,
                     *           "stoppedBy": null,
                     *           "scheduledTime": "2030-01-02T09:01:00.000Z",
                     *           "count": 2,
                     *           "outcome": "skipped"
                     *         },
                     *         {
                     *           "until": null,
                     *           "logId": null,
                     *           "status": null,
                     *           "rule": null,
                     *           "fireAt": null,
                     *           "calendar": null,
                     *           "exception": {
                     *             "action": "skip",
                     *             "to": null,
                     *             "by": "ana",
                     *             "reason": "deploy"
                     *           },
                     *           "stoppedBy": null,
                     *           "scheduledTime": "2030-01-02T09:03:00.000Z",
                     *           "count": 1,
                     *           "outcome": "exception"
                     *         },
                     *         {
                     *           "until": null,
                     *           "logId": 30064771076,
                     *           "status": "fail",
                     *           "rule": null,
                     *           "fireAt": null,
                     *           "calendar": null,
                     *           "exception": null,
                     *           "stoppedBy": null,
                     *           "scheduledTime": "2030-01-02T09:04:00.000Z",
                     *           "count": 1,
                     *           "outcome": "ran"
                     *         }
                     *       ],
                     *       "definitionChangedInWindow": false,
                     *       "history": "audit",
                     *       "calendars": [],
                     *       "calendarsChangedInWindow": [],
                     *       "runsRead": 4
                     *     }
                     */
                    "application/json": components["schemas"]["FireLedger"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description No job has this id. Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getWorkflowLedger: {
        parameters: {
            query: {
                /** @description The window’s start (inclusive): ISO-8601 with a zone, or epoch milliseconds. */
                from: string;
                /** @description The window’s end (exclusive): ISO-8601 with a zone, or epoch milliseconds. At most 10000 fires of the schedule in the window. */
                to: string;
            };
            header?: never;
            path: {
                /** @description The workflow’s id. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ledger. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "workflowId": 3,
                     *       "starterJobId": 12,
                     *       "from": "2030-01-02T00:00:00.000Z",
                     *       "to": "2030-01-05T00:00:00.000Z",
                     *       "summary": {
                     *         "ran": 2,
                     *         "skipped": 1,
                     *         "calendar": 0,
                     *         "exception": 0,
                     *         "paused": 0,
                     *         "notYetDue": 0,
                     *         "unexplained": 0,
                     *         "skippedBy": {
                     *           "misfire": 0,
                     *           "overload": 0,
                     *           "overlap": 1,
                     *           "block": 0
                     *         }
                     *       },
                     *       "entries": [
                     *         {
                     *           "until": null,
                     *           "logId": 51539607553,
                     *           "status": "success",
                     *           "rule": null,
                     *           "fireAt": null,
                     *           "calendar": null,
                     *           "exception": null,
                     *           "stoppedBy": null,
                     *           "scheduledTime": "2030-01-02T01:00:00.000Z",
                     *           "count": 1,
                     *           "outcome": "ran",
                     *           "runId": "wr-s51539607553",
                     *           "runStatus": "SUCCEEDED"
                     *         },
                     *         {
                     *           "until": null,
                     *           "logId": 51539607554,
                     *           "status": null,
                     *           "rule": "overlap",
                     *           "fireAt": null,
                     *           "calendar": null,
                     *           "exception": null,
                     *           "stoppedBy": null,
                     *           "scheduledTime": "2030-01-03T01:00:00.000Z",
                     *           "count": 1,
                     *           "outcome": "skipped",
                     *           "runId": null,
                     *           "runStatus": null
                     *         },
                     *         {
                     *           "until": null,
                     *           "logId": 51539607555,
                     *           "status": "running",
                     *           "rule": null,
                     *           "fireAt": null,
                     *           "calendar": null,
                     *           "exception": null,
                     *           "stoppedBy": null,
                     *           "scheduledTime": "2030-01-04T01:00:00.000Z",
                     *           "count": 1,
                     *           "outcome": "ran",
                     *           "runId": "wr-s51539607555",
                     *           "runStatus": "RUNNING"
                     *         }
                     *       ],
                     *       "definitionChangedInWindow": false,
                     *       "history": "audit",
                     *       "calendars": [],
                     *       "calendarsChangedInWindow": [],
                     *       "runsRead": 3,
                     *       "workflowRunsRead": 2
                     *     }
                     */
                    "application/json": components["schemas"]["WorkflowFireLedger"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description No workflow has this id. Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listWorkflows: {
        parameters: {
            query?: {
                /** @description Only the workflows of this executor group. */
                appName?: string;
                /** @description Most items on one page. */
                limit?: number;
                /** @description Where the next page starts: the `nextCursor` of the previous page, as it was given. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of workflows. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": 3,
                     *           "version": 2,
                     *           "name": "Nightly ETL",
                     *           "appName": "my-app",
                     *           "scheduleType": "CRON",
                     *           "scheduleConf": "0 0 2 * * ?",
                     *           "timeZone": "Europe/Berlin",
                     *           "misfireStrategy": "DO_NOTHING",
                     *           "calendars": {
                     *             "only": [
                     *               "de-workdays"
                     *             ],
                     *             "exclude": []
                     *           },
                     *           "overlapPolicy": "SKIP",
                     *           "deadline": {
                     *             "time": "06:00",
                     *             "timeZone": "Europe/Berlin"
                     *           },
                     *           "nodes": [
                     *             {
                     *               "key": "extract",
                     *               "jobId": 7,
                     *               "executorParam": "{{ input.date }}",
                     *               "upstream": []
                     *             },
                     *             {
                     *               "key": "load",
                     *               "jobId": 8,
                     *               "executorParam": "{{ nodes.extract.result.file }}",
                     *               "upstream": [
                     *                 {
                     *                   "key": "extract",
                     *                   "condition": "ON_SUCCESS"
                     *                 }
                     *               ]
                     *             },
                     *             {
                     *               "key": "cleanup",
                     *               "jobId": 9,
                     *               "upstream": [
                     *                 {
                     *                   "key": "load",
                     *                   "condition": "ALWAYS"
                     *                 }
                     *               ]
                     *             }
                     *           ],
                     *           "startAt": null,
                     *           "endAt": "2030-12-31T23:59:59.000Z",
                     *           "maxRuns": null,
                     *           "jitterSeconds": 0,
                     *           "triggerStatus": "RUNNING",
                     *           "starterJobId": 12,
                     *           "triggerNextTime": "2030-01-02T01:00:00.000Z",
                     *           "runsRemaining": null,
                     *           "scheduleEnded": null,
                     *           "deadlineStatus": {
                     *             "window": {
                     *               "from": "2030-01-01T05:00:00.000Z",
                     *               "to": "2030-01-02T05:00:00.000Z"
                     *             },
                     *             "state": "pending",
                     *             "at": null
                     *           },
                     *           "activeRuns": 0,
                     *           "bufferedRunId": null,
                     *           "createdAt": "2030-01-01T02:00:00.000Z",
                     *           "updatedAt": "2030-01-01T02:00:00.000Z"
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["WorkflowPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    createWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The workflow. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkflowRequest"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 3,
                     *       "version": 1,
                     *       "name": "Nightly ETL",
                     *       "appName": "my-app",
                     *       "scheduleType": "CRON",
                     *       "scheduleConf": "0 0 2 * * ?",
                     *       "timeZone": "Europe/Berlin",
                     *       "misfireStrategy": "DO_NOTHING",
                     *       "calendars": {
                     *         "only": [
                     *           "de-workdays"
                     *         ],
                     *         "exclude": []
                     *       },
                     *       "overlapPolicy": "SKIP",
                     *       "deadline": {
                     *         "time": "06:00",
                     *         "timeZone": "Europe/Berlin"
                     *       },
                     *       "nodes": [
                     *         {
                     *           "key": "extract",
                     *           "jobId": 7,
                     *           "executorParam": "{{ input.date }}",
                     *           "upstream": []
                     *         },
                     *         {
                     *           "key": "load",
                     *           "jobId": 8,
                     *           "executorParam": "{{ nodes.extract.result.file }}",
                     *           "upstream": [
                     *             {
                     *               "key": "extract",
                     *               "condition": "ON_SUCCESS"
                     *             }
                     *           ]
                     *         },
                     *         {
                     *           "key": "cleanup",
                     *           "jobId": 9,
                     *           "upstream": [
                     *             {
                     *               "key": "load",
                     *               "condition": "ALWAYS"
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "startAt": null,
                     *       "endAt": "2030-12-31T23:59:59.000Z",
                     *       "maxRuns": null,
                     *       "jitterSeconds": 0,
                     *       "triggerStatus": "STOPPED",
                     *       "starterJobId": 12,
                     *       "triggerNextTime": null,
                     *       "runsRemaining": null,
                     *       "scheduleEnded": null,
                     *       "deadlineStatus": {
                     *         "window": {
                     *           "from": "2030-01-01T05:00:00.000Z",
                     *           "to": "2030-01-02T05:00:00.000Z"
                     *         },
                     *         "state": "pending",
                     *         "at": null
                     *       },
                     *       "activeRuns": 0,
                     *       "bufferedRunId": null,
                     *       "createdAt": "2030-01-01T02:00:00.000Z",
                     *       "updatedAt": "2030-01-01T02:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Workflow"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller reaches the group but may only read it (a viewer), or may not edit GLUE sources. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow’s id. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workflow. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 3,
                     *       "version": 2,
                     *       "name": "Nightly ETL",
                     *       "appName": "my-app",
                     *       "scheduleType": "CRON",
                     *       "scheduleConf": "0 0 2 * * ?",
                     *       "timeZone": "Europe/Berlin",
                     *       "misfireStrategy": "DO_NOTHING",
                     *       "calendars": {
                     *         "only": [
                     *           "de-workdays"
                     *         ],
                     *         "exclude": []
                     *       },
                     *       "overlapPolicy": "SKIP",
                     *       "deadline": {
                     *         "time": "06:00",
                     *         "timeZone": "Europe/Berlin"
                     *       },
                     *       "nodes": [
                     *         {
                     *           "key": "extract",
                     *           "jobId": 7,
                     *           "executorParam": "{{ input.date }}",
                     *           "upstream": []
                     *         },
                     *         {
                     *           "key": "load",
                     *           "jobId": 8,
                     *           "executorParam": "{{ nodes.extract.result.file }}",
                     *           "upstream": [
                     *             {
                     *               "key": "extract",
                     *               "condition": "ON_SUCCESS"
                     *             }
                     *           ]
                     *         },
                     *         {
                     *           "key": "cleanup",
                     *           "jobId": 9,
                     *           "upstream": [
                     *             {
                     *               "key": "load",
                     *               "condition": "ALWAYS"
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "startAt": null,
                     *       "endAt": "2030-12-31T23:59:59.000Z",
                     *       "maxRuns": null,
                     *       "jitterSeconds": 0,
                     *       "triggerStatus": "RUNNING",
                     *       "starterJobId": 12,
                     *       "triggerNextTime": "2030-01-02T01:00:00.000Z",
                     *       "runsRemaining": null,
                     *       "scheduleEnded": null,
                     *       "deadlineStatus": {
                     *         "window": {
                     *           "from": "2030-01-01T05:00:00.000Z",
                     *           "to": "2030-01-02T05:00:00.000Z"
                     *         },
                     *         "state": "pending",
                     *         "at": null
                     *       },
                     *       "activeRuns": 0,
                     *       "bufferedRunId": null,
                     *       "createdAt": "2030-01-01T02:00:00.000Z",
                     *       "updatedAt": "2030-01-01T02:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Workflow"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description No workflow has this id. Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow’s id. */
                id: number;
            };
            cookie?: never;
        };
        /** @description The whole definition (a workflow read with GET, changed, is fine). */
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkflowRequest"];
            };
        };
        responses: {
            /** @description The workflow as changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 3,
                     *       "version": 2,
                     *       "name": "Nightly ETL",
                     *       "appName": "my-app",
                     *       "scheduleType": "CRON",
                     *       "scheduleConf": "0 0 2 * * ?",
                     *       "timeZone": "Europe/Berlin",
                     *       "misfireStrategy": "DO_NOTHING",
                     *       "calendars": {
                     *         "only": [
                     *           "de-workdays"
                     *         ],
                     *         "exclude": []
                     *       },
                     *       "overlapPolicy": "SKIP",
                     *       "deadline": {
                     *         "time": "06:00",
                     *         "timeZone": "Europe/Berlin"
                     *       },
                     *       "nodes": [
                     *         {
                     *           "key": "extract",
                     *           "jobId": 7,
                     *           "executorParam": "{{ input.date }}",
                     *           "upstream": []
                     *         },
                     *         {
                     *           "key": "load",
                     *           "jobId": 8,
                     *           "executorParam": "{{ nodes.extract.result.file }}",
                     *           "upstream": [
                     *             {
                     *               "key": "extract",
                     *               "condition": "ON_SUCCESS"
                     *             }
                     *           ]
                     *         },
                     *         {
                     *           "key": "cleanup",
                     *           "jobId": 9,
                     *           "upstream": [
                     *             {
                     *               "key": "load",
                     *               "condition": "ALWAYS"
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "startAt": null,
                     *       "endAt": "2030-12-31T23:59:59.000Z",
                     *       "maxRuns": null,
                     *       "jitterSeconds": 0,
                     *       "triggerStatus": "RUNNING",
                     *       "starterJobId": 12,
                     *       "triggerNextTime": "2030-01-02T01:00:00.000Z",
                     *       "runsRemaining": null,
                     *       "scheduleEnded": null,
                     *       "deadlineStatus": {
                     *         "window": {
                     *           "from": "2030-01-01T05:00:00.000Z",
                     *           "to": "2030-01-02T05:00:00.000Z"
                     *         },
                     *         "state": "pending",
                     *         "at": null
                     *       },
                     *       "activeRuns": 0,
                     *       "bufferedRunId": null,
                     *       "createdAt": "2030-01-01T02:00:00.000Z",
                     *       "updatedAt": "2030-01-01T02:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Workflow"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller reaches the group but may only read it (a viewer), or may not edit GLUE sources. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No workflow has this id. Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body’s version is not the workflow’s: read it again and retry. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow’s id. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller reaches the group but may only read it (a viewer), or may not edit GLUE sources. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No workflow has this id. Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A run of the workflow is running or waiting (QUEUED). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    startWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow’s id. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workflow, RUNNING. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 3,
                     *       "version": 2,
                     *       "name": "Nightly ETL",
                     *       "appName": "my-app",
                     *       "scheduleType": "CRON",
                     *       "scheduleConf": "0 0 2 * * ?",
                     *       "timeZone": "Europe/Berlin",
                     *       "misfireStrategy": "DO_NOTHING",
                     *       "calendars": {
                     *         "only": [
                     *           "de-workdays"
                     *         ],
                     *         "exclude": []
                     *       },
                     *       "overlapPolicy": "SKIP",
                     *       "deadline": {
                     *         "time": "06:00",
                     *         "timeZone": "Europe/Berlin"
                     *       },
                     *       "nodes": [
                     *         {
                     *           "key": "extract",
                     *           "jobId": 7,
                     *           "executorParam": "{{ input.date }}",
                     *           "upstream": []
                     *         },
                     *         {
                     *           "key": "load",
                     *           "jobId": 8,
                     *           "executorParam": "{{ nodes.extract.result.file }}",
                     *           "upstream": [
                     *             {
                     *               "key": "extract",
                     *               "condition": "ON_SUCCESS"
                     *             }
                     *           ]
                     *         },
                     *         {
                     *           "key": "cleanup",
                     *           "jobId": 9,
                     *           "upstream": [
                     *             {
                     *               "key": "load",
                     *               "condition": "ALWAYS"
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "startAt": null,
                     *       "endAt": "2030-12-31T23:59:59.000Z",
                     *       "maxRuns": null,
                     *       "jitterSeconds": 0,
                     *       "triggerStatus": "RUNNING",
                     *       "starterJobId": 12,
                     *       "triggerNextTime": "2030-01-02T01:00:00.000Z",
                     *       "runsRemaining": null,
                     *       "scheduleEnded": null,
                     *       "deadlineStatus": {
                     *         "window": {
                     *           "from": "2030-01-01T05:00:00.000Z",
                     *           "to": "2030-01-02T05:00:00.000Z"
                     *         },
                     *         "state": "pending",
                     *         "at": null
                     *       },
                     *       "activeRuns": 0,
                     *       "bufferedRunId": null,
                     *       "createdAt": "2030-01-01T02:00:00.000Z",
                     *       "updatedAt": "2030-01-01T02:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Workflow"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller reaches the group but may only read it (a viewer), or may not edit GLUE sources. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No workflow has this id. Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    stopWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow’s id. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workflow, STOPPED. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 3,
                     *       "version": 2,
                     *       "name": "Nightly ETL",
                     *       "appName": "my-app",
                     *       "scheduleType": "CRON",
                     *       "scheduleConf": "0 0 2 * * ?",
                     *       "timeZone": "Europe/Berlin",
                     *       "misfireStrategy": "DO_NOTHING",
                     *       "calendars": {
                     *         "only": [
                     *           "de-workdays"
                     *         ],
                     *         "exclude": []
                     *       },
                     *       "overlapPolicy": "SKIP",
                     *       "deadline": {
                     *         "time": "06:00",
                     *         "timeZone": "Europe/Berlin"
                     *       },
                     *       "nodes": [
                     *         {
                     *           "key": "extract",
                     *           "jobId": 7,
                     *           "executorParam": "{{ input.date }}",
                     *           "upstream": []
                     *         },
                     *         {
                     *           "key": "load",
                     *           "jobId": 8,
                     *           "executorParam": "{{ nodes.extract.result.file }}",
                     *           "upstream": [
                     *             {
                     *               "key": "extract",
                     *               "condition": "ON_SUCCESS"
                     *             }
                     *           ]
                     *         },
                     *         {
                     *           "key": "cleanup",
                     *           "jobId": 9,
                     *           "upstream": [
                     *             {
                     *               "key": "load",
                     *               "condition": "ALWAYS"
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "startAt": null,
                     *       "endAt": "2030-12-31T23:59:59.000Z",
                     *       "maxRuns": null,
                     *       "jitterSeconds": 0,
                     *       "triggerStatus": "STOPPED",
                     *       "starterJobId": 12,
                     *       "triggerNextTime": null,
                     *       "runsRemaining": null,
                     *       "scheduleEnded": null,
                     *       "deadlineStatus": {
                     *         "window": {
                     *           "from": "2030-01-01T05:00:00.000Z",
                     *           "to": "2030-01-02T05:00:00.000Z"
                     *         },
                     *         "state": "pending",
                     *         "at": null
                     *       },
                     *       "activeRuns": 0,
                     *       "bufferedRunId": null,
                     *       "createdAt": "2030-01-01T02:00:00.000Z",
                     *       "updatedAt": "2030-01-01T02:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Workflow"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller reaches the group but may only read it (a viewer), or may not edit GLUE sources. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No workflow has this id. Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    triggerWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow’s id. */
                id: number;
            };
            cookie?: never;
        };
        /** @description The run’s input; no body for `{}`. */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["WorkflowTriggerRequest"];
            };
        };
        responses: {
            /** @description Accepted: the run is started (or waits), its nodes run asynchronously. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "wr-m5x8k2a1-3f9c1d2e6b8a",
                     *       "workflowId": 3,
                     *       "version": 2,
                     *       "workflowName": "Nightly ETL",
                     *       "appName": "my-app",
                     *       "status": "RUNNING",
                     *       "input": {
                     *         "date": "2030-01-01"
                     *       },
                     *       "trigger": {
                     *         "type": "MANUAL",
                     *         "starterLogId": null,
                     *         "scheduledTime": null,
                     *         "by": "ana"
                     *       },
                     *       "createdAt": "2030-01-01T02:00:00.000Z",
                     *       "startedAt": "2030-01-01T02:00:00.000Z",
                     *       "finishedAt": null,
                     *       "failedNodes": [],
                     *       "nodes": [
                     *         {
                     *           "key": "extract",
                     *           "jobId": 7,
                     *           "status": "RUNNING",
                     *           "attempt": 1,
                     *           "upstream": [],
                     *           "result": null,
                     *           "resultJson": null,
                     *           "reason": null,
                     *           "logIds": [],
                     *           "firedAt": "2030-01-01T02:00:00.000Z",
                     *           "finishedAt": null
                     *         },
                     *         {
                     *           "key": "load",
                     *           "jobId": 8,
                     *           "status": "PENDING",
                     *           "attempt": 0,
                     *           "upstream": [
                     *             {
                     *               "key": "extract",
                     *               "condition": "ON_SUCCESS"
                     *             }
                     *           ],
                     *           "result": null,
                     *           "resultJson": null,
                     *           "reason": null,
                     *           "logIds": [],
                     *           "firedAt": null,
                     *           "finishedAt": null
                     *         },
                     *         {
                     *           "key": "cleanup",
                     *           "jobId": 9,
                     *           "status": "PENDING",
                     *           "attempt": 0,
                     *           "upstream": [
                     *             {
                     *               "key": "load",
                     *               "condition": "ALWAYS"
                     *             }
                     *           ],
                     *           "result": null,
                     *           "resultJson": null,
                     *           "reason": null,
                     *           "logIds": [],
                     *           "firedAt": null,
                     *           "finishedAt": null
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["WorkflowRun"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller reaches the group but may only read it (a viewer), or may not edit GLUE sources. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No workflow has this id. Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The overlap policy did not start it (SKIP while a run is running; BUFFER_ONE with a run waiting already). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listWorkflowRuns: {
        parameters: {
            query?: {
                /** @description Only this workflow’s runs. */
                workflowId?: number;
                /** @description Only the runs of this group’s workflows. */
                appName?: string;
                /** @description Only runs in this status. */
                status?: "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
                /** @description Most items on one page. */
                limit?: number;
                /** @description Where the next page starts: the `nextCursor` of the previous page, as it was given. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of runs. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": "wr-m5x8k2a1-3f9c1d2e6b8a",
                     *           "workflowId": 3,
                     *           "version": 2,
                     *           "workflowName": "Nightly ETL",
                     *           "appName": "my-app",
                     *           "status": "RUNNING",
                     *           "input": {
                     *             "date": "2030-01-01"
                     *           },
                     *           "trigger": {
                     *             "type": "MANUAL",
                     *             "starterLogId": null,
                     *             "scheduledTime": null,
                     *             "by": "ana"
                     *           },
                     *           "createdAt": "2030-01-01T02:00:00.000Z",
                     *           "startedAt": "2030-01-01T02:00:00.000Z",
                     *           "finishedAt": null,
                     *           "failedNodes": [],
                     *           "nodeCounts": {
                     *             "PENDING": 1,
                     *             "RUNNING": 1,
                     *             "SUCCEEDED": 1,
                     *             "FAILED": 0,
                     *             "SKIPPED": 0,
                     *             "CANCELLED": 0
                     *           }
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["WorkflowRunPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getWorkflowRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow run’s id (`wr-…`). */
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "wr-m5x8k2a1-3f9c1d2e6b8a",
                     *       "workflowId": 3,
                     *       "version": 2,
                     *       "workflowName": "Nightly ETL",
                     *       "appName": "my-app",
                     *       "status": "RUNNING",
                     *       "input": {
                     *         "date": "2030-01-01"
                     *       },
                     *       "trigger": {
                     *         "type": "MANUAL",
                     *         "starterLogId": null,
                     *         "scheduledTime": null,
                     *         "by": "ana"
                     *       },
                     *       "createdAt": "2030-01-01T02:00:00.000Z",
                     *       "startedAt": "2030-01-01T02:00:00.000Z",
                     *       "finishedAt": null,
                     *       "failedNodes": [],
                     *       "nodes": [
                     *         {
                     *           "key": "extract",
                     *           "jobId": 7,
                     *           "status": "SUCCEEDED",
                     *           "attempt": 1,
                     *           "upstream": [],
                     *           "result": "{\"file\": \"s3://etl/2030-01-01.csv\"}",
                     *           "resultJson": {
                     *             "file": "s3://etl/2030-01-01.csv"
                     *           },
                     *           "reason": null,
                     *           "logIds": [
                     *             32212254721
                     *           ],
                     *           "firedAt": "2030-01-01T02:00:00.000Z",
                     *           "finishedAt": "2030-01-01T02:00:41.200Z"
                     *         },
                     *         {
                     *           "key": "load",
                     *           "jobId": 8,
                     *           "status": "RUNNING",
                     *           "attempt": 1,
                     *           "upstream": [
                     *             {
                     *               "key": "extract",
                     *               "condition": "ON_SUCCESS"
                     *             }
                     *           ],
                     *           "result": null,
                     *           "resultJson": null,
                     *           "reason": null,
                     *           "logIds": [
                     *             36507222017
                     *           ],
                     *           "firedAt": "2030-01-01T02:00:41.300Z",
                     *           "finishedAt": null
                     *         },
                     *         {
                     *           "key": "cleanup",
                     *           "jobId": 9,
                     *           "status": "PENDING",
                     *           "attempt": 0,
                     *           "upstream": [
                     *             {
                     *               "key": "load",
                     *               "condition": "ALWAYS"
                     *             }
                     *           ],
                     *           "result": null,
                     *           "resultJson": null,
                     *           "reason": null,
                     *           "logIds": [],
                     *           "firedAt": null,
                     *           "finishedAt": null
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["WorkflowRun"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description No workflow run has this id (or it expired). Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    retryWorkflowRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow run’s id (`wr-…`). */
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run, RUNNING again. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "wr-m5x8k2a1-3f9c1d2e6b8a",
                     *       "workflowId": 3,
                     *       "version": 2,
                     *       "workflowName": "Nightly ETL",
                     *       "appName": "my-app",
                     *       "status": "RUNNING",
                     *       "input": {
                     *         "date": "2030-01-01"
                     *       },
                     *       "trigger": {
                     *         "type": "MANUAL",
                     *         "starterLogId": null,
                     *         "scheduledTime": null,
                     *         "by": "ana"
                     *       },
                     *       "createdAt": "2030-01-01T02:00:00.000Z",
                     *       "startedAt": "2030-01-01T02:00:00.000Z",
                     *       "finishedAt": null,
                     *       "failedNodes": [],
                     *       "nodes": [
                     *         {
                     *           "key": "extract",
                     *           "jobId": 7,
                     *           "status": "SUCCEEDED",
                     *           "attempt": 1,
                     *           "upstream": [],
                     *           "result": "{\"file\": \"s3://etl/2030-01-01.csv\"}",
                     *           "resultJson": {
                     *             "file": "s3://etl/2030-01-01.csv"
                     *           },
                     *           "reason": null,
                     *           "logIds": [
                     *             32212254721
                     *           ],
                     *           "firedAt": "2030-01-01T02:00:00.000Z",
                     *           "finishedAt": "2030-01-01T02:00:41.200Z"
                     *         },
                     *         {
                     *           "key": "load",
                     *           "jobId": 8,
                     *           "status": "RUNNING",
                     *           "attempt": 1,
                     *           "upstream": [
                     *             {
                     *               "key": "extract",
                     *               "condition": "ON_SUCCESS"
                     *             }
                     *           ],
                     *           "result": null,
                     *           "resultJson": null,
                     *           "reason": null,
                     *           "logIds": [
                     *             36507222017
                     *           ],
                     *           "firedAt": "2030-01-01T02:00:41.300Z",
                     *           "finishedAt": null
                     *         },
                     *         {
                     *           "key": "cleanup",
                     *           "jobId": 9,
                     *           "status": "PENDING",
                     *           "attempt": 0,
                     *           "upstream": [
                     *             {
                     *               "key": "load",
                     *               "condition": "ALWAYS"
                     *             }
                     *           ],
                     *           "result": null,
                     *           "resultJson": null,
                     *           "reason": null,
                     *           "logIds": [],
                     *           "firedAt": null,
                     *           "finishedAt": null
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["WorkflowRun"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller reaches the group but may only read it (a viewer), or may not edit GLUE sources. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No workflow run has this id (or it expired). Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run is not FAILED or CANCELLED (it is QUEUED, RUNNING or SUCCEEDED), or a node of it is still running (a cancelled run whose node has not finished yet). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    cancelWorkflowRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow run’s id (`wr-…`). */
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run, CANCELLED. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "wr-m5x8k2a1-3f9c1d2e6b8a",
                     *       "workflowId": 3,
                     *       "version": 2,
                     *       "workflowName": "Nightly ETL",
                     *       "appName": "my-app",
                     *       "status": "CANCELLED",
                     *       "input": {
                     *         "date": "2030-01-01"
                     *       },
                     *       "trigger": {
                     *         "type": "MANUAL",
                     *         "starterLogId": null,
                     *         "scheduledTime": null,
                     *         "by": "ana"
                     *       },
                     *       "createdAt": "2030-01-01T02:00:00.000Z",
                     *       "startedAt": "2030-01-01T02:00:00.000Z",
                     *       "finishedAt": "2030-01-01T02:01:00.000Z",
                     *       "failedNodes": [],
                     *       "nodes": [
                     *         {
                     *           "key": "extract",
                     *           "jobId": 7,
                     *           "status": "SUCCEEDED",
                     *           "attempt": 1,
                     *           "upstream": [],
                     *           "result": "{\"file\": \"s3://etl/2030-01-01.csv\"}",
                     *           "resultJson": {
                     *             "file": "s3://etl/2030-01-01.csv"
                     *           },
                     *           "reason": null,
                     *           "logIds": [
                     *             32212254721
                     *           ],
                     *           "firedAt": "2030-01-01T02:00:00.000Z",
                     *           "finishedAt": "2030-01-01T02:00:41.200Z"
                     *         },
                     *         {
                     *           "key": "load",
                     *           "jobId": 8,
                     *           "status": "RUNNING",
                     *           "attempt": 1,
                     *           "upstream": [
                     *             {
                     *               "key": "extract",
                     *               "condition": "ON_SUCCESS"
                     *             }
                     *           ],
                     *           "result": null,
                     *           "resultJson": null,
                     *           "reason": null,
                     *           "logIds": [
                     *             36507222017
                     *           ],
                     *           "firedAt": "2030-01-01T02:00:41.300Z",
                     *           "finishedAt": null
                     *         },
                     *         {
                     *           "key": "cleanup",
                     *           "jobId": 9,
                     *           "status": "CANCELLED",
                     *           "attempt": 0,
                     *           "upstream": [
                     *             {
                     *               "key": "load",
                     *               "condition": "ALWAYS"
                     *             }
                     *           ],
                     *           "result": null,
                     *           "resultJson": null,
                     *           "reason": "the run was cancelled",
                     *           "logIds": [],
                     *           "firedAt": null,
                     *           "finishedAt": "2030-01-01T02:01:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["WorkflowRun"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller reaches the group but may only read it (a viewer), or may not edit GLUE sources. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No workflow run has this id (or it expired). Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run has ended already. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listCalendars: {
        parameters: {
            query?: {
                /** @description Most items on one page. */
                limit?: number;
                /** @description Where the next page starts: the `nextCursor` of the previous page, as it was given. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of calendars. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": "cn-workdays",
                     *           "name": "China workdays",
                     *           "description": "Public holidays and make-up days",
                     *           "timeZone": "Asia/Shanghai",
                     *           "workingDays": [
                     *             "MON",
                     *             "TUE",
                     *             "WED",
                     *             "THU",
                     *             "FRI"
                     *           ],
                     *           "excluded": [
                     *             {
                     *               "from": "2030-01-01",
                     *               "label": "New Year"
                     *             },
                     *             {
                     *               "from": "2030-10-01",
                     *               "to": "2030-10-07",
                     *               "label": "National Day"
                     *             }
                     *           ],
                     *           "included": [
                     *             {
                     *               "date": "2030-09-28",
                     *               "label": "Make-up for National Day"
                     *             }
                     *           ],
                     *           "version": 3,
                     *           "createdAt": "2030-01-01T02:00:00.000Z",
                     *           "updatedAt": "2030-01-01T02:00:00.000Z",
                     *           "updatedBy": "ana"
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["CalendarPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    createCalendar: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The calendar. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CalendarCreate"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "cn-workdays",
                     *       "name": "China workdays",
                     *       "description": "Public holidays and make-up days",
                     *       "timeZone": "Asia/Shanghai",
                     *       "workingDays": [
                     *         "MON",
                     *         "TUE",
                     *         "WED",
                     *         "THU",
                     *         "FRI"
                     *       ],
                     *       "excluded": [
                     *         {
                     *           "from": "2030-01-01",
                     *           "label": "New Year"
                     *         },
                     *         {
                     *           "from": "2030-10-01",
                     *           "to": "2030-10-07",
                     *           "label": "National Day"
                     *         }
                     *       ],
                     *       "included": [
                     *         {
                     *           "date": "2030-09-28",
                     *           "label": "Make-up for National Day"
                     *         }
                     *       ],
                     *       "version": 1,
                     *       "createdAt": "2030-01-01T02:00:00.000Z",
                     *       "updatedAt": "2030-01-01T02:00:00.000Z",
                     *       "updatedBy": "ana"
                     *     }
                     */
                    "application/json": components["schemas"]["Calendar"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is a viewer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A calendar has this id. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    importCalendar: {
        parameters: {
            query?: {
                /** @description With a text/calendar body: the new calendar’s id (with JSON, the body’s `id`). */
                id?: string;
                /** @description With a text/calendar body: its name (else X-WR-CALNAME). */
                name?: string;
                /** @description With a text/calendar body: its zone (else X-WR-TIMEZONE, else UTC). */
                timeZone?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The import, as JSON; or the iCalendar text itself as text/calendar. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CalendarImportRequest"];
                "text/calendar": string;
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "calendar": {
                     *         "id": "cn-workdays",
                     *         "name": "China workdays",
                     *         "description": "Public holidays and make-up days",
                     *         "timeZone": "Asia/Shanghai",
                     *         "workingDays": [
                     *           "MON",
                     *           "TUE",
                     *           "WED",
                     *           "THU",
                     *           "FRI"
                     *         ],
                     *         "excluded": [
                     *           {
                     *             "from": "2030-10-01",
                     *             "to": "2030-10-07",
                     *             "label": "National Day"
                     *           }
                     *         ],
                     *         "included": [],
                     *         "version": 1,
                     *         "createdAt": "2030-01-01T02:00:00.000Z",
                     *         "updatedAt": "2030-01-01T02:00:00.000Z",
                     *         "updatedBy": "ana"
                     *       },
                     *       "notes": [
                     *         "event 2 (Standup): not an all-day event (DTSTART has a time), left out"
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["CalendarImported"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is a viewer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A calendar has this id. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getCalendar: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The calendar’s id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The calendar. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "cn-workdays",
                     *       "name": "China workdays",
                     *       "description": "Public holidays and make-up days",
                     *       "timeZone": "Asia/Shanghai",
                     *       "workingDays": [
                     *         "MON",
                     *         "TUE",
                     *         "WED",
                     *         "THU",
                     *         "FRI"
                     *       ],
                     *       "excluded": [
                     *         {
                     *           "from": "2030-01-01",
                     *           "label": "New Year"
                     *         },
                     *         {
                     *           "from": "2030-10-01",
                     *           "to": "2030-10-07",
                     *           "label": "National Day"
                     *         }
                     *       ],
                     *       "included": [
                     *         {
                     *           "date": "2030-09-28",
                     *           "label": "Make-up for National Day"
                     *         }
                     *       ],
                     *       "version": 3,
                     *       "createdAt": "2030-01-01T02:00:00.000Z",
                     *       "updatedAt": "2030-01-01T02:00:00.000Z",
                     *       "updatedBy": "ana"
                     *     }
                     */
                    "application/json": components["schemas"]["Calendar"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description No calendar has this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateCalendar: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The calendar’s id. */
                id: string;
            };
            cookie?: never;
        };
        /** @description The whole calendar (a calendar read with GET, changed, with its version as expectedVersion). */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CalendarUpdate"];
            };
        };
        responses: {
            /** @description The calendar as changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "cn-workdays",
                     *       "name": "China workdays",
                     *       "description": "Public holidays and make-up days",
                     *       "timeZone": "Asia/Shanghai",
                     *       "workingDays": [
                     *         "MON",
                     *         "TUE",
                     *         "WED",
                     *         "THU",
                     *         "FRI"
                     *       ],
                     *       "excluded": [
                     *         {
                     *           "from": "2030-01-01",
                     *           "label": "New Year"
                     *         },
                     *         {
                     *           "from": "2030-10-01",
                     *           "to": "2030-10-07",
                     *           "label": "National Day"
                     *         }
                     *       ],
                     *       "included": [
                     *         {
                     *           "date": "2030-09-28",
                     *           "label": "Make-up for National Day"
                     *         }
                     *       ],
                     *       "version": 4,
                     *       "createdAt": "2030-01-01T02:00:00.000Z",
                     *       "updatedAt": "2030-01-01T02:00:00.000Z",
                     *       "updatedBy": "ana"
                     *     }
                     */
                    "application/json": components["schemas"]["Calendar"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is a viewer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No calendar has this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The calendar is not at the expected version: read it again and retry. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteCalendar: {
        parameters: {
            query?: {
                /** @description Delete only at this version (or send `If-Match`); absent: whatever version it is at. */
                expectedVersion?: number;
            };
            header?: never;
            path: {
                /** @description The calendar’s id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is a viewer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No calendar has this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The calendar is not at the expected version: read it again and retry. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listCalendarDays: {
        parameters: {
            query: {
                /** @description The first day listed. */
                from: string;
                /** @description The last day listed (included): at most 366 days from `from`. */
                to: string;
            };
            header?: never;
            path: {
                /** @description The calendar’s id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The days. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "calendarId": "cn-workdays",
                     *       "version": 3,
                     *       "timeZone": "Asia/Shanghai",
                     *       "days": [
                     *         {
                     *           "date": "2030-09-28",
                     *           "weekday": "SAT",
                     *           "allowed": true,
                     *           "reason": "MAKEUP_DAY",
                     *           "label": "Make-up for National Day"
                     *         },
                     *         {
                     *           "date": "2030-09-29",
                     *           "weekday": "SUN",
                     *           "allowed": false,
                     *           "reason": "WEEKEND",
                     *           "label": null
                     *         },
                     *         {
                     *           "date": "2030-09-30",
                     *           "weekday": "MON",
                     *           "allowed": true,
                     *           "reason": "WORKDAY",
                     *           "label": null
                     *         },
                     *         {
                     *           "date": "2030-10-01",
                     *           "weekday": "TUE",
                     *           "allowed": false,
                     *           "reason": "HOLIDAY",
                     *           "label": "National Day"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["CalendarDays"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description No calendar has this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    exportCalendar: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The calendar’s id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The text. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example BEGIN:VCALENDAR
                     *     VERSION:2.0
                     *     PRODID:-//tickring//calendars//EN
                     *     X-WR-CALNAME:China workdays
                     *     X-WR-TIMEZONE:Asia/Shanghai
                     *     BEGIN:VEVENT
                     *     UID:cn-workdays-excluded-2030-10-01@tickring
                     *     DTSTAMP:20300101T020000Z
                     *     DTSTART;VALUE=DATE:20301001
                     *     DTEND;VALUE=DATE:20301008
                     *     SUMMARY:National Day
                     *     END:VEVENT
                     *     END:VCALENDAR
                     */
                    "text/calendar": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description No calendar has this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    previewBackfill: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job’s id. */
                id: number;
            };
            cookie?: never;
        };
        /** @description The range. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["BackfillPreviewRequest"];
            };
        };
        responses: {
            /** @description The count, and the first and last fire. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "jobId": 7,
                     *       "workflowId": null,
                     *       "from": "2030-01-01T00:00:00.000Z",
                     *       "to": "2030-01-02T00:00:00.000Z",
                     *       "total": 24,
                     *       "tooMany": false,
                     *       "limit": 10000,
                     *       "first": "2030-01-01T00:00:00.000Z",
                     *       "last": "2030-01-01T23:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["BackfillPreview"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description No job has this id. Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    startBackfill: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job’s id. */
                id: number;
            };
            cookie?: never;
        };
        /** @description The range, the parallelism and the rate. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["BackfillRequest"];
            };
        };
        responses: {
            /** @description Started: the backfill, with its first fires running. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "bf-7-mfx3k2a1-9c1e",
                     *       "jobId": 7,
                     *       "workflowId": null,
                     *       "appName": "orders",
                     *       "from": "2030-01-01T00:00:00.000Z",
                     *       "to": "2030-01-02T00:00:00.000Z",
                     *       "parallelism": 2,
                     *       "ratePerMinute": 30,
                     *       "scheduleType": "CRON",
                     *       "scheduleConf": "0 0 * * * ?",
                     *       "timeZone": "Europe/Berlin",
                     *       "state": "RUNNING",
                     *       "total": 24,
                     *       "dispatched": 2,
                     *       "succeeded": 0,
                     *       "failed": 0,
                     *       "running": 2,
                     *       "runningFires": [
                     *         {
                     *           "scheduledTime": "2030-01-01T08:00:00.000Z",
                     *           "logId": 32212254729
                     *         },
                     *         {
                     *           "scheduledTime": "2030-01-01T09:00:00.000Z",
                     *           "logId": 32212254730
                     *         }
                     *       ],
                     *       "failures": [],
                     *       "nextFireTime": "2030-01-01T10:00:00.000Z",
                     *       "createdAt": "2030-01-03T10:00:00.000Z",
                     *       "createdBy": "ana",
                     *       "cancelledAt": null,
                     *       "cancelledBy": null,
                     *       "stopReason": null,
                     *       "endedAt": null
                     *     }
                     */
                    "application/json": components["schemas"]["Backfill"];
                };
            };
            /** @description Every problem at once: from or to not an instant, to not after from or in the future, a parallelism or rate out of range, a job whose schedule is not CRON or FIX_RATE (a workflow’s starter job: backfill the workflow), a range of more than 10000 fires (the message names where the first 10000 end). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The caller reaches the group but may only read it (a viewer), or may not edit GLUE sources. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No job has this id. Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The job has an active backfill (named): cancel it or wait for it to end. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listJobBackfills: {
        parameters: {
            query?: {
                /** @description Most items on one page. */
                limit?: number;
                /** @description Where the next page starts: the `nextCursor` of the previous page, as it was given. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The job’s id. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of backfills. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": "bf-7-mfx3k2a1-9c1e",
                     *           "jobId": 7,
                     *           "workflowId": null,
                     *           "appName": "orders",
                     *           "from": "2030-01-01T00:00:00.000Z",
                     *           "to": "2030-01-02T00:00:00.000Z",
                     *           "parallelism": 2,
                     *           "ratePerMinute": 30,
                     *           "scheduleType": "CRON",
                     *           "scheduleConf": "0 0 * * * ?",
                     *           "timeZone": "Europe/Berlin",
                     *           "state": "RUNNING",
                     *           "total": 24,
                     *           "dispatched": 10,
                     *           "succeeded": 7,
                     *           "failed": 1,
                     *           "running": 2,
                     *           "runningFires": [
                     *             {
                     *               "scheduledTime": "2030-01-01T08:00:00.000Z",
                     *               "logId": 32212254729
                     *             },
                     *             {
                     *               "scheduledTime": "2030-01-01T09:00:00.000Z",
                     *               "logId": 32212254730
                     *             }
                     *           ],
                     *           "failures": [
                     *             "2030-01-01T03:00:00.000Z"
                     *           ],
                     *           "nextFireTime": "2030-01-01T10:00:00.000Z",
                     *           "createdAt": "2030-01-03T10:00:00.000Z",
                     *           "createdBy": "ana",
                     *           "cancelledAt": null,
                     *           "cancelledBy": null,
                     *           "stopReason": null,
                     *           "endedAt": null
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["BackfillPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description No job has this id. Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getBackfill: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The backfill’s id (it names its job). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The backfill. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "bf-7-mfx3k2a1-9c1e",
                     *       "jobId": 7,
                     *       "workflowId": null,
                     *       "appName": "orders",
                     *       "from": "2030-01-01T00:00:00.000Z",
                     *       "to": "2030-01-02T00:00:00.000Z",
                     *       "parallelism": 2,
                     *       "ratePerMinute": 30,
                     *       "scheduleType": "CRON",
                     *       "scheduleConf": "0 0 * * * ?",
                     *       "timeZone": "Europe/Berlin",
                     *       "state": "RUNNING",
                     *       "total": 24,
                     *       "dispatched": 10,
                     *       "succeeded": 7,
                     *       "failed": 1,
                     *       "running": 2,
                     *       "runningFires": [
                     *         {
                     *           "scheduledTime": "2030-01-01T08:00:00.000Z",
                     *           "logId": 32212254729
                     *         },
                     *         {
                     *           "scheduledTime": "2030-01-01T09:00:00.000Z",
                     *           "logId": 32212254730
                     *         }
                     *       ],
                     *       "failures": [
                     *         "2030-01-01T03:00:00.000Z"
                     *       ],
                     *       "nextFireTime": "2030-01-01T10:00:00.000Z",
                     *       "createdAt": "2030-01-03T10:00:00.000Z",
                     *       "createdBy": "ana",
                     *       "cancelledAt": null,
                     *       "cancelledBy": null,
                     *       "stopReason": null,
                     *       "endedAt": null
                     *     }
                     */
                    "application/json": components["schemas"]["Backfill"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description No backfill has this id (or its job was deleted). Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    cancelBackfill: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The backfill’s id (it names its job). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The backfill, CANCELLED. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "bf-7-mfx3k2a1-9c1e",
                     *       "jobId": 7,
                     *       "workflowId": null,
                     *       "appName": "orders",
                     *       "from": "2030-01-01T00:00:00.000Z",
                     *       "to": "2030-01-02T00:00:00.000Z",
                     *       "parallelism": 2,
                     *       "ratePerMinute": 30,
                     *       "scheduleType": "CRON",
                     *       "scheduleConf": "0 0 * * * ?",
                     *       "timeZone": "Europe/Berlin",
                     *       "state": "CANCELLED",
                     *       "total": 24,
                     *       "dispatched": 10,
                     *       "succeeded": 7,
                     *       "failed": 1,
                     *       "running": 2,
                     *       "runningFires": [
                     *         {
                     *           "scheduledTime": "2030-01-01T08:00:00.000Z",
                     *           "logId": 32212254729
                     *         },
                     *         {
                     *           "scheduledTime": "2030-01-01T09:00:00.000Z",
                     *           "logId": 32212254730
                     *         }
                     *       ],
                     *       "failures": [
                     *         "2030-01-01T03:00:00.000Z"
                     *       ],
                     *       "nextFireTime": null,
                     *       "createdAt": "2030-01-03T10:00:00.000Z",
                     *       "createdBy": "ana",
                     *       "cancelledAt": "2030-01-03T10:05:00.000Z",
                     *       "cancelledBy": "ana",
                     *       "stopReason": null,
                     *       "endedAt": null
                     *     }
                     */
                    "application/json": components["schemas"]["Backfill"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller reaches the group but may only read it (a viewer), or may not edit GLUE sources. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No backfill has this id. Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description It is not RUNNING (it ended or was cancelled). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    previewWorkflowBackfill: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow’s id. */
                id: number;
            };
            cookie?: never;
        };
        /** @description The range. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["BackfillPreviewRequest"];
            };
        };
        responses: {
            /** @description The count, and the first and last fire. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "jobId": 12,
                     *       "workflowId": 3,
                     *       "from": "2030-01-01T00:00:00.000Z",
                     *       "to": "2030-01-02T00:00:00.000Z",
                     *       "total": 1,
                     *       "tooMany": false,
                     *       "limit": 10000,
                     *       "first": "2030-01-01T02:00:00.000Z",
                     *       "last": "2030-01-01T02:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["BackfillPreview"];
                };
            };
            /** @description Every problem at once: from or to not an instant, to not after from or in the future, a parallelism or rate out of range, a workflow without a CRON or FIX_RATE schedule, a range of more than 10000 fires. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description No workflow has this id. Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    startWorkflowBackfill: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow’s id. */
                id: number;
            };
            cookie?: never;
        };
        /** @description The range, the parallelism and the rate. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["BackfillRequest"];
            };
        };
        responses: {
            /** @description Started: the backfill, with its first runs started. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "bf-12-mfx3k2a1-9c1e",
                     *       "jobId": 12,
                     *       "workflowId": 3,
                     *       "appName": "orders",
                     *       "from": "2030-01-01T00:00:00.000Z",
                     *       "to": "2030-01-02T00:00:00.000Z",
                     *       "parallelism": 2,
                     *       "ratePerMinute": 30,
                     *       "scheduleType": "CRON",
                     *       "scheduleConf": "0 0 * * * ?",
                     *       "timeZone": "Europe/Berlin",
                     *       "state": "RUNNING",
                     *       "total": 24,
                     *       "dispatched": 10,
                     *       "succeeded": 7,
                     *       "failed": 1,
                     *       "running": 2,
                     *       "runningFires": [
                     *         {
                     *           "scheduledTime": "2030-01-01T08:00:00.000Z",
                     *           "logId": 32212254729
                     *         },
                     *         {
                     *           "scheduledTime": "2030-01-01T09:00:00.000Z",
                     *           "logId": 32212254730
                     *         }
                     *       ],
                     *       "failures": [
                     *         "2030-01-01T03:00:00.000Z"
                     *       ],
                     *       "nextFireTime": "2030-01-01T10:00:00.000Z",
                     *       "createdAt": "2030-01-03T10:00:00.000Z",
                     *       "createdBy": "ana",
                     *       "cancelledAt": null,
                     *       "cancelledBy": null,
                     *       "stopReason": null,
                     *       "endedAt": null
                     *     }
                     */
                    "application/json": components["schemas"]["Backfill"];
                };
            };
            /** @description Every problem at once: from or to not an instant, to not after from or in the future, a parallelism or rate out of range, a workflow without a CRON or FIX_RATE schedule, a range of more than 10000 fires. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The caller reaches the group but may only read it (a viewer), or may not edit GLUE sources. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No workflow has this id. Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The workflow has an active backfill (named): cancel it or wait for it to end. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listWorkflowBackfills: {
        parameters: {
            query?: {
                /** @description Most items on one page. */
                limit?: number;
                /** @description Where the next page starts: the `nextCursor` of the previous page, as it was given. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The workflow’s id. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of backfills. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": "bf-7-mfx3k2a1-9c1e",
                     *           "jobId": 12,
                     *           "workflowId": 3,
                     *           "appName": "orders",
                     *           "from": "2030-01-01T00:00:00.000Z",
                     *           "to": "2030-01-02T00:00:00.000Z",
                     *           "parallelism": 2,
                     *           "ratePerMinute": 30,
                     *           "scheduleType": "CRON",
                     *           "scheduleConf": "0 0 * * * ?",
                     *           "timeZone": "Europe/Berlin",
                     *           "state": "RUNNING",
                     *           "total": 24,
                     *           "dispatched": 10,
                     *           "succeeded": 7,
                     *           "failed": 1,
                     *           "running": 2,
                     *           "runningFires": [
                     *             {
                     *               "scheduledTime": "2030-01-01T08:00:00.000Z",
                     *               "logId": 32212254729
                     *             },
                     *             {
                     *               "scheduledTime": "2030-01-01T09:00:00.000Z",
                     *               "logId": 32212254730
                     *             }
                     *           ],
                     *           "failures": [
                     *             "2030-01-01T03:00:00.000Z"
                     *           ],
                     *           "nextFireTime": "2030-01-01T10:00:00.000Z",
                     *           "createdAt": "2030-01-03T10:00:00.000Z",
                     *           "createdBy": "ana",
                     *           "cancelledAt": null,
                     *           "cancelledBy": null,
                     *           "stopReason": null,
                     *           "endedAt": null
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["BackfillPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description No workflow has this id. Also when the caller's grant does not reach the group (as if it did not exist). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listAlertChannels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The channels. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": "5b1c2f7e-8d8e-4b0c-9d55-2f0a6f1f3c11",
                     *           "name": "ops webhook",
                     *           "kind": "webhook",
                     *           "url": "https://hooks.example.com/tickring",
                     *           "signed": true,
                     *           "revision": 1,
                     *           "createdAt": "2030-01-01T10:02:00.000Z",
                     *           "createdBy": "ana",
                     *           "updatedAt": "2030-01-01T10:02:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["AlertChannelList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is not an admin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    createAlertChannel: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The channel. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["AlertChannelCreate"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "5b1c2f7e-8d8e-4b0c-9d55-2f0a6f1f3c11",
                     *       "name": "ops webhook",
                     *       "kind": "webhook",
                     *       "url": "https://hooks.example.com/tickring",
                     *       "signed": true,
                     *       "revision": 1,
                     *       "createdAt": "2030-01-01T10:02:00.000Z",
                     *       "createdBy": "ana",
                     *       "updatedAt": "2030-01-01T10:02:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["AlertChannel"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is not an admin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteAlertChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is not an admin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No channel has this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A job or a group names it: take it out of their alertChannels first. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateAlertChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id. */
                id: string;
            };
            cookie?: never;
        };
        /** @description The fields to change. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["AlertChannelUpdate"];
            };
        };
        responses: {
            /** @description The channel as changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "5b1c2f7e-8d8e-4b0c-9d55-2f0a6f1f3c11",
                     *       "name": "ops webhook",
                     *       "kind": "webhook",
                     *       "url": "https://hooks.example.com/tickring-v2",
                     *       "signed": true,
                     *       "revision": 2,
                     *       "createdAt": "2030-01-01T10:02:00.000Z",
                     *       "createdBy": "ana",
                     *       "updatedAt": "2030-01-01T10:02:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["AlertChannel"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is not an admin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No channel has this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body’s revision is not the channel’s, or the channel changed meanwhile: read it again. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    testAlertChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What the message met. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "channelId": "5b1c2f7e-8d8e-4b0c-9d55-2f0a6f1f3c11",
                     *       "kind": "webhook",
                     *       "delivered": true,
                     *       "at": "2030-01-01T10:02:00.000Z",
                     *       "status": 200
                     *     }
                     */
                    "application/json": components["schemas"]["AlertChannelTestResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is not an admin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No channel has this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listAlertSilences: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The silences. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": "0f6a1d2e-4c3b-4a59-8e7d-6b5a4c3d2e1f",
                     *           "jobId": 7,
                     *           "kind": "runFailed",
                     *           "from": "2030-01-01T10:02:00.000Z",
                     *           "to": "2030-01-01T12:00:00.000Z",
                     *           "reason": "database maintenance",
                     *           "createdBy": "ana",
                     *           "createdAt": "2030-01-01T10:02:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["AlertSilenceList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is not an admin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    createAlertSilence: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The silence. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["AlertSilenceCreate"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0f6a1d2e-4c3b-4a59-8e7d-6b5a4c3d2e1f",
                     *       "jobId": 7,
                     *       "kind": "runFailed",
                     *       "from": "2030-01-01T10:02:00.000Z",
                     *       "to": "2030-01-01T12:00:00.000Z",
                     *       "reason": "database maintenance",
                     *       "createdBy": "ana",
                     *       "createdAt": "2030-01-01T10:02:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["AlertSilence"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is not an admin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteAlertSilence: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is not an admin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No silence has this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listAlerts: {
        parameters: {
            query?: {
                /** @description Only this job’s. */
                jobId?: number;
                /** @description Only this kind. */
                kind?: "runFailed" | "jobPaused" | "jobRecovered" | "deadlineMissed" | "fireUnexplained";
                /** @description Only this state. sent: routed to its channels; silenced: a silence matched (nothing sent, on the job’s own alarm path neither); unrouted: neither the job nor its group names a channel. */
                state?: "sent" | "silenced" | "unrouted";
                /** @description Alerts first raised at or after, ISO-8601 UTC. */
                from?: string;
                /** @description …and before, ISO-8601 UTC. */
                to?: string;
                /** @description Most items on one page. */
                limit?: number;
                /** @description Where the next page starts: the `nextCursor` of the previous page, as it was given. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of alerts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": "7#runFailed#1893492000000",
                     *           "jobId": 7,
                     *           "jobName": "nightly",
                     *           "appName": "orders",
                     *           "kind": "runFailed",
                     *           "state": "sent",
                     *           "count": 3,
                     *           "summary": "job 7 (nightly) failed: exit 1",
                     *           "logId": 30064771073,
                     *           "firstAt": "2030-01-01T10:02:00.000Z",
                     *           "lastAt": "2030-01-01T10:09:00.000Z",
                     *           "windowEnd": "2030-01-01T10:10:00.000Z",
                     *           "deliveries": [
                     *             {
                     *               "channelId": "5b1c2f7e-8d8e-4b0c-9d55-2f0a6f1f3c11",
                     *               "message": "first",
                     *               "count": 1,
                     *               "state": "delivered",
                     *               "attempts": [
                     *                 {
                     *                   "at": "2030-01-01T10:02:00.000Z",
                     *                   "ok": false,
                     *                   "status": 502,
                     *                   "error": "HTTP 502"
                     *                 },
                     *                 {
                     *                   "at": "2030-01-01T10:02:10.000Z",
                     *                   "ok": true,
                     *                   "status": 200
                     *                 }
                     *               ]
                     *             }
                     *           ],
                     *           "legacy": {
                     *             "first": {
                     *               "message": "first",
                     *               "count": 1,
                     *               "state": "delivered",
                     *               "attempts": [
                     *                 {
                     *                   "at": "2030-01-01T10:02:00.000Z",
                     *                   "ok": true
                     *                 }
                     *               ]
                     *             }
                     *           }
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["AlertPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is not an admin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The username and password. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["Login"];
            };
        };
        responses: {
            /** @description Signed in: the session token, shown this once. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "token": "trs_9d0c6e2b41a7f355_Qm3nX0v8aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX",
                     *       "expiresAt": "2030-01-02T09:00:00.000Z",
                     *       "endsAt": "2030-01-02T20:30:00.000Z",
                     *       "user": {
                     *         "username": "ana",
                     *         "displayName": "Ana Lima",
                     *         "role": "operator",
                     *         "groups": [
                     *           "billing",
                     *           "reports"
                     *         ],
                     *         "glue": false,
                     *         "disabled": false,
                     *         "createdAt": "2030-01-01T02:00:00.000Z",
                     *         "createdBy": "bootstrap",
                     *         "updatedAt": "2030-01-01T02:00:00.000Z",
                     *         "passwordChangedAt": "2030-01-01T02:00:00.000Z",
                     *         "lastLoginAt": "2030-01-02T08:30:00.000Z",
                     *         "version": 1
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Session"];
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description The username or password is wrong, or the user is disabled (one answer for all: "username or password is wrong"). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins for this username or from this address (5 within 15 minutes, then 1 s, 2 s, 4 s, ... at most 15 minutes after each further failure): try again after `Retry-After` seconds. The attempt was not looked at. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getSignInOptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ways to sign in. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "passwords": true
                     *     }
                     */
                    "application/json": components["schemas"]["SignInOptions"];
                };
            };
            400: components["responses"]["BadRequest"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out: the token no longer works. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "kind": "session",
                     *       "name": "ana",
                     *       "username": "ana",
                     *       "displayName": "Ana Lima",
                     *       "role": "operator",
                     *       "groups": [
                     *         "billing",
                     *         "reports"
                     *       ],
                     *       "glue": false,
                     *       "permissions": {
                     *         "admin": false,
                     *         "readGroups": [
                     *           "billing",
                     *           "reports"
                     *         ],
                     *         "operateGroups": [
                     *           "billing",
                     *           "reports"
                     *         ],
                     *         "glue": false
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Me"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    changeOwnPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The current password and the new one. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordChange"];
            };
        };
        responses: {
            /** @description Changed: the user as it is now. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "username": "ana",
                     *       "displayName": "Ana Lima",
                     *       "role": "operator",
                     *       "groups": [
                     *         "billing",
                     *         "reports"
                     *       ],
                     *       "glue": false,
                     *       "disabled": false,
                     *       "createdAt": "2030-01-01T02:00:00.000Z",
                     *       "createdBy": "bootstrap",
                     *       "updatedAt": "2030-01-01T02:00:00.000Z",
                     *       "passwordChangedAt": "2030-01-02T09:00:00.000Z",
                     *       "lastLoginAt": "2030-01-02T08:30:00.000Z",
                     *       "version": 2
                     *     }
                     */
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Too many failed sign-ins for this username or from this address (5 within 15 minutes, then 1 s, 2 s, 4 s, ... at most 15 minutes after each further failure): try again after `Retry-After` seconds. The attempt was not looked at. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The users. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "username": "ana",
                     *           "displayName": "Ana Lima",
                     *           "role": "operator",
                     *           "groups": [
                     *             "billing",
                     *             "reports"
                     *           ],
                     *           "glue": false,
                     *           "disabled": false,
                     *           "createdAt": "2030-01-01T02:00:00.000Z",
                     *           "createdBy": "bootstrap",
                     *           "updatedAt": "2030-01-01T02:00:00.000Z",
                     *           "passwordChangedAt": "2030-01-01T02:00:00.000Z",
                     *           "lastLoginAt": "2030-01-02T08:30:00.000Z",
                     *           "version": 1
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["UserList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is not an admin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    createUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The user. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserCreate"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "username": "ana",
                     *       "displayName": "Ana Lima",
                     *       "role": "operator",
                     *       "groups": [
                     *         "billing",
                     *         "reports"
                     *       ],
                     *       "glue": false,
                     *       "disabled": false,
                     *       "createdAt": "2030-01-01T02:00:00.000Z",
                     *       "createdBy": "bootstrap",
                     *       "updatedAt": "2030-01-01T02:00:00.000Z",
                     *       "passwordChangedAt": "2030-01-01T02:00:00.000Z",
                     *       "lastLoginAt": "2030-01-02T08:30:00.000Z",
                     *       "version": 1
                     *     }
                     */
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is not an admin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A user with this username exists (case does not matter). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user’s username (case does not matter). */
                username: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "username": "ana",
                     *       "displayName": "Ana Lima",
                     *       "role": "operator",
                     *       "groups": [
                     *         "billing",
                     *         "reports"
                     *       ],
                     *       "glue": false,
                     *       "disabled": false,
                     *       "createdAt": "2030-01-01T02:00:00.000Z",
                     *       "createdBy": "bootstrap",
                     *       "updatedAt": "2030-01-01T02:00:00.000Z",
                     *       "passwordChangedAt": "2030-01-01T02:00:00.000Z",
                     *       "lastLoginAt": "2030-01-02T08:30:00.000Z",
                     *       "version": 1
                     *     }
                     */
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is not an admin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No user has this username. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user’s username (case does not matter). */
                username: string;
            };
            cookie?: never;
        };
        /** @description The fields to change. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserUpdate"];
            };
        };
        responses: {
            /** @description The user as changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "username": "ana",
                     *       "displayName": "Ana Lima",
                     *       "role": "operator",
                     *       "groups": [
                     *         "billing",
                     *         "reports"
                     *       ],
                     *       "glue": false,
                     *       "disabled": false,
                     *       "createdAt": "2030-01-01T02:00:00.000Z",
                     *       "createdBy": "bootstrap",
                     *       "updatedAt": "2030-01-01T02:00:00.000Z",
                     *       "passwordChangedAt": "2030-01-01T02:00:00.000Z",
                     *       "lastLoginAt": "2030-01-02T08:30:00.000Z",
                     *       "version": 1
                     *     }
                     */
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is not an admin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No user has this username. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body’s version is not the user’s (read it again and retry), or the caller would disable themselves. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user’s username (case does not matter). */
                username: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is not an admin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No user has this username. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller would delete themselves. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listApiTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tokens. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": "4f9c2a7be01d5c33",
                     *           "name": "ci-deploy",
                     *           "role": "operator",
                     *           "groups": [
                     *             "billing"
                     *           ],
                     *           "glue": false,
                     *           "status": "active",
                     *           "createdAt": "2030-01-01T02:00:00.000Z",
                     *           "createdBy": "ana",
                     *           "expiresAt": "2030-04-01T02:00:00.000Z",
                     *           "revokedAt": null,
                     *           "lastUsedAt": "2030-01-03T10:15:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ApiTokenList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is not an admin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    createApiToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The token’s name, grant and expiry. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["ApiTokenCreate"];
            };
        };
        responses: {
            /** @description Created: the token, shown this once. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "4f9c2a7be01d5c33",
                     *       "name": "ci-deploy",
                     *       "role": "operator",
                     *       "groups": [
                     *         "billing"
                     *       ],
                     *       "glue": false,
                     *       "status": "active",
                     *       "createdAt": "2030-01-01T02:00:00.000Z",
                     *       "createdBy": "ana",
                     *       "expiresAt": "2030-04-01T02:00:00.000Z",
                     *       "revokedAt": null,
                     *       "lastUsedAt": null,
                     *       "token": "trk_4f9c2a7be01d5c33_Zx8yW7vU6tS5rQ4pO3nM2lK1jI0hG9fE8dC7bA6zY5x",
                     *       "note": "This token is shown once: store it now (e.g. in your CI’s secrets)."
                     *     }
                     */
                    "application/json": components["schemas"]["ApiTokenCreated"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The token would have more than its creator (a higher role, other groups, GLUE). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An active token has this name (case does not matter). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    revokeApiToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The API token’s id (the part of the token between `trk_` and the next `_`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is not an admin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API token has this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    rotateBootstrapToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Rotated: the new bootstrap token, shown this once. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "token": "trb_Hk2mP9qR4sT7uV0wX3yZ6aB1cD5eF8gJ2kL4mN7oP9q",
                     *       "rotatedAt": "2030-01-01T02:00:00.000Z",
                     *       "rotatedBy": "ana",
                     *       "note": "This token is shown once: store it now. The configured admin token no longer works."
                     *     }
                     */
                    "application/json": components["schemas"]["BootstrapRotated"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is not an admin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Another rotation came first: rotate again. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listAudit: {
        parameters: {
            query?: {
                /** @description Only the records of this target: `job#7`, `group#my-app`, `user#ana`, `token#<id>`, `run#<logId>`, `workflow#3`, `workflowRun#<runId>` or `bootstrap`. Read from the target's own index. */
                target?: string;
                /** @description Only the changes of this principal: a username, `token:<name>` or `bootstrap` (the name records show), or a token’s id. */
                actor?: string;
                /** @description Only this action (`job.update`), or, ending in `*`, every action it begins (`job.*`). */
                action?: string;
                /** @description Only the records of this executor group (a group outside the caller’s grant lists nothing). */
                appName?: string;
                /** @description Changes at or after this instant (ISO-8601 with Z or an offset). Default: 30 days before `to`; records older than the audit retention (365 days by default) are gone. */
                from?: string;
                /** @description Changes at or before this instant; not before from. Default: now. */
                to?: string;
                /** @description Most items on one page. */
                limit?: number;
                /** @description Where the next page starts: the `nextCursor` of the previous page, as it was given. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of records. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": "01Q3DK7480BK2SRJDHQG4QM1HT",
                     *           "at": "2030-01-01T02:00:00.000Z",
                     *           "actor": {
                     *             "kind": "session",
                     *             "id": "ana",
                     *             "name": "ana",
                     *             "credentialId": "3f9c1d2e-6b8a-4c57-9e0d-1a2b3c4d5e6f"
                     *           },
                     *           "source": {
                     *             "ip": "203.0.113.7",
                     *             "userAgent": "tickring-cli/0.1.0"
                     *           },
                     *           "action": "job.update",
                     *           "target": "job#7",
                     *           "appName": "my-app",
                     *           "changes": {
                     *             "executorParam": {
                     *               "before": "region=eu",
                     *               "after": "region=us"
                     *             },
                     *             "version": {
                     *               "before": 3,
                     *               "after": 4
                     *             },
                     *             "updatedAt": {
                     *               "before": "2029-12-31T09:30:00.000Z",
                     *               "after": "2030-01-01T02:00:00.000Z"
                     *             }
                     *           },
                     *           "detail": null,
                     *           "requestId": "Jk2Vb0abCwEEMfQ="
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["AuditPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    executorRegistry: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RegistryParam"];
            };
        };
        responses: {
            /** @description Always HTTP 200: code 200 when done, 500 with msg when refused. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReturnT"];
                };
            };
        };
    };
    executorRegistryRemove: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RegistryParam"];
            };
        };
        responses: {
            /** @description Always HTTP 200: code 200 when done, 500 with msg when refused. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReturnT"];
                };
            };
        };
    };
    executorCallback: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CallbackBody"];
            };
        };
        responses: {
            /** @description Always HTTP 200: code 200 when done, 500 with msg when refused. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReturnT"];
                };
            };
        };
    };
}
