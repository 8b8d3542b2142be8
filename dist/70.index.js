export const id = 70;
export const ids = [70];
export const modules = {

/***/ 94070:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  reportMode: () => (/* binding */ reportMode),
  unreadableFailure: () => (/* binding */ unreadableFailure)
});

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 17 modules
var schemas = __webpack_require__(38816);
// EXTERNAL MODULE: ./src/io/reports.ts
var reports = __webpack_require__(77759);
// EXTERNAL MODULE: ./src/github/artifact-names.ts
var artifact_names = __webpack_require__(45655);
// EXTERNAL MODULE: ./src/github/report-artifacts.ts + 1 modules
var report_artifacts = __webpack_require__(30407);
;// CONCATENATED MODULE: ./src/report/bounded-report.ts
const BOUNDED_REPORT = {
    kernels: 200,
    listRows: 100,
    samples: 1000,
};
function bounded_report_top(list, n) {
    return list.length > n ? list.slice(0, n) : [...list];
}
function boundReport(report) {
    const cut = [];
    const keep = (what, list, n) => {
        if (list.length > n)
            cut.push(`${what} ${n} of ${list.length}`);
        return bounded_report_top(list, n);
    };
    const bounded = {
        ...report,
        sources: keep('sources', report.sources, BOUNDED_REPORT.listRows),
        kernels: keep('kernels', report.kernels, BOUNDED_REPORT.kernels),
        families: keep('families', report.families, BOUNDED_REPORT.listRows),
        metrics: keep('metrics', report.metrics, BOUNDED_REPORT.listRows).map((m) => (m.samples.length > BOUNDED_REPORT.samples ? { ...m, samples: m.samples.slice(0, BOUNDED_REPORT.samples) } : m)),
        memops: keep('memory operations', report.memops, BOUNDED_REPORT.listRows),
        apiCalls: keep('API calls', report.apiCalls, BOUNDED_REPORT.listRows),
        cpuFunctions: keep('CPU functions', report.cpuFunctions, BOUNDED_REPORT.listRows),
        notices: keep('notices', report.notices, BOUNDED_REPORT.listRows),
        skippedInputs: keep('skipped inputs', report.skippedInputs, BOUNDED_REPORT.listRows),
        deepDive: keep('Nsight Compute results', report.deepDive, BOUNDED_REPORT.listRows),
        findings: keep('findings', report.findings, BOUNDED_REPORT.listRows),
        decision: { ...report.decision, causes: keep('causes of the verdict', report.decision.causes, BOUNDED_REPORT.kernels) },
        timeline: report.timeline ? { ...report.timeline, steps: bounded_report_top(report.timeline.steps, BOUNDED_REPORT.samples) } : null,
        comparison: report.comparison
            ? { ...report.comparison, rows: keep('comparison rows', report.comparison.rows, BOUNDED_REPORT.kernels), kernelChanges: keep('kernel changes', report.comparison.kernelChanges, BOUNDED_REPORT.kernels) }
            : null,
    };
    if (cut.length)
        bounded.notices = [...bounded.notices, { code: 'read-back-in-part', severity: 'info', message: `read back in part: ${cut.join(', ')} kept (the artifact holds the whole report)` }];
    return bounded;
}

// EXTERNAL MODULE: ./src/report/verdict-lines.ts + 1 modules
var verdict_lines = __webpack_require__(64997);
// EXTERNAL MODULE: ./src/report/merge-reports.ts
var merge_reports = __webpack_require__(42756);
// EXTERNAL MODULE: ./src/io/secrets.ts
var secrets = __webpack_require__(53965);
// EXTERNAL MODULE: ./src/action/github/run-context.ts
var run_context = __webpack_require__(55359);
// EXTERNAL MODULE: ./src/report/markdown/text.ts
var markdown_text = __webpack_require__(74755);
// EXTERNAL MODULE: ./src/errors.ts
var errors = __webpack_require__(83916);
// EXTERNAL MODULE: ./src/action/inputs.ts + 1 modules
var inputs = __webpack_require__(39030);
// EXTERNAL MODULE: ./src/action/publish.ts + 9 modules
var publish = __webpack_require__(65142);
// EXTERNAL MODULE: ./src/model/text-order.ts
var text_order = __webpack_require__(97167);
;// CONCATENATED MODULE: ./src/action/modes/report-mode.ts
/**
 * Mode `report`: every report artifact of a run (matrix legs) merged into one summary and one
 * comment. The run is this one, the `run-id` input, or the run that triggered a `workflow_run`
 * workflow: the fork-safe pattern, where nothing from the PR is executed and the artifacts are
 * read as untrusted data (schema-validated, within the limits of src/github/limits.ts, PR number
 * checked against the head commit).
 */
















const ClaimedContextSchema = schemas/* object */.Ikc({ pullRequest: schemas/* number */.aig().int().positive().optional(), headSha: schemas/* string */.YjP().regex(/^[0-9a-f]{7,64}$/).optional() });
/** A report or artifact left out: a warning now, and a line of the failure unless allow-unreadable-reports. */
function leaveOut(ctx, into, line) {
    ctx.host.warning(line);
    into.unreadable.push(line);
}
/** The run whose artifacts are merged: the run-id input, the run that triggered this one, or this run. */
function sourceRun(ctx) {
    return ctx.inputs.runId ?? ctx.run.triggeringRun?.id ?? ctx.run.runId;
}
function claimOf(data) {
    const parsed = ClaimedContextSchema.safeParse(data);
    return parsed.success ? parsed.data : undefined;
}
async function readClaim(reportPath) {
    try {
        return claimOf(JSON.parse(await (0,promises_.readFile)((0,external_node_path_.join)((0,external_node_path_.dirname)(reportPath), publish/* CONTEXT_FILE */.ny), 'utf8')));
    }
    catch {
        return undefined;
    }
}
async function collect(ctx, paths, label, into) {
    for (const found of await (0,reports/* findReportFiles */.jU)(paths)) {
        try {
            const report = boundReport(await (0,reports/* loadReport */.N1)(found.path));
            into.entries.push({ label: label(found, report), report });
            const claim = await readClaim(found.path);
            if (claim)
                into.claims.push(claim);
        }
        catch (error) {
            leaveOut(ctx, into, `Skipped a report: ${(0,publish/* oneLine */.TN)(error.message)}`);
        }
    }
}
/**
 * Every report artifact of the run, through the REST API, one zip and one report at a time: each
 * report is cut down to what the merged summary shows before the next is read, and each bad
 * artifact or report is left out with one line saying why.
 */
async function fromArtifacts(ctx, runId) {
    const collected = { entries: [], claims: [], unreadable: [] };
    const prefix = ctx.inputs.artifactPrefix;
    const client = ctx.github();
    const repo = `${ctx.run.owner}/${ctx.run.repo}`;
    const limits = ctx.limits.artifacts;
    let artifacts;
    try {
        artifacts = (await client.runArtifacts(repo, runId)).filter((a) => a.name.startsWith(prefix) && !(0,artifact_names/* isCapturesArtifact */.QJ)(a.name)).sort((a, b) => (0,text_order/* compareText */.n)(a.name, b.name));
    }
    catch (error) {
        // Reading artifacts needs `actions: read`; without it the API answers 403 "Resource not accessible".
        throw new errors/* UsageError */.eb(`cannot list the report artifacts of run ${runId}: ${(0,publish/* oneLine */.TN)(error.message)} (reading artifacts needs the permission actions: read)`);
    }
    ctx.host.info(`Found ${artifacts.length} report artifact(s) named '${prefix}*' in run ${runId}.`);
    if (artifacts.length > limits.maxArtifacts)
        ctx.host.warning(`Only the first ${limits.maxArtifacts} of ${artifacts.length} report artifacts are read.`);
    for (const artifact of artifacts.slice(0, limits.maxArtifacts)) {
        if (artifact.expired) {
            leaveOut(ctx, collected, `Skipped artifact '${artifact.name}': expired.`);
            continue;
        }
        if ((artifact.size_in_bytes ?? 0) > limits.maxZipBytes) {
            leaveOut(ctx, collected, `Skipped artifact '${artifact.name}': ${artifact.size_in_bytes} bytes is more than a report artifact holds (${limits.maxZipBytes}).`);
            continue;
        }
        const link = { name: artifact.name, id: artifact.id, url: (0,run_context/* artifactUrl */.Wk)(ctx.run, runId, artifact.id) };
        const leg = artifact.name.slice(prefix.length) || artifact.name;
        let n = 0;
        try {
            const zip = await client.artifactZip(repo, artifact.id, limits.maxZipBytes);
            for (const entry of (0,report_artifacts/* reportsInZip */.GN)(zip, `artifact '${artifact.name}'`, limits)) {
                if ('error' in entry) {
                    leaveOut(ctx, collected, `Skipped a report: ${(0,publish/* oneLine */.TN)(entry.path)}: ${(0,publish/* oneLine */.TN)(entry.error)}`);
                    continue;
                }
                collected.entries.push({ label: n++ === 0 ? leg : `${leg}-${n}`, report: boundReport(entry.report), artifact: link });
                const claim = claimOf(entry.context);
                if (claim)
                    collected.claims.push(claim);
            }
        }
        catch (error) {
            leaveOut(ctx, collected, `Skipped artifact '${artifact.name}': ${(0,publish/* oneLine */.TN)((0,report_artifacts/* unreadableReason */.Qk)(error))}`);
        }
    }
    return collected;
}
/**
 * The PR to comment on. A number that came out of an artifact was written by the PR's own workflow
 * (possibly a fork's): it is used only if that PR's head is the commit the triggering run built.
 */
async function resolvePullRequest(ctx, claims) {
    if (ctx.inputs.prNumber !== undefined)
        return ctx.inputs.prNumber;
    if (ctx.run.pullRequest !== undefined)
        return ctx.run.pullRequest;
    const trigger = ctx.run.triggeringRun;
    if (!trigger)
        return undefined;
    if (trigger.pullRequests.length)
        return trigger.pullRequests[0];
    const numbers = [...new Set(claims.map((c) => c.pullRequest).filter((n) => n !== undefined))];
    if (numbers.length !== 1) {
        if (numbers.length > 1)
            ctx.host.warning(`The report artifacts name ${numbers.length} different pull requests; not commenting.`);
        return undefined;
    }
    const claimed = numbers[0];
    try {
        const data = await ctx.github().pull(`${ctx.run.owner}/${ctx.run.repo}`, claimed);
        if (data.head.sha === trigger.headSha)
            return claimed;
        ctx.host.warning(`PR #${claimed} named by the artifacts has head ${data.head.sha.slice(0, 12)}, not the commit ${trigger.headSha.slice(0, 12)} the run built; not commenting.`);
    }
    catch (error) {
        ctx.host.warning(`Could not check PR #${claimed} named by the artifacts: ${(0,publish/* oneLine */.TN)(error.message)}`);
    }
    return undefined;
}
async function reportMode(ctx) {
    const runId = sourceRun(ctx);
    let collected;
    if (ctx.inputs.reports.length) {
        collected = { entries: [], claims: [], unreadable: [] };
        await collect(ctx, ctx.inputs.reports, (found, report) => (0,reports/* labelFor */.gt)(found, report, ctx.inputs.artifactPrefix), collected);
    }
    else {
        try {
            collected = await fromArtifacts(ctx, runId);
        }
        catch (error) {
            // Nothing to merge: the summary still says why, then the job fails with the same line.
            await ctx.host.writeSummary(`## profile-gate: no report\n\n${(0,markdown_text/* safeText */.Hk)((0,publish/* oneLine */.TN)(error.message), 1000)}\n`).catch(() => undefined);
            throw error;
        }
    }
    if (collected.entries.length === 0)
        ctx.host.warning('No report was found to merge; the summary says so.');
    // Reports from other runs (an older version of the action, a fork) may quote a secret: redacted as data,
    // before rendering escapes their text beyond what a redaction of the page could find.
    const merged = (0,merge_reports/* mergeReports */.C1)(collected.entries.map((entry) => ({ ...entry, label: (0,secrets/* redact */.E$)(entry.label, ctx.secrets), report: (0,secrets/* redactValue */.FI)(entry.report, ctx.secrets).value })));
    const runUrl = runId !== ctx.run.runId ? `${ctx.run.serverUrl}/${ctx.run.owner}/${ctx.run.repo}/actions/runs/${runId}` : ctx.run.runUrl;
    ctx.host.setOutput(inputs/* OUTPUTS */.py.reportJson, '');
    ctx.host.setOutput(inputs/* OUTPUTS */.py.artifactId, '');
    ctx.host.setOutput(inputs/* OUTPUTS */.py.decodeTokS, '');
    await (0,publish/* publish */.mk)(ctx, { merged, runUrl, prNumber: await resolvePullRequest(ctx, collected.claims) });
    // A leg left out could be the failing one: the merged verdict then speaks for the others only.
    if (collected.unreadable.length && !ctx.inputs.allowUnreadableReports)
        ctx.host.setFailed(unreadableFailure(collected.unreadable));
    // fail-verdicts judge the merged verdict, as they judge one report: its reasons are those of the legs that gave it.
    const worst = merged.entries.filter((e) => e.report.verdict === merged.verdict);
    (0,publish/* settleVerdict */.Vp)(ctx, { verdict: merged.verdict, lines: worst.flatMap((e) => (0,verdict_lines/* verdictLines */.rz)(e.report).map((line) => `${e.label}: ${line}`)) });
}
/** The failure of a merge that left reports out: how many, the first, and the input that allows it. */
function unreadableFailure(unreadable) {
    const more = unreadable.length > 1 ? ` (and ${unreadable.length - 1} more)` : '';
    return `profile-gate report: ${unreadable.length} report(s) could not be read, so the merged verdict does not cover every leg: ${unreadable[0]}${more}; set input '${inputs/* INPUTS */.mc.allowUnreadableReports}: true' to merge the rest`;
}


/***/ })

};
