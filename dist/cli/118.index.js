export const id = 118;
export const ids = [118];
export const modules = {

/***/ 8118:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   REPORT_HELP: () => (/* binding */ REPORT_HELP),
/* harmony export */   runReportCommand: () => (/* binding */ runReportCommand)
/* harmony export */ });
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_util__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7975);
/* harmony import */ var node_util__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_util__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _io_reports_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(7759);
/* harmony import */ var _report_bounded_report_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(4114);
/* harmony import */ var _io_input_paths_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(3053);
/* harmony import */ var _report_verdict_lines_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(4997);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(3916);
/* harmony import */ var _flag_errors_js__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(9156);
/* harmony import */ var _options_read_js__WEBPACK_IMPORTED_MODULE_8__ = __webpack_require__(4800);
/* harmony import */ var _compare_acceptance_js__WEBPACK_IMPORTED_MODULE_15__ = __webpack_require__(5628);
/* harmony import */ var _verdict_exit_js__WEBPACK_IMPORTED_MODULE_9__ = __webpack_require__(93);
/* harmony import */ var _report_markdown_comment_js__WEBPACK_IMPORTED_MODULE_10__ = __webpack_require__(3779);
/* harmony import */ var _report_merge_reports_js__WEBPACK_IMPORTED_MODULE_11__ = __webpack_require__(2756);
/* harmony import */ var _report_markdown_summary_js__WEBPACK_IMPORTED_MODULE_12__ = __webpack_require__(9198);
/* harmony import */ var _report_inert_text_js__WEBPACK_IMPORTED_MODULE_13__ = __webpack_require__(8036);
/* harmony import */ var _report_number_format_js__WEBPACK_IMPORTED_MODULE_14__ = __webpack_require__(1329);
/**
 * `profile-gate report --out DIR REPORT.json|DIR...`: several reports (matrix legs, or artifacts
 * fetched with `gh run download`) merged into the job summary and the PR comment the action would
 * write, as DIR/summary.md and DIR/comment.md. Exit code 1 when the merged verdict fails.
 */
















const REPORT_HELP = `Usage: profile-gate report --out DIR [options] REPORT.json|DIR...

Merges report.json files (directories are searched, e.g. the output of 'gh run download') into
DIR/summary.md (the job summary) and DIR/comment.md (the sticky PR comment), as mode report does.
Exit code 1 when the merged verdict is one of --fail-verdicts.

A report it cannot read (a newer profile-gate wrote it, a field is misspelt) is exit 2, naming it;
--allow-unreadable-reports merges the others instead, naming each one left out on stderr.

${(0,_options_read_js__WEBPACK_IMPORTED_MODULE_8__/* .flagsHelp */ .zo)('report', 'all', 24, ['out', 'key', 'prefix', 'run-url', 'dashboard-url', 'fail-verdicts', 'allow-unreadable-reports', 'accepted-by'])}
`;
/** `--accepted-by LOGIN[:REASON]` as a claim covering every failing row. */
function acceptedByClaim(accepted, now = new Date()) {
    return { by: accepted.login, via: 'cli', at: now.toISOString(), targets: [], ...(accepted.reason ? { reason: accepted.reason } : {}) };
}
async function runReportCommand(args) {
    const config = { args: args, allowPositionals: true, strict: true, options: (0,_options_read_js__WEBPACK_IMPORTED_MODULE_8__/* .flagOptions */ .vo)('report') };
    const { values, positionals } = (0,node_util__WEBPACK_IMPORTED_MODULE_1__.parseArgs)(config);
    (0,_flag_errors_js__WEBPACK_IMPORTED_MODULE_7__/* .refuseRepeatedFlags */ .k)(config, 'report');
    const options = (0,_options_read_js__WEBPACK_IMPORTED_MODULE_8__/* .readFlags */ .uW)(values, 'report');
    const out = options.outDir;
    if (!out)
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_6__/* .UsageError */ .eb('report: expected --out DIR; see profile-gate --help');
    const claim = options.acceptedBy ? acceptedByClaim(options.acceptedBy) : undefined;
    if (positionals.length === 0)
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_6__/* .UsageError */ .eb('report: expected at least one report.json or a directory of them');
    const files = await (0,_io_reports_js__WEBPACK_IMPORTED_MODULE_2__/* .findReportFiles */ .jU)(positionals);
    if (files.length === 0)
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_6__/* .UsageError */ .eb(`report: no report.json under ${positionals.join(', ')}`);
    const entries = [];
    for (const found of files) {
        // One at a time, cut down at once to what the merged summary shows (as mode report does).
        // The acceptance covers what the report records as failing it (all of it, before the cut), under the policy that judged it.
        let read;
        try {
            read = await (0,_io_reports_js__WEBPACK_IMPORTED_MODULE_2__/* .loadReport */ .N1)(found.path);
        }
        catch (error) {
            // A leg left out could be the failing one: only the user's flag lets the others speak for it.
            if (!(error instanceof _errors_js__WEBPACK_IMPORTED_MODULE_6__/* .InputError */ .dz) || !options.allowUnreadableReports)
                throw error;
            process.stderr.write(`profile-gate: warning: skipped a report: ${(0,_report_inert_text_js__WEBPACK_IMPORTED_MODULE_13__/* .inertLine */ .Fq)(error.message.replace(/[\r\n]+/g, ' '))}\n`);
            continue;
        }
        const report = (0,_report_bounded_report_js__WEBPACK_IMPORTED_MODULE_3__/* .boundReport */ .N)(claim ? (0,_compare_acceptance_js__WEBPACK_IMPORTED_MODULE_15__/* .applyAcceptance */ .qS)(read, { claims: [claim] }) : read);
        entries.push({ label: (0,_io_reports_js__WEBPACK_IMPORTED_MODULE_2__/* .labelFor */ .gt)(found, report, options.artifactPrefix), report });
    }
    if (entries.length === 0)
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_6__/* .UsageError */ .eb(`report: none of the ${files.length} report(s) under ${positionals.join(', ')} could be read`);
    const merged = (0,_report_merge_reports_js__WEBPACK_IMPORTED_MODULE_11__/* .mergeReports */ .C1)(entries);
    const links = { ...(options.runUrl ? { runUrl: options.runUrl } : {}), ...(options.dashboardUrl ? { dashboardUrl: options.dashboardUrl } : {}) };
    await (0,_io_input_paths_js__WEBPACK_IMPORTED_MODULE_4__.writeOutput)((0,node_path__WEBPACK_IMPORTED_MODULE_0__.join)(out, 'summary.md'), (0,_report_markdown_summary_js__WEBPACK_IMPORTED_MODULE_12__.renderMergedSummary)(merged, { links }));
    await (0,_io_input_paths_js__WEBPACK_IMPORTED_MODULE_4__.writeOutput)((0,node_path__WEBPACK_IMPORTED_MODULE_0__.join)(out, 'comment.md'), (0,_report_markdown_comment_js__WEBPACK_IMPORTED_MODULE_10__/* .renderComment */ .wQ)(merged, { key: options.commentKey, links }));
    // A failing leg says why, in the verdict's own lines (reports of older versions carry none).
    const why = (report) => {
        const said = report.verdict !== 'pass' ? (0,_report_verdict_lines_js__WEBPACK_IMPORTED_MODULE_5__/* .verdictLines */ .rz)(report) : [];
        return said.length ? `: ${(0,_report_verdict_lines_js__WEBPACK_IMPORTED_MODULE_5__/* .failureLine */ .Pu)(said)}` : '';
    };
    // Labels and reasons come from the reports (a fork's artifact among them): printed inert.
    const lines = merged.entries.map((e) => (0,_report_inert_text_js__WEBPACK_IMPORTED_MODULE_13__/* .inertLine */ .Fq)(`  ${e.report.verdict.padEnd(17)} ${e.label}${why(e.report)}`.replace(/[\r\n]+/g, ' ')));
    process.stdout.write(`profile-gate report: ${merged.verdict} (${(0,_report_number_format_js__WEBPACK_IMPORTED_MODULE_14__/* .countText */ .lT)(merged.entries.length, 'report')})\n${lines.join('\n')}\nwrote ${(0,node_path__WEBPACK_IMPORTED_MODULE_0__.join)(out, 'summary.md')} and ${(0,node_path__WEBPACK_IMPORTED_MODULE_0__.join)(out, 'comment.md')}\n`);
    return (0,_verdict_exit_js__WEBPACK_IMPORTED_MODULE_9__/* .verdictExitCode */ .f)({ verdict: merged.verdict, lines: merged.entries.flatMap((e) => (0,_report_verdict_lines_js__WEBPACK_IMPORTED_MODULE_5__/* .verdictLines */ .rz)(e.report)) }, options.failVerdicts);
}


/***/ }),

/***/ 4114:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   N: () => (/* binding */ boundReport)
/* harmony export */ });
/* unused harmony export BOUNDED_REPORT */
const BOUNDED_REPORT = {
    kernels: 200,
    listRows: 100,
    samples: 1000,
};
function top(list, n) {
    return list.length > n ? list.slice(0, n) : [...list];
}
function boundReport(report) {
    const cut = [];
    const keep = (what, list, n) => {
        if (list.length > n)
            cut.push(`${what} ${n} of ${list.length}`);
        return top(list, n);
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
        timeline: report.timeline ? { ...report.timeline, steps: top(report.timeline.steps, BOUNDED_REPORT.samples) } : null,
        comparison: report.comparison
            ? { ...report.comparison, rows: keep('comparison rows', report.comparison.rows, BOUNDED_REPORT.kernels), kernelChanges: keep('kernel changes', report.comparison.kernelChanges, BOUNDED_REPORT.kernels) }
            : null,
    };
    if (cut.length)
        bounded.notices = [...bounded.notices, { code: 'read-back-in-part', severity: 'info', message: `read back in part: ${cut.join(', ')} kept (the artifact holds the whole report)` }];
    return bounded;
}


/***/ })

};
