export const id = 274;
export const ids = [274];
export const modules = {

/***/ 26611:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   O: () => (/* binding */ gateOptions),
/* harmony export */   o: () => (/* binding */ resolveBaseline)
/* harmony export */ });
/* harmony import */ var _options_table_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(23628);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(83916);
/* harmony import */ var _io_reports_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(77759);
/* harmony import */ var _github_report_artifacts_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(30407);
/* harmony import */ var _inputs_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(39030);
/* harmony import */ var _publish_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(65142);






function fixFor(ctx, name, branch) {
    const key = ctx.inputs.key ? ` with key '${ctx.inputs.key}'` : '';
    return `to fix: let a workflow on pushes to ${branch} run the same workload${key}, so it uploads '${name}' (examples/baseline-main.yml), or set '${_inputs_js__WEBPACK_IMPORTED_MODULE_4__/* .INPUTS */ .mc.baselineArtifactName}' to the name ${branch}'s run uploads`;
}
function plural(n, one, many = `${one}s`) {
    return `${n} ${n === 1 ? one : many}`;
}
/**
 * The default branch's artifacts of this name, newest run first: the completed workflow runs on the
 * branch (of input baseline-workflow's workflow, when set) made by this repository's own code and not
 * by a pull request's event, then each run's artifact of that name. Searching runs, not the
 * repository's artifacts by name, keeps main's artifact in reach however many pull-request runs
 * uploaded the same name since. Stops once `wanted` candidates are found or `maxRuns` runs were seen.
 */
async function defaultBranchArtifacts(ctx, repoName, repository, name, wanted) {
    const client = ctx.github();
    const workflow = ctx.inputs.baselineWorkflow;
    const search = { runs: 0, left: { expired: 0, fork: 0, pullRequest: 0 } };
    const runs = await client.workflowRuns(repoName, {
        ...(workflow ? { workflow } : {}),
        branch: repository.default_branch,
        status: 'completed',
        limit: ctx.limits.artifacts.baselineRunsSearched,
    });
    const candidates = [];
    for (const run of runs) {
        if (candidates.length >= wanted)
            break;
        if (run.id === ctx.run.runId)
            continue;
        search.runs += 1;
        search.oldest = run.created_at ?? search.oldest;
        // Made by a fork's code (its head repository is another one): never a baseline.
        if (run.head_repository?.id !== repository.id || (run.repository?.id !== undefined && run.repository.id !== repository.id)) {
            search.left.fork += 1;
            continue;
        }
        // A pull request's run measures the pull request's merge, not the branch.
        if (run.event?.startsWith('pull_request')) {
            search.left.pullRequest += 1;
            continue;
        }
        for (const artifact of await client.runArtifacts(repoName, run.id, name)) {
            if (artifact.name !== name)
                continue;
            if (artifact.expired) {
                search.left.expired += 1;
                continue;
            }
            candidates.push({ ...artifact, workflow_run: { ...artifact.workflow_run, id: run.id, ...(run.head_sha ? { head_sha: run.head_sha } : {}) } });
        }
    }
    return { candidates, search };
}
async function fromArtifact(ctx) {
    const name = ctx.inputs.baselineArtifactName || (0,_publish_js__WEBPACK_IMPORTED_MODULE_5__/* .defaultArtifactName */ .Vb)(ctx);
    const client = ctx.github();
    const repoName = `${ctx.run.owner}/${ctx.run.repo}`;
    const repository = await client.repository(repoName);
    const branch = repository.default_branch;
    const workflow = ctx.inputs.baselineWorkflow;
    const limits = ctx.limits.artifacts;
    const { candidates, search } = await defaultBranchArtifacts(ctx, repoName, repository, name, limits.maxBaselineCandidates + limits.historyReports - 1);
    const skipped = [];
    for (const artifact of candidates.slice(0, limits.maxBaselineCandidates)) {
        const runId = artifact.workflow_run.id;
        const source = `run ${runId}`;
        let reason;
        if ((artifact.size_in_bytes ?? 0) > limits.maxZipBytes)
            reason = `${artifact.size_in_bytes} bytes; larger than ${limits.maxZipBytes}`;
        else {
            try {
                const zip = await client.artifactZip(repoName, artifact.id, limits.maxZipBytes);
                const first = (0,_github_report_artifacts_js__WEBPACK_IMPORTED_MODULE_3__/* .reportsInZip */ .GN)(zip, `${name} of ${source}`, limits).next();
                if (first.done)
                    reason = 'no report.json inside';
                else if ('error' in first.value)
                    reason = first.value.error;
                else {
                    const sha = artifact.workflow_run?.head_sha?.slice(0, 7);
                    const passed = skipped.length ? `; skipped newer: ${skipped.join('; ')}` : '';
                    const older = candidates.slice(candidates.indexOf(artifact) + 1, candidates.indexOf(artifact) + limits.historyReports);
                    return {
                        baseline: {
                            report: first.value.report,
                            origin: 'artifact',
                            path: `${ctx.run.serverUrl}/${repoName}/actions/runs/${runId} (${name})`,
                            reason: `newest readable artifact '${name}' on ${branch} (run ${runId}${sha ? `, ${sha}` : ''})${passed}`,
                            history: [historyOf(first.value.report), ...(await olderReports(ctx, repoName, name, older))],
                        },
                    };
                }
            }
            catch (error) {
                reason = (0,_publish_js__WEBPACK_IMPORTED_MODULE_5__/* .oneLine */ .TN)((0,_github_report_artifacts_js__WEBPACK_IMPORTED_MODULE_3__/* .unreadableReason */ .Qk)(error));
            }
        }
        skipped.push(`${source}: ${reason}`);
        ctx.host.warning(`Skipped baseline candidate '${name}' of ${source}: ${reason}`);
    }
    const fix = fixFor(ctx, name, branch);
    if (skipped.length)
        return { baseline: null, note: `no baseline: ${plural(skipped.length, 'artifact')} '${name}' on ${branch} could not be read (${skipped.join('; ')}); ${fix}` };
    const others = [
        search.left.expired ? `${search.left.expired} expired` : '',
        search.left.fork ? `${plural(search.left.fork, 'run')} made by forks` : '',
        search.left.pullRequest ? `${plural(search.left.pullRequest, 'pull-request run')}` : '',
    ].filter(Boolean);
    const where = workflow ? ` of workflow ${workflow}` : '';
    const since = search.oldest ? `, back to ${search.oldest.slice(0, 10)}` : '';
    const looked = `searched the newest ${plural(search.runs, 'completed run')} on ${branch}${where}${since}${search.runs >= limits.baselineRunsSearched ? ` (the search stops at ${limits.baselineRunsSearched})` : ''}`;
    const left = others.length ? `; left out: ${others.join(', ')}` : '';
    return { baseline: null, note: `no baseline: no artifact '${name}' on ${branch}${where}: ${looked}${left}; ${fix}` };
}
/** What the between-job noise estimate reads of a report: its metric medians, nothing else kept. */
function historyOf(report) {
    return { metrics: report.metrics.map((m) => ({ name: m.name, value: m.value })) };
}
/**
 * The default branch's older reports of the same name, for the noise between jobs: read one at a
 * time within the same caps, reduced at once to their medians; one that cannot be read is left out
 * (it only narrows the estimate, which says how many reports it had).
 */
async function olderReports(ctx, repoName, name, artifacts) {
    const client = ctx.github();
    const limits = ctx.limits.artifacts;
    const out = [];
    for (const artifact of artifacts) {
        if ((artifact.size_in_bytes ?? 0) > limits.maxZipBytes)
            continue;
        try {
            const first = (0,_github_report_artifacts_js__WEBPACK_IMPORTED_MODULE_3__/* .reportsInZip */ .GN)(await client.artifactZip(repoName, artifact.id, limits.maxZipBytes), `${name} of run ${artifact.workflow_run?.id}`, limits).next();
            if (!first.done && !('error' in first.value))
                out.push(historyOf(first.value.report));
        }
        catch (error) {
            ctx.host.debug(`history: left out run ${artifact.workflow_run?.id}: ${(0,_publish_js__WEBPACK_IMPORTED_MODULE_5__/* .oneLine */ .TN)((0,_github_report_artifacts_js__WEBPACK_IMPORTED_MODULE_3__/* .unreadableReason */ .Qk)(error))}`);
        }
    }
    return out;
}
async function resolveBaseline(ctx, abRun = false) {
    const input = ctx.inputs.baseline;
    if (abRun) {
        if (input !== '' && input !== 'ab')
            throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .UsageError */ .eb(`input '${_inputs_js__WEBPACK_IMPORTED_MODULE_4__/* .INPUTS */ .mc.baseline}' is ${JSON.stringify(input)}, but base-workdir/base-run make this an A/B run whose baseline is the base build; leave '${_inputs_js__WEBPACK_IMPORTED_MODULE_4__/* .INPUTS */ .mc.baseline}' empty or set it to ab`);
        return { baseline: null };
    }
    if (input === 'ab')
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .UsageError */ .eb(`input '${_inputs_js__WEBPACK_IMPORTED_MODULE_4__/* .INPUTS */ .mc.baseline}': ab runs the base build in this job; it needs mode run and input 'base-workdir' (a checkout of the base commit) or 'base-run'`);
    if (input === '' || input === 'none')
        return { baseline: null, note: `no baseline configured (input '${_inputs_js__WEBPACK_IMPORTED_MODULE_4__/* .INPUTS */ .mc.baseline}' is empty); to compare, set it to artifact (the default branch's report artifact of the same key) or to a report.json path` };
    if (input === 'artifact') {
        try {
            return await fromArtifact(ctx);
        }
        catch (error) {
            const message = (0,_publish_js__WEBPACK_IMPORTED_MODULE_5__/* .oneLine */ .TN)(error instanceof Error ? error.message : String(error));
            ctx.host.warning(`Baseline artifact not available: ${message}`);
            return { baseline: null, note: `no baseline: the baseline artifact could not be looked up (${message}); to fix: give the job 'actions: read' and check the github-token input` };
        }
    }
    return { baseline: { report: await (0,_io_reports_js__WEBPACK_IMPORTED_MODULE_2__/* .loadReport */ .N1)(input), origin: 'file', path: input, reason: `input '${_inputs_js__WEBPACK_IMPORTED_MODULE_4__/* .INPUTS */ .mc.baseline}'` } };
}
/** The gate's options, as the inputs set them (read and checked with the other inputs). */
function gateOptions(ctx) {
    return (0,_options_table_js__WEBPACK_IMPORTED_MODULE_0__/* .gateOf */ .Rv)(ctx.inputs);
}


/***/ }),

/***/ 35153:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Q: () => (/* binding */ runInfo)
/* harmony export */ });
function runInfo(ctx) {
    const { sha, ref } = ctx.run;
    return {
        ...(ctx.inputs.key ? { workload: ctx.inputs.key } : {}),
        ...(sha ? { commit: sha } : {}),
        ...(ref ? { ref } : {}),
        repository: `${ctx.run.owner}/${ctx.run.repo}`,
        runId: String(ctx.run.runId),
        runUrl: ctx.run.runUrl,
        timestamp: new Date().toISOString(),
    };
}


/***/ }),

/***/ 61090:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  Z: () => (/* binding */ loadFamilies)
});

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 17 modules
var schemas = __webpack_require__(38816);
// EXTERNAL MODULE: ./src/errors.ts
var errors = __webpack_require__(83916);
// EXTERNAL MODULE: ./src/model/family-ids.ts
var family_ids = __webpack_require__(1538);
;// CONCATENATED MODULE: ./src/classify/user-families.ts
/**
 * User-defined kernel families, from a JSON config:
 *   { "families": [{ "family": "my-fused-moe", "pattern": "^my_moe_", "flags": "i" }] }
 * Entries are tried in order before the built-in table. A family may be a built-in id (to claim a
 * kernel for it) or a new id (reported as its own family, a UserFamilyId; rules only read the
 * built-in ids). Each id is checked here, at load: one line naming the file and the entry.
 *
 * Patterns run in JavaScript's backtracking engine on names from the capture, which a pull request
 * chooses. So a pattern whose work can grow without bound is refused at load (patternProblem), and
 * the rest are tested on at most USER_PATTERN_NAME_CHARS characters of a name.
 */



/** Lower-case words of letters and digits joined by single dashes, as the built-in ids are. */
const FAMILY_ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** Ids are shown in tables and used in threshold keys (`family:<id>`): a short id stays readable. */
const FAMILY_ID_MAX = 60;
const EntrySchema = schemas/* object */.Ikc({
    family: schemas/* string */.YjP(),
    pattern: schemas/* string */.YjP().min(1),
    // `g` and `y` make RegExp.test stateful, which would make classification depend on call order.
    flags: schemas/* string */.YjP().regex(/^[imsu]*$/, 'a combination of i, m, s, u').default(''),
});
const ConfigSchema = schemas/* object */.Ikc({ families: schemas/* array */.YOg(EntrySchema) }).strict();
function describeIssue(issue) {
    const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
    return `${path.replace(/^\./, '') || 'config'}: ${issue.message}`;
}
/** A built-in id spelt another way (`KV_Cache`, `attention fused`): what it would be, normalized. */
function looseSpelling(id) {
    return id
        .trim()
        .toLowerCase()
        .replace(/[\s_.]+/g, '-')
        .replace(/-+/g, '-');
}
/** The family an entry names, or why it cannot be one. */
function checkFamilyId(id) {
    if ((0,family_ids/* isBuiltInFamily */.qG)(id))
        return { family: id };
    const meant = looseSpelling(id);
    if ((0,family_ids/* isBuiltInFamily */.qG)(meant))
        return { problem: `'${id}' is the built-in family '${meant}' spelt another way; write '${meant}' to claim kernels for it, or pick a new id` };
    if (!FAMILY_ID.test(id))
        return { problem: `expected a family id (lower-case letters and digits joined by single dashes, e.g. my-fused-moe), got ${JSON.stringify(id.slice(0, 80))}` };
    if (id.length > FAMILY_ID_MAX)
        return { problem: `expected a family id of at most ${FAMILY_ID_MAX} characters, got ${id.length}` };
    return { family: (0,family_ids/* userFamilyId */.vk)(id) };
}
/** Open-ended repeats (`*`, `+`, `{n,}`, and `{n,m}` past this) a pattern may hold, counting one for an unanchored start. */
const MAX_PATTERN_DEGREE = 2;
const WIDE_REPEAT = 64;
/**
 * Why a pattern could backtrack without bound, or undefined. Refused: a backreference, a repeated
 * group that holds a quantifier or an alternation (`(a+)+`, `(a|ab)*`: exponential), and more than
 * MAX_PATTERN_DEGREE open-ended repeats, an unanchored start counting as one (`.*a.*b` tries every
 * start, every split: cubic).
 */
function patternProblem(source) {
    const stack = [{ quantified: false, alternation: false }];
    let closed;
    let openEnded = 0;
    let i = 0;
    while (i < source.length) {
        const c = source[i];
        if (c === '\\') {
            const next = source[i + 1] ?? '';
            if (/[1-9]/.test(next) || next === 'k')
                return `a backreference (${source.slice(i, i + 2)}) can take exponential time; match without it`;
            // \u{…} and \p{…} hold braces that are not a quantifier.
            const braced = /^[upP]\{[^}]*\}/.exec(source.slice(i + 1));
            i += braced ? 1 + braced[0].length : 2;
            closed = undefined;
            continue;
        }
        if (c === '[') {
            i += 1;
            if (source[i] === '^')
                i += 1;
            if (source[i] === ']')
                i += 1;
            while (i < source.length && source[i] !== ']')
                i += source[i] === '\\' ? 2 : 1;
            i += 1;
            closed = undefined;
            continue;
        }
        if (c === '(') {
            stack.push({ quantified: false, alternation: false });
            i += 1;
            const prefix = /^\?(?::|=|!|<=|<!|<[^>]*>)/.exec(source.slice(i));
            if (prefix)
                i += prefix[0].length;
            closed = undefined;
            continue;
        }
        if (c === ')') {
            closed = stack.length > 1 ? stack.pop() : undefined;
            i += 1;
            continue;
        }
        if (c === '|') {
            stack[stack.length - 1].alternation = true;
            i += 1;
            closed = undefined;
            continue;
        }
        const braces = c === '{' ? /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i)) : null;
        if (c === '*' || c === '+' || c === '?' || braces) {
            const max = braces ? (braces[2] === undefined ? Number(braces[1]) : braces[3] === '' ? Infinity : Number(braces[3])) : c === '?' ? 1 : Infinity;
            if (max > 1 && closed && (closed.quantified || closed.alternation)) {
                const what = closed.quantified ? 'a repeated group that holds a quantifier (as in (a+)+)' : 'a repeated group that holds an alternation (as in (a|ab)*)';
                return `${what} can take exponential time; repeat a character class instead`;
            }
            if (max > WIDE_REPEAT)
                openEnded += 1;
            for (const group of stack)
                group.quantified = true;
            i += braces ? braces[0].length : 1;
            if (source[i] === '?')
                i += 1;
            closed = undefined;
            continue;
        }
        i += 1;
        closed = undefined;
    }
    const degree = openEnded + (source.startsWith('^') ? 0 : 1);
    if (degree > MAX_PATTERN_DEGREE) {
        return `expected at most ${MAX_PATTERN_DEGREE - 1} open-ended repeat (*, +, {n,}) in a pattern not anchored with ^, or ${MAX_PATTERN_DEGREE} in one that is, got ${openEnded}: such a pattern takes time growing as a power of the name's length; anchor it with ^ or drop a leading .*`;
    }
    return undefined;
}
/** Parse and validate a family config; `path` names the file in errors. */
function parseUserFamilies(text, path) {
    let json;
    try {
        json = JSON.parse(text);
    }
    catch (error) {
        throw new errors/* InputError */.dz(path, `expected JSON ({ "families": [...] }), got ${error.message}`);
    }
    const parsed = ConfigSchema.safeParse(json);
    if (!parsed.success) {
        throw new errors/* InputError */.dz(path, `expected { "families": [{ family, pattern, flags? }] }, got ${describeIssue(parsed.error.issues[0])}`);
    }
    return parsed.data.families.map((entry, index) => {
        const checked = checkFamilyId(entry.family);
        if ('problem' in checked)
            throw new errors/* InputError */.dz(path, `families[${index}].family: ${checked.problem} (built-in families: ${family_ids/* FAMILY_IDS */.Mz.join(', ')})`);
        const problem = patternProblem(entry.pattern);
        if (problem)
            throw new errors/* InputError */.dz(path, `families[${index}].pattern: ${problem} (got ${JSON.stringify(entry.pattern.slice(0, 80))})`);
        let pattern;
        try {
            pattern = new RegExp(entry.pattern, entry.flags);
        }
        catch (error) {
            throw new errors/* InputError */.dz(path, `families[${index}].pattern: expected a valid regular expression, got ${error.message}`);
        }
        return { family: checked.family, pattern };
    });
}

;// CONCATENATED MODULE: ./src/io/families-file.ts
/** A `--families` file (input `families`): read, then parsed into the user's family rules. */



async function loadFamilies(path) {
    let text;
    try {
        text = await (0,promises_.readFile)(path, 'utf8');
    }
    catch (error) {
        throw new errors/* InputError */.dz(path, `cannot read the families file (${(0,errors/* systemErrorText */.f9)(error)})`);
    }
    return parseUserFamilies(text, path);
}


/***/ }),

/***/ 11843:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  ns: () => (/* binding */ analyze)
});

// UNUSED EXPORTS: ingestAll, ingestReadable, reportFromProfile

// EXTERNAL MODULE: ./src/model/metrics.ts
var metrics = __webpack_require__(25500);
// EXTERNAL MODULE: ./src/model/averages.ts
var averages = __webpack_require__(92861);
// EXTERNAL MODULE: ./src/model/throttle.ts
var throttle = __webpack_require__(61941);
// EXTERNAL MODULE: ./src/model/text-order.ts
var text_order = __webpack_require__(97167);
;// CONCATENATED MODULE: ./src/pipeline/merge-captures.ts




function mergeKernels(captures) {
    // Keyed by device, then name: a joined key string per kernel would copy every name (29 MB for 100,000).
    const byDevice = new Map();
    const merged = [];
    for (const capture of captures) {
        for (const kernel of capture.kernels) {
            let byName = byDevice.get(kernel.device);
            if (!byName)
                byDevice.set(kernel.device, (byName = new Map()));
            const existing = byName.get(kernel.name);
            if (!existing) {
                // Object.assign, not a spread: V8 gives each spread copy that later gains keys (buildProfile
                // adds family and share) a hidden class of its own, 27 MB for 100,000 kernels.
                const copy = Object.assign({}, kernel);
                byName.set(kernel.name, copy);
                merged.push(copy);
                continue;
            }
            const heavierShape = kernel.totalNs > existing.totalNs;
            existing.totalNs += kernel.totalNs;
            existing.instances += kernel.instances;
            if (kernel.minNs !== undefined)
                existing.minNs = Math.min(existing.minNs ?? Infinity, kernel.minNs);
            if (kernel.maxNs !== undefined)
                existing.maxNs = Math.max(existing.maxNs ?? 0, kernel.maxNs);
            if (heavierShape && kernel.grid)
                existing.grid = kernel.grid;
            if (heavierShape && kernel.block)
                existing.block = kernel.block;
            if (heavierShape && kernel.launchedBy !== undefined)
                Object.assign(existing, { launchedBy: kernel.launchedBy, launchedByShare: kernel.launchedByShare });
            if (heavierShape && kernel.tokens !== undefined)
                existing.tokens = kernel.tokens;
            if (heavierShape && kernel.pythonSites !== undefined)
                existing.pythonSites = kernel.pythonSites;
        }
    }
    return merged.sort((a, b) => b.totalNs - a.totalNs || (0,text_order/* compareText */.n)(a.name, b.name));
}
function mergeByName(rows, add) {
    const byName = new Map();
    for (const row of rows) {
        const existing = byName.get(row.name);
        if (existing)
            add(existing, row);
        else
            byName.set(row.name, { ...row });
    }
    return [...byName.values()];
}
function mergeMemops(captures) {
    return mergeByName(captures.flatMap((c) => c.memops), (into, from) => {
        into.count += from.count;
        if (from.totalNs !== undefined)
            into.totalNs = (into.totalNs ?? 0) + from.totalNs;
        if (from.bytes !== undefined)
            into.bytes = (into.bytes ?? 0) + from.bytes;
    });
}
function mergeApiCalls(captures) {
    return mergeByName(captures.flatMap((c) => c.apiCalls), (into, from) => {
        into.calls += from.calls;
        into.totalNs += from.totalNs;
    }).sort((a, b) => b.totalNs - a.totalNs);
}
function mergeMetrics(captures) {
    const samples = new Map();
    for (const capture of captures) {
        for (const sample of capture.metrics) {
            if (!Number.isFinite(sample.value))
                continue;
            const list = samples.get(sample.name) ?? [];
            list.push(sample.value);
            samples.set(sample.name, list);
        }
    }
    return [...samples.entries()].map(([name, values]) => {
        const info = (0,metrics/* metricInfo */.R)(name);
        return { name, unit: info.unit, direction: info.direction, samples: values, value: (0,averages/* median */.J)(values) };
    });
}
/** Below this a sample counts as idle when finding the active window (process start-up, weight loading, exit). */
const ACTIVE_UTIL_PERCENT = 1;
/** With fewer active samples than this the whole recording is the window (a host-bound run rarely leaves idle). */
const MIN_WINDOW_SAMPLES = 3;
/**
 * The samples between each device's first and last active sample. A sampler that wraps the whole workload
 * command also records start-up and exit, where the GPU is idle for reasons that say nothing about the run.
 */
function activeWindow(samples) {
    const byDevice = new Map();
    for (const sample of samples) {
        const list = byDevice.get(sample.device) ?? [];
        list.push(sample);
        byDevice.set(sample.device, list);
    }
    const window = [];
    for (const list of byDevice.values()) {
        const first = list.findIndex((s) => s.gpuPercent >= ACTIVE_UTIL_PERCENT);
        let last = list.length - 1;
        while (last >= 0 && list[last].gpuPercent < ACTIVE_UTIL_PERCENT)
            last -= 1;
        window.push(...(first >= 0 ? list.slice(first, last + 1) : []));
    }
    return window.length >= MIN_WINDOW_SAMPLES ? window : [...samples];
}
function summarizeUtilization(samples, timed = []) {
    return summarizeRecordings([samples], timed);
}
/** The typical time between samples of one recording (0 when unknown). */
function medianSpacing(recording) {
    const times = recording.map((s) => s.t).filter((t) => t !== undefined);
    const gaps = times.slice(1).map((t, i) => t - times[i]).filter((gap) => gap > 0);
    return gaps.length ? (0,averages/* median */.J)(gaps) : 0;
}
/**
 * The samples that fall in the workload's timed windows. A sample reports the period before its
 * time stamp, so it counts for a window when at least half of that period lies inside it: with a
 * 0.5 s interval and 0.2 s timed runs, no sample reports a timed run, and none is passed off as one.
 */
function timedSamples(recording, timed) {
    const interval = medianSpacing(recording);
    if (interval <= 0)
        return recording.filter((s) => s.t !== undefined && timed.some((w) => s.t > w.startS && s.t <= w.endS));
    const inside = (t, w) => Math.min(t, w.endS) - Math.max(t - interval, w.startS);
    return recording.filter((s) => s.t !== undefined && timed.some((w) => inside(s.t, w) >= interval / 2));
}
/**
 * Several recordings (one per input file, e.g. one per measured run): each gets its own active window,
 * so the idle start-up of the second run does not count against the first.
 */
function summarizeRecordings(recordings, timed = []) {
    const samples = recordings.flat();
    if (samples.length === 0)
        return null;
    const inTimed = timed.length ? recordings.flatMap((recording) => timedSamples(recording, timed)) : [];
    const useTimed = inTimed.length >= MIN_WINDOW_SAMPLES;
    const window = useTimed ? inTimed : recordings.flatMap((recording) => (recording.length ? activeWindow(recording) : []));
    const devices = new Set(samples.map((s) => s.device));
    const hardware = new Set();
    let throttled = 0;
    for (const sample of window) {
        const reasons = sample.reasons.filter((r) => throttle/* HARDWARE_THROTTLE_REASONS */.u0.has(r));
        reasons.forEach((r) => hardware.add(r));
        if (reasons.length)
            throttled += 1;
    }
    const clocks = window.map((s) => s.smClockMhz).filter((v) => v !== undefined);
    const power = samples.map((s) => s.powerW).filter((v) => v !== undefined);
    return {
        window: useTimed ? 'timed' : 'active',
        meanPercent: (0,averages/* mean */.i)(window.map((s) => s.gpuPercent)),
        peakPercent: Math.max(...samples.map((s) => s.gpuPercent)),
        sampleCount: window.length,
        overallMeanPercent: (0,averages/* mean */.i)(samples.map((s) => s.gpuPercent)),
        totalSampleCount: samples.length,
        devices: devices.size,
        throttleReasons: [...hardware].sort(),
        throttledFraction: throttled / window.length,
        ...(clocks.length ? { meanSmClockMhz: (0,averages/* mean */.i)(clocks) } : {}),
        ...(power.length ? { peakPowerW: Math.max(...power) } : {}),
    };
}
function mergeEnvironment(captures) {
    const environment = {};
    for (const capture of captures) {
        for (const [key, value] of Object.entries(capture.environment)) {
            if (value !== undefined && environment[key] === undefined) {
                environment[key] = value;
            }
        }
    }
    return environment;
}
/** Stream capture with no replay: the trace records a CUDA/HIP graph being built, set-up rather than the steady work. */
const BEGIN_CAPTURE = /^(?:cuda|hip)StreamBeginCapture/;
const GRAPH_LAUNCH = /^(?:cuda|hip)GraphLaunch/;
/**
 * A graph-capture trace: the host recorded a stream capture and never replayed a graph. The kernels
 * launched while capturing do not run then (only a few set-up kernels do), so its timeline says
 * nothing about how busy the GPU stays in the steady loop.
 */
function isGraphCaptureSetup(capture) {
    if (!capture.apiCalls.some((call) => BEGIN_CAPTURE.test(call.name)))
        return false;
    if (capture.apiCalls.some((call) => GRAPH_LAUNCH.test(call.name) && call.calls > 0))
        return false;
    return (capture.timeline?.graphLaunches ?? 0) === 0;
}
function kernelNsOf(capture) {
    return capture.kernels.reduce((sum, k) => sum + k.totalNs, 0);
}
/**
 * The timeline that time-based rules read. Each input keeps its own timeline and window (several
 * traces are never spliced onto one clock); the one read is the one holding the steady work: the
 * most kernel time, among the lowest rank's inputs when traces name their ranks (every rank keeps
 * its own in `ranks`). Ties go to the path that sorts first, so the order of the inputs never
 * changes the choice.
 */
function mergeTimeline(captures) {
    let candidates = captures.filter((c) => c.timeline);
    if (candidates.length === 0)
        return { timeline: null, notices: [] };
    const ranked = candidates.filter((c) => c.distributed);
    if (ranked.length > 0) {
        const lowest = Math.min(...ranked.map((c) => c.distributed.rank));
        candidates = ranked.filter((c) => c.distributed.rank === lowest);
    }
    const chosen = [...candidates].sort((a, b) => kernelNsOf(b) - kernelNsOf(a) || (b.timeline.busyNs - a.timeline.busyNs) || (0,text_order/* compareText */.n)(a.source.path, b.source.path))[0];
    const withTimeline = captures.filter((c) => c.timeline).length;
    if (withTimeline <= 1)
        return { timeline: chosen.timeline, notices: [] };
    const why = ranked.length > 0 ? `rank ${chosen.distributed.rank}'s input with the most kernel time` : 'the input with the most kernel time';
    return {
        timeline: chosen.timeline,
        notices: [
            {
                code: 'several-timelines',
                severity: 'info',
                message: `${withTimeline} inputs carry a timeline, each on its own clock; time-based analysis reads ${chosen.source.path} (${why}, ${(kernelNsOf(chosen) / 1e6).toFixed(3)} ms)`,
            },
        ],
    };
}

// EXTERNAL MODULE: ./src/classify/classify.ts
var classify_classify = __webpack_require__(19602);
// EXTERNAL MODULE: ./src/ingest/registry.ts + 44 modules
var registry = __webpack_require__(395);
// EXTERNAL MODULE: ./src/model/gpu-sharing.ts
var gpu_sharing = __webpack_require__(86854);
;// CONCATENATED MODULE: ./src/pipeline/build-profile.ts




/** `notices`: what was decided about the inputs before merging (files set aside, mixed inputs allowed). */
function buildProfile(allCaptures, classify = (0,classify_classify/* createClassifier */.CC)(), inputNotices = []) {
    const { captures, notices: setUpNotices } = setAsideGraphCaptures(allCaptures);
    // A deep dive (Nsight Compute) replays a few launches of kernels another capture already timed:
    // its kernel rows count only when no other input has kernel times.
    const timedElsewhere = captures.some((c) => !(0,registry/* replaysKernels */.Lk)(c) && c.kernels.length > 0);
    const merged = mergeKernels(timedElsewhere ? captures.filter((c) => !(0,registry/* replaysKernels */.Lk)(c)) : captures);
    const totalKernelNs = merged.reduce((sum, k) => sum + k.totalNs, 0);
    // The merged kernels are fresh copies: completed in place rather than copied once more.
    const inContext = (0,classify_classify/* familiesInContext */.Ri)(merged.map((k) => k.name), merged.map((k) => classify(k)));
    const kernels = merged.map((kernel, i) => Object.assign(kernel, {
        family: inContext[i] ?? classify(kernel),
        share: totalKernelNs > 0 ? kernel.totalNs / totalKernelNs : 0,
    }));
    const families = familySharesOf(kernels, totalKernelNs);
    const kernelSources = captures.filter((c) => c.kernels.length > 0 && !(timedElsewhere && (0,registry/* replaysKernels */.Lk)(c)));
    // Each input keeps its own timeline: the one with the steady work is read; every rank keeps its own in `ranks`.
    const { timeline, notices: timelineNotices } = mergeTimeline(captures);
    const notices = [...inputNotices, ...allCaptures.flatMap((c) => c.notices), ...setUpNotices, ...timelineNotices];
    if (kernelSources.length > 1) {
        notices.push({
            code: 'kernels-summed',
            severity: 'info',
            message: `kernel times from ${kernelSources.length} inputs were summed (${kernelSources.map((c) => `${c.source.path}${c.source.run ? ` run ${c.source.run}` : ''}`).join(', ')})`,
        });
    }
    const gpuTimeUtil = captures.find((c) => c.gpuTimeUtilPercent !== undefined)?.gpuTimeUtilPercent;
    const gpuSharing = gpuSharingOf(allCaptures);
    notices.push(...sharingNotices(gpuSharing), ...unlistedNotices(allCaptures));
    return {
        sources: allCaptures.map((c) => c.source),
        environment: mergeEnvironment(captures),
        totalKernelNs,
        kernels,
        families,
        memops: mergeMemops(captures),
        apiCalls: mergeApiCalls(captures),
        metrics: mergeMetrics(captures),
        utilization: summarizeRecordings(captures.map((c) => c.utilization), captures.flatMap((c) => c.timedWindows)),
        timeline,
        cpuFunctions: captures.flatMap((c) => c.cpuFunctions),
        notices,
        ncu: captures.flatMap((c) => c.ncu),
        gpuTimeUtilPercent: gpuTimeUtil ?? null,
        ranks: ranksOf(captures, classify, notices),
        ...(kernels.length > 0 ? { kernelOrigin: timedElsewhere ? 'breakdown' : 'deep-dive' } : {}),
        gpuSharing,
    };
}
/** What the runs' GPU sharing says to people: runs shared, and pids no recording could place. */
function sharingNotices(sharing) {
    if (!sharing)
        return [];
    const notices = [];
    const shared = sharing.runs.filter((run) => run.shared);
    if (shared.length) {
        const who = [...new Set(shared.flatMap((run) => run.neighbours.filter(gpu_sharing/* neighbourCounts */.WE).map((n) => (n.pid === null ? 'a process busy before the run\'s own' : `pid ${n.pid}`))))];
        notices.push({ code: 'gpu-shared', severity: 'warning', message: `another process used the GPU during measured run${shared.length === 1 ? '' : 's'} ${shared.map((run) => run.run).join(', ')} of ${sharing.runs.length} (${who.join(', ')})` });
    }
    const unplaced = [...new Set(sharing.runs.flatMap((run) => run.unknownPids))];
    if (unplaced.length) {
        notices.push({ code: 'gpu-process-unplaced', severity: 'info', message: `the GPU listed pid${unplaced.length === 1 ? '' : 's'} ${unplaced.slice(0, 5).join(', ')} that this pid namespace cannot see, first after a run's command started: the job's own (a container sees host pids) or another's; not counted as another's` });
    }
    return notices;
}
/**
 * GPU utilization recordings that list no process in any sample (a sampler or tool that cannot,
 * or a listing that failed throughout): a neighbour there is not seen, which is said rather than
 * read as a GPU the job had to itself.
 */
function unlistedNotices(captures) {
    const unlisted = captures.filter((c) => c.utilization.length > 0 && (c.gpuProcesses?.listedSamples ?? 0) === 0);
    if (!unlisted.length)
        return [];
    const paths = unlisted.slice(0, 3).map((c) => c.source.path).join(', ');
    const more = unlisted.length > 3 ? ` and ${unlisted.length - 3} more` : '';
    return [{ code: 'gpu-processes-unlisted', severity: 'info', message: `${unlisted.length} GPU recording${unlisted.length === 1 ? '' : 's'} listed no GPU process (${paths}${more}): another process on the GPU would not be seen there, and the gate judges those runs by their times alone` }];
}
/**
 * Each GPU recording that listed the GPU's processes is one measured run, in input order. A metric's
 * samples are placed in runs only when as many inputs carry it as there are recordings: the runner
 * lists each run's files together, and a folder sorts the runs' consoles as it sorts their
 * recordings (measured-1, measured-10, measured-2 …), so the k-th of each is the same run. Else the
 * runs' samples are not told apart, and no run can be left out alone.
 */
function gpuSharingOf(captures) {
    const recordings = captures.filter((c) => c.gpuProcesses !== undefined);
    if (recordings.length === 0)
        return null;
    const carriers = new Map();
    for (const capture of captures) {
        const counts = new Map();
        for (const sample of capture.metrics)
            if (Number.isFinite(sample.value))
                counts.set(sample.name, (counts.get(sample.name) ?? 0) + 1);
        for (const [name, count] of counts)
            carriers.set(name, [...(carriers.get(name) ?? []), count]);
    }
    const placed = [...carriers].filter(([, counts]) => counts.length === recordings.length);
    return {
        runs: recordings.map((recording, i) => {
            const seen = recording.gpuProcesses;
            return {
                run: i + 1,
                listed: seen.listedSamples > 0,
                shared: seen.neighbours.some(gpu_sharing/* neighbourCounts */.WE),
                neighbours: seen.neighbours,
                unknownPids: seen.unknownPids,
                ...(placed.length ? { samples: Object.fromEntries(placed.map(([name, counts]) => [name, counts[i]])) } : {}),
            };
        }),
    };
}
/**
 * Graph-capture traces (set-up: a stream capture, no replay) are named as such. Beside an input that
 * holds kernel work, their timeline, API calls and rank are set aside, so that their mostly idle
 * timeline and capture-time launches do not stand for the steady loop and a capture of rank 0 is not
 * read as a second rank 0; the few set-up kernels they ran did run, so they stay in the kernel total.
 */
function setAsideGraphCaptures(captures) {
    const setUp = captures.filter(isGraphCaptureSetup);
    if (setUp.length === 0)
        return { captures, notices: [] };
    const setAside = captures.some((c) => !setUp.includes(c) && c.kernels.length > 0);
    const notices = setUp.map((c) => {
        const kernelMs = (c.kernels.reduce((sum, k) => sum + k.totalNs, 0) / 1e6).toFixed(3);
        const what = `${c.source.path} is a graph-capture trace (stream capture, no graph replay; ${kernelMs} ms of kernel time): set-up, not the steady work`;
        return {
            code: 'graph-capture-setup',
            severity: 'info',
            message: setAside
                ? `${what}; its kernels count in the total, its timeline and API calls are left out`
                : `${what}. The captured kernels run only when the graph is replayed: profile the replayed steps to see them`,
        };
    });
    if (!setAside)
        return { captures, notices };
    return {
        captures: captures.map((c) => {
            if (!setUp.includes(c))
                return c;
            const { distributed: _distributed, ...rest } = c;
            return { ...rest, timeline: undefined, deviceTimelines: [], apiCalls: [] };
        }),
        notices,
    };
}
function familySharesOf(kernels, totalKernelNs) {
    const families = new Map();
    for (const kernel of kernels) {
        const entry = families.get(kernel.family) ?? { family: kernel.family, totalNs: 0, share: 0, kernels: 0, instances: 0 };
        entry.totalNs += kernel.totalNs;
        entry.kernels += 1;
        entry.instances += kernel.instances;
        families.set(kernel.family, entry);
    }
    for (const entry of families.values())
        entry.share = totalKernelNs > 0 ? entry.totalNs / totalKernelNs : 0;
    return [...families.values()].sort((a, b) => b.totalNs - a.totalNs);
}
function rankOf(kernels, classify, fields) {
    const totalKernelNs = kernels.reduce((sum, k) => sum + k.totalNs, 0);
    const families = (0,classify_classify/* familiesInContext */.Ri)(kernels.map((k) => k.name), kernels.map((k) => classify(k)));
    const classified = kernels.map((k, i) => ({ family: families[i] ?? classify(k), totalNs: k.totalNs, instances: k.instances }));
    return { ...fields, totalKernelNs, families: familySharesOf(classified, totalKernelNs) };
}
/**
 * Each rank its own breakdown and timeline. Captures that name their rank (Kineto
 * `distributedInfo`) are grouped by it; a capture with kernels on several devices and no rank is
 * split by device, each with its own timeline where the trace gives one. Ranks whose world sizes or
 * backends disagree, or a rank given twice, are not one job: a notice says so.
 */
function ranksOf(captures, classify, notices) {
    const ranked = captures.filter((c) => c.distributed);
    if (ranked.length > 0) {
        const byRank = new Map();
        for (const c of ranked)
            byRank.set(c.distributed.rank, [...(byRank.get(c.distributed.rank) ?? []), c]);
        const worldSizes = new Set(ranked.map((c) => c.distributed.worldSize ?? 0));
        const backends = new Set(ranked.map((c) => c.distributed.backend ?? ''));
        const repeated = [...byRank.entries()].filter(([, list]) => list.filter((c) => c.kernels.length > 0).length > 1).map(([rank]) => rank);
        if (ranked.length > 1 && (worldSizes.size > 1 || backends.size > 1 || repeated.length > 0)) {
            const why = repeated.length > 0 ? `rank ${repeated[0]} is given twice` : `world sizes ${[...worldSizes].join(' and ')}${backends.size > 1 ? `, backends ${[...backends].join(' and ')}` : ''}`;
            notices.push({
                code: 'ranks-of-different-jobs',
                severity: 'warning',
                message: `the traces' ranks are not one job (${why}): each is shown on its own and ranks are not compared (${ranked.map((c) => c.source.path).join(', ')})`,
            });
        }
        return [...byRank.entries()]
            .sort((a, b) => a[0] - b[0])
            .flatMap(([, list]) => list.map((c) => {
            const d = c.distributed;
            return rankOf(c.kernels, classify, {
                rank: d.rank,
                ...(d.worldSize !== undefined ? { worldSize: d.worldSize } : {}),
                ...(d.backend !== undefined ? { backend: d.backend } : {}),
                ...(d.host !== undefined ? { host: d.host } : {}),
                ...(c.kernels.length > 0 && new Set(c.kernels.map((k) => k.device)).size === 1 && c.kernels[0].device !== undefined ? { device: c.kernels[0].device } : {}),
                sources: [c.source.path],
                timeline: c.timeline ?? null,
            });
        }));
    }
    const split = captures.find((c) => !(0,registry/* replaysKernels */.Lk)(c) && new Set(c.kernels.map((k) => k.device ?? 0)).size > 1);
    if (!split)
        return [];
    const devices = [...new Set(split.kernels.map((k) => k.device ?? 0))].sort((a, b) => a - b);
    return devices.map((device) => rankOf(split.kernels.filter((k) => (k.device ?? 0) === device), classify, { device, sources: [split.source.path], timeline: split.deviceTimelines.find((d) => d.device === device)?.timeline ?? null }));
}

// EXTERNAL MODULE: ./src/model/decision.ts
var decision = __webpack_require__(39263);
// EXTERNAL MODULE: ./src/compare/fingerprint.ts
var fingerprint = __webpack_require__(33187);
// EXTERNAL MODULE: ./src/compare/profiler-steps.ts
var profiler_steps = __webpack_require__(51524);
// EXTERNAL MODULE: ./src/model/own-key.ts
var own_key = __webpack_require__(57143);
// EXTERNAL MODULE: ./src/compare/gate-options.ts
var gate_options = __webpack_require__(22263);
;// CONCATENATED MODULE: ./src/compare/sequential.ts
/**
 * Repeated looks at one A/B comparison (adaptive sampling): the planned runs are the first look, and
 * while a metric stays undecided more runs are added, up to a maximum. Testing each look at the full
 * alpha would let chance win at any of them, so the test's alpha is spent over the looks with a
 * spending function fixed before the first run (Lan & DeMets): the planned look spends
 * `FIRST_LOOK_SHARE` of alpha, and each later look an equal part of the rest. Each look is tested at
 * its own increment, so the chance of a false rejection at any look is at most alpha whatever the
 * correlation between looks (a Bonferroni bound over the looks; the exact group-sequential
 * boundaries for correlated looks would be a little wider).
 */
/**
 * The planned look keeps most of alpha: with 5 runs per side and a warm-up run dropped, 4 vs 4 runs
 * reach p = 1/70 at best, and two metrics that move together under Benjamini-Hochberg over four
 * need p ≤ alpha_look / 2; 0.8 × 0.05 = 0.04 still passes 1/70. The later looks have more runs,
 * whose smallest p-values are far below their share.
 */
const FIRST_LOOK_SHARE = 0.8;
/** Runs added per side by one more ABBA pair. */
const RUNS_PER_EXTRA_LOOK = 2;
/** The runs per side at each look: the planned runs, then one ABBA pair more each time, up to `maxRuns`. */
function lookSchedule(plannedRuns, maxRuns, step = RUNS_PER_EXTRA_LOOK) {
    const looks = [plannedRuns];
    for (let n = plannedRuns + step; n <= maxRuns; n += step)
        looks.push(n);
    if (looks[looks.length - 1] < maxRuns)
        looks.push(maxRuns);
    return looks;
}
/** The alpha tested at look `index` (1-based) of `looks`; the increments add up to alpha. */
function alphaAtLook(alpha, index, looks) {
    if (looks <= 1)
        return alpha;
    if (index <= 1)
        return FIRST_LOOK_SHARE * alpha;
    return ((1 - FIRST_LOOK_SHARE) * alpha) / (looks - 1);
}
/** Alpha spent up to and including look `index`. */
function alphaSpent(alpha, index, looks) {
    let spent = 0;
    for (let k = 1; k <= Math.min(index, looks); k += 1)
        spent += alphaAtLook(alpha, k, looks);
    return spent;
}
/**
 * The alpha tested at a look after which no run will be added (max-runs reached, the time budget
 * spent, or the job already failed on another row): what the looks before it left unspent. A run
 * that stops at its first look so tests at the full alpha, as a single comparison of the same
 * samples does; the bound over the looks holds, since only what earlier looks did not spend is
 * spent here.
 */
function alphaAtFinalLook(alpha, index, looks) {
    if (looks <= 1 || index <= 1)
        return alpha;
    return Math.max(0, alpha - alphaSpent(alpha, index - 1, looks));
}
/** The alpha a comparison tests at: a single look, a look of an adaptive run, or its last look. */
function lookAlpha(alpha, look) {
    if (!look)
        return alpha;
    return look.final ? alphaAtFinalLook(alpha, look.index, look.of) : alphaAtLook(alpha, look.index, look.of);
}

// EXTERNAL MODULE: ./src/compare/statistics.ts + 2 modules
var statistics = __webpack_require__(31835);
// EXTERNAL MODULE: ./src/compare/median-interval.ts
var median_interval = __webpack_require__(14315);
;// CONCATENATED MODULE: ./src/compare/metric-rows.ts
/**
 * Metric rows: a gated metric regresses only when the change is statistically real (one-sided
 * exact Mann-Whitney, or Student's t on the fast clusters when runs were left out as stalled or
 * warm-up; corrected across the metrics of the run, and a bootstrap CI of the median ratio on the
 * same side of zero) AND at least the metric's practical floor, its whole interval past it, AND
 * neither side's own runs reach the other side's median (with two clock states, medians move by
 * which state more runs fell in; a test cannot tell that from a regression). It passes only when
 * its interval at the stricter pass level lies inside the floor.
 */





function say(said, key, item) {
    (said[key] ??= []).push(item);
}
/** The warm-up rule, and the runs the outlier rule finds below the side's fast cluster (not yet left out). */
function warmSide(label, metric, options, said, other) {
    const samples = metric.samples.filter(Number.isFinite);
    const rule = { ...statistics/* DEFAULT_WARMUP_RULE */.YM, minKeep: options.minSamples };
    const { kept, dropped } = options.dropWarmup ? (0,statistics/* dropWarmupOutliers */.Zk)(samples, metric.direction, rule) : { kept: samples, dropped: [] };
    if (options.dropWarmup && !dropped.length && (0,statistics/* dropWarmupOutliers */.Zk)(samples, metric.direction, { ...rule, minKeep: 2 }).dropped.length) {
        say(said, 'warmupKept', label);
        said.minSamples = options.minSamples;
    }
    if (dropped.length)
        say(said, 'warmupDropped', { side: label, values: [...dropped], median: (0,statistics/* median */.JZ)(kept) });
    const stalls = options.dropOutliers ? new Set((0,statistics/* findSlowOutliers */.Mo)(kept, metric.direction, { ...statistics/* DEFAULT_OUTLIER_RULE */.kh, minRuns: options.minSamples + 1 }, { other: other.samples.filter(Number.isFinite) }).outliers) : new Set();
    return { runs: kept, dropped, stalls };
}
/** The side with its `k` slowest runs left out (the same k on both sides: `symmetricStalls`). */
function trimSide(label, metric, warm, k) {
    const { runs, dropped, stalls } = warm;
    const out = new Set((0,statistics/* slowestPositions */.uU)(runs, k, metric.direction));
    const kept = runs.filter((_, i) => !out.has(i));
    const center = kept.length ? (0,statistics/* median */.JZ)(kept) : Number.NaN;
    // Runs are numbered as measured, the warm-up runs included.
    const outliers = [...out].map((i) => ({ run: i + dropped.length + 1, change: runs[i] / center - 1, stall: stalls.has(i) }));
    return { label, runs, kept, dropped, outliers, stalled: [...out].map((i) => runs[i]), found: stalls.size, value: kept.length ? center : metric.value, total: metric.samples.length };
}
/**
 * The runs left out of each side, as data: the stalls the rule found, and the clean runs taken out
 * so that both sides lose as many; a side with more runs below its fast cluster than were left out
 * (more than a stall's share) counts as noisy (src/report/row-lines.ts writes it).
 */
function stallData(base, cur, rule) {
    for (const side of [base, cur]) {
        if (!side.outliers.length)
            continue;
        side.stall = { side: side.label, runs: side.outliers.map((r) => ({ ...r })), kept: side.kept.length, spread: relativeSpreadOf(side.kept), found: side.found, maxShare: rule.maxShare };
    }
}
function relativeSpreadOf(values) {
    if (!values.length)
        return 0;
    const center = (0,statistics/* median */.JZ)(values);
    return Math.abs(center) > 0 ? Math.max(...values.map((v) => Math.abs(v / center - 1))) : 0;
}
function infoRow(name, base, cur) {
    const metric = (cur ?? base);
    const baseline = base ? base.value : null;
    const current = cur ? cur.value : null;
    return {
        metric: name,
        kind: 'metric',
        unit: metric.unit,
        direction: metric.direction,
        baseline,
        current,
        delta: baseline !== null && current !== null && baseline !== 0 ? current / baseline - 1 : null,
        ci: null,
        threshold: null,
        status: 'info',
    };
}
/**
 * The one-sided test of the current side against the baseline. With nothing left out, the exact
 * Mann-Whitney test of the runs. With runs left out (as many slowest runs of each side, stalls
 * among them, or a warm-up run), the kept runs are often 2 to 4, and no rank test of so few can
 * reach the gate's level however far apart they lie: Yuen's trimmed t-test compares them, its
 * spread winsorized (the runs left out counted at the slowest kept one, so slow runs beyond those
 * left out widen it), pooled over both sides and taken as at least the outlier rule's 0.2%.
 */
function sideTest(cur, base, direction) {
    if (leftOut(cur) || leftOut(base)) {
        const minSd = statistics/* DEFAULT_OUTLIER_RULE */.kh.minSpread * Math.max(Math.abs(cur.value), Math.abs(base.value));
        const test = (0,statistics/* trimmedTTest */.pv)(cur.runs, base.runs, cur.stalled.length, base.stalled.length, direction, minSd);
        return direction === 'higher' ? { pWorse: test.pLess, pBetter: test.pGreater } : { pWorse: test.pGreater, pBetter: test.pLess };
    }
    const test = (0,statistics/* mannWhitneyU */.KZ)(cur.kept, base.kept);
    return direction === 'higher' ? { pWorse: test.pLess, pBetter: test.pGreater } : { pWorse: test.pGreater, pBetter: test.pLess };
}
/** Runs of the side left out as slower than the rest: stalled, or dropped as warm-up (a slow first run is a stall the process start made). */
function leftOut(side) {
    return side.stalled.length + side.dropped.length;
}
/** Worse-is-positive: the change as a regression fraction for this metric's direction. */
function worseBy(direction, delta) {
    return direction === 'higher' ? -delta : delta;
}
/**
 * Metrics that left out the same runs (the same run numbers of the same sides) named together,
 * under the first one's data: grouped by the run numbers alone.
 */
function groupStalls(stalls) {
    const byRuns = new Map();
    for (const s of stalls) {
        const runs = (side) => s.sides.find((x) => x.side === side)?.runs.map((r) => r.run) ?? [];
        if (!runs('baseline').length && !runs('current').length)
            continue;
        const key = JSON.stringify([runs('baseline'), runs('current')]);
        const entry = byRuns.get(key);
        if (entry)
            entry.metrics.push(s.name);
        else
            byRuns.set(key, { kind: 'left-out', metrics: [s.name], sides: [...s.sides] });
    }
    return [...byRuns.values()];
}
function outlierNotes(pending) {
    return groupStalls(pending.map((p) => ({ name: p.name, sides: [p.base.stall, p.cur.stall].filter((x) => x !== undefined) })));
}
function compareMetrics(current, baseline, options) {
    const baseByName = new Map(baseline.map((m) => [m.name, m]));
    const curByName = new Map(current.map((m) => [m.name, m]));
    const names = [...new Set([...baseByName.keys(), ...curByName.keys()])].filter((n) => !metrics/* DESCRIPTIVE_METRICS */.xx.has(n));
    const rows = [];
    const pending = [];
    let compared = 0;
    let gatedInBaseline = 0;
    for (const name of names) {
        const base = baseByName.get(name);
        const cur = curByName.get(name);
        const floor = (0,gate_options/* metricFloor */.tq)(options, name);
        if (floor === undefined) {
            if (base && cur)
                rows.push({ row: { ...infoRow(name, base, cur), reading: { kind: 'metric', outcome: 'not-gated' } } });
            continue;
        }
        if (base)
            gatedInBaseline += 1;
        if (!base || !cur) {
            const side = base ? 'baseline' : 'current';
            rows.push({ row: { ...infoRow(name, base, cur), reading: { kind: 'metric', outcome: 'only-in', side } } });
            continue;
        }
        compared += 1;
        const direction = cur.direction;
        const said = {};
        const baseWarm = warmSide('baseline', base, options, said, cur);
        const curWarm = warmSide('current', cur, options, said, base);
        // As many runs of each side left out, within a stall's share: a neighbour slows both sides.
        const k = options.dropOutliers
            ? (0,statistics/* symmetricStalls */.dP)({ baseline: baseWarm.stalls.size, current: curWarm.stalls.size }, { baseline: baseWarm.dropped.length, current: curWarm.dropped.length }, { baseline: baseWarm.runs.length + baseWarm.dropped.length, current: curWarm.runs.length + curWarm.dropped.length }, { ...statistics/* DEFAULT_OUTLIER_RULE */.kh, minRuns: options.minSamples + 1 })
            : { baseline: 0, current: 0 };
        const baseSide = trimSide('baseline', base, baseWarm, k.baseline);
        const curSide = trimSide('current', cur, curWarm, k.current);
        stallData(baseSide, curSide, statistics/* DEFAULT_OUTLIER_RULE */.kh);
        for (const side of [baseSide, curSide])
            if (side.stall)
                say(said, 'stalls', side.stall);
        if (!(baseSide.value > 0) || !(curSide.value >= 0)) {
            // A ratio of medians needs a positive baseline (e.g. failed_requests at 0 has no relative change).
            rows.push({ row: { ...infoRow(name, base, cur), delta: null, reading: { kind: 'metric', outcome: 'no-relative-change' } } });
            continue;
        }
        // Stalled runs were measured: they count towards the minimum, though the fast clusters decide.
        const nBase = baseSide.kept.length + baseSide.stalled.length;
        const nCur = curSide.kept.length + curSide.stalled.length;
        const delta = curSide.value / baseSide.value - 1;
        if (nBase < options.minSamples || nCur < options.minSamples) {
            rows.push({
                row: {
                    metric: name,
                    kind: 'metric',
                    unit: cur.unit,
                    direction,
                    baseline: baseSide.value,
                    current: curSide.value,
                    delta,
                    ci: null,
                    threshold: floor,
                    pValue: null,
                    samples: [nBase, nCur],
                    leftOut: [base.samples.length - nBase, cur.samples.length - nCur],
                    status: 'insufficient-data',
                    insufficient: {
                        why: 'too-few-samples',
                        noise: [(0,statistics/* relativeRobustSd */.dr)(baseSide.runs), (0,statistics/* relativeRobustSd */.dr)(curSide.runs)],
                        couldHide: null,
                        runsPerSide: options.minSamples,
                        addsRuns: Boolean(options.look && options.look.of > 1 && !options.look.final),
                        quieterRunner: false,
                    },
                    reading: { kind: 'metric', outcome: 'too-few-samples', minSamples: options.minSamples, ...said },
                },
                undecided: true,
            });
            continue;
        }
        const test = sideTest(curSide, baseSide, direction);
        // The kept runs are resampled: as many runs of each side were left out, so neither is favoured, and
        // slow runs beyond a stall's share are among the kept ones and widen the interval.
        const interval = (0,statistics/* bootstrapMedianRatioCI */.aD)(curSide.kept, baseSide.kept, {
            level: (0,gate_options/* ciLevel */.Xp)(options.alpha),
            resamples: options.bootstrapResamples,
            random: (0,statistics/* mulberry32 */.sK)((0,statistics/* seedFor */.ln)(options.seed, name)),
            strictLevel: passLevel(options.alpha),
        });
        const driftData = [];
        for (const side of [baseSide, curSide]) {
            const found = (0,statistics/* detectDrift */.D9)(side.kept, { alpha: options.drift.alpha, minChange: options.drift.minChangePct / 100 });
            if (found.drift)
                driftData.push({ side: side.label, change: found.change, samples: side.kept.length, pValue: found.pValue });
        }
        pending.push({
            name,
            unit: cur.unit,
            direction,
            floor,
            base: baseSide,
            cur: curSide,
            said,
            driftData,
            delta,
            ci: [interval.low - 1, interval.high - 1],
            passCi: [interval.strict.low - 1, interval.strict.high - 1],
            pWorse: test.pWorse,
            pBetter: test.pBetter,
        });
    }
    // One correction per direction: a regression family (what fails) and an improvement family.
    const adjWorse = (0,statistics/* adjustPValues */.uA)(pending.map((p) => p.pWorse), options.correction);
    const adjBetter = (0,statistics/* adjustPValues */.uA)(pending.map((p) => p.pBetter), options.correction);
    pending.forEach((p, i) => rows.push(decide(p, adjWorse[i], adjBetter[i], options)));
    return { rows, compared, gatedInBaseline, outlierNotes: outlierNotes(pending) };
}
/**
 * When one side's own runs reach the other side's median, the medians' difference can come from
 * which state more runs fell in (two clock or power states) rather than the code. A run of the
 * faster-looking side can only be slowed (a stall, a neighbour), so the slower side's runs at the
 * faster side's level are evidence the build runs that fast, and always count; the faster side's
 * runs at the slower side's level count only as a state, a third of its runs or more: one slowed
 * run of a busy GPU is no second state. Says which runs, or undefined when the sides do not overlap so.
 */
function overlap(p, worse) {
    // In "worse is larger" terms, so one comparison serves both directions.
    const bad = (value) => (p.direction === 'higher' ? -value : value);
    const [slow, fast] = worse > 0 ? [p.cur, p.base] : [p.base, p.cur];
    // Within half the floor counts as reaching: run-to-run jitter is not a state of its own.
    const margin = (p.floor / 2) * fast.value;
    const fastReach = fast.kept.filter((v) => bad(v) >= bad(slow.value) - margin).length;
    const slowReach = slow.kept.filter((v) => bad(v) <= bad(fast.value) + margin).length;
    const shownFast = fastReach && fastReach * 3 >= fast.kept.length ? fastReach : 0;
    if (!shownFast && !slowReach)
        return undefined;
    return { slow: slow.label, fastReach: shownFast, fastKept: fast.kept.length, slowReach, slowKept: slow.kept.length };
}
/**
 * The two-sided level of the interval a pass is judged on: 1 − alpha (95% at the default 0.05), so
 * its worse end errs on one side at alpha / 2, half what a fail's test is held to. A pass is the
 * claim a reader stops at; beside a busy GPU's neighbour, a 90% interval of a few runs lay inside a
 * 3% floor for up to 1 simulated 5% regression in 100 (bench/README.md, "The trials that missed").
 */
function passLevel(alpha) {
    return 1 - alpha;
}
/** Runs per side beyond which a job is not the way to decide a metric: a quieter runner (or pinned clocks) is. */
const MAX_PRACTICAL_RUNS = 30;
/**
 * What an undecided row is missing, as data: each side's run-to-run noise, the largest regression
 * the interval still allows, and the runs per side at which an interval as wide per run (its width
 * shrinks as 1/√n) would decide it: lie inside the floor (pass) when the change is within it, or
 * clear of the floor (fail) when it is beyond. At least one A/B pair more than the runs already taken.
 */
function insufficientOf(p, why, worse, options, ci = p.ci, keptNeeded = 0) {
    const [low, high] = ci;
    const worstWorse = p.direction === 'higher' ? -low : high;
    const bestWorse = p.direction === 'higher' ? -high : low;
    const n = Math.min(p.base.runs.length, p.cur.runs.length);
    // A pass needs the worse end inside the floor; a fail the better end past it.
    const reach = worse < p.floor ? (worstWorse - worse) / (p.floor - worse) : (worse - bestWorse) / (worse - p.floor);
    let runs = Number.isFinite(reach) && reach > 0 ? Math.ceil(n * reach * reach) : null;
    if (runs !== null)
        runs = Math.max(runs, n + RUNS_PER_EXTRA_LOOK);
    // Too few kept runs: at least as many more as the side with fewest kept lacks (its stalls may recur).
    if (keptNeeded)
        runs = Math.max(runs ?? 0, n + keptNeeded - Math.min(p.base.kept.length, p.cur.kept.length), n + RUNS_PER_EXTRA_LOOK);
    const look = options.look;
    return {
        why,
        noise: [(0,statistics/* relativeRobustSd */.dr)(p.base.runs), (0,statistics/* relativeRobustSd */.dr)(p.cur.runs)],
        couldHide: Number.isFinite(worstWorse) ? worstWorse : null,
        runsPerSide: runs,
        addsRuns: Boolean(look && look.of > 1 && !look.final),
        quieterRunner: runs === null || runs > MAX_PRACTICAL_RUNS,
    };
}
/**
 * Each side's median interval of its kept runs, at the gate's level, lies apart from the other's by
 * more than the overlap check's reach (half the floor): null intervals (too few runs) are not apart.
 */
function intervalsApart(p, options) {
    const a = (0,median_interval/* medianInterval */.c)(p.base.kept, (0,gate_options/* ciLevel */.Xp)(options.alpha));
    const b = (0,median_interval/* medianInterval */.c)(p.cur.kept, (0,gate_options/* ciLevel */.Xp)(options.alpha));
    if (!a || !b)
        return false;
    const gap = Math.max(b.low - a.high, a.low - b.high);
    return gap > (p.floor / 2) * p.base.value;
}
/** A side's kept runs spread this many times the other's (taken as at least `NOISY_SIDE_MIN_SD`): a neighbour's varying slowdowns, not one change of code. */
const NOISY_SIDE_RATIO = 3;
/** The least spread a side is taken to have for that ratio: 0.1%, above the quiet H200's largest within-process sd (0.07%). */
const NOISY_SIDE_MIN_SD = 0.001;
/** …and its spread is at least this share of the change: slowdowns that vary by about the change itself, not jitter around a step. */
const NOISY_SIDE_CHANGE_SHARE = 1 / 6;
/**
 * The slower-looking side's runs spread far more than the other's, by about the change itself: a
 * neighbour slows runs by varying amounts, a change of code slows them by one (with its jitter, or
 * a drift, far smaller than the step). The spread is over all the side's runs after the warm-up
 * rule, robust (a median of deviations): a minority of stalls does not move it, a side whose runs
 * most were slowed by varying amounts does. With `fasterHalf`, only the side's faster half is
 * measured (each side's, for the ratio; its plain sd): a change of code moves the runs the
 * neighbour spared together, to one level, while a side the neighbour slowed throughout has no
 * such level. Its text, or undefined.
 */
function noisySide(p, worse, fasterHalf = false) {
    const [slow, fast] = worse > 0 ? [p.cur, p.base] : [p.base, p.cur];
    if (slow.runs.length < 3)
        return undefined;
    // The faster half holds no stalls to resist: its plain sd, which two runs that happen to agree do not make 0.
    const spreadOf = (runs) => (fasterHalf ? (0,statistics/* relativeSd */.Ey)(fasterHalfOf(runs, p.direction)) : (0,statistics/* relativeRobustSd */.dr)(runs));
    const slowSd = spreadOf(slow.runs);
    const fastSd = spreadOf(fast.runs);
    if (!(slowSd > NOISY_SIDE_RATIO * Math.max(fastSd, NOISY_SIDE_MIN_SD)))
        return undefined;
    if (!(slowSd >= NOISY_SIDE_CHANGE_SHARE * Math.abs(worse)))
        return undefined;
    return { slow: slow.label, slowSd, fastSd, ...(fasterHalf ? { fasterHalf: true } : {}) };
}
/** The better half of a side's runs (rounded up): the runs a neighbour slowed least. */
function fasterHalfOf(runs, direction) {
    const sorted = [...runs].sort((a, b) => (direction === 'higher' ? b - a : a - b));
    return sorted.slice(0, Math.ceil(sorted.length / 2));
}
/** The baseline's fastest kept run beats the current's median by the floor or more: the baseline ran that fast, so a regression at the floor is not ruled out. Its text, or undefined. */
function baselineRanFaster(p) {
    const better = (a, b) => (p.direction === 'higher' ? a / b - 1 : b / a - 1);
    const fastest = p.direction === 'higher' ? Math.max(...p.base.kept) : Math.min(...p.base.kept);
    const by = better(fastest, p.cur.value);
    if (!(by >= p.floor))
        return undefined;
    return { fastest, by };
}
function decide(p, pWorse, pBetter, options) {
    const worse = worseBy(p.direction, p.delta);
    const [ciLow, ciHigh] = p.ci;
    // The CI must lie wholly on the side of the change, in the direction's terms.
    const ciWorse = p.direction === 'higher' ? ciHigh < 0 : ciLow > 0;
    const ciBetter = p.direction === 'higher' ? ciLow > 0 : ciHigh < 0;
    // A pass is shown, not assumed: the worst end of its interval, at the stricter pass level, lies
    // inside the floor. A fail is shown too: the whole interval lies past the floor (below).
    const passWorst = p.direction === 'higher' ? -p.passCi[0] : p.passCi[1];
    const withinFloor = passWorst < p.floor;
    const pastFloorWorse = p.direction === 'higher' ? ciHigh <= -p.floor : ciLow >= p.floor;
    // An adaptive A/B run spends alpha over its looks; the CI stays at the nominal level (it only adds a condition).
    const alpha = lookAlpha(options.alpha, options.look);
    const significantWorse = pWorse <= alpha && ciWorse;
    const significantBetter = pBetter <= alpha && ciBetter;
    const pValue = worse > 0 ? pWorse : pBetter;
    const decided = (significantWorse && worse >= p.floor) || (significantBetter && -worse >= p.floor);
    // The interval's nearer end lies past the floor too: the whole interval is a change beyond it.
    const intervalPastFloor = ciLow >= p.floor || ciHigh <= -p.floor;
    // Significant with each side's median interval apart from the other's is decided: runs of one
    // side reaching the other's median do not hold it back. A noisy side is another matter: a side
    // the neighbour slowed throughout lies apart too. With the whole interval past the floor, a noisy
    // side is held back only while its faster half too varies by about the change.
    const sidesOverlap = decided && options.overlapCheck && !intervalsApart(p, options) ? overlap(p, worse) : undefined;
    const noisyAll = decided && options.overlapCheck && !sidesOverlap ? noisySide(p, worse) : undefined;
    const noisy = noisyAll && intervalPastFloor ? noisySide(p, worse, true) : noisyAll;
    const overlapping = sidesOverlap ?? noisy;
    // With runs left out as stalled, a pass rests on a side's fastest runs, and beside a neighbour
    // that slows about half the runs, every one of a few kept runs can have been slowed by about the
    // same amount: their bootstrap interval cannot show it. An A/B look that can still add runs does
    // not stop on such a pass: it takes runs until each such side keeps as many as a
    // distribution-free interval of a median needs at the pass level (6 at 95%). A single comparison,
    // or the last look, decides from the runs it has.
    const keptNeeded = (0,median_interval/* medianIntervalMinSamples */.bt)(passLevel(options.alpha));
    const canAddRuns = Boolean(options.look && options.look.of > 1 && !options.look.final);
    const fewKept = canAddRuns && [p.base, p.cur].some((side) => side.stalled.length > 0 && side.kept.length < keptNeeded);
    // A fail rests on the kept runs as much: a look that can add runs does not fail on fewer kept
    // runs of such a side than an interval of a median needs at the fail level (5 at 90%), while the
    // change is no larger than the deepest run left out as stalled (what slowed those runs could have
    // slowed all the few kept ones alike; a change beyond it, it could not).
    const failKeptNeeded = (0,median_interval/* medianIntervalMinSamples */.bt)((0,gate_options/* ciLevel */.Xp)(options.alpha));
    const stallDepth = Math.max(0, ...[p.base, p.cur].flatMap((side) => side.outliers.map((run) => Math.abs(run.change))));
    const fewKeptToFail = canAddRuns && worse <= stallDepth && [p.base, p.cur].some((side) => side.stalled.length > 0 && side.kept.length < failKeptNeeded);
    const ranFaster = withinFloor && !decided && !fewKept ? baselineRanFaster(p) : undefined;
    // What the row's sentence reads (src/report/row-lines.ts writes it).
    const reading = {
        kind: 'metric',
        outcome: 'within-floor',
        level: (0,gate_options/* ciLevel */.Xp)(options.alpha),
        stalled: p.base.stalled.length + p.cur.stalled.length,
        warmup: p.base.dropped.length + p.cur.dropped.length,
        ...p.said,
    };
    // Undecided unless a branch below decides it.
    let status = 'insufficient-data';
    let insufficient;
    if (overlapping && worse > 0) {
        // Significant and past the floor, yet the sides overlap or the slower one is noisy: not decided.
        insufficient = insufficientOf(p, sidesOverlap ? 'sides-overlap' : 'noisy-side', worse, options);
        reading.outcome = sidesOverlap ? 'sides-overlap' : 'noisy-side';
    }
    else if (significantWorse && worse >= p.floor && pastFloorWorse && fewKeptToFail) {
        insufficient = insufficientOf(p, 'too-few-kept', worse, options, p.ci, failKeptNeeded);
        reading.outcome = 'too-few-kept';
        reading.keptNeeded = failKeptNeeded;
        reading.keptFor = 'fail';
    }
    else if (significantWorse && worse >= p.floor && pastFloorWorse) {
        status = 'fail';
        reading.outcome = 'regressed';
    }
    else if (significantWorse && worse >= p.floor) {
        // Significant and past the floor at its median, but the interval reaches inside the floor: a
        // regression at the floor is not shown (noise of a busy GPU makes such medians by chance).
        insufficient = insufficientOf(p, 'interval-reaches-inside-floor', worse, options);
        reading.outcome = 'interval-reaches-inside-floor';
    }
    else if (significantBetter && -worse >= p.floor && !overlapping) {
        status = 'improved';
        reading.outcome = 'improved';
    }
    else if (worse >= p.floor) {
        insufficient = insufficientOf(p, 'not-significant', worse, options);
        reading.outcome = 'not-significant';
    }
    else if (!withinFloor) {
        insufficient = insufficientOf(p, 'interval-reaches-floor', worse, options, p.passCi);
        reading.outcome = 'interval-reaches-floor';
    }
    else if (fewKept) {
        insufficient = insufficientOf(p, 'too-few-kept', worse, options, p.passCi, keptNeeded);
        reading.outcome = 'too-few-kept';
        reading.keptNeeded = keptNeeded;
        reading.keptFor = 'pass';
    }
    else if (ranFaster) {
        insufficient = insufficientOf(p, 'baseline-ran-faster', worse, options);
        reading.outcome = 'baseline-ran-faster';
    }
    else {
        status = 'pass';
        if (significantWorse || significantBetter)
            reading.smallChange = true;
    }
    if (worse < p.floor && status !== 'improved')
        reading.passInterval = { level: passLevel(options.alpha), ci: p.passCi };
    if (sidesOverlap)
        reading.overlap = sidesOverlap;
    if (noisy)
        reading.noisy = noisy;
    if (ranFaster)
        reading.baselineFaster = ranFaster;
    if (p.driftData.length) {
        reading.drift = p.driftData;
        if (status === 'pass' || status === 'improved') {
            status = 'warn';
            reading.outcome = 'drift';
        }
    }
    return {
        row: {
            metric: p.name,
            kind: 'metric',
            unit: p.unit,
            direction: p.direction,
            baseline: p.base.value,
            current: p.cur.value,
            delta: p.delta,
            ci: p.ci,
            threshold: p.floor,
            pValue,
            samples: [p.base.kept.length, p.cur.kept.length],
            leftOut: [p.base.total - p.base.kept.length, p.cur.total - p.cur.kept.length],
            status,
            ...(insufficient ? { insufficient } : {}),
            reading,
        },
        ...(insufficient ? { undecided: true } : {}),
    };
}

;// CONCATENATED MODULE: ./src/compare/shared-gpu.ts
/**
 * A GPU shared with another process during measured runs, as the GPU sampler saw it
 * (src/model/gpu-sharing.ts), set against the gated metrics' rows. A neighbour slows the runs it
 * touches by amounts no model of noise predicts, so a PASS on such runs is not shown:
 * - with `shared-gpu: refuse` (the default), a gated metric is decided again on the runs the
 *   sharing left alone, when each run's samples are known and enough clean runs remain on both
 *   sides (minSamples); the runs left out are named. Otherwise it is undecided (insufficient-data,
 *   why `shared-gpu`), except a failure seen under sharing alike on both sides (each side's share of
 *   shared runs within ALIKE_SHARE of the other's), which stands when it is shown more strictly than
 *   a pass (failCheckOf): a neighbour on both sides does not make one side slower, but it can slow
 *   every run of one side by chance; and a change found against the sharing (a failure with only
 *   the baseline shared, an improvement with only the current), which a neighbour can only have
 *   made smaller.
 * - with `shared-gpu: ignore`, every row stands as decided on all runs, and the sharing is named.
 * Rows of a metric no side saw sharing for are untouched. Pure; the rows come from compareMetrics.
 */





/** The largest gap between the sides' shares of shared runs at which the sharing counts as alike on both. */
const ALIKE_SHARE = 0.25;
/** Who shared the GPU, at most this many per side on a row (the busiest first). */
const WHO_SHOWN = 3;
function sharedRuns(sharing) {
    return sharing?.runs.filter((run) => run.shared) ?? [];
}
/** The neighbours that counted on a side, one per process (or per busy-before), with their highest readings, busiest first. */
function whoOf(runs) {
    const byKey = new Map();
    const higher = (a, b) => (a === null ? b : b === null ? a : Math.max(a, b));
    for (const neighbour of runs.flatMap((run) => run.neighbours.filter(gpu_sharing/* neighbourCounts */.WE))) {
        const key = `${neighbour.evidence}:${neighbour.pid}`;
        const was = byKey.get(key);
        const who = { pid: neighbour.pid, evidence: neighbour.evidence, maxSmPercent: neighbour.maxSmPercent, maxMemoryBytes: neighbour.maxMemoryBytes };
        byKey.set(key, was ? { ...was, maxSmPercent: higher(was.maxSmPercent, who.maxSmPercent), maxMemoryBytes: higher(was.maxMemoryBytes, who.maxMemoryBytes) } : who);
    }
    return [...byKey.values()].sort((a, b) => (b.maxSmPercent ?? -1) - (a.maxSmPercent ?? -1)).slice(0, WHO_SHOWN);
}
function sideOf(side, sharing) {
    const runs = sharedRuns(sharing);
    if (!sharing || runs.length === 0)
        return undefined;
    return { side, runs: runs.map((run) => run.run), of: sharing.runs.length, who: whoOf(runs) };
}
/**
 * The metric's samples of the runs the sharing left alone, and how many it left out; undefined when
 * the side's samples are not placed in runs (or do not add up to the metric's). A side without a
 * recording of its processes keeps every sample: nothing was seen there to leave out.
 */
function cleanSamples(metric, sharing) {
    if (!sharing || sharedRuns(sharing).length === 0)
        return { samples: [...metric.samples], leftOut: 0 };
    const counts = sharing.runs.map((run) => run.samples?.[metric.name]);
    if (counts.some((n) => n === undefined))
        return undefined;
    if (counts.reduce((sum, n) => sum + n, 0) !== metric.samples.length)
        return undefined;
    const samples = [];
    let at = 0;
    sharing.runs.forEach((run, i) => {
        const n = counts[i];
        if (!run.shared)
            samples.push(...metric.samples.slice(at, at + n));
        at += n;
    });
    return { samples, leftOut: metric.samples.length - samples.length };
}
/** Each side's share of shared runs within ALIKE_SHARE of the other's, both sides shared and both recorded. */
function alikeOnBothSides(current, baseline) {
    const share = (sharing) => (sharing && sharing.runs.length ? sharedRuns(sharing).length / sharing.runs.length : 0);
    const [c, b] = [share(current), share(baseline)];
    return c > 0 && b > 0 && Math.abs(c - b) <= ALIKE_SHARE;
}
/**
 * A change found against the sharing: a failure with only the baseline shared, or an improvement with
 * only the current shared. A neighbour only slows the runs it shares (it takes SMs, memory bandwidth
 * and power), so it made the side it shared slower, which works against the change found: the
 * change is at least what was measured.
 */
function againstSharing(status, sides, unshared) {
    const only = sides.length === 1 ? sides[0].side : undefined;
    // The other side must have been seen unshared: a side with no listing may have had a neighbour too.
    const seenClean = Boolean(unshared?.runs.length && unshared.runs.every((run) => run.listed));
    return seenClean && ((status === 'fail' && only === 'baseline') || (status === 'improved' && only === 'current'));
}
/**
 * The two-sided level at which a failure under a neighbour on both sides is judged again: 1 − alpha/2
 * (97.5% at the default alpha 0.05), its nearer end twice as sure as a pass's (95%). Each run sees
 * the neighbour's own load, and a side's runs can share its luck (all slowed): the runs' interval
 * does not hold that. At the pass level one simulated A/A job in about 28,000 still failed on a side
 * slowed throughout; at this level none of 48,000 (bench/README.md, "A failure under a neighbour on
 * both sides").
 */
function sharedFailLevel(alpha) {
    return 1 - alpha / 2;
}
/**
 * A failure under a neighbour on both sides, judged again: the comparison at sharedFailLevel
 * (`strict`, compareMetrics at the alpha whose interval has that level) must fail too, each side must
 * keep as many runs as a distribution-free 90% interval of a median needs (5), and an A/B decides it
 * at its last look, on every run it can take. A neighbour that slows about half the runs slows every
 * run of one side now and then: a few such runs look like a change of code, and each look of an A/B
 * is another chance of such luck.
 */
function failCheckOf(strictRow, options) {
    const kept = strictRow?.samples ? [strictRow.samples[0], strictRow.samples[1]] : [0, 0];
    const keptNeeded = (0,median_interval/* medianIntervalMinSamples */.bt)((0,gate_options/* ciLevel */.Xp)(options.alpha));
    const waitsForLastLook = canAddRuns(options);
    const shown = !waitsForLastLook && strictRow?.status === 'fail' && Math.min(...kept) >= keptNeeded;
    const outcome = strictRow?.reading?.kind === 'metric' ? strictRow.reading.outcome : null;
    return { shown, level: sharedFailLevel(options.alpha), ci: strictRow?.ci ?? null, status: strictRow?.status ?? 'insufficient-data', outcome, kept, keptNeeded, waitsForLastLook };
}
/** Worse-positive bound of the interval: the largest regression it allows (null without one). */
function couldHide(row) {
    if (!row.ci)
        return null;
    return row.direction === 'lower' ? row.ci[1] : -row.ci[0];
}
/** An A/B look that is not the last: it can still add runs. */
function canAddRuns(options) {
    return Boolean(options.look && options.look.of > 1 && !options.look.final);
}
/**
 * The row undecided for the sharing: its numbers kept, the sharing as the reason. `moreRunsHelp`:
 * more runs may decide it (clean runs, where runs are told apart; or a failure's last look).
 */
function refused(row, sharedGpu, base, cur, moreRunsHelp, options) {
    const addsRuns = moreRunsHelp && canAddRuns(options);
    const insufficient = row.insufficient
        ? { ...row.insufficient, why: 'shared-gpu', runsPerSide: null, addsRuns, quieterRunner: true }
        : { why: 'shared-gpu', noise: [(0,statistics/* relativeRobustSd */.dr)(base.samples), (0,statistics/* relativeRobustSd */.dr)(cur.samples)], couldHide: couldHide(row), runsPerSide: null, addsRuns, quieterRunner: true };
    const reading = row.reading?.kind === 'metric' ? row.reading : { kind: 'metric' };
    return {
        row: { ...row, status: 'insufficient-data', insufficient, reading: { ...reading, outcome: 'shared-gpu', sharedGpu } },
        ...(moreRunsHelp ? { undecided: true } : {}),
    };
}
/** A gated metric's row on both sides: the ones sharing can change. */
function isGated(row) {
    return row.kind === 'metric' && row.threshold !== null && row.baseline !== null && row.current !== null && row.status !== 'info';
}
/**
 * The metric rows with the GPU's sharing applied (see the module's comment). `metrics` is
 * compareMetrics of the same sides and options.
 */
function applySharedGpu(current, baseline, metrics, options) {
    const sides = [sideOf('baseline', baseline.gpuSharing), sideOf('current', current.gpuSharing)].filter((s) => s !== undefined);
    if (sides.length === 0)
        return metrics;
    const baseByName = new Map(baseline.metrics.map((m) => [m.name, m]));
    const curByName = new Map(current.metrics.map((m) => [m.name, m]));
    const placed = new Map();
    const clean = new Map();
    if (options.sharedGpu === 'refuse') {
        for (const { row } of metrics.rows) {
            const base = baseByName.get(row.metric);
            const cur = curByName.get(row.metric);
            if (!isGated(row) || !base || !cur)
                continue;
            const b = cleanSamples(base, baseline.gpuSharing);
            const c = cleanSamples(cur, current.gpuSharing);
            if (!b || !c)
                continue;
            placed.set(row.metric, { base: b, cur: c });
            if (b.samples.length >= options.minSamples && c.samples.length >= options.minSamples)
                clean.set(row.metric, { base: b, cur: c });
        }
    }
    const withClean = (list, side) => list.map((m) => {
        const kept = clean.get(m.name)?.[side];
        return kept ? { ...m, samples: kept.samples } : m;
    });
    const again = clean.size ? compareMetrics(withClean(current.metrics, 'cur'), withClean(baseline.metrics, 'base'), options) : undefined;
    const againByName = new Map((again?.rows ?? []).map((r) => [r.row.metric, r]));
    // The comparison at sharedFailLevel, made once when a failure under sharing on both sides needs it.
    let strict;
    const rows = metrics.rows.map((gated) => {
        const { row } = gated;
        const base = baseByName.get(row.metric);
        const cur = curByName.get(row.metric);
        if (!isGated(row) || !base || !cur || row.reading?.kind !== 'metric')
            return gated;
        const reading = row.reading;
        const sharedGpu = (action) => ({ action, allRuns: row.status, sides: sides.map((s) => ({ ...s, runs: [...s.runs], who: [...s.who] })) });
        if (options.sharedGpu === 'ignore') {
            return { ...gated, row: { ...row, reading: { ...reading, sharedGpu: sharedGpu('ignored') } } };
        }
        const kept = clean.get(row.metric);
        const decided = againByName.get(row.metric);
        if (kept && decided && decided.row.reading?.kind === 'metric') {
            const leftOut = decided.row.leftOut ?? [0, 0];
            return {
                ...decided,
                row: {
                    ...decided.row,
                    leftOut: [leftOut[0] + kept.base.leftOut, leftOut[1] + kept.cur.leftOut],
                    reading: { ...decided.row.reading, sharedGpu: sharedGpu('clean-runs') },
                },
            };
        }
        if (row.status === 'fail' && alikeOnBothSides(current.gpuSharing, baseline.gpuSharing)) {
            // ciLevel(a) = 1 − 2a: the alpha whose interval is at sharedFailLevel.
            strict ??= new Map(compareMetrics(current.metrics, baseline.metrics, { ...options, alpha: (1 - sharedFailLevel(options.alpha)) / 2 }).rows.map((r) => [r.row.metric, r.row]));
            const failCheck = failCheckOf(strict.get(row.metric), options);
            if (failCheck.shown)
                return { ...gated, row: { ...row, reading: { ...reading, sharedGpu: { ...sharedGpu('fail-both-sides'), failCheck } } } };
            return refused(row, { ...sharedGpu('refused'), refusedFor: 'fail-not-shown', failCheck }, base, cur, true, options);
        }
        if (againstSharing(row.status, sides, sides[0]?.side === 'baseline' ? current.gpuSharing : baseline.gpuSharing)) {
            return { ...gated, row: { ...row, reading: { ...reading, sharedGpu: sharedGpu('against-sharing') } } };
        }
        const told = placed.has(row.metric);
        return refused(row, { ...sharedGpu('refused'), refusedFor: told ? 'too-few-clean-runs' : 'runs-not-told-apart' }, base, cur, told, options);
    });
    const recomputed = new Set(clean.keys());
    return {
        ...metrics,
        rows,
        // A metric compared again on its clean runs names its own stalls in its row; the all-runs note would count runs it no longer has.
        outlierNotes: metrics.outlierNotes.map((note) => ({ ...note, metrics: note.metrics.filter((m) => !recomputed.has(m)) })).filter((note) => note.metrics.length > 0),
    };
}

// EXTERNAL MODULE: ./src/compare/between-jobs.ts
var between_jobs = __webpack_require__(468);
;// CONCATENATED MODULE: ./src/compare/shares.ts


/** Kernels merged by name (a per-device split is not a change in the mix). */
function kernelsByName(kernels) {
    const byName = new Map();
    for (const k of kernels) {
        const existing = byName.get(k.name);
        if (existing)
            byName.set(k.name, { ...existing, totalNs: existing.totalNs + k.totalNs, share: existing.share + k.share });
        else
            byName.set(k.name, { ...k });
    }
    return byName;
}
function topNames(byName, n) {
    return [...byName.values()]
        .sort((a, b) => b.totalNs - a.totalNs || (0,text_order/* compareText */.n)(a.name, b.name))
        .slice(0, n)
        .map((k) => k.name);
}
/**
 * The share change, in pp, the subject's own time alone would have made: its current time against
 * the rest of the GPU time as the baseline had it. A kernel removed elsewhere leaves it at 0 however
 * far the other shares grow; a kernel that itself got slower moves it as far as the share does.
 */
function ownShareDelta(own, baseShare) {
    const rest = own.baselineTotalNs - own.baselineNs;
    const whole = rest + own.currentNs;
    if (!(whole > 0))
        return 0;
    return (own.currentNs / whole - baseShare) * 100;
}
/** A side's total GPU kernel time, from any kernel's time and share (shares are of the whole). */
function totalKernelNs(kernels) {
    let best;
    for (const k of kernels)
        if (k.share > 0 && (!best || k.share > best.share))
            best = k;
    return best ? best.totalNs / best.share : 0;
}
function limitsFor(key, options, mode = { mode: 'fallback', throughputImproved: false }) {
    const set = (0,own_key/* ownValue */.e)(options.thresholds, key);
    const fail = set ?? options.shareThresholds.fail;
    const limits = { warn: Math.min(options.shareThresholds.warn, fail), fail };
    if (mode.mode === 'refused')
        return { ...limits, context: 'refused' };
    if (set !== undefined)
        return limits;
    if (mode.mode === 'time')
        return { ...limits, context: 'time' };
    if (mode.throughputImproved)
        return { ...limits, context: 'throughput-improved' };
    return { ...limits, ownTimeOnly: true };
}
function shareRow(metric, subject, baseShare, curShare, limits, change, of = 'GPU time', own) {
    const kind = subject.type === 'kernel' ? 'kernel-share' : 'family-share';
    const baseline = baseShare * 100;
    const current = curShare * 100;
    const delta = current - baseline;
    const ownDelta = limits.ownTimeOnly && own ? ownShareDelta(own, baseShare) : undefined;
    // Shares are compositional: as the fallback, a share gates only on the growth its own time made.
    const gating = ownDelta === undefined ? delta : Math.min(delta, ownDelta);
    let status = 'pass';
    // A share that moved as far as a warning where shares are context: said so as data (its reading).
    let context;
    if (limits.context) {
        if (Math.abs(delta) >= limits.warn) {
            status = 'info';
            context = limits.context;
        }
    }
    else if (gating >= limits.fail) {
        status = 'fail';
    }
    else if (gating >= limits.warn) {
        status = 'warn';
    }
    else if (delta >= limits.warn) {
        status = 'info';
        context = 'rest-shrank';
    }
    const row = {
        metric,
        kind,
        unit: `% of ${of}`,
        baseline,
        current,
        delta,
        ci: null,
        threshold: limits.warn,
        status,
        subject,
        reading: { kind: 'share', fail: limits.fail, ...(context ? { context } : {}), ...(ownDelta !== undefined ? { ownDelta } : {}), ...change },
    };
    return { row };
}
function compareFamilies(current, baseline, options, mode) {
    const base = new Map(baseline.families.map((f) => [f.family, f.share]));
    const cur = new Map(current.families.map((f) => [f.family, f.share]));
    const families = [...new Set([...base.keys(), ...cur.keys()])].sort();
    const baseTotal = totalKernelNs(baseline.kernels);
    const curTotal = totalKernelNs(current.kernels);
    return families.map((family) => {
        const change = !base.has(family) ? { change: 'new' } : !cur.has(family) ? { change: 'gone' } : {};
        const own = { baselineNs: (base.get(family) ?? 0) * baseTotal, currentNs: (cur.get(family) ?? 0) * curTotal, baselineTotalNs: baseTotal };
        return shareRow(`family:${family}`, { type: 'family', id: family }, base.get(family) ?? 0, cur.get(family) ?? 0, limitsFor(`family:${family}`, options, mode), change, undefined, own);
    });
}
/** Exposed collective time over the active span: of the worst rank when there are ranks with timelines. */
function exposedCommunicationShare(side) {
    const share = (t) => t?.communication && t.activeSpanNs > 0 ? t.communication.exposedNs / (t.activeSpanNs * Math.max(1, t.devices)) : undefined;
    const perRank = (side.ranks ?? []).map((r) => share(r.timeline)).filter((v) => v !== undefined);
    if (perRank.length > 0)
        return Math.max(...perRank);
    return share(side.timeline);
}
/**
 * The exposed communication share compared like a family share (growth in pp is flagged). Compared
 * when either side measured it; a side with a timeline but no collectives counts as 0.
 */
function compareCommunication(current, baseline, options) {
    const cur = exposedCommunicationShare(current);
    const base = exposedCommunicationShare(baseline);
    if (cur === undefined && base === undefined)
        return [];
    const hasTimeline = (side) => Boolean(side.timeline) || (side.ranks ?? []).some((r) => r.timeline);
    if (!hasTimeline(current) || !hasTimeline(baseline))
        return [];
    const metric = 'communication:exposed';
    return [shareRow(metric, { type: 'communication', id: 'exposed' }, base ?? 0, cur ?? 0, limitsFor(metric, options), {}, 'the active span (collectives no compute overlaps)')];
}
function compareKernels(current, baseline, options, mode) {
    const base = kernelsByName(baseline.kernels);
    const cur = kernelsByName(current.kernels);
    const baseTop = new Set(topNames(base, options.topN));
    const curTop = new Set(topNames(cur, options.topN));
    const names = [...new Set([...baseTop, ...curTop])];
    const baseTotal = totalKernelNs(baseline.kernels);
    const rows = [];
    const changes = [];
    for (const name of names) {
        const b = base.get(name);
        const c = cur.get(name);
        const change = !b
            ? { change: 'new' }
            : !c
                ? { change: 'gone' }
                : !baseTop.has(name)
                    ? { change: 'entered-top', top: options.topN }
                    : !curTop.has(name)
                        ? { change: 'left-top', top: options.topN }
                        : {};
        if (b && c && b.family !== c.family)
            change.family = { baseline: b.family, current: c.family };
        const own = { baselineNs: b?.totalNs ?? 0, currentNs: c?.totalNs ?? 0, baselineTotalNs: baseTotal };
        rows.push(shareRow(`kernel:${name}`, { type: 'kernel', id: name }, b?.share ?? 0, c?.share ?? 0, limitsFor(`kernel:${name}`, options, mode), change, undefined, own));
    }
    // The time changes of every kernel either side ran (the kernels table shows more than the top N).
    for (const name of new Set([...base.keys(), ...cur.keys()])) {
        const b = base.get(name);
        const c = cur.get(name);
        const baselineNs = b?.totalNs ?? 0;
        const currentNs = c?.totalNs ?? 0;
        const deltaNs = currentNs - baselineNs;
        if (b && c && deltaNs === 0)
            continue;
        changes.push({ name, family: (c ?? b).family, change: !b ? 'added' : !c ? 'removed' : deltaNs > 0 ? 'increased' : 'decreased', baselineNs, currentNs, deltaNs });
    }
    changes.sort((x, y) => Math.abs(y.deltaNs) - Math.abs(x.deltaNs) || (0,text_order/* compareText */.n)(x.name, y.name));
    return { rows, changes };
}

// EXTERNAL MODULE: ./src/model/report.ts + 1 modules
var model_report = __webpack_require__(20949);
// EXTERNAL MODULE: ./src/diagnose/step-count.ts
var step_count = __webpack_require__(71126);
;// CONCATENATED MODULE: ./src/compare/per-step.ts
/**
 * Where the time went, per decode step. Shares move when anything else moves and do not add up to a
 * slowdown; time per step does. Each side's GPU kernel time is divided by the decode steps its
 * capture covers (src/diagnose/step-count.ts counts them from evidence), by family and by kernel,
 * and the change is set against the measured change of step time from the workload's own numbers
 * (tok/s medians and the batch, or time per output token). What kernel time does not explain is
 * host or idle time. Before dividing, the two windows are checked for the same kind of step
 * (windowRefusal); refused, or without a step count on both sides, kernels are compared per launch,
 * or over the whole windows where the same work ran in far fewer steps (wholeWindowSound).
 * Every family and top kernel gets a `kernel-time` row that fails only when its time grew past its
 * threshold in a step that did not get faster (kernelTimeRows); `kernel-time:` thresholds set its
 * fail level (not compared, visibly, without steps).
 */






/** Kernels kept in the report, by size of change (the thresholds see every kernel). */
const PER_STEP_KERNELS = 25;
function metricValue(side, name) {
    const value = side.metrics.find((m) => m.name === name)?.value;
    return value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
}
/**
 * The measured step time of each side, from the workload's medians; per token when the batch is
 * unknown; where no workload metric gives one on both sides, the medians of the profiled steps.
 */
function measuredStepTime(current, baseline, cur, base) {
    const make = (basis, per, baselineNs, currentNs) => ({ basis, per, baselineNs, currentNs, deltaNs: currentNs - baselineNs });
    const baseTok = metricValue(baseline, 'decode_tok_s');
    const curTok = metricValue(current, 'decode_tok_s');
    if (baseTok !== undefined && curTok !== undefined && base.tokensPerStep !== undefined && cur.tokensPerStep !== undefined) {
        return make('decode_tok_s+batch', 'step', (base.tokensPerStep * 1e9) / baseTok, (cur.tokensPerStep * 1e9) / curTok);
    }
    for (const name of ['tpot_ms', 'itl_ms']) {
        const b = metricValue(baseline, name);
        const c = metricValue(current, name);
        if (b !== undefined && c !== undefined)
            return make(name, 'step', b * 1e6, c * 1e6);
    }
    if (baseTok !== undefined && curTok !== undefined)
        return make('decode_tok_s', 'token', 1e9 / baseTok, 1e9 / curTok);
    const profiled = (0,profiler_steps/* profilerStepMetrics */.v_)(current, baseline);
    if (profiled)
        return make(profiler_steps/* PROFILER_STEP_METRIC */.uU, 'step', profiled.baseline.value * 1e6, profiled.current.value * 1e6);
    return null;
}
function siteText(kernel) {
    const site = kernel.pythonSites?.[0];
    return site ? `${site.file}:${site.line} (${site.function})` : undefined;
}
/** Kernels merged by name over devices, with their launches and where the most time was launched from. */
function totalsByName(kernels) {
    const byName = new Map();
    for (const k of kernels) {
        const seen = byName.get(k.name);
        if (seen) {
            seen.totalNs += k.totalNs;
            seen.instances += k.instances ?? 0;
            seen.launchedBy ??= k.launchedBy;
            seen.site ??= siteText(k);
        }
        else {
            byName.set(k.name, { name: k.name, family: k.family, totalNs: k.totalNs, instances: k.instances ?? 0, launchedBy: k.launchedBy, site: siteText(k) });
        }
    }
    return byName;
}
/**
 * Kernel time per step per device may exceed the measured step time by this factor at most. A decode
 * step's kernels run mostly one after another on one stream (the demo pair's kernels are 94 % of the
 * measured step, 2.50 of 2.64 ms; the H200 pairs' 95-99 %); two streams overlapping completely (a
 * collective beside compute) would make 2. Beyond that, the window holds more work than its counted
 * steps.
 */
const MAX_KERNEL_TIME_OVER_STEP = 2;
/**
 * Counted from different evidence, the sides' kernel time per step may differ by this factor at most.
 * The largest change of one workload's code in the fixtures, FP8 weights expanded every step, moved
 * it 1.8× (2.70 → 4.94 ms); a count of other units (forward passes against decode steps, steps
 * against graph launches) moves it by the ratio of the units. Within one basis a larger change is
 * compared: a step that re-runs its prompt is a real regression of that size.
 */
const MAX_STEP_TIME_RATIO_ACROSS_BASES = 3;
/**
 * Without tokens per step on both sides, the two windows' step counts may differ by this factor at
 * most. Both sides of a pair run the same command under the same profiler, so the same work is the
 * same count of steps: every pair in the fixtures counts the same on both sides (8 and 8, 32 and
 * 32), and what moves a count without changing the step (a generation that ends at another
 * end-of-sequence token after a change of numerics, a window cut a little differently) moves it by
 * well under 2×. What changes the step itself divides the count by the tokens each step now carries:
 * n prompts packed into one forward by up to n (two prompts: 2×; four with their prefills packed:
 * 86 forwards → 10, 8.6×), speculative decoding by the tokens accepted per step. 1.5 refuses the
 * packing of two prompts and more: compared per step, each would read as a slower step although the
 * work got cheaper, and a faster change must not fail. The price is on the safe side: a window of
 * another length (over 1.5× the other's) without stated tokens per step is compared over the whole
 * windows, where nothing fails. A side that states its tokens per step (the batch) is compared on
 * those instead (a different length of window with the same tokens per step is sound per step).
 */
const MAX_STEP_COUNT_RATIO = 1.5;
/** Σ kernel time over the steps and devices of a side's window, in ns. */
function kernelTimePerStep(kernels, count) {
    let total = 0;
    for (const k of kernels.values())
        total += k.totalNs;
    return total / (count.steps * count.devices);
}
/** A capture written by Nsight Systems (its kernel summary or its SQLite export). */
function fromNsys(side) {
    return (side.sources ?? []).some((s) => s.format.startsWith('nsys'));
}
/**
 * Whether the two windows hold the same kind of step, checked before dividing: the tokens each step
 * carries, each side's kernel time per step against its measured step time, and the step bases.
 * The first disagreement, or undefined when they agree (or nothing can tell).
 */
function windowRefusal(sides, counts, kernelNs, measured) {
    const { baseline: base, current: cur } = counts;
    if (base.tokensPerStep !== undefined && cur.tokensPerStep !== undefined && base.tokensPerStep !== cur.tokensPerStep) {
        return { cause: 'tokens-per-step', baseline: base.tokensPerStep, current: cur.tokensPerStep };
    }
    if (measured?.per === 'step') {
        for (const side of ['current', 'baseline']) {
            const stepNs = side === 'current' ? measured.currentNs : measured.baselineNs;
            if (kernelNs[side] > MAX_KERNEL_TIME_OVER_STEP * stepNs) {
                return { cause: 'kernel-time-exceeds-step', side, baseline: kernelNs[side], current: stepNs, ...(fromNsys(sides[side]) ? { fix: 'cuda-graph-trace-node' } : {}) };
            }
        }
    }
    if (base.basis !== cur.basis && kernelNs.baseline > 0 && kernelNs.current > 0) {
        const ratio = kernelNs.current / kernelNs.baseline;
        if (ratio > MAX_STEP_TIME_RATIO_ACROSS_BASES || ratio < 1 / MAX_STEP_TIME_RATIO_ACROSS_BASES) {
            const nsys = fromNsys(ratio > 1 ? sides.current : sides.baseline);
            return { cause: 'step-bases-differ', baseline: kernelNs.baseline, current: kernelNs.current, ...(nsys ? { fix: 'cuda-graph-trace-node' } : {}) };
        }
    }
    if ((base.tokensPerStep === undefined || cur.tokensPerStep === undefined) && base.steps !== null && cur.steps !== null) {
        const ratio = cur.steps / base.steps;
        if (ratio > MAX_STEP_COUNT_RATIO || ratio < 1 / MAX_STEP_COUNT_RATIO)
            return { cause: 'step-counts-differ', baseline: base.steps, current: cur.steps };
    }
    return undefined;
}
/** The workload-stated amounts of work that must agree for two whole windows to hold the same work. */
const WORK_METRICS = ['output_tokens', 'prompt_tokens'];
/**
 * Whether the two whole windows may be compared after a refusal for step counts: the same work in
 * fewer, larger steps is the same total on both sides, so each side's kernel time per device over
 * its window compares what the work cost. Not where the sides state different work (output or
 * prompt tokens), nor after another cause, whose windows hold different kinds of work or time.
 */
function wholeWindowSound(refused, current, baseline) {
    if (refused?.cause !== 'step-counts-differ')
        return false;
    return WORK_METRICS.every((name) => {
        const b = metricValue(baseline, name);
        const c = metricValue(current, name);
        return b === undefined || c === undefined || b === c;
    });
}
/** The `kernel:<name>` keys of the union of each side's top N kernels by GPU time (the rows the gate gives by default). */
function topKernelKeys(base, cur, n) {
    const top = (kernels) => [...kernels.values()].sort((a, b) => b.totalNs - a.totalNs || (0,text_order/* compareText */.n)(a.name, b.name)).slice(0, n).map((k) => k.name);
    return [...new Set([...top(base), ...top(cur)])].map((name) => `kernel:${name}`);
}
function perStepAttribution(current, baseline, topN = 10) {
    const base = (0,step_count/* stepCountOf */.nS)(baseline);
    const cur = (0,step_count/* stepCountOf */.nS)(current);
    const baseKernels = totalsByName(baseline.kernels);
    const curKernels = totalsByName(current.kernels);
    const notes = [];
    const measured = measuredStepTime(current, baseline, cur, base);
    const counted = base.steps !== null && cur.steps !== null;
    const checked = counted
        ? windowRefusal({ current, baseline }, { current: cur, baseline: base }, { current: kernelTimePerStep(curKernels, cur), baseline: kernelTimePerStep(baseKernels, base) }, measured)
        : undefined;
    const whole = wholeWindowSound(checked, current, baseline);
    const windowNs = (kernels, count) => [...kernels.values()].reduce((sum, k) => sum + k.totalNs, 0) / count.devices;
    const refused = checked && whole ? { ...checked, window: { baselineNs: windowNs(baseKernels, base), currentNs: windowNs(curKernels, cur) } } : checked;
    const perStepKnown = counted && !refused;
    const byKey = new Map();
    const kernelFamilies = new Map();
    // Per step per device; per device over the whole window where that is compared; per launch when either side's steps are unknown.
    const baseDiv = perStepKnown ? base.steps * base.devices : whole ? base.devices : 0;
    const curDiv = perStepKnown ? cur.steps * cur.devices : whole ? cur.devices : 0;
    const divided = perStepKnown || whole;
    const kernels = [];
    for (const name of new Set([...baseKernels.keys(), ...curKernels.keys()])) {
        const b = baseKernels.get(name);
        const c = curKernels.get(name);
        const perLaunch = (t) => (t && t.instances > 0 ? t.totalNs / t.instances : 0);
        const baselineNs = divided ? (b?.totalNs ?? 0) / baseDiv : perLaunch(b);
        const currentNs = divided ? (c?.totalNs ?? 0) / curDiv : perLaunch(c);
        const launchedBy = c?.launchedBy ?? b?.launchedBy;
        const site = c?.site ?? b?.site;
        kernels.push({
            name,
            family: (c ?? b).family,
            baselineNs,
            currentNs,
            deltaNs: currentNs - baselineNs,
            baselineLaunches: divided ? (b?.instances ?? 0) / baseDiv : (b?.instances ?? 0),
            currentLaunches: divided ? (c?.instances ?? 0) / curDiv : (c?.instances ?? 0),
            ...(launchedBy ? { launchedBy } : {}),
            ...(site ? { site } : {}),
        });
        if (perStepKnown)
            byKey.set(`kernel:${name}`, { baselineNs, currentNs });
        kernelFamilies.set(`kernel:${name}`, (c ?? b).family);
    }
    kernels.sort((x, y) => Math.abs(y.deltaNs) - Math.abs(x.deltaNs) || (0,text_order/* compareText */.n)(x.name, y.name));
    const families = [];
    let kernelDeltaNs = null;
    if (perStepKnown) {
        const sums = new Map();
        for (const k of kernels) {
            const sum = sums.get(k.family) ?? { baselineNs: 0, currentNs: 0 };
            sum.baselineNs += k.baselineNs;
            sum.currentNs += k.currentNs;
            sums.set(k.family, sum);
        }
        for (const [family, sum] of sums) {
            families.push({ family, ...sum, deltaNs: sum.currentNs - sum.baselineNs });
            byKey.set(`family:${family}`, sum);
        }
        families.sort((x, y) => Math.abs(y.deltaNs) - Math.abs(x.deltaNs) || (0,text_order/* compareText */.n)(x.family, y.family));
        kernelDeltaNs = families.reduce((sum, f) => sum + f.deltaNs, 0);
        if (base.devices > 1 || cur.devices > 1)
            notes.push({ kind: 'per-device' });
    }
    else if (!refused) {
        notes.push({ kind: 'steps-unknown', sides: [...(base.steps === null ? ['baseline'] : []), ...(cur.steps === null ? ['current'] : [])] });
    }
    let explainedShare = null;
    if (measured?.per === 'step' && kernelDeltaNs !== null && measured.deltaNs !== 0)
        explainedShare = kernelDeltaNs / measured.deltaNs;
    if (measured?.per === 'token')
        notes.push({ kind: 'per-token' });
    if (!measured)
        notes.push({ kind: 'no-measured-step' });
    return {
        perStep: { unit: perStepKnown ? 'step' : whole ? 'window' : 'launch', baseline: base, current: cur, families, kernels: kernels.slice(0, PER_STEP_KERNELS), kernelDeltaNs, measured, explainedShare, notes, ...(refused ? { refused } : {}) },
        byKey,
        topKernels: perStepKnown ? topKernelKeys(baseKernels, curKernels, topN) : [],
        kernelFamilies,
    };
}
/** The metric whose medians give the measured step time. */
const BASIS_METRIC = { tpot_ms: 'tpot_ms', itl_ms: 'itl_ms', 'decode_tok_s+batch': 'decode_tok_s', 'decode_tok_s': 'decode_tok_s', profiler_step_ms: profiler_steps/* PROFILER_STEP_METRIC */.uU };
/**
 * No change in time per step, decided from the data: the measured step time's row is not
 * significant (neither fail nor improved, its interval holds 0), and kernel time per step moved by
 * no more than that interval allows (its widest end times the baseline's step time): kernels that
 * moved within the runs' own noise are no story to tell. False when either is unknown.
 */
function noStepTimeChange(perStep, rows) {
    const measured = perStep.measured;
    if (!measured || measured.per !== 'step' || perStep.kernelDeltaNs === null)
        return false;
    const row = rows.find((r) => r.kind === 'metric' && r.metric === BASIS_METRIC[measured.basis]);
    if (!row?.ci || row.status === 'fail' || row.status === 'improved')
        return false;
    const [low, high] = row.ci;
    if (!(low <= 0 && high >= 0))
        return false;
    // Relative bounds of the metric's change; for tok/s the step time moves by 1/(1 + change) − 1.
    const reach = measured.basis.startsWith('decode_tok_s') ? Math.max(Math.abs(1 / (1 + low) - 1), Math.abs(1 / (1 + high) - 1)) : Math.max(Math.abs(low), Math.abs(high));
    return Math.abs(perStep.kernelDeltaNs) <= reach * measured.baselineNs;
}
/** The thresholds on time per step set in the options: `kernel-time:family:copy`, `kernel-time:kernel:<name>`. */
function kernelTimeKeys(options) {
    return Object.keys(options.thresholds).filter((key) => key.startsWith(gate_options/* KERNEL_TIME_PREFIX */.TR));
}
function stepMove(perStep) {
    const kernelBaseNs = perStep.families.reduce((sum, f) => sum + f.baselineNs, 0);
    const measured = perStep.measured;
    const baseStepNs = measured?.per === 'step' ? measured.baselineNs : kernelBaseNs;
    return { faster: (measured ? measured.deltaNs : (perStep.kernelDeltaNs ?? 0)) < 0, baseStepNs };
}
function timeLimits(key, move, options, measuredStep) {
    const { warnPct, failPct, floorUs } = options.stepTimeThresholds;
    const relative = (pct) => Math.max((pct / 100) * move.baseStepNs, floorUs * 1e3);
    const set = (0,own_key/* ownValue */.e)(options.thresholds, key);
    if (set !== undefined) {
        const warnNs = Math.min(relative(warnPct), set * 1e6);
        return { failNs: set * 1e6, warnNs, reading: { kind: 'time', warn: warnNs / 1e6, basis: 'set' } };
    }
    const failNs = relative(failPct);
    const warnNs = relative(warnPct);
    const basis = failNs === floorUs * 1e3 ? { basis: 'floor', floorUs } : { basis: 'relative', pct: failPct, of: measuredStep ? 'step' : 'kernels', baseMs: move.baseStepNs / 1e6 };
    return { failNs, warnNs, reading: { kind: 'time', warn: warnNs / 1e6, ...basis } };
}
/** Each side's share of GPU time per step, in %. */
function sharesOf(times, perStep) {
    const totalBase = perStep.families.reduce((sum, f) => sum + f.baselineNs, 0);
    const totalCur = perStep.families.reduce((sum, f) => sum + f.currentNs, 0);
    const pct = (part, whole) => (whole > 0 ? (part / whole) * 100 : 0);
    return [pct(times.baselineNs, totalBase), pct(times.currentNs, totalCur)];
}
/**
 * GPU time per step of every family, each side's top N kernels and each `kernel-time:` threshold's
 * target, a row each (`kernel-time:family:<id>`, `kernel-time:kernel:<name>`). A row warns or fails
 * only when its time grew past its threshold and the step did not get faster; grown in a faster step
 * it took over work (a shift): context, status info. Shrunk past the warn level it is improved.
 * Without a comparison per step (steps unknown on a side, or refused) only the thresholds set get a
 * row, not compared and saying why (insufficient data, never a pass).
 */
function kernelTimeRows(analysis, options) {
    const { perStep } = analysis;
    const explicit = kernelTimeKeys(options).map((key) => key.slice(gate_options/* KERNEL_TIME_PREFIX */.TR.length));
    if (perStep.unit !== 'step')
        return explicit.map((target) => notComparedRow(target, perStep, options));
    const targets = [...new Set([...perStep.families.map((f) => `family:${f.family}`), ...analysis.topKernels, ...explicit])];
    const move = stepMove(perStep);
    const measuredStep = perStep.measured?.per === 'step';
    return targets.map((target) => {
        const key = `${gate_options/* KERNEL_TIME_PREFIX */.TR}${target}`;
        const times = analysis.byKey.get(target) ?? { baselineNs: 0, currentNs: 0 };
        const deltaNs = times.currentNs - times.baselineNs;
        const limits = timeLimits(key, move, options, measuredStep);
        let status = 'pass';
        let shift;
        const family = analysis.kernelFamilies.get(target);
        const familyTimes = family ? analysis.byKey.get(`family:${family}`) : undefined;
        // A kernel that grew while its family did not took work from its own family (another GEMM picked, a kernel renamed).
        const withinFamily = target.startsWith('kernel:') && (0,own_key/* ownValue */.e)(options.thresholds, key) === undefined && familyTimes !== undefined && familyTimes.currentNs - familyTimes.baselineNs < limits.warnNs;
        if (deltaNs >= limits.warnNs && move.faster) {
            status = 'info';
            shift = { within: 'step' };
        }
        else if (deltaNs >= limits.warnNs && withinFamily && family) {
            status = 'info';
            shift = { within: 'family', family, familyDeltaNs: familyTimes.currentNs - familyTimes.baselineNs };
        }
        else if (deltaNs >= limits.failNs) {
            status = 'fail';
        }
        else if (deltaNs >= limits.warnNs) {
            status = 'warn';
        }
        else if (-deltaNs >= limits.warnNs) {
            status = 'improved';
        }
        const subject = (0,model_report/* keySubject */.Y3)(target);
        const row = {
            metric: key,
            kind: 'kernel-time',
            unit: 'ms/step',
            baseline: times.baselineNs / 1e6,
            current: times.currentNs / 1e6,
            delta: deltaNs / 1e6,
            ci: null,
            threshold: limits.failNs / 1e6,
            status,
            ...(subject ? { subject } : {}),
            reading: { ...limits.reading, shares: sharesOf(times, perStep), ...(analysis.byKey.has(target) ? {} : { neitherRan: true }), ...(shift ? { shift } : {}) },
        };
        return { row };
    });
}
/** A `kernel-time:` threshold's row that was not compared, with why (its reading): undecided, never a pass. */
function notComparedTimeRow(key, threshold, reading) {
    const subject = (0,model_report/* keySubject */.Y3)(key.slice(gate_options/* KERNEL_TIME_PREFIX */.TR.length));
    return {
        metric: key,
        kind: 'kernel-time',
        unit: 'ms/step',
        baseline: null,
        current: null,
        delta: null,
        ci: null,
        threshold,
        status: 'insufficient-data',
        ...(subject ? { subject } : {}),
        reading,
    };
}
/** A `kernel-time:` threshold's row when there is no comparison per step: not compared, and why. */
function notComparedRow(target, perStep, options) {
    const key = `${gate_options/* KERNEL_TIME_PREFIX */.TR}${target}`;
    const reading = perStep.refused
        ? { kind: 'time', notCompared: 'refused' }
        : { kind: 'time', notCompared: 'steps-unknown', sides: [...(perStep.baseline.steps === null ? ['baseline'] : []), ...(perStep.current.steps === null ? ['current'] : [])] };
    return { row: notComparedTimeRow(key, (0,own_key/* ownValue */.e)(options.thresholds, key), reading) };
}

;// CONCATENATED MODULE: ./src/compare/throttle-check.ts
/**
 * Throttling against the baseline: which clock-event reasons make a comparison invalid. A thermal
 * reason, a hardware slowdown or a power brake on either side is a fault: its numbers describe the
 * board's condition. The power cap (and sync boost) is the regime a loaded GPU runs in: in an A/B
 * in one job both sides meet it alike (interleaved, one machine), so they are compared and the
 * clocks reported; against a baseline from another job the two sides' throttled shares and mean SM
 * clocks are compared, and only a material difference makes the comparison invalid. Pure.
 */

/**
 * Throttled shares further apart than this are different conditions: over about 100 samples per
 * side (0.5 s sampling, a minute of runs), a 30 % share has a binomial sd of 4.6 points, and the
 * difference of two such shares 6.5; 20 points is three of those.
 */
const MAX_THROTTLED_SHARE_GAP = 0.2;
/**
 * Mean SM clocks further apart than this are different conditions: a clock difference moves a
 * compute-bound workload's speed by at most as much, and half the 3 % default floor is the most
 * that must not be taken for (or hide) a regression.
 */
const MAX_CLOCK_GAP = 0.015;
function hardwareReasons(u) {
    return [...new Set(u?.throttleReasons ?? [])].filter((r) => throttle/* HARDWARE_THROTTLE_REASONS */.u0.has(r)).sort();
}
/** The share of samples with a hardware reason: as sampled, or 0 when no sample had one; unknown without sampling. */
function throttledShare(u) {
    if (!u)
        return undefined;
    return u.throttledFraction ?? (hardwareReasons(u).length ? undefined : 0);
}
function throttle_check_sideOf(u) {
    return { sampled: Boolean(u), share: throttledShare(u) ?? null, clockMhz: u?.meanSmClockMhz ?? null };
}
/**
 * What throttling says of a comparison, as data. `sameJob`: the baseline is the base build of an
 * A/B in this job. Whether allowThrottled turns the problems into notes is the caller's.
 */
function judgeThrottling(baseline, current, sameJob) {
    const problems = [];
    const notes = [];
    for (const [side, u] of [['baseline', baseline], ['current', current]]) {
        const faults = hardwareReasons(u).filter((r) => !throttle/* POWER_REGIME_REASONS */.E2.has(r));
        if (faults.length)
            problems.push({ type: 'fault', side, reasons: faults });
    }
    const regime = [...new Set([...hardwareReasons(baseline), ...hardwareReasons(current)])].filter((r) => throttle/* POWER_REGIME_REASONS */.E2.has(r));
    if (!regime.length)
        return { problems, notes };
    const power = { type: 'power', reasons: regime, baseline: throttle_check_sideOf(baseline), current: throttle_check_sideOf(current), sameJob };
    if (sameJob) {
        notes.push({ ...power, differs: [] });
        return { problems, notes };
    }
    const baseShare = throttledShare(baseline);
    const curShare = throttledShare(current);
    const differs = [];
    if (baseShare === undefined || curShare === undefined) {
        const [side, u] = baseShare === undefined ? ['baseline', baseline] : ['current', current];
        differs.push({ what: 'share-unknown', side, sampled: Boolean(u) });
    }
    else if (Math.abs(baseShare - curShare) > MAX_THROTTLED_SHARE_GAP)
        differs.push({ what: 'share-gap', points: Math.abs(baseShare - curShare) * 100, maxPoints: MAX_THROTTLED_SHARE_GAP * 100 });
    const baseClock = baseline?.meanSmClockMhz;
    const curClock = current?.meanSmClockMhz;
    const clockGap = baseClock !== undefined && curClock !== undefined && baseClock > 0 ? Math.abs(curClock / baseClock - 1) : undefined;
    if (clockGap !== undefined && clockGap > MAX_CLOCK_GAP)
        differs.push({ what: 'clock-gap', gap: clockGap, maxGap: MAX_CLOCK_GAP });
    if (differs.length)
        problems.push({ ...power, differs });
    else
        notes.push({ ...power, differs, alike: { maxPoints: MAX_THROTTLED_SHARE_GAP * 100, ...(clockGap !== undefined ? { maxGap: MAX_CLOCK_GAP } : {}) } });
    return { problems, notes };
}

// EXTERNAL MODULE: ./src/diagnose/rules/index.ts + 26 modules
var diagnose_rules = __webpack_require__(89809);
// EXTERNAL MODULE: ./src/compare/verdict.ts
var verdict = __webpack_require__(57682);
;// CONCATENATED MODULE: ./src/compare/gate.ts














/** Findings that count: primary, warning or error (info findings and explained secondaries do not). */
function countedIds(findings) {
    const ids = new Map();
    for (const f of findings)
        if (f.severity !== 'info' && (0,verdict/* isPrimary */.Dn)(f))
            ids.set(f.id, (ids.get(f.id) ?? 0) + 1);
    return ids;
}
function findingRows(current, baseline, options) {
    const cur = countedIds(current.findings);
    const base = countedIds(baseline.findings);
    // A warning another finding explained (secondary) is still there: not new when it leads, not resolved when it steps back.
    const seen = (side) => new Set(side.findings.filter((f) => f.severity !== 'info').map((f) => f.id));
    const baseSeen = seen(baseline);
    const curSeen = seen(current);
    const rows = [];
    const added = [];
    const resolved = [];
    for (const id of [...new Set([...base.keys(), ...cur.keys()])].sort()) {
        const b = base.get(id) ?? 0;
        const c = cur.get(id) ?? 0;
        let status = 'info';
        const inFailOn = options.failOn.includes(id);
        const plain = { kind: 'finding', inFailOn, fails: false, failOnSeverity: options.failOnSeverity };
        let reading = { ...plain, change: 'present' };
        if (b === 0 && unseenByBaseline(id, current, baseline)) {
            // The baseline had no kernel capture, so it could not have shown this finding: not "new". It is
            // judged as a finding alone (src/compare/verdict.ts), and its line says why it was not compared.
            const hit = (0,verdict/* strongest */.yX)(current.findings.filter((f) => f.id === id && f.severity !== 'info' && (0,verdict/* isPrimary */.Dn)(f)));
            const failing = hit ? (0,verdict/* failsOn */.Hu)(hit, failOnOf(options)) : false;
            if (hit)
                status = failing ? 'fail' : 'warn';
            reading = { ...plain, change: 'unseen', ...(hit ? { severity: hit.severity } : {}), fails: failing };
        }
        else if (b === 0 && baseSeen.has(id)) {
            reading = { ...plain, change: 'explained', explainedIn: 'baseline' };
        }
        else if (c === 0 && curSeen.has(id)) {
            reading = { ...plain, change: 'explained', explainedIn: 'current' };
        }
        else if (b === 0) {
            added.push(id);
            // The strongest new hit decides, and its evidence is the line's (src/report/row-lines.ts).
            const hit = (0,verdict/* strongest */.yX)(current.findings.filter((f) => f.id === id && f.severity !== 'info' && (0,verdict/* isPrimary */.Dn)(f)));
            const failing = (0,verdict/* failsOn */.Hu)(hit, failOnOf(options));
            status = failing ? 'fail' : 'warn';
            reading = { ...plain, change: 'new', severity: hit.severity, fails: failing };
        }
        else if (c === 0) {
            resolved.push(id);
            status = 'improved';
            reading = { ...plain, change: 'resolved' };
        }
        rows.push({
            row: { metric: `finding:${id}`, kind: 'finding', unit: 'hits', baseline: b, current: c, delta: c - b, ci: null, threshold: null, status, subject: { type: 'finding', id }, reading },
        });
    }
    return { rows, added, resolved };
}
/** A finding that rests on kernels, when the baseline captured none while this run did. */
function unseenByBaseline(id, current, baseline) {
    if (baseline.kernels.length > 0 || current.kernels.length === 0)
        return false;
    const needs = diagnose_rules/* RULES */.y.find((rule) => rule.meta.id === id)?.meta.needs.flat() ?? [];
    return needs.some((need) => need === 'kernel-breakdown' || need === 'kernel-metrics');
}
function failOnOf(options) {
    return { ids: options.failOn, severity: options.failOnSeverity };
}
/** The options that judged the verdict, as the report records them. */
function policyOf(options) {
    return {
        failOn: [...options.failOn],
        failOnSeverity: options.failOnSeverity,
        failVerdicts: [...options.failVerdicts],
        thresholds: Object.fromEntries(Object.entries(options.thresholds)),
        shareThresholds: { ...options.shareThresholds },
    };
}
/**
 * Each side's metrics, with the profiled step time added as a metric where it is the measured step
 * (profiler-steps.ts): both windows compared per step, neither refused as another kind of step.
 */
function withProfilerSteps(current, baseline, perStep, options) {
    const regime = perStep && !perStep.refused ? (0,profiler_steps/* profiledStepRegime */.pb)(perStep) : undefined;
    const profiled = regime ? (0,profiler_steps/* profilerStepMetrics */.v_)(current, baseline) : undefined;
    if (!regime || !profiled)
        return { current: current.metrics, baseline: baseline.metrics, options };
    // A host-bound baseline's step moves with the host between processes: its floor is wider, unless set.
    const floor = regime.hostBound && (0,own_key/* ownValue */.e)(options.thresholds, profiler_steps/* PROFILER_STEP_METRIC */.uU) === undefined ? gate_options/* HOST_BOUND_STEP_FLOOR_PCT */.gk : undefined;
    return {
        current: [...current.metrics, profiled.current],
        baseline: [...baseline.metrics, profiled.baseline],
        // fromEntries defines each key as its own, `__proto__` included.
        options: floor === undefined ? options : { ...options, thresholds: Object.fromEntries([...Object.entries(options.thresholds), [profiler_steps/* PROFILER_STEP_METRIC */.uU, floor]]) },
        regime,
    };
}
/** The profiled step's row says which regime set its floor (profiler-steps.ts). */
function withRegime(rows, regime) {
    if (!regime)
        return [...rows];
    return rows.map((r) => (r.row.metric === profiler_steps/* PROFILER_STEP_METRIC */.uU && r.row.reading?.kind === 'metric' ? { ...r, row: { ...r.row, reading: { ...r.row.reading, profiledStep: regime } } } : r));
}
function compare(current, baseline, optionsInput = {}, context = {}) {
    let options = (0,gate_options/* parseGateOptions */.dV)(optionsInput);
    if (!baseline)
        return { ...(0,verdict/* judge */.S4)(current.findings, failOnOf(options)), policy: policyOf(options), comparison: null };
    // Kernel thresholds by the name the report shows become the full names the rows are keyed by.
    options = (0,gate_options/* resolveKernelThresholds */.QY)(options, baseline.kernels.map((k) => k.name), current.kernels.map((k) => k.name));
    const invalid = [];
    const notes = [];
    const mismatches = (0,fingerprint/* environmentMismatches */.EA)(baseline.environment, current.environment);
    const blocking = (0,fingerprint/* blockingMismatches */.sU)(mismatches, options.allowEnvironmentMismatch);
    if (blocking.length)
        invalid.push({ kind: 'invalid', check: 'environment', mismatches: blocking.map((m) => ({ ...m })) });
    const allowed = mismatches.filter((m) => !blocking.includes(m));
    if (allowed.length)
        notes.push({ kind: 'environment-allowed', mismatches: allowed.map((m) => ({ ...m })) });
    const sameJob = baseline.origin?.origin === 'a/b';
    const throttling = judgeThrottling(baseline.utilization, current.utilization, sameJob);
    notes.push(...throttling.notes.map((reading) => ({ kind: 'throttling', reading, allowed: false })));
    for (const problem of throttling.problems) {
        if (options.allowThrottled)
            notes.push({ kind: 'throttling', reading: problem, allowed: true });
        else
            invalid.push({ kind: 'invalid', check: 'throttling', throttle: problem });
    }
    let betweenJobs;
    if (context.history?.length && !sameJob) {
        const gated = [...new Set(baseline.metrics.map((m) => m.name))].filter((name) => (0,gate_options/* metricFloor */.tq)(options, name) !== undefined);
        const spreads = (0,between_jobs/* estimateBetweenJobNoise */.QA)(context.history, gated);
        const rows = [];
        for (const { metric, spread } of spreads) {
            const floor = (0,between_jobs/* widenedFloor */.vF)((0,gate_options/* metricFloor */.tq)(options, metric), spread);
            rows.push({ metric, spread, floor });
        }
        // fromEntries defines each key as its own, `__proto__` included.
        options = { ...options, thresholds: Object.fromEntries([...Object.entries(options.thresholds), ...rows.map((r) => [r.metric, r.floor * 100])]) };
        betweenJobs = { reports: context.history.length, metrics: rows };
    }
    const hasKernels = current.kernels.length > 0 && baseline.kernels.length > 0;
    const attribution = hasKernels ? perStepAttribution(current, baseline, options.topN) : undefined;
    const profiled = withProfilerSteps(current, baseline, attribution?.perStep, options);
    const metrics = applySharedGpu(current, baseline, compareMetrics(profiled.current, profiled.baseline, profiled.options), profiled.options);
    const rows = withRegime(metrics.rows, profiled.regime);
    let kernelChanges = [];
    let perStep;
    let shareMode;
    if (attribution) {
        perStep = attribution.perStep;
        // Time per step judges kernels where both sides have steps; shares are context then (shares.ts).
        const throughputImproved = metrics.rows.some((r) => r.row.status === 'improved') && !metrics.rows.some((r) => r.row.status === 'fail' || r.row.status === 'warn');
        shareMode = { mode: perStep.refused ? 'refused' : perStep.unit === 'step' ? 'time' : 'fallback', throughputImproved };
        rows.push(...kernelTimeRows(attribution, options));
        rows.push(...compareFamilies(current, baseline, options, shareMode));
        rows.push(...compareCommunication(current, baseline, options));
        const kernels = compareKernels(current, baseline, options, shareMode);
        rows.push(...kernels.rows);
        kernelChanges = kernels.changes;
        if (noStepTimeChange(perStep, metrics.rows.map((r) => r.row)))
            perStep = { ...perStep, noChange: true };
    }
    else if (current.kernels.length || baseline.kernels.length) {
        notes.push({ kind: 'no-kernel-capture', side: current.kernels.length ? 'baseline' : 'current' });
    }
    if (!hasKernels && kernelTimeKeys(options).length) {
        // A time threshold with no kernels on a side is not a pass: each says it was not compared.
        const sides = [...(baseline.kernels.length ? [] : ['baseline']), ...(current.kernels.length ? [] : ['current'])];
        for (const key of kernelTimeKeys(options)) {
            rows.push({ row: notComparedTimeRow(key, options.thresholds[key], { kind: 'time', notCompared: 'no-kernels', sides }) });
        }
    }
    const findings = findingRows(current, baseline, options);
    rows.push(...findings.rows);
    const noThroughput = metrics.gatedInBaseline > 0 && metrics.compared === 0;
    if (noThroughput)
        notes.push({ kind: 'no-throughput' });
    const cause = (row) => (0,decision/* rowCause */.WD)(row, row.kind === 'finding' && row.subject ? (0,decision/* strongestSeverity */.v$)(current.findings, row.subject.id) : undefined);
    const unGated = nothingGated(rows, metrics.compared, options, hasKernels);
    const judgement = (0,verdict/* judge */.S4)(current.findings, failOnOf(options), {
        invalid,
        rows: rows.map((r) => ({ status: r.row.status, cause: cause(r.row) })),
        noThroughput,
        ...(unGated ? { nothingGated: unGated } : {}),
    });
    const comparison = {
        baseline: {
            origin: baseline.origin?.origin ?? 'file',
            ...(baseline.origin?.path ? { path: baseline.origin.path } : {}),
            ...(baseline.generatedAt ? { generatedAt: baseline.generatedAt } : {}),
            reason: baseline.origin?.reason ?? 'baseline given',
        },
        environmentMismatch: mismatches,
        rows: rows.map((r) => r.row),
        kernelChanges,
        newFindings: findings.added,
        resolvedFindings: findings.resolved,
        notes: [...notes, ...metrics.outlierNotes],
        ...(shareMode ? { kernelGate: shareMode } : {}),
        undecided: rows.filter((r) => r.undecided).map((r) => r.row.metric),
        ...(betweenJobs ? { betweenJobs } : {}),
        ...(perStep ? { perStep } : {}),
        ...(options.look ? { look: { ...options.look, alpha: lookAlpha(options.alpha, options.look) } } : {}),
    };
    return { ...judgement, policy: policyOf(options), comparison };
}
/**
 * Why nothing was gated, or undefined when something was: no metric compared on both sides, no
 * time per step compared against a threshold, and no kernel share against one the user set. Shares
 * under the default thresholds alone are context, not a gate: a kernel 30 % slower moves its share
 * by less than they catch. A pass then would say nothing, so the verdict is insufficient-data with
 * this cause first, which fail-verdicts can make fail the job.
 */
function nothingGated(rows, metricsCompared, options, hasKernels) {
    if (metricsCompared > 0)
        return undefined;
    const compared = (r) => r.row.status !== 'insufficient-data';
    if (rows.some((r) => r.row.kind === 'kernel-time' && compared(r)))
        return undefined;
    if (rows.some((r) => (r.row.kind === 'family-share' || r.row.kind === 'kernel-share') && Object.hasOwn(options.thresholds, r.row.metric)))
        return undefined;
    const oneSided = rows.filter((r) => r.row.reading?.kind === 'metric' && r.row.reading.outcome === 'only-in').map((r) => r.row.metric);
    const time = kernelTimeKeys(options).length ? 'thresholds-not-compared' : hasKernels ? 'no-threshold' : 'no-kernels';
    return { kind: 'nothing-gated', oneSided, time };
}

// EXTERNAL MODULE: ./src/diagnose/evidence.ts
var diagnose_evidence = __webpack_require__(68179);
// EXTERNAL MODULE: ./src/diagnose/rule.ts
var diagnose_rule = __webpack_require__(82248);
// EXTERNAL MODULE: ./src/diagnose/decode-steps.ts
var decode_steps = __webpack_require__(11182);
// EXTERNAL MODULE: ./src/diagnose/profile-measures.ts
var profile_measures = __webpack_require__(57307);
;// CONCATENATED MODULE: ./src/diagnose/health-claim.ts



/**
 * Findings that do not compete with a healthy reading: unfused norms and RoPE are small elementwise
 * kernels below the linear layers and attention that the reading is about (it says the norms sit
 * below), so both can be true of one run.
 */
const COMPATIBLE_WITH_HEALTHY = new Set(['unfused-norm-rope']);
/** Steps, sampling launches or decode ranges that make a decode window. */
const HEALTH_MIN_DECODE_STEPS = 3;
/** A steady reading below this says the GPU waited, so the kernel mix is not what the run is. */
const HEALTH_MIN_BUSY_PERCENT = 50;
/**
 * The matmuls of the window take decode-sized inputs: the recorded input shapes (tokens per op at
 * most DECODE_TOKENS_MAX, for the most-used shape), and no GEMM is prefill-shaped. One decode step
 * captured alone (a serving engine's graph replay) shows itself this way.
 */
function decodeSizedInputs(profile) {
    if ((0,profile_measures/* familyTotals */.sS)(profile, ['gemm-prefill']).ns > 0)
        return undefined;
    const shapes = profile.timeline?.matmulInputs?.shapes ?? [];
    const top = shapes.reduce((best, shape) => (!best || shape.ops > best.ops ? shape : best), undefined);
    if (!top || top.rows.length === 0)
        return undefined;
    const tokens = top.rows.reduce((product, n) => product * n, 1);
    return tokens > 0 && tokens <= classify_classify/* DECODE_TOKENS_MAX */.jw ? `${top.op} takes ${top.rows.join('×')} tokens` : undefined;
}
/** Why the window is not a decode loop, or undefined when it is. */
function noDecodeWindow(profile) {
    const decode = (0,decode_steps/* decodeSteps */.yH)(profile, { minDecodeSteps: HEALTH_MIN_DECODE_STEPS, minStepGrowth: Number.POSITIVE_INFINITY });
    if (decode.prefillOnly)
        return `the window holds no decode step (${decode.prefillOnly})`;
    if (decode.signals.length > 0)
        return undefined;
    const steps = profile.timeline?.steps.length ?? 0;
    if (steps >= HEALTH_MIN_DECODE_STEPS)
        return undefined;
    if (decodeSizedInputs(profile))
        return undefined;
    return 'nothing in the window shows decode steps (no profiler steps, sampling launches, decode ranges, decode metrics or decode-sized matmul inputs)';
}
/** Why the GPU is not shown busy, or undefined when a steady reading says it is (or none says otherwise). */
function notBusy(profile) {
    const low = (0,profile_measures/* busyReadings */.NK)(profile).filter((r) => r.steady && r.percent < HEALTH_MIN_BUSY_PERCENT);
    if (!low.length)
        return undefined;
    const reading = low[0];
    return `the GPU is busy ${Math.round(reading.percent * 10) / 10} % of the steady window (${reading.signal})`;
}
/**
 * Why a health claim is withheld, one clause per missing piece of evidence; empty when it stands.
 * `others` are the run's other findings (id and severity).
 */
function healthClaimWithheld(profile, others) {
    const why = [];
    const window = noDecodeWindow(profile);
    if (window)
        why.push(window);
    const busy = notBusy(profile);
    if (busy)
        why.push(busy);
    const competing = [...new Set(others.filter((f) => f.severity !== 'info' && !COMPATIBLE_WITH_HEALTHY.has(f.id)).map((f) => `${f.id} (${f.severity})`))];
    if (competing.length)
        why.push(`competing finding${competing.length === 1 ? '' : 's'} ${competing.join(', ')}`);
    return why;
}

// EXTERNAL MODULE: ./src/diagnose/ncu-metrics.ts
var ncu_metrics = __webpack_require__(52138);
;// CONCATENATED MODULE: ./src/diagnose/deep-dive-rank.ts

/** A kernel under this share of the time its deep dive covers is negligible. */
const NEGLIGIBLE_SHARE = 0.02;
/** Each deep-dive kernel's share of time, keyed by the name its findings carry. */
function deepDiveShares(profile) {
    const dives = (0,ncu_metrics/* deepDiveKernels */.X3)(profile.ncu, profile.kernels);
    const shares = new Map();
    const durationOf = (ncuKernel) => profile.ncu.filter((r) => r.kernel === ncuKernel).reduce((sum, r) => sum + ((0,ncu_metrics/* ncuValue */.AC)(r, ncu_metrics/* NCU */.$H.duration) ?? 0), 0);
    const total = dives.reduce((sum, dive) => sum + durationOf(dive.ncuKernel), 0);
    for (const dive of dives) {
        const share = dive.breakdown ? dive.breakdown.share : total > 0 ? durationOf(dive.ncuKernel) / total : undefined;
        if (share !== undefined)
            shares.set(dive.kernel, share);
    }
    return shares;
}
function percentText(share) {
    return `${(share * 100).toFixed(share < 0.01 ? 2 : 1)} %`;
}
/**
 * Deep-dive findings ranked by their kernel's share (largest first), the same finding on two or more
 * negligible kernels folded into one info line that names them. Other findings pass through as they are.
 */
function rankDeepDiveFindings(profile, findings) {
    const shares = deepDiveShares(profile);
    const shareOf = (f) => (f.kernel !== undefined ? shares.get(f.kernel) : undefined);
    const dive = findings.filter((f) => f.stage === 'deep-dive' && shareOf(f) !== undefined);
    if (!dive.length)
        return [...findings];
    const negligible = new Map();
    for (const f of dive)
        if (shareOf(f) < NEGLIGIBLE_SHARE)
            negligible.set(f.id, [...(negligible.get(f.id) ?? []), f]);
    const folded = new Set();
    const lines = [];
    for (const [id, group] of negligible) {
        if (group.length < 2)
            continue;
        group.forEach((f) => folded.add(f));
        const combined = group.reduce((sum, f) => sum + shareOf(f), 0);
        const names = group.map((f) => `\`${f.kernel}\` (${percentText(shareOf(f))})`);
        const { kernel: _kernel, command: _command, deepDive: _deepDive, ...first } = group[0];
        lines.push({
            ...first,
            severity: 'info',
            message: `${id} on ${group.length} small kernels, each under ${percentText(NEGLIGIBLE_SHARE)} of the time and ${percentText(combined)} together: ${names.join(', ')}. Worth little before the larger kernels.`,
            evidence: { kernels: group.length, combinedShare: Math.round(combined * 1e4) / 1e4, largestShare: Math.round(Math.max(...group.map((f) => shareOf(f))) * 1e4) / 1e4 },
        });
    }
    const kept = findings.filter((f) => !folded.has(f)).map((f) => (f.stage === 'deep-dive' && (shareOf(f) ?? 1) < NEGLIGIBLE_SHARE && f.severity !== 'info' ? { ...f, severity: 'info' } : f));
    const all = [...kept, ...lines];
    const rank = (f) => (f.stage === 'deep-dive' ? (f.kernel !== undefined ? (shares.get(f.kernel) ?? 0) : -1) : 0);
    // Stable: only deep-dive findings move, among themselves, by share.
    const diveSlots = all.map((f, i) => (f.stage === 'deep-dive' ? i : -1)).filter((i) => i >= 0);
    const ordered = diveSlots.map((i) => all[i]).sort((a, b) => rank(b) - rank(a));
    diveSlots.forEach((slot, k) => (all[slot] = ordered[k]));
    return all;
}

;// CONCATENATED MODULE: ./src/diagnose/run-rules.ts





const STAGE_ORDER = { capture: 0, utilization: 1, kernels: 2, 'deep-dive': 3 };
const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 };
const LOWER = { error: 'warning', warning: 'info', info: 'info' };
/**
 * One rule over one profile, evidence gate and severity cap included (what the rule tester runs too).
 * The rule's notes about the evidence go into `notes`, when given.
 */
function checkRule(rule, profile, options, evidence = (0,diagnose_evidence/* gatherEvidence */.hx)(profile), notes) {
    const used = (0,diagnose_evidence/* evidenceFor */.hF)(rule.meta.needs, evidence);
    if (used === null)
        return [];
    const thin = used.some((e) => e.strength === 'thin');
    const basis = used.map(diagnose_evidence/* describeEvidence */.RQ);
    const note = (message) => notes?.push({ code: diagnose_rule/* DIAGNOSIS_NOTE */.f_, severity: 'info', message: `${rule.meta.id}: ${message}` });
    return rule.check({ profile, options, evidence, note }).map(({ headline, ...hit }) => {
        const declared = hit.severity ?? rule.meta.severity;
        const severity = thin ? LOWER[declared] : declared;
        return { ...hit, severity, basis, ...(headline && severity === 'error' ? { headline: true } : {}) };
    });
}
function runRules(profile, config = {}, rules = RULES) {
    return diagnose(profile, config, rules).findings;
}
/** The findings of every rule, and the rules' notes about the evidence (notices, never findings). */
function diagnose(profile, config = {}, rules = diagnose_rules/* RULES */.y) {
    const disabled = new Set(config.disabled ?? []);
    const evidence = (0,diagnose_evidence/* gatherEvidence */.hx)(profile);
    let findings = [];
    const claims = new Set(rules.filter((rule) => rule.meta.claim === 'healthy').map((rule) => rule.meta.id));
    const notes = [];
    for (const rule of rules) {
        if (disabled.has(rule.meta.id))
            continue;
        const options = { ...rule.meta.defaults, ...(config.options?.[rule.meta.id] ?? {}) };
        for (const hit of checkRule(rule, profile, options, evidence, notes)) {
            findings.push({
                id: rule.meta.id,
                severity: hit.severity,
                title: rule.meta.title,
                message: hit.message,
                evidence: hit.evidence,
                advice: hit.advice,
                ...(hit.command ? { command: hit.command } : {}),
                ...(hit.kernel ? { kernel: hit.kernel } : {}),
                ...(hit.deepDive ? { deepDive: hit.deepDive } : {}),
                ...(hit.lockstepKernels?.length ? { lockstepKernels: hit.lockstepKernels } : {}),
                docs: (0,diagnose_rule/* docsUrl */.fs)(rule.meta.id),
                secondary: false,
                basis: hit.basis,
                stage: rule.meta.stage,
                headline: hit.headline === true,
            });
        }
    }
    if (claims.size) {
        const others = findings.filter((f) => !claims.has(f.id));
        findings = findings.filter((finding) => {
            if (!claims.has(finding.id))
                return true;
            const why = healthClaimWithheld(profile, others);
            if (why.length)
                notes.push({ code: diagnose_rule/* DIAGNOSIS_NOTE */.f_, severity: 'info', message: `${finding.id}: not claimed, its kernel mix alone does not make a healthy run: ${why.join('; ')}` });
            return why.length === 0;
        });
    }
    findings = rankDeepDiveFindings(profile, findings);
    // Findings of rules that explain the whole run make the kernel findings below them secondary.
    const explainsRun = new Set(rules.filter((rule) => rule.meta.explainsRun).map((rule) => rule.meta.id));
    const runLevel = findings.some((f) => explainsRun.has(f.id) && f.severity !== 'info');
    for (const finding of findings) {
        if (runLevel && !finding.headline && (finding.stage === 'kernels' || finding.stage === 'deep-dive'))
            finding.secondary = true;
    }
    findings.sort((a, b) => Number(b.headline) - Number(a.headline) ||
        Number(a.secondary) - Number(b.secondary) ||
        STAGE_ORDER[a.stage] - STAGE_ORDER[b.stage] ||
        // Deep-dive findings keep the order of their kernels' shares (deep-dive-rank.ts).
        (a.stage === 'deep-dive' ? 0 : SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]));
    return { findings: findings.map(({ stage: _stage, headline: _headline, ...finding }) => finding), notes };
}

// EXTERNAL MODULE: ./src/errors.ts
var errors = __webpack_require__(83916);
;// CONCATENATED MODULE: ./src/pipeline/input-groups.ts
/**
 * Which captures may be merged into one profile. Two mistakes are caught before merging:
 * - one run given twice (rocprof writes results.csv, results.stats.csv and results.json for one
 *   run; nsys summary and trace tables of one capture): counted once, the trace kept;
 * - captures of different GPUs, vendors, engines or models: refused, since summing them describes
 *   no real run. Identity comes only from what each capture records; a capture that records none is
 *   never the reason for a refusal.
 */


// ---------------------------------------------------------------------------------------------
// One run counted once
/** Kernel instances by name, summed over devices. */
function callsByName(capture) {
    const byName = new Map();
    for (const kernel of capture.kernels) {
        const entry = byName.get(kernel.name) ?? { instances: 0, totalNs: 0 };
        entry.instances += kernel.instances;
        entry.totalNs += kernel.totalNs;
        byName.set(kernel.name, entry);
    }
    return byName;
}
/** Fewer launches than this can match by chance; such captures are never taken for one another. */
const MIN_LAUNCHES_TO_MATCH = 20;
/**
 * True when two captures hold the same launches of the same kernels, to the nanosecond per launch:
 * one run written twice (rocprof's results.csv, results.stats.csv and results.json; an nsys summary
 * and its trace). Ranks of one job run the same kernels the same number of times, but their times
 * differ by far more than that, and their timelines differ: they are never taken for one another.
 */
function sameRun(a, b) {
    if (a.kernels.length === 0 || b.kernels.length === 0)
        return false;
    // Two ranks of one job are two runs, however alike their kernels are.
    if (a.distributed?.rank !== undefined && b.distributed?.rank !== undefined && a.distributed.rank !== b.distributed.rank)
        return false;
    if (a.timeline && b.timeline && (a.timeline.spanNs !== b.timeline.spanNs || a.timeline.busyNs !== b.timeline.busyNs))
        return false;
    const left = callsByName(a);
    const right = callsByName(b);
    if (left.size !== right.size)
        return false;
    let launches = 0;
    for (const [name, entry] of left) {
        const other = right.get(name);
        if (!other || other.instances !== entry.instances)
            return false;
        // Rounding allows 1 ns per launch (a µs-rounded average times the calls is not used here).
        if (Math.abs(other.totalNs - entry.totalNs) > entry.instances)
            return false;
        launches += entry.instances;
    }
    return launches >= MIN_LAUNCHES_TO_MATCH;
}
/** Which copy of one run to keep: a per-launch trace (it has a timeline), then one with min/max, then the first given. */
function keepRank(capture) {
    if (capture.timeline)
        return 0;
    if (capture.kernels.some((k) => k.minNs !== undefined))
        return 1;
    return 2;
}
/**
 * Captures that repeat another capture's run are set aside (Nsight Compute replays are not kernel
 * timings of a run and are left to the profile builder). A notice names what was set aside.
 */
function countEachRunOnce(captures) {
    const timed = captures.filter((c) => c.kernels.length > 0 && !(0,registry/* replaysKernels */.Lk)(c));
    const setAside = new Set();
    /** A copy set aside keeps its event record only when the copy kept has none (one clean trace per run). */
    const traceKept = new Set();
    const notices = [];
    for (let i = 0; i < timed.length; i++) {
        const first = timed[i];
        if (setAside.has(first))
            continue;
        const copies = [first, ...timed.slice(i + 1).filter((other) => !setAside.has(other) && sameRun(first, other))];
        if (copies.length === 1)
            continue;
        const kept = [...copies].sort((a, b) => keepRank(a) - keepRank(b))[0];
        const dropped = copies.filter((c) => c !== kept);
        dropped.forEach((c) => setAside.add(c));
        if (!kept.trace) {
            const withTrace = dropped.find((c) => c.trace);
            if (withTrace)
                traceKept.add(withTrace);
        }
        notices.push({
            code: 'same-run-counted-once',
            severity: 'info',
            message: `${dropped.map((c) => c.source.path).join(', ')} ${dropped.length === 1 ? 'records' : 'record'} the same kernel launches as ${kept.source.path} (one run written twice); ${dropped.length === 1 ? 'it was' : 'they were'} set aside so the run counts once`,
        });
    }
    // Keep what was set aside out of the kernels only: its other contents (API calls, notices) are the run's too.
    return { captures: captures.map((c) => (setAside.has(c) ? { ...c, kernels: [], timeline: undefined, trace: traceKept.has(c) ? c.trace : undefined } : c)), notices };
}
// ---------------------------------------------------------------------------------------------
// Inputs that must not be merged
/** Kernel names only one vendor's toolchain emits. */
const AMD_KERNELS = /^Cijk_|^__amd_rocclr_|^wvSplitK|\bck(_tile)?::|\bHIP_vector_type\b|^rccl|\brccl[A-Z]/;
const NVIDIA_KERNELS = /^nvjet_|^sm\d{2,3}_xmma|^(ampere|volta|turing|hopper)_|\bcublasLt::|^cutlass_\d|\bcutlass::arch::Sm\d|^nccl|\bnccl(Dev)?Kernel/;
/** Engines whose kernels carry their own namespace: present in every forward pass of that engine. */
const ENGINE_KERNELS = [
    ['vLLM', /\bvllm::/],
    ['SGLang', /\bsgl_kernel\b|\bsglang\b/i],
    ['TensorRT-LLM', /\btensorrt_llm\b|\btrtllm/i],
    ['llama.cpp', /\bmul_mat_(vec_)?q\b|\bggml_/],
];
/** A kernel capture says "no engine kernels" only when it has at least this many distinct kernels. */
const MIN_KERNELS_FOR_ABSENCE = 20;
/** An engine counts as present from this share of kernel time (one stray kernel is not an engine). */
const ENGINE_MIN_SHARE = 0.005;
function canonicalGpu(name) {
    return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}
/** Words with a digit that name memory or a form factor, not the chip (80gb, hbm3, sxm4, pcie4). */
const NOT_A_MODEL = /^(\d+(gb|g|mb)|hbm\d+e?|gddr\d+x?|sxm\d*|pcie\d*)$/;
/** The words of a GPU name that hold a digit and name the chip: h100, 4090, mi300x, v100. */
function modelWords(name) {
    return name
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter((word) => /\d/.test(word) && !NOT_A_MODEL.test(word));
}
/**
 * False only when two GPU names surely differ. Tools spell one GPU differently (rocminfo drops the
 * spaces, ROCm's PyTorch says "AMD Radeon Graphics", NVML and CUDA add or drop a form factor), so a
 * name without a model number says nothing, and names sharing a model number are taken as one GPU.
 */
function sameGpu(a, b) {
    const [ca, cb] = [canonicalGpu(a), canonicalGpu(b)];
    if (ca.includes(cb) || cb.includes(ca))
        return true;
    const [wa, wb] = [modelWords(a), modelWords(b)];
    if (wa.length === 0 || wb.length === 0)
        return true;
    return wa.some((word) => wb.includes(word) || cb.includes(word)) || wb.some((word) => ca.includes(word));
}
function kernelVendor(capture) {
    let amd = 0;
    let nvidia = 0;
    for (const kernel of capture.kernels) {
        if (AMD_KERNELS.test(kernel.name))
            amd += kernel.totalNs;
        else if (NVIDIA_KERNELS.test(kernel.name))
            nvidia += kernel.totalNs;
    }
    if (amd > 0 && nvidia === 0)
        return 'amd';
    if (nvidia > 0 && amd === 0)
        return 'nvidia';
    return undefined;
}
function engines(capture) {
    if ((0,registry/* replaysKernels */.Lk)(capture))
        return undefined;
    const total = capture.kernels.reduce((sum, k) => sum + k.totalNs, 0);
    if (total <= 0)
        return undefined;
    const found = new Set();
    for (const [engine, pattern] of ENGINE_KERNELS) {
        const ns = capture.kernels.filter((k) => pattern.test(k.name)).reduce((sum, k) => sum + k.totalNs, 0);
        if (ns / total >= ENGINE_MIN_SHARE)
            found.add(engine);
        else if (ns > 0)
            return undefined; // a trace of the engine too small to say either way
    }
    if (found.size === 0 && new Set(capture.kernels.map((k) => k.name)).size < MIN_KERNELS_FOR_ABSENCE)
        return undefined;
    return found;
}
function identityOf(capture) {
    const env = capture.environment;
    const identity = {};
    const vendor = env.vendor ?? kernelVendor(capture);
    if (vendor)
        identity.vendor = vendor;
    if (env.gpuName) {
        identity.gpus = new Map(env.gpuName
            .split(/,\s*/)
            .filter(Boolean)
            .map((name) => [canonicalGpu(name), name]));
    }
    const found = engines(capture);
    if (found)
        identity.engines = found;
    if (env.model)
        identity.model = env.model.trim().toLowerCase();
    return identity;
}
/** What two captures disagree on, in words for each side; undefined when they may be one run. */
function conflict(a, b) {
    if (a.vendor && b.vendor && a.vendor !== b.vendor)
        return { what: 'GPU vendors', left: a.vendor === 'amd' ? 'AMD' : 'NVIDIA', right: b.vendor === 'amd' ? 'AMD' : 'NVIDIA' };
    if (a.gpus && b.gpus && ![...a.gpus.values()].some((x) => [...b.gpus.values()].some((y) => sameGpu(x, y)))) {
        return { what: 'GPUs', left: [...a.gpus.values()].join(', '), right: [...b.gpus.values()].join(', ') };
    }
    if (a.model && b.model && a.model !== b.model)
        return { what: 'models', left: a.model, right: b.model };
    if (a.engines && b.engines) {
        const differ = [...a.engines].some((e) => !b.engines.has(e)) || [...b.engines].some((e) => !a.engines.has(e));
        const words = (set) => (set.size ? `${[...set].join(' + ')} kernels` : `no ${[...a.engines, ...b.engines][0]} kernels`);
        if (differ)
            return { what: 'workloads', left: words(a.engines), right: words(b.engines) };
    }
    return undefined;
}
/**
 * Captures grouped so that no two in a group disagree on what they record. One group: they may be
 * merged. Several: the first two are named, with what they disagree on.
 */
function mixedInputs(captures) {
    const groups = [];
    let first;
    for (const capture of captures) {
        const identity = identityOf(capture);
        let home;
        for (const group of groups) {
            const clash = group.members.map((m) => conflict(m.identity, identity)).find(Boolean);
            if (!clash) {
                home = group;
                break;
            }
            if (groups.length === 1)
                first ??= clash;
        }
        if (home)
            home.members.push({ capture, identity });
        else
            groups.push({ members: [{ capture, identity }] });
    }
    if (groups.length < 2 || !first)
        return undefined;
    const list = (group) => {
        const paths = group.members.map((m) => m.capture.source.path);
        return paths.length > 3 ? `${paths.slice(0, 3).join(', ')} and ${paths.length - 3} more` : paths.join(', ');
    };
    const more = groups.length > 2 ? ` (and ${groups.length - 2} more group${groups.length > 3 ? 's' : ''})` : '';
    return {
        message: `the inputs record different ${first.what}: ${list(groups[0])} (${first.left}) and ${list(groups[1])} (${first.right})${more}`,
        groups: groups.map((g) => g.members.map((m) => m.capture)),
    };
}
/**
 * Refuses captures that must not be merged, unless `allowMixed`; then they are merged with a
 * warning that says so.
 */
function checkMergeable(captures, allowMixed) {
    const mixed = mixedInputs(captures);
    if (!mixed)
        return [];
    if (!allowMixed) {
        const second = mixed.groups[1][0].source.path;
        throw new errors/* InputError */.dz(second, `${mixed.message}; analyze each group on its own, or pass --allow-mixed (action input allow-mixed: true) to merge them`);
    }
    return [{ code: 'mixed-inputs', severity: 'warning', message: `${mixed.message}; merged because mixed inputs were allowed, so totals and shares describe no single run` }];
}

// EXTERNAL MODULE: ./src/version.ts
var version = __webpack_require__(311);
;// CONCATENATED MODULE: ./src/pipeline/analyze.ts
/**
 * The engine both doors share: capture files in, one Report out. No process exit, no @actions.
 */












async function ingestAll(inputs, format) {
    return (await ingestReadable(inputs, format)).captures;
}
/**
 * Every input read; a file in `skippable` that cannot be read is left out with a warning. When
 * nothing at all could be read, the first error stands: an analysis of nothing is never a pass.
 * `reading` is told each file as its reading starts (the time budget names it).
 */
async function ingestReadable(inputs, format, skippable = new Set(), options = {}, reading) {
    const captures = [];
    const notices = [];
    const skipped = [];
    let firstError;
    for (const input of inputs) {
        reading?.(input);
        try {
            captures.push(...(await (0,registry/* ingestFileRuns */.dw)(input, format, options)));
        }
        catch (error) {
            if (!(error instanceof errors/* InputError */.dz) || !skippable.has(input) || options.signal?.aborted)
                throw error;
            firstError ??= error;
            // What the file held is not repeated: the report's pages are public, the file's bytes are not checked.
            const reason = (0,errors/* withoutQuotedText */.sx)(error.expected);
            notices.push({ code: 'unreadable-input', severity: 'warning', message: `skipped ${input}${error.location ? `:${error.location}` : ''}: ${reason} (pass --strict to fail instead)` });
            skipped.push({ path: input, reason });
        }
    }
    if (captures.length === 0 && firstError)
        throw firstError;
    return { captures, notices, skipped };
}
/** The error of an analysis past its time budget: names the file it was reading. */
function pastBudget(seconds, reading, inputs) {
    const budget = `expected the analysis to finish within ${seconds} s (the analyze time budget)`;
    if (reading)
        return new errors/* InputError */.dz(reading, `${budget}; it was stopped while reading this file`);
    return new errors/* UsageError */.eb(`${budget}; it was stopped after reading all ${inputs} input(s)`);
}
/**
 * Runs `work` under the budget: the signal aborts when it is spent (checked where reading awaits),
 * and `check` throws once it is spent, for synchronous work no timer can interrupt (user patterns).
 */
async function withTimeBudget(timeoutMs, inputs, work) {
    const controller = new AbortController();
    const deadline = Date.now() + timeoutMs;
    let current;
    let timer;
    const expired = new Promise((_, reject) => {
        timer = setTimeout(() => {
            const error = pastBudget(Math.round(timeoutMs) / 1000, current, inputs);
            controller.abort(error);
            reject(error);
        }, timeoutMs);
    });
    const check = () => {
        if (Date.now() < deadline)
            return;
        const error = pastBudget(Math.round(timeoutMs) / 1000, current, inputs);
        controller.abort(error);
        throw error;
    };
    const running = work(controller.signal, (path) => (current = path), check);
    running.catch(() => undefined);
    try {
        return await Promise.race([running, expired]);
    }
    finally {
        clearTimeout(timer);
    }
}
function reportFromProfile(profile, options) {
    const skippedInputs = [...(options.skippedInputs ?? [])];
    const { findings, notes } = diagnose(profile, options.diagnose);
    const environment = { ...profile.environment, ...(options.environment ?? {}) };
    const current = { ...profile, findings, environment };
    const baseline = options.baseline
        ? {
            ...options.baseline.report,
            origin: { origin: options.baseline.origin, reason: options.baseline.reason, ...(options.baseline.path ? { path: options.baseline.path } : {}) },
        }
        : null;
    const look = options.baseline?.look;
    const gate = compare(current, baseline, { ...(options.gate ?? {}), ...(look && look.of > 1 ? { look } : {}) }, options.baseline?.history ? { history: options.baseline.history } : {});
    const report = {
        schemaVersion: model_report/* REPORT_SCHEMA_VERSION */.WI,
        tool: { name: 'profile-gate', version: version/* TOOL_VERSION */.w },
        generatedAt: (options.now ?? (() => new Date()))().toISOString(),
        run: options.run ?? {},
        environment,
        sources: profile.sources,
        totalKernelNs: profile.totalKernelNs,
        kernels: profile.kernels,
        families: profile.families,
        metrics: profile.metrics.map(median_interval/* withMedianInterval */.cE),
        utilization: profile.utilization,
        timeline: profile.timeline,
        gpuTimeUtilPercent: profile.gpuTimeUtilPercent,
        memops: profile.memops,
        apiCalls: profile.apiCalls,
        cpuFunctions: profile.cpuFunctions,
        notices: [...profile.notices, ...notes],
        skippedInputs,
        deepDive: profile.ncu,
        deepDives: (0,ncu_metrics/* deepDiveMatches */.eT)(profile.ncu, profile.kernels, findings),
        findings,
        verdict: gate.verdict,
        decision: { causes: gate.causes, policy: { ...gate.policy, ruleOptions: ruleOptionsOf(options.diagnose) } },
        comparison: gate.comparison && baseline
            ? { ...gate.comparison, baselineSamples: comparedSamples(gate.comparison, baseline.metrics) }
            : gate.comparison,
        ranks: profile.ranks,
        stepCount: gate.comparison?.perStep?.current ?? (0,step_count/* stepCountOf */.nS)(current),
        ...(profile.gpuSharing ? { gpuSharing: profile.gpuSharing } : {}),
    };
    return model_report/* ReportSchema */.M9.parse(report);
}
/** The rules' options as given, by rule id: the values a report can hold (each rule's defaults apply to the rest). */
function ruleOptionsOf(config) {
    const rules = [];
    for (const [rule, values] of Object.entries(config?.options ?? {})) {
        const kept = Object.entries(values).filter((entry) => ['number', 'string', 'boolean'].includes(typeof entry[1]));
        if (kept.length)
            rules.push([rule, Object.fromEntries(kept)]);
    }
    // fromEntries defines each key as its own, `__proto__` included.
    return Object.fromEntries(rules);
}
/** The baseline's samples of the metrics the comparison has a row for: what its charts draw. */
function comparedSamples(comparison, metrics) {
    const compared = new Set(comparison.rows.filter((r) => r.kind === 'metric').map((r) => r.metric));
    return Object.fromEntries(metrics.filter((m) => compared.has(m.name)).map((m) => [m.name, [...m.samples]]));
}
async function analyze(options) {
    const build = async (signal, reading, check) => {
        const classify = (0,classify_classify/* createClassifier */.CC)(options.families, check);
        const isCollective = (name) => classify({ name }) === 'collective';
        const ingest = { ...(options.ingest ?? {}), isCollective, ...(signal ? { signal } : {}) };
        const read = await ingestReadable(options.inputs, options.format, options.skippable, ingest, reading);
        reading?.(undefined);
        signal?.throwIfAborted();
        const once = countEachRunOnce(read.captures);
        options.onCaptures?.(once.captures);
        const mixed = checkMergeable(once.captures, options.allowMixed ?? false);
        const profile = buildProfile(once.captures, classify, [...read.notices, ...once.notices, ...mixed]);
        return reportFromProfile(profile, { ...options, skippedInputs: [...(options.skippedInputs ?? []), ...read.skipped] });
    };
    if (options.timeoutMs === undefined)
        return build();
    return withTimeBudget(options.timeoutMs, options.inputs.length, build);
}


/***/ })

};
