export const id = 833;
export const ids = [833];
export const modules = {

/***/ 52833:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  run: () => (/* binding */ run)
});

// UNUSED EXPORTS: MODE_HANDLERS

// EXTERNAL MODULE: ./node_modules/@actions/core/lib/core.js + 11 modules
var core = __webpack_require__(91659);
// EXTERNAL MODULE: ./src/errors.ts
var errors = __webpack_require__(83916);
;// CONCATENATED MODULE: ./src/github/http.ts
/**
 * The one HTTP layer between profile-gate and GitHub (REST API and artifact storage), on Node's
 * fetch: bounded retries with backoff (5xx, 429, rate-limit 403s, network errors, honouring
 * Retry-After), a connect timeout (until the answer's headers arrive), an idle timeout (between
 * two chunks of a body), and a size limit on every body read. One message per failure class.
 * No @actions import: the CLI and the action share it.
 */

const DEFAULT_RETRY = {
    attempts: 4,
    baseMs: 1000,
    maxWaitMs: 60_000,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
const DEFAULT_HTTP_LIMITS = {
    connectTimeoutMs: 30_000,
    idleTimeoutMs: 60_000,
    maxJsonBytes: 32 * 1024 * 1024,
};
/** A GitHub request that failed for good, with a message that says what to do about it. */
class GitHubApiError extends errors/* InputError */.dz {
    status;
    route;
    name = 'GitHubApiError';
    constructor(status, route, message) {
        super(route, message);
        this.status = status;
        this.route = route;
        // The explanation names the route itself, in its place in the sentence.
        this.message = message;
    }
}
/** Retry-After in seconds or as an HTTP date; else a rate-limit reset time; else undefined. */
function serverWaitMs(headers, now = Date.now()) {
    const retryAfter = headers.get('retry-after');
    if (retryAfter !== null) {
        const seconds = Number(retryAfter);
        if (Number.isFinite(seconds))
            return Math.max(0, seconds * 1000);
        const date = Date.parse(retryAfter);
        if (Number.isFinite(date))
            return Math.max(0, date - now);
    }
    if (headers.get('x-ratelimit-remaining') === '0') {
        const reset = Number(headers.get('x-ratelimit-reset'));
        if (Number.isFinite(reset))
            return Math.max(0, reset * 1000 - now);
    }
    return undefined;
}
/** The message a user sees, by status. `route` is the endpoint template, never user data. */
function explain(status, route, detail, attempts) {
    const what = `${detail || 'no message'}`.replace(/\s+/g, ' ').slice(0, 200);
    switch (status) {
        case 401:
            return `GitHub rejected the token (401: ${what}) on ${route}; check the github-token input or GITHUB_TOKEN`;
        case 403:
            return `the token may not do this (403: ${what}) on ${route}; reading artifacts needs 'actions: read', commenting 'pull-requests: write'; on pull requests from forks GitHub grants only a read-only token: comment from a workflow_run workflow (examples/fork-safe-comment.yml)`;
        case 404:
            return `not found (404: ${what}) on ${route}; check the repository, the workflow, the pull request or run number, and that the token can read them ('actions: read' for other runs' artifacts)`;
        default:
            return status === 429 || status >= 500
                ? `GitHub kept failing (${status}: ${what}) on ${route} after ${attempts} attempt${attempts === 1 ? '' : 's'}`
                : `GitHub answered ${status} (${what}) on ${route}`;
    }
}
/** An answer whose headers arrived; its body is read within the idle timeout and a size limit. */
class HttpResponse {
    status;
    headers;
    response;
    controller;
    idleTimeoutMs;
    route;
    constructor(status, headers, response, controller, idleTimeoutMs, route) {
        this.status = status;
        this.headers = headers;
        this.response = response;
        this.controller = controller;
        this.idleTimeoutMs = idleTimeoutMs;
        this.route = route;
    }
    /** The body, at most `maxBytes`; a longer body or a silence longer than the idle timeout stops it. */
    async bytes(maxBytes, what = 'answer') {
        const declared = Number(this.headers.get('content-length') ?? NaN);
        if (Number.isFinite(declared) && declared > maxBytes) {
            this.cancel();
            throw new errors/* InputError */.dz(this.route, `the ${what} is ${declared} bytes; expected at most ${maxBytes}`);
        }
        const reader = this.response.body?.getReader();
        if (!reader)
            return Buffer.alloc(0);
        const chunks = [];
        let total = 0;
        let timer;
        let idle = false;
        const arm = () => {
            clearTimeout(timer);
            timer = setTimeout(() => {
                idle = true;
                this.controller.abort();
            }, this.idleTimeoutMs);
        };
        try {
            for (;;) {
                arm();
                let step;
                try {
                    step = await reader.read();
                }
                catch (error) {
                    if (idle)
                        throw new errors/* InputError */.dz(this.route, `the server sent nothing for ${this.idleTimeoutMs} ms while sending the ${what} (${total} bytes so far); stopped waiting`);
                    throw new errors/* InputError */.dz(this.route, `the ${what} broke off after ${total} bytes (${error.message})`);
                }
                if (step.done)
                    break;
                total += step.value.length;
                if (total > maxBytes) {
                    this.cancel();
                    throw new errors/* InputError */.dz(this.route, `the ${what} is more than ${maxBytes} bytes; stopped reading`);
                }
                chunks.push(Buffer.from(step.value));
            }
        }
        finally {
            clearTimeout(timer);
        }
        return Buffer.concat(chunks);
    }
    async json(maxBytes) {
        const data = await this.bytes(maxBytes, 'JSON answer');
        try {
            return JSON.parse(data.toString('utf8'));
        }
        catch {
            throw new errors/* InputError */.dz(this.route, 'expected a JSON answer from the GitHub API');
        }
    }
    cancel() {
        this.controller.abort();
    }
}
class Http {
    policy;
    limits;
    fetch;
    constructor(options = {}) {
        this.policy = { ...DEFAULT_RETRY, ...options.retry };
        this.limits = { ...DEFAULT_HTTP_LIMITS, ...options.limits };
        this.fetch = options.fetch ?? globalThis.fetch;
    }
    /** One attempt: the answer once its headers are in, within the connect timeout. */
    async once(url, options, route) {
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), this.limits.connectTimeoutMs);
        try {
            const response = await this.fetch(url, {
                method: options.method ?? 'GET',
                ...(options.headers ? { headers: options.headers } : {}),
                ...(options.body !== undefined ? { body: options.body } : {}),
                redirect: options.redirect ?? 'follow',
                signal: controller.signal,
            });
            return new HttpResponse(response.status, response.headers, response, controller, this.limits.idleTimeoutMs, route);
        }
        catch (error) {
            if (controller.signal.aborted)
                throw new TimeoutError(`no answer within ${this.limits.connectTimeoutMs} ms`);
            const cause = error.cause;
            throw new NetworkError(cause?.code ?? cause?.message ?? error.message);
        }
        finally {
            clearTimeout(timer);
        }
    }
    /**
     * A request with bounded retries. An answer of 400 and up that is not retried becomes a
     * GitHubApiError; a 2xx or 3xx is handed back with its body unread.
     */
    async request(url, options, route) {
        for (let attempt = 1;; attempt += 1) {
            let failure;
            let asked;
            let status = 0;
            let detail = '';
            try {
                const response = await this.once(url, options, route);
                asked = serverWaitMs(response.headers);
                status = response.status;
                const retryable = status === 429 || status >= 500 || (status === 403 && asked !== undefined);
                if (status < 400)
                    return response;
                detail = await this.errorDetail(response);
                if (!retryable)
                    throw new GitHubApiError(status, route, explain(status, route, detail, attempt));
                failure = `${status}`;
            }
            catch (error) {
                if (error instanceof GitHubApiError)
                    throw error;
                if (!(error instanceof TimeoutError || error instanceof NetworkError))
                    throw error;
                failure = error.message;
            }
            const wait = asked ?? this.policy.baseMs * 2 ** (attempt - 1) * (0.8 + Math.random() * 0.4);
            if (attempt >= this.policy.attempts || wait > this.policy.maxWaitMs) {
                if (status)
                    throw new GitHubApiError(status, route, explain(status, route, detail, attempt));
                throw new GitHubApiError(0, route, `GitHub could not be reached (${failure}) on ${route} after ${attempt} attempt${attempt === 1 ? '' : 's'}`);
            }
            await this.policy.sleep(Math.round(wait));
        }
    }
    /** The `message` of an error answer, read within a small cap. */
    async errorDetail(response) {
        try {
            const text = (await response.bytes(64 * 1024, 'error answer')).toString('utf8');
            try {
                const message = JSON.parse(text).message;
                return typeof message === 'string' ? message : text.slice(0, 200);
            }
            catch {
                return text.slice(0, 200);
            }
        }
        catch {
            return '';
        }
    }
}
class TimeoutError extends Error {
}
class NetworkError extends Error {
}

;// CONCATENATED MODULE: ./src/github/client.ts
/**
 * The GitHub REST client of profile-gate, for the action and the CLI alike: the repository, workflow
 * runs, artifacts (by name across the repository, or of one run), the artifact zip download (a 302
 * to storage, fetched without the token, within a size cap), pull requests and issue comments.
 * Every call goes through `Http` (retries, timeouts, body limits); list calls follow Link rel="next"
 * within a page bound, and never leave the API host.
 */


/** Pages read at most from one list endpoint. */
const MAX_PAGES = 20;
class GitHubClient {
    access;
    http;
    constructor(access) {
        this.access = access;
        this.http = new Http(access);
    }
    headers(json = false) {
        return {
            accept: 'application/vnd.github+json',
            authorization: `Bearer ${this.access.token}`,
            'x-github-api-version': '2022-11-28',
            'user-agent': 'profile-gate',
            ...(json ? { 'content-type': 'application/json' } : {}),
        };
    }
    async call(method, path, route, body) {
        const response = await this.http.request(`${this.access.apiUrl}${path}`, { method, headers: this.headers(body !== undefined), ...(body !== undefined ? { body: JSON.stringify(body) } : {}) }, route);
        return response.json(this.http.limits.maxJsonBytes);
    }
    /** A list endpoint, following Link rel="next" (on the API host only) until `enough` or the page bound. */
    async list(path, route, key, enough = () => false) {
        const items = [];
        let url = `${this.access.apiUrl}${path}`;
        const seen = new Set();
        for (let page = 0; url && page < MAX_PAGES && !enough(items); page += 1) {
            if (seen.has(url))
                break;
            seen.add(url);
            const response = await this.http.request(url, { headers: this.headers() }, route);
            const body = await response.json(this.http.limits.maxJsonBytes);
            const list = key === null ? body : body?.[key];
            if (!Array.isArray(list))
                throw new errors/* InputError */.dz(route, key ? `expected a '${key}' list in the answer` : 'expected a list in the answer');
            items.push(...list);
            url = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
            if (url && !url.startsWith(this.access.apiUrl))
                url = undefined;
        }
        return items;
    }
    repository(repo) {
        return this.call('GET', `/repos/${repo}`, 'GET /repos/{owner}/{repo}');
    }
    /** Workflow runs, newest first as GitHub lists them. */
    async workflowRuns(repo, query) {
        const params = new URLSearchParams({ per_page: '100', exclude_pull_requests: 'true' });
        if (query.branch)
            params.set('branch', query.branch);
        if (query.event)
            params.set('event', query.event);
        if (query.status)
            params.set('status', query.status);
        const path = query.workflow ? `/repos/${repo}/actions/workflows/${encodeURIComponent(query.workflow)}/runs` : `/repos/${repo}/actions/runs`;
        const route = query.workflow ? 'GET /repos/{owner}/{repo}/actions/workflows/{workflow}/runs' : 'GET /repos/{owner}/{repo}/actions/runs';
        const accept = (run) => Number.isInteger(run.id) && (query.accept?.(run) ?? true);
        const runs = await this.list(`${path}?${params}`, route, 'workflow_runs', (items) => items.filter(accept).length >= query.limit);
        return runs.filter(accept).slice(0, query.limit);
    }
    /** Artifacts of the whole repository with exactly this name, newest first. */
    async artifactsNamed(repo, name, limit = 100) {
        const params = new URLSearchParams({ name, per_page: String(Math.min(100, limit)) });
        const found = await this.list(`/repos/${repo}/actions/artifacts?${params}`, 'GET /repos/{owner}/{repo}/actions/artifacts', 'artifacts', (items) => items.length >= limit);
        return found.filter((a) => Number.isInteger(a.id) && a.name === name).slice(0, limit);
    }
    /** The artifacts of one run. */
    async runArtifacts(repo, runId) {
        const found = await this.list(`/repos/${repo}/actions/runs/${runId}/artifacts?per_page=100`, 'GET /repos/{owner}/{repo}/actions/runs/{run}/artifacts', 'artifacts');
        return found.filter((a) => Number.isInteger(a.id) && typeof a.name === 'string');
    }
    /** The artifact's zip, at most `maxBytes`: the API answers 302 to storage, fetched without the token. */
    async artifactZip(repo, artifactId, maxBytes) {
        const route = 'GET /repos/{owner}/{repo}/actions/artifacts/{id}/zip';
        const url = `${this.access.apiUrl}/repos/${repo}/actions/artifacts/${artifactId}/zip`;
        let response = await this.http.request(url, { headers: this.headers(), redirect: 'manual' }, route);
        if (response.status >= 300 && response.status < 400) {
            const location = response.headers.get('location');
            response.cancel();
            if (!location)
                throw new errors/* InputError */.dz(route, `a ${response.status} without a Location header`);
            response = await this.http.request(new URL(location, url).toString(), { redirect: 'follow' }, `${route} (storage)`);
        }
        return response.bytes(maxBytes, 'artifact zip');
    }
    pull(repo, number) {
        return this.call('GET', `/repos/${repo}/pulls/${number}`, 'GET /repos/{owner}/{repo}/pulls/{pull_number}');
    }
    comments(repo, issue) {
        return this.list(`/repos/${repo}/issues/${issue}/comments?per_page=100`, 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments', null);
    }
    createComment(repo, issue, body) {
        return this.call('POST', `/repos/${repo}/issues/${issue}/comments`, 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { body });
    }
    updateComment(repo, id, body) {
        return this.call('PATCH', `/repos/${repo}/issues/comments/${id}`, 'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', { body });
    }
}

;// CONCATENATED MODULE: ./src/github/limits.ts
/**
 * Every bound profile-gate puts on what it reads from GitHub, in one place (documented in
 * references/steps/limits.md). Report artifacts may come from a fork's workflow, read by the job
 * that holds the write token, so each bound is checked before the work it bounds, not after.
 * The environment may override them (tests shorten the timeouts; a site with huge reports raises a cap).
 */


const MiB = 1024 * 1024;
const DEFAULT_ARTIFACT_LIMITS = {
    maxZipBytes: 256 * MiB,
    maxEntries: 10_000,
    maxReportBytes: 64 * MiB,
    maxUnzippedBytes: 1024 * MiB,
    maxArtifacts: 256,
    maxBaselineCandidates: 5,
    historyReports: 10,
};
/** Environment variable → the limit it sets. */
const LIMIT_VARIABLES = {
    PROFILE_GATE_CONNECT_TIMEOUT_MS: ['http', 'connectTimeoutMs'],
    PROFILE_GATE_IDLE_TIMEOUT_MS: ['http', 'idleTimeoutMs'],
    PROFILE_GATE_MAX_JSON_BYTES: ['http', 'maxJsonBytes'],
    PROFILE_GATE_RETRY_BASE_MS: ['retry', 'baseMs'],
    PROFILE_GATE_RETRY_ATTEMPTS: ['retry', 'attempts'],
    PROFILE_GATE_MAX_ARTIFACT_BYTES: ['artifacts', 'maxZipBytes'],
    PROFILE_GATE_MAX_ZIP_ENTRIES: ['artifacts', 'maxEntries'],
    PROFILE_GATE_MAX_REPORT_BYTES: ['artifacts', 'maxReportBytes'],
    PROFILE_GATE_MAX_UNZIPPED_BYTES: ['artifacts', 'maxUnzippedBytes'],
    PROFILE_GATE_MAX_ARTIFACTS: ['artifacts', 'maxArtifacts'],
};
function limitsFromEnv(env) {
    const limits = { http: { ...DEFAULT_HTTP_LIMITS }, artifacts: { ...DEFAULT_ARTIFACT_LIMITS }, retry: {} };
    for (const [variable, [group, key]] of Object.entries(LIMIT_VARIABLES)) {
        const text = env[variable];
        if (text === undefined || text === '')
            continue;
        const value = Number(text);
        if (!Number.isInteger(value) || value < 1)
            throw new errors/* UsageError */.eb(`${variable}=${text.slice(0, 40)}: expected a positive whole number`);
        limits[group][key] = value;
    }
    return limits;
}

// EXTERNAL MODULE: ./src/action/github/run-context.ts
var run_context = __webpack_require__(55359);
// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 17 modules
var schemas = __webpack_require__(38816);
;// CONCATENATED MODULE: ./src/model/family-ids.ts
/**
 * The kernel families: the built-in ids (a closed type, so a misspelt id fails to compile), each
 * with a label and the coarse group the dashboard stacks by; and the ids of user families, which a
 * family config (classify/user-families.ts) may add and the model carries as they are.
 */
/** The built-in families, with a label and the coarse group the dashboard stacks by. */
const FAMILY_INFO = {
    gemv: { label: 'GEMV (decode linear)', group: 'linear' },
    'gemm-decode': { label: 'GEMM, decode-shaped', group: 'linear' },
    'gemm-prefill': { label: 'GEMM, prefill-shaped', group: 'linear' },
    gemm: { label: 'GEMM, shape unknown', group: 'linear' },
    'attention-fused': { label: 'Fused attention', group: 'attention' },
    'attention-softmax': { label: 'Softmax (unfused attention)', group: 'attention' },
    'attention-bmm': { label: 'Batched matmul (QK/PV)', group: 'attention' },
    'kv-cache': { label: 'KV-cache write / layout', group: 'attention' },
    norm: { label: 'Normalization', group: 'norm-rope' },
    rope: { label: 'Rotary embedding', group: 'norm-rope' },
    'moe-gemm': { label: 'MoE grouped matmul', group: 'moe' },
    'moe-routing': { label: 'MoE routing / top-k', group: 'moe' },
    'gather-scatter': { label: 'Gather / scatter / index', group: 'moe' },
    quantize: { label: 'Quantize / scale layout', group: 'low-bit' },
    'lowbit-gemm': { label: 'Block-scaled / fp8 / fp4 matmul', group: 'low-bit' },
    collective: { label: 'Collectives (NCCL, all-reduce, EP)', group: 'comm' },
    memcpy: { label: 'Memcpy', group: 'memory' },
    memset: { label: 'Memset', group: 'memory' },
    copy: { label: 'Copy / layout', group: 'memory' },
    conv: { label: 'Convolution', group: 'conv' },
    elementwise: { label: 'Elementwise', group: 'elementwise' },
    reduce: { label: 'Reductions', group: 'elementwise' },
    sampling: { label: 'Sampling', group: 'sampling' },
    other: { label: 'Other', group: 'other' },
};
const FAMILY_IDS = Object.keys(FAMILY_INFO);
/** The families that do the model's linear layers (dense, decode or prefill shaped, low-bit, MoE experts). */
const LINEAR_FAMILIES = ['gemv', 'gemm-decode', 'gemm-prefill', 'gemm', 'lowbit-gemm', 'moe-gemm'];
const BUILT_IN = new Set(FAMILY_IDS);
function isBuiltInFamily(id) {
    return BUILT_IN.has(id);
}
/** A user family's id, once its config was checked (or a stored report's, as the report says it). */
function userFamilyId(id) {
    return id;
}
/** A family id read from a stored report or capture: built in, or a user family's. */
function kernelFamily(id) {
    return isBuiltInFamily(id) ? id : userFamilyId(id);
}
/** What a reader sees for a family: the built-in label, or a user family's own id. */
function familyLabel(family) {
    return isBuiltInFamily(family) ? FAMILY_INFO[family].label : family;
}

;// CONCATENATED MODULE: ./src/model/metrics.ts
const METRIC_CATALOG = {
    decode_tok_s: { unit: 'tok/s', direction: 'higher', label: 'Decode throughput' },
    prefill_tok_s: { unit: 'tok/s', direction: 'higher', label: 'Prefill throughput' },
    ttft_ms: { unit: 'ms', direction: 'lower', label: 'Time to first token' },
    tpot_ms: { unit: 'ms', direction: 'lower', label: 'Time per output token' },
    itl_ms: { unit: 'ms', direction: 'lower', label: 'Inter-token latency' },
    latency_ms: { unit: 'ms', direction: 'lower', label: 'Total latency' },
    request_throughput: { unit: 'req/s', direction: 'higher', label: 'Request throughput' },
    startup_ms: { unit: 'ms', direction: 'lower', label: 'Startup time' },
    prompt_tokens: { unit: 'tokens', direction: 'higher', label: 'Prompt size' },
    output_tokens: { unit: 'tokens', direction: 'higher', label: 'Output size' },
    failed_requests: { unit: 'requests', direction: 'lower', label: 'Failed requests' },
};
/** Metrics that describe the workload rather than its speed; they are reported but never gated. */
const DESCRIPTIVE_METRICS = new Set(['prompt_tokens', 'output_tokens']);
function metricInfo(name) {
    return METRIC_CATALOG[name] ?? { unit: '', direction: 'higher', label: name };
}

;// CONCATENATED MODULE: ./src/compare/fingerprint.ts
const FINGERPRINT_KEYS = [
    'gpuName',
    'gpuCount',
    'vendor',
    'driver',
    'cuda',
    'rocm',
    'engine',
    'engineVersion',
    'model',
    'dtype',
    'batch',
    'sequence',
];
/** Versions compared by dotted components, so `13.0` (one tool) matches `13.0.48` (another). */
const VERSION_KEYS = new Set(['driver', 'cuda', 'rocm', 'engineVersion']);
function normalize(key, value) {
    let text = String(value).trim().replace(/\s+/g, ' ').toLowerCase();
    // nvidia-smi says "NVIDIA H200", some traces say "H200".
    if (key === 'gpuName')
        text = text.replace(/^(nvidia|amd)\s+/, '');
    return text;
}
function fingerprint(environment) {
    const result = {};
    for (const key of FINGERPRINT_KEYS) {
        const value = environment[key];
        if (value !== undefined && value !== null && String(value).trim() !== '')
            result[key] = normalize(key, value);
    }
    return result;
}
/** One line for the report: `gpuName=h200 driver=580.159.04 …` (only the keys that are known). */
function describeFingerprint(environment) {
    const print = fingerprint(environment);
    return FINGERPRINT_KEYS.filter((key) => print[key] !== undefined)
        .map((key) => `${key}=${print[key]}`)
        .join(' ');
}
function sameValue(key, a, b) {
    if (a === b)
        return true;
    if (!VERSION_KEYS.has(key))
        return false;
    const pa = a.split('.');
    const pb = b.split('.');
    const common = Math.min(pa.length, pb.length);
    return pa.slice(0, common).every((part, i) => part === pb[i]);
}
/** Keys known on both sides whose values differ, as the captures spelled them. */
function environmentMismatches(baseline, current) {
    const a = fingerprint(baseline);
    const b = fingerprint(current);
    const mismatches = [];
    for (const key of FINGERPRINT_KEYS) {
        const before = a[key];
        const after = b[key];
        if (before === undefined || after === undefined || sameValue(key, before, after))
            continue;
        mismatches.push({ key, baseline: String(baseline[key]).trim(), current: String(current[key]).trim() });
    }
    return mismatches;
}
function formatMismatch(mismatch) {
    return `${mismatch.key}: ${mismatch.baseline} → ${mismatch.current}`;
}
/** The mismatches not covered by the allowance (true allows all, a list allows those keys). */
function blockingMismatches(mismatches, allow) {
    if (allow === true)
        return [];
    if (allow === false)
        return [...mismatches];
    return mismatches.filter((m) => !allow.includes(m.key));
}

;// CONCATENATED MODULE: ./src/compare/verdict.ts
const DEFAULT_FAIL_ON = ['re-prefill', 'unfused-attention'];
/** Secondary findings are explained by a primary one; they count only when they are errors. */
function isPrimary(finding) {
    return !finding.secondary || finding.severity === 'error';
}
function verdictFromFindings(findings, failOn = DEFAULT_FAIL_ON) {
    const primary = findings.filter(isPrimary);
    if (primary.some((f) => failOn.includes(f.id) && f.severity !== 'info'))
        return 'fail';
    if (primary.some((f) => f.severity === 'error' || f.severity === 'warning'))
        return 'warn';
    return 'pass';
}
/** invalid beats fail beats insufficient-data beats warn beats pass. */
function combineVerdict(flags) {
    if (flags.invalid)
        return 'invalid';
    if (flags.fail)
        return 'fail';
    if (flags.insufficient)
        return 'insufficient-data';
    if (flags.warn)
        return 'warn';
    return 'pass';
}

;// CONCATENATED MODULE: ./src/compare/gate-options.ts
/**
 * Gate options: one zod schema with the defaults (references/steps/regression-gate.md says where each
 * comes from), and parsers for the CLI's `--threshold METRIC=PCT` and `--fail-on a,b`.
 */






/**
 * Practical floors in percent: a significant change smaller than this never fails. 3% is twice the
 * largest systematic A/A shift measured on an H200 (a 1.5% drift across 14 runs; process offsets
 * were ≤ 0.13%), and keeps A/A false alarms under 1% for ~1% heavy-tailed, skewed and bimodal noise
 * in bench/gate-sim.mjs (1% floors gave 2-3%). TTFT, not measured, also carries prefill and
 * scheduling jitter, so it gets more room.
 */
const DEFAULT_METRIC_FLOORS_PCT = {
    decode_tok_s: 3,
    prefill_tok_s: 3,
    tpot_ms: 3,
    ttft_ms: 5,
};
/** Metrics gated by default when both sides have them; any other metric is gated once it has a threshold. */
const GATED_METRICS = Object.keys(DEFAULT_METRIC_FLOORS_PCT);
const FAMILY_SET = new Set(FAMILY_IDS);
const METRIC_NAMES = Object.keys(METRIC_CATALOG).filter((name) => !DESCRIPTIVE_METRICS.has(name));
/** Why a threshold key is not acceptable, or null when it is. */
function thresholdKeyProblem(key) {
    if (key.startsWith('family:')) {
        const family = key.slice('family:'.length);
        return FAMILY_SET.has(family) ? null : `unknown kernel family '${family}' (known: ${FAMILY_IDS.join(', ')})`;
    }
    if (key.startsWith('kernel:'))
        return key.length > 'kernel:'.length ? null : 'empty kernel name';
    if (DESCRIPTIVE_METRICS.has(key))
        return `${key} describes the workload and is never gated`;
    return METRIC_NAMES.includes(key) ? null : `unknown metric '${key}' (known: ${METRIC_NAMES.join(', ')}, family:<id>, kernel:<name>)`;
}
/** One-sided test level of a regression. */
const DEFAULT_ALPHA = 0.05;
/** The two-sided confidence level of every interval the gate reports: 1 − 2·alpha (90% at the default). */
function ciLevel(alpha) {
    return 1 - 2 * alpha;
}
/** The level the renderers show, and the intervals of medians use, so one level is read everywhere. */
const CI_LEVEL = ciLevel(DEFAULT_ALPHA);
const FindingIdSchema = schemas/* string */.YjP().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'a finding id is lower-case words joined by hyphens');
const GateOptionsSchema = schemas/* object */.Ikc({
    /** Finding ids that fail the gate when they appear (new since the baseline, or at all without one). */
    failOn: schemas/* array */.YOg(FindingIdSchema).default([...DEFAULT_FAIL_ON]),
    /**
     * Per-row thresholds. Metric names take a practical floor in percent (`decode_tok_s: 3`);
     * `family:<id>` and `kernel:<name>` take a share-growth fail threshold in percentage points.
     */
    thresholds: schemas/* record */.g1P(schemas/* string */.YjP(), schemas/* number */.aig().positive())
        .default({})
        .superRefine((thresholds, ctx) => {
        for (const key of Object.keys(thresholds)) {
            const problem = thresholdKeyProblem(key);
            if (problem)
                ctx.addIssue({ code: 'custom', message: problem, path: [key] });
        }
    }),
    /** Growth of a family's or top kernel's share of GPU time, in percentage points, that warns / fails. */
    shareThresholds: schemas/* object */.Ikc({ warn: schemas/* number */.aig().positive().default(5), fail: schemas/* number */.aig().positive().default(20) })
        .default({ warn: 5, fail: 20 }),
    /** Fewer samples than this on either side (after the warm-up rule) gives insufficient-data. */
    minSamples: schemas/* number */.aig().int().min(2).default(3),
    /** One-sided test level for a regression, after the correction across the metrics of one run. */
    alpha: schemas/* number */.aig().gt(0).lt(0.5).default(DEFAULT_ALPHA),
    correction: schemas/* enum */.k5n(['bh', 'holm']).default('bh'),
    allowThrottled: schemas/* boolean */.zMY().default(false),
    /** true, or the fingerprint keys allowed to differ (e.g. ["driver"]). */
    allowEnvironmentMismatch: schemas/* union */.KCZ([schemas/* boolean */.zMY(), schemas/* array */.YOg(schemas/* string */.YjP())])
        .default(false)
        .superRefine((allow, ctx) => {
        if (typeof allow === 'boolean')
            return;
        allow.forEach((key, i) => {
            if (!FINGERPRINT_KEYS.includes(key)) {
                ctx.addIssue({ code: 'custom', message: `unknown environment key '${key}' (known: ${FINGERPRINT_KEYS.join(', ')})`, path: [i] });
            }
        });
    }),
    /** Kernels compared one by one: the union of each side's top N by GPU time. */
    topN: schemas/* number */.aig().int().positive().default(10),
    seed: schemas/* number */.aig().int().default(1),
    bootstrapResamples: schemas/* number */.aig().int().min(100).max(100_000).default(1000),
    /** Drop leading slow outliers (warm-up) from each side's samples. */
    dropWarmup: schemas/* boolean */.zMY().default(true),
    /**
     * Leave out a side's lone slow runs far from its cluster (stalls), judged against the side's own
     * spread; two or more slow runs together are a mode and stay (the overlap check handles them).
     */
    dropOutliers: schemas/* boolean */.zMY().default(true),
    /**
     * A regression fails only when neither side's own runs reach the other side's median (within half
     * the floor); otherwise it warns. Guards against two clock states a floor or more apart.
     */
    overlapCheck: schemas/* boolean */.zMY().default(true),
    /**
     * This comparison is look `index` of `of` in an adaptive A/B run (more runs while undecided):
     * the test's alpha is spent over the looks (src/compare/sequential.ts). Absent: a single look.
     */
    look: schemas/* object */.Ikc({ index: schemas/* number */.aig().int().positive(), of: schemas/* number */.aig().int().positive() })
        .refine((look) => look.index <= look.of, { message: 'look index must not exceed the number of looks' })
        .optional(),
    /** Trend within one side: Mann-Kendall level and the smallest change across the side (percent) worth a warning. */
    drift: schemas/* object */.Ikc({ alpha: schemas/* number */.aig().gt(0).lt(0.5).default(0.001), minChangePct: schemas/* number */.aig().nonnegative().default(1) })
        .default({ alpha: 0.001, minChangePct: 1 }),
})
    .strict();
/** Validated options with defaults filled; a bad option is a UsageError naming the option and the value. */
function parseGateOptions(input = {}) {
    const parsed = GateOptionsSchema.safeParse(input ?? {});
    if (parsed.success)
        return parsed.data;
    const issue = parsed.error.issues[0];
    const path = issue.path.join('.');
    let value = input;
    for (const key of issue.path)
        value = value !== null && typeof value === 'object' ? value[key] : undefined;
    const got = issue.code === 'custom' || value === undefined ? '' : ` (got ${JSON.stringify(value)})`;
    throw new errors/* UsageError */.eb(`gate option ${path || '(root)'}: ${issue.message}${got}`);
}
/** The practical floor of a metric as a fraction (0.03), or undefined when the metric is not gated. */
function metricFloor(options, name) {
    const pct = options.thresholds[name] ?? DEFAULT_METRIC_FLOORS_PCT[name];
    return pct === undefined ? undefined : pct / 100;
}
/** `--threshold decode_tok_s=3 --threshold ttft_ms=5%` (or comma-separated) → { decode_tok_s: 3, ttft_ms: 5 }. */
function parseThresholdArgs(args) {
    const thresholds = {};
    for (const arg of args) {
        for (const part of arg.split(',')) {
            const item = part.trim();
            if (!item)
                continue;
            const eq = item.lastIndexOf('=');
            if (eq <= 0)
                throw new errors/* UsageError */.eb(`--threshold ${item}: expected METRIC=PCT, e.g. decode_tok_s=3`);
            const key = item.slice(0, eq).trim();
            const text = item.slice(eq + 1).trim().replace(/%$/, '');
            const value = Number(text);
            if (!text || !Number.isFinite(value) || value <= 0)
                throw new errors/* UsageError */.eb(`--threshold ${item}: '${item.slice(eq + 1)}' is not a positive number`);
            const problem = thresholdKeyProblem(key);
            if (problem)
                throw new errors/* UsageError */.eb(`--threshold ${item}: ${problem}`);
            thresholds[key] = value;
        }
    }
    return thresholds;
}
/** `--fail-on re-prefill,unfused-attention` → the ids; `none` or an empty value → []. */
function parseFailOnArg(arg) {
    const trimmed = arg.trim();
    if (trimmed === '' || trimmed === 'none')
        return [];
    const ids = trimmed.split(',').map((id) => id.trim());
    for (const id of ids) {
        if (!FindingIdSchema.safeParse(id).success)
            throw new errors/* UsageError */.eb(`--fail-on ${arg}: '${id}' is not a finding id (lower-case words joined by hyphens, e.g. re-prefill)`);
    }
    return [...new Set(ids)];
}
/** The fail-on default as written in flags, inputs and help texts. */
const DEFAULT_FAIL_ON_TEXT = DEFAULT_FAIL_ON.join(',');
/**
 * The gate options a user sets as text: the CLI's flags (analyze and run) and the action's inputs
 * carry the same names, so one table and one reader serve all three doors. A new gate flag is one
 * row here (and its input in action.yml and the action's input schema).
 */
const GATE_FLAG_SPECS = {
    threshold: {
        field: 'threshold',
        cli: { type: 'string', multiple: true },
        input: 'thresholds',
        value: 'M=PCT',
        help: 'practical floor of a metric in percent (decode_tok_s=3), or a share threshold in percentage points (family:attention-fused=10); repeatable',
    },
    'fail-on': { field: 'failOn', cli: { type: 'string' }, input: 'fail-on', value: 'LIST', help: `finding ids that fail the gate (default ${DEFAULT_FAIL_ON_TEXT}; none for no id)` },
    'allow-throttled': { field: 'allowThrottled', cli: { type: 'boolean' }, input: 'allow-throttled', help: 'compare even when a side was throttled (otherwise the verdict is invalid)' },
    'allow-environment-mismatch': {
        field: 'allowEnvironmentMismatch',
        cli: { type: 'string' },
        input: 'allow-environment-mismatch',
        value: 'KEYS|all',
        help: `compare although these fingerprint keys differ (${FINGERPRINT_KEYS.join(', ')})`,
    },
    'overlap-check': {
        field: 'overlapCheck',
        cli: { type: 'string' },
        input: 'overlap-check',
        value: 'true|false',
        help: "hold a significant change back (warn) when one side's runs reach the other's median (default true)",
    },
    'drop-outliers': {
        field: 'dropOutliers',
        cli: { type: 'string' },
        input: 'drop-outliers',
        value: 'true|false',
        help: "leave out a side's lone slow runs far from its cluster, e.g. stalls (default true)",
    },
};
const GATE_FLAGS = Object.keys(GATE_FLAG_SPECS);
/** The gate flags as node:util parseArgs options, for every CLI command that gates. */
const GATE_FLAG_OPTIONS = Object.fromEntries(GATE_FLAGS.map((flag) => [flag, GATE_FLAG_SPECS[flag].cli]));
/** The gate flags that take a value (`--fail-on LIST`), as written on a command line. */
const GATE_VALUE_FLAGS = GATE_FLAGS.filter((flag) => GATE_FLAG_SPECS[flag].cli.type === 'string').map((flag) => `--${flag}`);
/** The help lines of the gate flags, descriptions from `column`; a longer flag puts its description on the next line. */
function gateFlagsHelp(column) {
    return GATE_FLAGS.map((flag) => {
        const spec = GATE_FLAG_SPECS[flag];
        const name = `  --${flag}${spec.value ? ` ${spec.value}` : ''}`;
        return name.length < column ? `${name.padEnd(column)}${spec.help}` : `${name}\n${' '.repeat(column)}${spec.help}`;
    }).join('\n');
}
/** The gate text from a door's reader by flag name; what the reader does not give is left out. */
function gateTextFrom(read) {
    const text = {};
    for (const flag of GATE_FLAGS) {
        let value = read(flag);
        const spec = GATE_FLAG_SPECS[flag];
        // A list where the option takes one text (an action input split at commas): joined back.
        if (Array.isArray(value) && !('multiple' in spec.cli))
            value = value.join(',');
        else if (typeof value === 'string' && 'multiple' in spec.cli)
            value = [value];
        if (value === undefined)
            continue;
        text[spec.field] = value;
    }
    return text;
}
const cliGateLabel = (flag) => `--${flag}`;
/** The action input that sets a gate flag's option, as its error messages name it. */
const actionGateLabel = (flag) => `input '${GATE_FLAG_SPECS[flag].input}'`;
function booleanText(value, label) {
    if (value === undefined || typeof value === 'boolean')
        return value;
    const text = value.trim().toLowerCase();
    if (text === '')
        return undefined;
    if (text === 'true')
        return true;
    if (text === 'false')
        return false;
    throw new errors/* UsageError */.eb(`${label}: expected true or false, got ${JSON.stringify(value)}`);
}
/** Gate options from a door's reader by flag name (CLI flags or action inputs); a bad value names the flag or input. */
function parseGateFlags(read, label = cliGateLabel) {
    return parseGateText(gateTextFrom(read), label);
}
/** Gate options from their text form; a bad value is a UsageError naming the flag or input. */
function parseGateText(text, label = cliGateLabel) {
    // The CLI's own messages already start with the flag; another door names its input instead.
    const renamed = (error, flag, prefix) => (label === cliGateLabel ? error : new errors/* UsageError */.eb(`${label(flag)}: ${error.message.replace(prefix, '')}`));
    let thresholds;
    if (text.threshold?.length) {
        try {
            thresholds = parseThresholdArgs(text.threshold);
        }
        catch (error) {
            throw renamed(error, 'threshold', '--threshold ');
        }
    }
    let failOn;
    if (text.failOn !== undefined) {
        try {
            failOn = parseFailOnArg(text.failOn);
        }
        catch (error) {
            throw renamed(error, 'fail-on', `--fail-on ${text.failOn}: `);
        }
    }
    const allow = typeof text.allowEnvironmentMismatch === 'string' ? text.allowEnvironmentMismatch.split(',') : text.allowEnvironmentMismatch;
    const keys = (allow ?? []).map((key) => key.trim()).filter(Boolean);
    const allowThrottled = booleanText(text.allowThrottled, label('allow-throttled'));
    const overlapCheck = booleanText(text.overlapCheck, label('overlap-check'));
    const dropOutliers = booleanText(text.dropOutliers, label('drop-outliers'));
    return {
        ...(thresholds ? { thresholds } : {}),
        ...(failOn ? { failOn } : {}),
        ...(allowThrottled !== undefined ? { allowThrottled } : {}),
        ...(keys.length ? { allowEnvironmentMismatch: keys.includes('all') ? true : keys } : {}),
        ...(overlapCheck !== undefined ? { overlapCheck } : {}),
        ...(dropOutliers !== undefined ? { dropOutliers } : {}),
    };
}

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(77598);
;// CONCATENATED MODULE: ./src/classify/demangle.ts
/**
 * An Itanium C++ ABI demangler for kernel names, as ROCm tools, PyTorch on ROCm and some CUTLASS
 * paths print them (`_ZN2at6native18elementwise_kernel…`). It covers what GPU kernels are made of:
 * nested and local names, lambdas (`{lambda(float)#1}`), template arguments and parameters,
 * literals, packs, substitutions, builtin, qualified, pointer, reference and function types, and
 * operator names. Output follows c++filt's spelling. Anything outside that subset makes `demangle`
 * return undefined, and callers keep the mangled name: a name is never guessed.
 *
 * No npm demangler fits: the maintained ones ship as WebAssembly ES-module imports, which neither
 * Node 20 without flags nor the bundled action can load.
 */
const BUILTIN = {
    v: 'void', w: 'wchar_t', b: 'bool', c: 'char', a: 'signed char', h: 'unsigned char', s: 'short', t: 'unsigned short',
    i: 'int', j: 'unsigned int', l: 'long', m: 'unsigned long', x: 'long long', y: 'unsigned long long', n: '__int128',
    o: 'unsigned __int128', f: 'float', d: 'double', e: 'long double', g: '__float128', z: '...',
};
const D_BUILTIN = { h: 'half', n: 'decltype(nullptr)', a: 'auto', c: 'decltype(auto)', s: 'char16_t', i: 'char32_t', u: 'char8_t' };
const LITERAL_SUFFIX = { j: 'u', l: 'l', m: 'ul', x: 'll', y: 'ull' };
const OPERATORS = {
    nw: 'new', na: 'new[]', dl: 'delete', da: 'delete[]', ps: '+', ng: '-', ad: '&', de: '*', co: '~', pl: '+', mi: '-', ml: '*', dv: '/', rm: '%',
    an: '&', or: '|', eo: '^', aS: '=', pL: '+=', mI: '-=', mL: '*=', dV: '/=', rM: '%=', aN: '&=', oR: '|=', eO: '^=', ls: '<<', rs: '>>',
    lS: '<<=', rS: '>>=', eq: '==', ne: '!=', lt: '<', gt: '>', le: '<=', ge: '>=', ss: '<=>', nt: '!', aa: '&&', oo: '||', pp: '++', mm: '--',
    cm: ',', pm: '->*', pt: '->', cl: '()', ix: '[]',
};
const STD_SUBS = {
    a: 'std::allocator', b: 'std::basic_string', s: 'std::string', i: 'std::istream', o: 'std::ostream', d: 'std::iostream',
};
class Fail extends Error {
}
/** Substitutions can make the text grow exponentially (CUTLASS 3 kernels): past this, give up. */
const MAX_TEXT = 8192;
class Parser {
    s;
    pos = 0;
    subs = [];
    templateArgs = [];
    constructor(s) {
        this.s = s;
    }
    peek(offset = 0) {
        return this.s[this.pos + offset] ?? '';
    }
    eat(text) {
        if (!this.s.startsWith(text, this.pos))
            return false;
        this.pos += text.length;
        return true;
    }
    expect(text) {
        if (!this.eat(text))
            throw new Fail();
    }
    get done() {
        return this.pos >= this.s.length;
    }
    get rest() {
        return this.s.slice(this.pos);
    }
    number() {
        const match = /^n?\d+/.exec(this.rest);
        if (!match)
            throw new Fail();
        this.pos += match[0].length;
        return Number(match[0].replace('n', '-'));
    }
    /** `S_` = 0, `S0_` = 1 … (base 36, digits then upper-case letters). */
    seqId() {
        if (this.eat('_'))
            return 0;
        const match = /^[0-9A-Z]+/.exec(this.rest);
        if (!match)
            throw new Fail();
        this.pos += match[0].length;
        this.expect('_');
        return parseInt(match[0], 36) + 1;
    }
    /** A function's encoding; a local name's enclosing function is printed without its return type, as c++filt does. */
    encoding(withReturn = true) {
        const name = this.name(true);
        if (this.done || this.peek() === 'E' || this.peek() === '.')
            return name.text;
        const saved = this.templateArgs;
        if (name.args)
            this.templateArgs = name.args;
        const returnType = name.templated && !name.ctor ? this.type() : '';
        const ret = withReturn && returnType ? `${returnType} ` : '';
        const params = [];
        while (!this.done && this.peek() !== 'E' && this.peek() !== '.')
            params.push(this.type());
        this.templateArgs = saved;
        const list = params.length === 1 && params[0] === 'void' ? '' : params.join(', ');
        return `${ret}${name.text}(${list})${name.cv ?? ''}`;
    }
    name(isFunction) {
        if (this.peek() === 'N')
            return this.nestedName(isFunction);
        if (this.peek() === 'Z')
            return this.localName(isFunction);
        let text;
        if (this.eat('St'))
            text = `std::${this.unqualified().text}`;
        else if (this.peek() === 'S') {
            text = this.substitution();
            if (this.peek() !== 'I')
                throw new Fail();
        }
        else {
            const unqualified = this.unqualified();
            text = unqualified.text;
        }
        if (this.peek() === 'I') {
            this.subs.push(text);
            const args = this.templateArgList();
            return { text: `${text}${this.wrap(args)}`, templated: true, ctor: false, args };
        }
        return { text, templated: false, ctor: false };
    }
    wrap(args) {
        const inner = args.join(', ');
        if (inner.length > MAX_TEXT)
            throw new Fail();
        return `<${inner}${inner.endsWith('>') ? ' ' : ''}>`;
    }
    nestedName(isFunction) {
        this.expect('N');
        let cv = '';
        while (/[rVK]/.test(this.peek())) {
            const q = this.peek();
            this.pos += 1;
            cv = `${q === 'K' ? ' const' : q === 'V' ? ' volatile' : ' restrict'}${cv}`;
        }
        if (this.eat('R'))
            cv += ' &';
        else if (this.eat('O'))
            cv += ' &&';
        let soFar = '';
        let last = { text: '', templated: false, ctor: false };
        let lastComponent = '';
        let pushed = 0;
        while (!this.eat('E')) {
            if (this.peek() === 'I') {
                if (!soFar)
                    throw new Fail();
                const args = this.templateArgList();
                soFar = `${soFar}${this.wrap(args)}`;
                last = { text: soFar, templated: true, ctor: false, args };
            }
            else if (this.peek() === 'T') {
                soFar = this.templateParam();
                last = { text: soFar, templated: false, ctor: false };
            }
            else if (this.peek() === 'S' && this.peek(1) !== 't') {
                if (soFar)
                    throw new Fail();
                soFar = this.substitution();
                last = { text: soFar, templated: false, ctor: false };
                lastComponent = soFar.split('::').pop().replace(/<.*$/, '');
                continue;
            }
            else {
                if (this.eat('St'))
                    soFar = 'std';
                const component = this.unqualified(lastComponent);
                soFar = soFar ? `${soFar}::${component.text}` : component.text;
                lastComponent = component.text.replace(/<.*$/, '');
                last = { text: soFar, templated: false, ctor: component.ctor };
            }
            this.subs.push(soFar);
            pushed += 1;
            this.eat('M');
        }
        if (pushed === 0 && !soFar)
            throw new Fail();
        // The whole name of a function is no substitution candidate; its prefixes are.
        if (pushed > 0)
            this.subs.pop();
        if (!isFunction)
            this.subs.push(soFar);
        return { ...last, text: soFar, ...(cv ? { cv } : {}) };
    }
    localName(isFunction) {
        this.expect('Z');
        const saved = this.templateArgs;
        const outer = this.encoding(false);
        this.templateArgs = saved;
        this.expect('E');
        if (this.eat('s')) {
            this.discriminator();
            return { text: `${outer}::string literal`, templated: false, ctor: false };
        }
        const inner = this.name(isFunction);
        this.discriminator();
        return { ...inner, text: `${outer}::${inner.text}` };
    }
    discriminator() {
        if (this.peek() !== '_')
            return;
        if (this.eat('__')) {
            this.number();
            this.expect('_');
        }
        else {
            this.pos += 1;
            this.number();
        }
    }
    unqualified(enclosing = '') {
        let name;
        const c = this.peek();
        if (/\d/.test(c))
            name = { text: this.sourceName(), templated: false, ctor: false };
        else if (this.eat('Ut')) {
            const n = /^\d*/.exec(this.rest)[0];
            this.pos += n.length;
            this.expect('_');
            name = { text: `{unnamed type#${n === '' ? 1 : Number(n) + 2}}`, templated: false, ctor: false };
        }
        else if (this.eat('Ul')) {
            const params = [];
            while (!this.eat('E'))
                params.push(this.type());
            const n = /^\d*/.exec(this.rest)[0];
            this.pos += n.length;
            this.expect('_');
            const list = params.length === 1 && params[0] === 'void' ? '' : params.join(', ');
            name = { text: `{lambda(${list})#${n === '' ? 1 : Number(n) + 2}}`, templated: false, ctor: false };
        }
        else if (c === 'C' && /[1-5]/.test(this.peek(1))) {
            this.pos += 2;
            name = { text: enclosing, templated: false, ctor: true };
        }
        else if (c === 'D' && /[0-5]/.test(this.peek(1))) {
            this.pos += 2;
            name = { text: `~${enclosing}`, templated: false, ctor: true };
        }
        else if (this.eat('cv')) {
            name = { text: `operator ${this.type()}`, templated: false, ctor: true };
        }
        else if (OPERATORS[this.s.slice(this.pos, this.pos + 2)]) {
            const op = OPERATORS[this.s.slice(this.pos, this.pos + 2)];
            this.pos += 2;
            name = { text: `operator${/^[a-z]/.test(op) ? ' ' : ''}${op}`, templated: false, ctor: false };
        }
        else
            throw new Fail();
        while (this.eat('B'))
            name = { ...name, text: `${name.text}[abi:${this.sourceName()}]` };
        return name;
    }
    sourceName() {
        const length = this.number();
        if (length <= 0 || this.pos + length > this.s.length)
            throw new Fail();
        const id = this.s.slice(this.pos, this.pos + length);
        this.pos += length;
        return /^_GLOBAL__N/.test(id) ? '(anonymous namespace)' : id;
    }
    substitution() {
        this.expect('S');
        const std = STD_SUBS[this.peek()];
        if (std) {
            this.pos += 1;
            return std;
        }
        const index = this.seqId();
        const sub = this.subs[index];
        if (sub === undefined)
            throw new Fail();
        return sub;
    }
    templateParam() {
        this.expect('T');
        const index = this.seqId();
        return this.templateArgs[index] ?? `T${index}`;
    }
    templateArgList() {
        this.expect('I');
        const args = [];
        while (!this.eat('E'))
            args.push(this.templateArg());
        return args;
    }
    templateArg() {
        if (this.peek() === 'L')
            return this.literal();
        if (this.eat('X')) {
            // Expressions are out of scope beyond a parameter or a literal.
            const inner = this.peek() === 'T' ? this.templateParam() : this.peek() === 'L' ? this.literal() : undefined;
            if (inner === undefined)
                throw new Fail();
            this.expect('E');
            return inner;
        }
        if (this.eat('J')) {
            const pack = [];
            while (!this.eat('E'))
                pack.push(this.templateArg());
            return pack.join(', ');
        }
        return this.type();
    }
    literal() {
        this.expect('L');
        if (this.eat('_Z')) {
            const text = this.encoding();
            this.expect('E');
            return text;
        }
        if (this.peek() === 'Z') {
            const text = this.encoding();
            this.expect('E');
            return text;
        }
        const c = this.peek();
        if (c === 'b' && /[01]/.test(this.peek(1)) && this.peek(2) === 'E') {
            this.pos += 3;
            return this.s[this.pos - 2] === '1' ? 'true' : 'false';
        }
        if (BUILTIN[c] && c !== 'v' && /[n\d]/.test(this.peek(1))) {
            this.pos += 1;
            const value = this.number();
            this.expect('E');
            return c === 'i' ? String(value) : c in LITERAL_SUFFIX ? `${value}${LITERAL_SUFFIX[c]}` : `(${BUILTIN[c]})${value}`;
        }
        const type = this.type();
        if (this.eat('E'))
            return `(${type})`;
        const value = this.number();
        this.expect('E');
        return `(${type})${value}`;
    }
    type() {
        const c = this.peek();
        if (BUILTIN[c]) {
            this.pos += 1;
            return BUILTIN[c];
        }
        if (c === 'u') {
            this.pos += 1;
            return this.sourceName();
        }
        if (c === 'D') {
            if (D_BUILTIN[this.peek(1)]) {
                this.pos += 2;
                return D_BUILTIN[this.s[this.pos - 1]];
            }
            if (this.eat('DF')) {
                const bits = this.number();
                this.expect('_');
                return `_Float${bits}`;
            }
            if (this.eat('Dp')) {
                const text = `${this.type()}...`;
                this.subs.push(text);
                return text;
            }
            throw new Fail();
        }
        if (/[rVK]/.test(c)) {
            let quals = '';
            while (/[rVK]/.test(this.peek())) {
                const q = this.peek();
                this.pos += 1;
                quals = `${quals} ${q === 'K' ? 'const' : q === 'V' ? 'volatile' : 'restrict'}`;
            }
            const text = this.qualify(this.type(), quals.trim());
            this.subs.push(text);
            return text;
        }
        if (c === 'P' || c === 'R' || c === 'O') {
            this.pos += 1;
            const inner = this.type();
            const text = this.pointerTo(inner, c === 'P' ? '*' : c === 'R' ? '&' : '&&');
            this.subs.push(text);
            return text;
        }
        if (c === 'F') {
            this.pos += 1;
            this.eat('Y');
            const ret = this.type();
            const params = [];
            while (!this.eat('E')) {
                if (this.eat('R') || this.eat('O')) {
                    this.expect('E');
                    break;
                }
                params.push(this.type());
            }
            const list = params.length === 1 && params[0] === 'void' ? '' : params.join(', ');
            const text = `${ret} (${list})`;
            this.subs.push(text);
            return text;
        }
        if (c === 'A') {
            this.pos += 1;
            const dim = /^\d*/.exec(this.rest)[0];
            this.pos += dim.length;
            this.expect('_');
            const text = `${this.type()} [${dim}]`;
            this.subs.push(text);
            return text;
        }
        if (c === 'T') {
            let text = this.templateParam();
            this.subs.push(text);
            if (this.peek() === 'I') {
                text = `${text}${this.wrap(this.templateArgList())}`;
                this.subs.push(text);
            }
            return text;
        }
        if (c === 'S') {
            if (this.peek(1) === 't') {
                const name = this.name(false);
                this.subs.push(name.text);
                return name.text;
            }
            let text = this.substitution();
            if (this.peek() === 'I') {
                text = `${text}${this.wrap(this.templateArgList())}`;
                this.subs.push(text);
            }
            return text;
        }
        if (c === 'N' || c === 'Z' || /\d/.test(c)) {
            const name = this.name(false);
            // A nested name pushed itself; a plain or local name is pushed here.
            if (c !== 'N')
                this.subs.push(name.text);
            return name.text;
        }
        throw new Fail();
    }
    /** `char const*` as c++filt writes it; pointers to functions get `(*)`. */
    pointerTo(inner, op) {
        const fn = /^(.*) \((.*)\)$/.exec(inner);
        if (fn && !inner.endsWith(')::'))
            return `${fn[1]} (${op})(${fn[2]})`;
        return `${inner}${op}`;
    }
    qualify(inner, quals) {
        return `${inner} ${quals}`;
    }
}
/**
 * The demangled spelling of an Itanium-mangled name (`_Z…`, with optional `.suffix` clones kept
 * out), or undefined when it is not one or uses a construct outside the supported subset.
 */
function demangle(mangled) {
    const symbol = mangled.trim();
    if (!/^_Z[A-Za-z0-9_]/.test(symbol))
        return undefined;
    const parser = new Parser(symbol.slice(2));
    try {
        const text = parser.encoding();
        // Clone suffixes (`.isra.0`, `.cold`) are not part of the name.
        if (!parser.done && !/^(\.[A-Za-z0-9_]+)+$/.test(parser.rest))
            return undefined;
        return text;
    }
    catch (error) {
        if (error instanceof Fail || error instanceof RangeError)
            return undefined;
        throw error;
    }
}

;// CONCATENATED MODULE: ./src/classify/kernel-name.ts
/**
 * Kernel-name helpers shared by the classifier and the rules. Profilers print the same kernel with an
 * architecture prefix (sm90_, SM100_), a build hash (MAX `_f519d2c2`), a ROCm code-object suffix
 * (`.kd`, ` [clone .kd]`) or a `void ` return type; none of these may decide a family.
 */

const ARCH_PREFIX = /^(?:sm|SM)\d+[a-z]?_/;
const AMD_PREFIX = /^amd_/;
const GFX_TAG = /_gfx9[0-9a-f]{1,3}(?=_|$)/gi;
const HASH_SUFFIX = /_[0-9a-f]{8}$/;
const KD_SUFFIX = /(?:\s*\[clone \.kd\]|\.kd)$/;
/** The name with prefixes and suffixes that vary by architecture or build removed. */
function normalizeKernelName(raw) {
    let name = raw.trim().replace(KD_SUFFIX, '');
    name = name.replace(/^void\s+/, '');
    name = name.replace(ARCH_PREFIX, '').replace(AMD_PREFIX, '').replace(GFX_TAG, '');
    // A MAX hash is 8 hex digits with at least one digit (so `_bfloat16` or `_deadbeef` words survive).
    const hash = HASH_SUFFIX.exec(name);
    if (hash && /\d/.test(hash[0]))
        name = name.slice(0, hash.index);
    return name;
}
/** Remove balanced `<…>` and `(…)` groups (template arguments, parameter lists). */
function stripGroups(name) {
    let out = '';
    let depth = 0;
    for (const ch of name) {
        if (ch === '<' || ch === '(')
            depth += 1;
        else if ((ch === '>' || ch === ')') && depth > 0)
            depth -= 1;
        else if (depth === 0)
            out += ch;
    }
    return out;
}
/** The first template argument when it is a type name worth matching on (e.g. a CUTLASS kernel config). */
function firstTemplateIdentifier(name) {
    const open = name.indexOf('<');
    if (open < 0)
        return undefined;
    const arg = /^([A-Za-z_][A-Za-z0-9_:]*)/.exec(name.slice(open + 1).trimStart())?.[1];
    return arg && arg.length >= 12 && arg.includes('_') ? arg : undefined;
}
/** Regex-escape for a kernel-name filter. */
function escapeRegex(text) {
    // Control characters (a NUL in a name) as \xHH: a shell argument cannot hold a NUL, and a
    // rendered report would show them as spaces, which match nothing.
    return text
        .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        .replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
/**
 * The part of a kernel name that names it across builds: plain names lose their hash suffix;
 * templated C++ names keep their qualified function name (and a distinctive first template argument).
 */
function kernelStem(raw) {
    const name = raw.trim().replace(KD_SUFFIX, '');
    if (!/[<(]/.test(name)) {
        const hash = HASH_SUFFIX.exec(name);
        const base = hash && /\d/.test(hash[0]) ? name.slice(0, hash.index) : name;
        return { regex: escapeRegex(base), demangled: false };
    }
    const tokens = stripGroups(name).trim().split(/\s+/);
    const qualified = tokens[tokens.length - 1] ?? name;
    const open = name.indexOf(qualified);
    const arg = open >= 0 ? firstTemplateIdentifier(name.slice(open)) : undefined;
    if (arg)
        return { regex: escapeRegex(`${qualified}<${arg}`), demangled: true };
    // A bare, short name (`kernel`, as Nsight Compute prints cuBLAS's gemv) would select any kernel:
    // anchor it on the longest identifier among its template arguments.
    if (qualified.length < 12 && !qualified.includes('::') && open >= 0) {
        const identifiers = name.slice(open + qualified.length).match(/[A-Za-z_][A-Za-z0-9_]{7,}/g) ?? [];
        const longest = identifiers.reduce((best, id) => (!best || id.length > best.length ? id : best), undefined);
        if (longest)
            return { regex: `${escapeRegex(qualified)}<.*${escapeRegex(longest)}`, demangled: true };
    }
    return { regex: escapeRegex(qualified), demangled: true };
}
/** Top-level ranges of a balanced pair, scanning back from `end` (exclusive); -1 when unbalanced. */
function openingOf(text, close, open, shut) {
    let depth = 0;
    for (let i = close; i >= 0; i -= 1) {
        const ch = text[i];
        if (ch === shut)
            depth += 1;
        else if (ch === open && --depth === 0)
            return i;
    }
    return -1;
}
/** Spellings of an anonymous namespace across tools (c++filt, nsys/ncu, ncu's clipped `unnamed>`). */
const ANONYMOUS = /\(anonymous namespace\)|<unnamed>|\{anonymous\}|(?<![A-Za-z0-9_<])unnamed>/g;
/** C-style casts that nsys puts before template literals: `(int)128`, `(bool)1`, `(unsigned long)3`, `(ggml_type)2`. */
const LITERAL_CAST = /\([A-Za-z_][A-Za-z0-9_:]*(?: [A-Za-z_][A-Za-z0-9_:]*)*\)(?=-?\d)/g;
/**
 * The kernel's function name and its template arguments, with return type, parameter list and
 * namespaces taken off; undefined for a name that is not C++ (plain C, Triton, cuBLAS `nvjet_…`).
 */
function splitCppName(name) {
    let text = name.replace(ANONYMOUS, 'anon').replace(LITERAL_CAST, '').trim();
    // The parameter list: the last top-level (…) group at the end.
    if (text.endsWith(')')) {
        const open = openingOf(text, text.length - 1, '(', ')');
        if (open > 0)
            text = text.slice(0, open).trimEnd();
    }
    let args = '';
    let end = text.length;
    if (text.endsWith('>')) {
        const open = openingOf(text, text.length - 1, '<', '>');
        if (open <= 0)
            return undefined;
        args = text.slice(open + 1, -1);
        end = open;
    }
    // The qualified name runs back to the space before it (after a return type such as `void`).
    const head = text.slice(0, end);
    const qualified = head.slice(head.lastIndexOf(' ') + 1);
    const base = qualified.slice(qualified.lastIndexOf('::') + 1).replace(/^:/, '');
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(base))
        return undefined;
    if (args === '' && qualified === name.trim())
        return undefined;
    return { base, args };
}
/**
 * Identifiers in template arguments that never tell two kernels apart: builtin and library value
 * types, containers, lambda and operator spellings, and the wrappers ATen and CUTLASS put around
 * the functor that names the work (`gpu_kernel_impl_nocast<direct_copy…>`, `BinaryFunctor<…, MulFunctor>`).
 */
const NOISE = new Set([
    'void', 'bool', 'char', 'short', 'int', 'long', 'float', 'double', 'unsigned', 'signed', 'const', 'volatile', 'true', 'false', 'auto',
    'size_t', 'int8_t', 'int16_t', 'int32_t', 'int64_t', 'uint8_t', 'uint16_t', 'uint32_t', 'uint64_t', 'half', '__half', 'half_t',
    '__nv_bfloat16', '__nv_half', 'BFloat16', 'Half', 'bfloat16_t', 'float_e4m3_t', 'float_e5m2_t', 'Float8_e4m3fn', 'Float8_e5m2',
    '__nv_fp8_e4m3', '__nv_fp8_e5m2', 'complex', 'std', 'array', 'Array', 'tuple', 'pair', 'lambda', 'instance', 'operator', 'type',
    'anon', 'enable_if', 'TensorIteratorBase', 'TensorIterator', 'Scalar', 'HIP_vector_type', 'OpaqueType', 'TrivialOffsetCalculator',
    'OffsetCalculator', 'LoadWithCast', 'StoreWithCast', 'LoadWithoutCast', 'StoreWithoutCast', 'gpu_kernel_impl', 'gpu_kernel_impl_nocast',
    'BinaryFunctor', 'UnaryFunctor', 'AUnaryFunctor', 'BUnaryFunctor', 'ReduceOp', 'func_wrapper_t', 'Params', 'result_type', 'function_traits',
]);
/** The first identifier of the template arguments that names the work (a functor, an op, a config). */
function distinguishingFunctor(args) {
    for (const match of args.matchAll(/[A-Za-z_][A-Za-z0-9_]*(?:::)?/g)) {
        const id = match[0];
        // Namespace and class qualifiers (`at::`) name where, not what; T1, T2 are template parameters.
        if (id.endsWith('::') || NOISE.has(id) || /^T\d*$/.test(id))
            continue;
        return id;
    }
    return undefined;
}
/**
 * One key for a kernel however a tool spells it: nsys (`at::native::elementwise_kernel<(int)128, …>`),
 * Nsight Compute (`at::elementwise_kernel<128, …>`), Kineto (`{lambda()#3}`, `std::array<char*, 2ul>`),
 * rocprof (`… [clone .kd]`, `_Z…` mangled). A C++ kernel keys on its unqualified function name and
 * the functor that distinguishes it (`elementwise_kernel<direct_copy_kernel_cuda>`); a plain name
 * on itself without a build hash. Kernels that differ only in numbers or value types (the float
 * and bf16 copies) share a key: `kernelSignature` tells them apart.
 */
function kernelKey(raw) {
    const name = demangledName(raw);
    const cpp = splitCppName(name);
    if (!cpp) {
        const hash = HASH_SUFFIX.exec(name);
        return hash && /\d/.test(hash[0]) ? name.slice(0, hash.index) : name;
    }
    const functor = distinguishingFunctor(cpp.args);
    return functor ? `${cpp.base}<${functor}>` : cpp.base;
}
/**
 * The function name and its whole template arguments in one spelling (demangled; namespaces, casts,
 * const, spaces, lambda numbering and the parameter list dropped; ncu also eats the `const::[` of
 * nested lambdas), to choose among kernels that
 * share a key: equal signatures are the same instantiation.
 */
function kernelSignature(raw) {
    const name = demangledName(raw);
    const cpp = splitCppName(name);
    if (!cpp)
        return kernelKey(raw);
    const args = cpp.args
        .replace(/\[?lambda\(([^()]*)\) \(instance \d+\)\]?|\{lambda\(([^()]*)\)#\d+\}/g, (_m, a, b) => `lambda(${a ?? b ?? ''})`)
        .replace(/\b(\d+)(?:ul|ull|u|l|ll)\b/g, '$1')
        .replace(/\b[A-Za-z_][A-Za-z0-9_]*::/g, '')
        .replace(/\bconst\b|\s+|:+(?=lambda|operator)/g, '');
    return `${cpp.base}<${args}>`;
}
/** The name as a demangler prints it, without ROCm's code-object suffix. */
function demangledName(raw) {
    const name = raw.trim().replace(KD_SUFFIX, '');
    return demangle(name) ?? name;
}
const keyIndexes = new WeakMap();
/** The kernels by key, built once per kernel list (a breakdown may hold 100,000 kernels; several rules ask). */
function byKey(kernels) {
    let index = keyIndexes.get(kernels);
    if (!index) {
        index = new Map();
        for (const kernel of kernels) {
            const key = kernelKey(kernel.name);
            const list = index.get(key);
            if (list)
                list.push(kernel);
            else
                index.set(key, [kernel]);
        }
        keyIndexes.set(kernels, index);
    }
    return index;
}
/**
 * The kernel of `kernels` that `raw` (another tool's spelling) names: the same name, else the same
 * key, preferring the same signature, then the most time. Undefined when no kernel has its key.
 */
function matchKernel(raw, kernels) {
    const exact = kernels.find((k) => k.name === raw);
    if (exact)
        return exact;
    const sameKey = byKey(kernels).get(kernelKey(raw)) ?? [];
    if (sameKey.length <= 1)
        return sameKey[0];
    const signature = kernelSignature(raw);
    const sameSignature = sameKey.filter((k) => kernelSignature(k.name) === signature);
    const pool = sameSignature.length ? sameSignature : sameKey;
    return pool.reduce((best, k) => (k.totalNs > best.totalNs ? k : best));
}

;// CONCATENATED MODULE: ./src/diagnose/deep-dive-request.ts
/**
 * A finding's request for an Nsight Compute deep dive, as data: which kernel (its name, its key and
 * the filter ncu selects it by), which launch, which sections. `profile-gate run` turns it into
 * argv; people read it as a command. Both come from `ncuArgs` here, so the two never disagree.
 */

/** Sections of a first deep dive: the bound (SpeedOfLight), the grid and occupancy, bytes moved and warp stalls. */
const DEEP_DIVE_SECTIONS = ['SpeedOfLight', 'Occupancy', 'LaunchStats', 'MemoryWorkloadAnalysis', 'WarpStateStats'];
/** Launches to skip so the profiled one is in steady state: the middle of the captured launches. */
function steadyLaunchSkip(instances) {
    return Math.max(0, Math.min(instances - 1, Math.floor(instances / 2)));
}
/**
 * How ncu selects the kernel. A C++ kernel with a distinguishing functor is matched on its
 * demangled name by the function name and the functor only: tools disagree about everything else
 * (nsys writes `at::native::elementwise_kernel<(int)128, …>`, ncu `at::elementwise_kernel<128, …>`).
 * A C++ kernel without one is matched on ncu's function base (the bare function name); a plain
 * name on itself.
 */
function ncuKernelFilter(raw) {
    const key = kernelKey(raw);
    const templated = /^([A-Za-z_][A-Za-z0-9_]*)<([A-Za-z_][A-Za-z0-9_]*)>$/.exec(key);
    if (templated)
        return { nameRegex: `(^|[^A-Za-z0-9_])${templated[1]}<.*${escapeRegex(templated[2])}`, demangled: true };
    if (/[<(]/.test(raw) || raw.trim().startsWith('_Z'))
        return { nameRegex: `^${escapeRegex(key)}$`, demangled: false };
    return { nameRegex: kernelStem(raw).regex, demangled: false };
}
function deepDiveRequest(kernel, instances, sections = DEEP_DIVE_SECTIONS) {
    return { kernel, kernelKey: kernelKey(kernel), ...ncuKernelFilter(kernel), launchSkip: steadyLaunchSkip(instances), launchCount: 1, sections: [...sections] };
}
/** ncu's arguments for the request, before the workload: clocks left alone, CSV of the details page. */
function ncuArgs(request) {
    return [
        '--clock-control', 'none',
        '--kernel-name', `regex:${request.nameRegex}`,
        ...(request.demangled ? ['--kernel-name-base', 'demangled'] : []),
        '--launch-skip', String(request.launchSkip),
        '--launch-count', String(request.launchCount),
        ...request.sections.flatMap((section) => ['--section', section]),
        '--csv', '--page', 'details',
    ];
}
/** A word as a POSIX shell reads it back: bare when safe, else single-quoted. */
function shellWord(word) {
    return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
/** The request as a command line to read and copy; the workload is left as written. */
function renderNcuCommand(request, workload) {
    // The filter is always quoted after `regex:`, as ncu's documentation writes it.
    return ['ncu', ...ncuArgs(request).map((word) => (word.startsWith('regex:') ? `regex:'${word.slice(6).replace(/'/g, `'\\''`)}'` : shellWord(word))), workload].join(' ');
}
/** A rule hit's deep-dive fields: the request, and the command people read. */
function askDeepDive(request, workload) {
    return { deepDive: request, command: renderNcuCommand(request, workload) };
}

;// CONCATENATED MODULE: ./src/model/averages.ts
/** Small order statistics shared by the model and later stages. */
function median(values) {
    if (values.length === 0)
        return Number.NaN;
    const sorted = [...values].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
function mean(values) {
    if (values.length === 0)
        return Number.NaN;
    let sum = 0;
    for (const v of values)
        sum += v;
    return sum / values.length;
}

;// CONCATENATED MODULE: ./src/diagnose/profile-measures.ts
/**
 * Measurements several rules read from a Profile: family totals, metric values and the MoE mix. Rules stay independent; they only share these readings.
 */




function familyTotals(profile, families) {
    let ns = 0;
    let instances = 0;
    for (const entry of profile.families) {
        if (!families.includes(entry.family))
            continue;
        ns += entry.totalNs;
        instances += entry.instances;
    }
    return { ns, instances, share: profile.totalKernelNs > 0 ? ns / profile.totalKernelNs : 0 };
}
function kernelsMatching(profile, pattern, families) {
    const kernels = profile.kernels.filter((k) => pattern.test(k.name) && (!families || families.includes(k.family)));
    const ns = kernels.reduce((sum, k) => sum + k.totalNs, 0);
    const instances = kernels.reduce((sum, k) => sum + k.instances, 0);
    return { kernels, ns, instances, share: profile.totalKernelNs > 0 ? ns / profile.totalKernelNs : 0 };
}
function linearTotals(profile) {
    return familyTotals(profile, LINEAR_FAMILIES);
}
function totalLaunches(profile) {
    return profile.kernels.reduce((sum, k) => sum + k.instances, 0);
}
/** The median value of a canonical metric, when the profile has it. */
function metricValue(profile, name) {
    const value = profile.metrics.find((m) => m.name === name)?.value;
    return value !== undefined && Number.isFinite(value) ? value : undefined;
}
/** The batch size from the environment, when it is a plain number. */
function batchSize(profile) {
    const match = /^\s*(\d+)\s*$/.exec(profile.environment.batch ?? '');
    return match ? Number(match[1]) : undefined;
}
/** Round for evidence: enough digits to compare, few enough to read. */
function round(value, digits = 4) {
    const factor = 10 ** digits;
    return Math.round(value * factor) / factor;
}
function percent(share) {
    return `${(share * 100).toFixed(1)}%`;
}
function ms(ns) {
    return round(ns / 1e6, 3);
}
/**
 * MoE shows as grouped matmuls, or as top-k routing that runs far more often than sampling (top-k
 * also serves top-k sampling, once per step; routing runs once per MoE layer per step).
 */
function moeMix(profile, options) {
    const moeGemm = familyTotals(profile, ['moe-gemm']);
    const routing = familyTotals(profile, ['moe-routing']);
    const gather = familyTotals(profile, ['gather-scatter']);
    const sampling = familyTotals(profile, ['sampling']);
    const linear = linearTotals(profile);
    const routedOften = routing.instances >= options.minRoutingPerSamplingLaunch * Math.max(1, sampling.instances);
    return {
        isMoe: moeGemm.share >= options.minMoeShare || (routing.share >= options.minMoeShare && routedOften),
        moeGemmShare: moeGemm.share,
        routingShare: routing.share,
        gatherShare: gather.share,
        routingRatio: linear.ns > 0 ? (routing.ns + gather.ns) / linear.ns : Number.POSITIVE_INFINITY,
        routingLaunches: routing.instances,
        samplingLaunches: sampling.instances,
    };
}

/** An Nsight Compute command for one kernel, as text, for rules that only show one (the request is in deep-dive-request.ts). */
function ncuCommand(kernelName, launchSkip, workload, sections = DEEP_DIVE_SECTIONS) {
    const stem = kernelStem(kernelName);
    return renderNcuCommand({ ...deepDiveRequest(kernelName, 1, sections), nameRegex: stem.regex, demangled: stem.demangled, launchSkip }, workload);
}
/** A rank's kernel time less its collectives: waiting inside a collective inflates the fast ranks'. */
function rankComputeNs(rank) {
    return rank.totalKernelNs - (rank.families.find((f) => f.family === 'collective')?.totalNs ?? 0);
}
/**
 * The rank with the most compute kernel time, against the median of the others; undefined unless
 * there are two or more ranks of one job (no `ranks-of-different-jobs` notice) with kernels.
 */
function stragglerOf(profile) {
    if (profile.notices.some((n) => n.code === 'ranks-of-different-jobs'))
        return undefined;
    const ranks = profile.ranks.filter((r) => r.totalKernelNs > 0);
    if (ranks.length < 2)
        return undefined;
    // Traces that cover different numbers of profiler steps are compared per step.
    const steps = ranks.map((r) => r.timeline?.steps.length ?? 0);
    const perStep = steps.every((n) => n > 0) && new Set(steps).size > 1;
    const compute = ranks.map((r, i) => rankComputeNs(r) / (perStep ? steps[i] : 1));
    const slowIndex = compute.indexOf(Math.max(...compute));
    const peerComputeNs = median(compute.filter((_, i) => i !== slowIndex));
    return {
        slow: ranks[slowIndex],
        others: ranks.filter((_, i) => i !== slowIndex),
        peerComputeNs,
        slowComputeNs: compute[slowIndex],
        perStep,
        computeExcess: peerComputeNs > 0 ? compute[slowIndex] / peerComputeNs - 1 : 0,
    };
}
/** A Python site as a finding names it: `sdpa` (llama_decode.py:142, in LlamaAttention). */
function pythonSiteText(site) {
    return `\`${site.function}\` (${site.file}:${site.line}${site.module ? `, in ${site.module}` : ''})`;
}
/**
 * Where a kernel was launched from, as the tail of a finding's sentence: the line of the workload's
 * Python (Kineto with_stack), then the op chain, each only where the trace says. Empty when it says
 * neither. A share under 90 % is given: the kernel also runs from elsewhere. A graph replay tied to
 * its capture is named by the capture's line and op, and said to be replayed.
 */
function launchOrigin(kernel) {
    const site = kernel.pythonSites?.[0];
    const op = kernel.launchedBy;
    if (!site)
        return op ? ` launched from ${op}` : '';
    const share = site.share < 0.9 ? ` (${percent(site.share)} of its time)` : '';
    const replayOnly = site.graphReplay && !site.graphCapture;
    const from = replayOnly ? ` replayed by a CUDA graph launched from ${pythonSiteText(site)}` : ` launched from ${pythonSiteText(site)}`;
    const captured = site.graphReplay && site.graphCapture ? ' (captured into a CUDA graph, then replayed)' : '';
    return `${from}${share}${op ? ` via ${op}` : ''}${captured}`;
}

;// CONCATENATED MODULE: ./src/diagnose/ncu-metrics.ts
/**
 * Nsight Compute results read for the deep-dive rules. A value is looked up by (section, label) as
 * the details page prints it, then by its raw metric names in any section (the raw page, or
 * `--metrics` rows under "Command line profiler metrics"). Several launches of one kernel are
 * represented by the launch of median duration, so every number of a finding comes from one launch.
 * Peaks and the roofline are in ncu-roofline.ts.
 */



const SOL = 'GPU Speed Of Light Throughput';
const LAUNCH = 'Launch Statistics';
const OCCUPANCY = 'Occupancy';
const MEMORY = 'Memory Workload Analysis';
const MEMORY_TABLES = 'Memory Workload Analysis Tables';
const WARPS = 'Warp State Statistics';
const SCHEDULER = 'Scheduler Statistics';
const SOURCE = 'Source Counters';
const ROOFLINE = 'GPU Speed Of Light Roofline Chart';
const metricRef = (section, label, raw, unit) => ({ section, label, raw, ...(unit ? { unit } : {}) });
const ref = metricRef;
/** The metrics the rules read, with the details label and the raw names of the same quantity. */
const NCU = {
    duration: ref(SOL, 'Duration', ['gpu__time_duration.sum', 'gpu__time_duration.avg'], 'ns'),
    compute: ref(SOL, 'Compute (SM) Throughput', ['sm__throughput.avg.pct_of_peak_sustained_elapsed']),
    memory: ref(SOL, 'Memory Throughput', ['gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed'], '%'),
    dram: ref(SOL, 'DRAM Throughput', ['gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed', 'dram__throughput.avg.pct_of_peak_sustained_elapsed']),
    l2: ref(SOL, 'L2 Cache Throughput', ['lts__throughput.avg.pct_of_peak_sustained_elapsed']),
    l1: ref(SOL, 'L1/TEX Cache Throughput', ['l1tex__throughput.avg.pct_of_peak_sustained_active']),
    smClock: ref(SOL, 'SM Frequency', ['sm__cycles_elapsed.avg.per_second', 'gpc__cycles_elapsed.avg.per_second'], 'hz'),
    dramClock: ref(SOL, 'DRAM Frequency', ['dram__cycles_elapsed.avg.per_second'], 'hz'),
    dramBytesPerSecond: ref(MEMORY, 'Memory Throughput', ['dram__bytes.sum.per_second'], 'byte/s'),
    dramBytes: ref('', '', ['dram__bytes.sum'], 'byte'),
    dramBytesRead: ref('', '', ['dram__bytes_read.sum'], 'byte'),
    dramBytesWrite: ref('', '', ['dram__bytes_write.sum'], 'byte'),
    grid: ref(LAUNCH, 'Grid Size', ['launch__grid_size']),
    block: ref(LAUNCH, 'Block Size', ['launch__block_size']),
    smCount: ref(LAUNCH, '# SMs', ['launch__sm_count', 'device__attribute_multiprocessor_count']),
    waves: ref(LAUNCH, 'Waves Per SM', ['launch__waves_per_multiprocessor']),
    registers: ref(LAUNCH, 'Registers Per Thread', ['launch__registers_per_thread']),
    theoreticalOccupancy: ref(OCCUPANCY, 'Theoretical Occupancy', ['sm__maximum_warps_per_active_cycle_pct']),
    achievedOccupancy: ref(OCCUPANCY, 'Achieved Occupancy', ['sm__warps_active.avg.pct_of_peak_sustained_active']),
    limitRegisters: ref(OCCUPANCY, 'Block Limit Registers', ['launch__occupancy_limit_registers']),
    limitSharedMem: ref(OCCUPANCY, 'Block Limit Shared Mem', ['launch__occupancy_limit_shared_mem']),
    limitWarps: ref(OCCUPANCY, 'Block Limit Warps', ['launch__occupancy_limit_warps']),
    limitBlocks: ref(OCCUPANCY, 'Block Limit SM', ['launch__occupancy_limit_blocks']),
    warpCycles: ref(WARPS, 'Warp Cycles Per Issued Instruction', ['smsp__average_warp_latency_per_inst_issued.ratio']),
    eligibleWarps: ref(SCHEDULER, 'Eligible Warps Per Scheduler', ['smsp__warps_eligible.avg.per_cycle_active']),
    globalExcessSectors: ref(SOURCE, 'L2 Theoretical Sectors Global Excessive', ['derived__memory_l2_theoretical_sectors_global_excessive']),
    globalIdealSectors: ref(SOURCE, 'L2 Theoretical Sectors Global Ideal', ['memory_l2_theoretical_sectors_global_ideal']),
    sharedExcessWavefronts: ref(SOURCE, 'L1 Wavefronts Shared Excessive', ['derived__memory_l1_wavefronts_shared_excessive']),
    sharedIdealWavefronts: ref(SOURCE, 'L1 Wavefronts Shared Ideal', ['memory_l1_wavefronts_shared_ideal']),
    globalLoadBytesPerSector: ref(MEMORY_TABLES, 'Average Bytes Per Sector For Global Loads', ['smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio']),
    tensorPipe: ref('', '', ['sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed']),
    smspClock: ref('', '', ['smsp__cycles_elapsed.avg.per_second'], 'hz'),
};
function numeric(metric, unit) {
    if (!metric || typeof metric.value !== 'number' || !Number.isFinite(metric.value))
        return undefined;
    return unit && metric.unit !== unit ? undefined : metric.value;
}
/** One value of a result: its details label first, then its raw names; undefined when not captured. */
function ncuValue(result, metric) {
    if (metric.label) {
        const labelled = numeric(result.metrics.find((m) => m.section === metric.section && m.name === metric.label && typeof m.value === 'number'), metric.unit);
        if (labelled !== undefined)
            return labelled;
    }
    for (const name of metric.raw) {
        const value = numeric(result.metrics.find((m) => m.name === name && typeof m.value === 'number'), metric.unit);
        if (value !== undefined)
            return value;
    }
    return undefined;
}
const STALLS = [
    ['long_scoreboard', 'Stall Long Scoreboard'],
    ['short_scoreboard', 'Stall Short Scoreboard'],
    ['wait', 'Stall Wait'],
    ['barrier', 'Stall Barrier'],
    ['mio_throttle', 'Stall MIO Throttle'],
    ['lg_throttle', 'Stall LG Throttle'],
    ['math_pipe_throttle', 'Stall Math Pipe Throttle'],
    ['not_selected', 'Stall Not Selected'],
    ['dispatch_stall', 'Stall Dispatch Stall'],
    ['no_instruction', 'Stall No Instruction'],
    ['branch_resolving', 'Stall Branch Resolving'],
    ['drain', 'Stall Drain'],
    ['membar', 'Stall Membar'],
    ['sleeping', 'Stall Sleeping'],
    ['tex_throttle', 'Stall Tex Throttle'],
    ['imc_miss', 'Stall IMC Miss'],
    ['gmma', 'Stall GMMA'],
    ['misc', 'Stall Misc'],
];
/** The warp stall reason with the most cycles per issued instruction (WarpStateStats), when captured. */
function topStall(result) {
    let best;
    for (const [reason, label] of STALLS) {
        const cycles = ncuValue(result, ref(WARPS, label, [`smsp__average_warps_issue_stalled_${reason}_per_issue_active.ratio`]));
        if (cycles !== undefined && cycles > (best?.cycles ?? 0))
            best = { reason, cycles };
    }
    return best;
}
/** Achieved DRAM bytes/s: the capture's rate, else DRAM bytes ÷ duration. */
function dramBytesPerSecond(result) {
    const rate = ncuValue(result, NCU.dramBytesPerSecond);
    if (rate !== undefined)
        return rate;
    const duration = ncuValue(result, NCU.duration);
    const read = ncuValue(result, NCU.dramBytesRead);
    const bytes = ncuValue(result, NCU.dramBytes) ?? (read !== undefined ? read + (ncuValue(result, NCU.dramBytesWrite) ?? 0) : undefined);
    return bytes !== undefined && duration ? bytes / (duration / 1e9) : undefined;
}
/**
 * One entry per profiled kernel, in the order the capture first lists them, each matched by its
 * normalized key to the kernel of the breakdown it is (nsys, Kineto and rocprof spell names their
 * own way). When the breakdown is ncu's own rows (an ncu-only input), they give the family only:
 * replayed launches say nothing about shares.
 */
function deepDiveKernels(results, kernels = []) {
    const byKernel = new Map();
    for (const result of results)
        byKernel.set(result.kernel, [...(byKernel.get(result.kernel) ?? []), result]);
    const ncuOwn = kernels.every((k) => byKernel.has(k.name));
    return [...byKernel.entries()].map(([name, launches]) => {
        const sorted = [...launches].sort((a, b) => (ncuValue(a, NCU.duration) ?? 0) - (ncuValue(b, NCU.duration) ?? 0) || a.id - b.id);
        const match = matchKernel(name, kernels);
        const dive = { kernel: name, ncuKernel: name, result: sorted[(sorted.length - 1) >> 1], launches: launches.length };
        if (match?.family)
            dive.family = match.family;
        if (match && !ncuOwn) {
            dive.kernel = match.name;
            dive.breakdown = { name: match.name, share: match.share, instances: match.instances, totalNs: match.totalNs, family: match.family ?? 'other' };
        }
        return dive;
    });
}
/** Where a deep-dive finding's kernel sits in the breakdown, as evidence (nothing for an ncu-only input). */
function breakdownEvidence(dive) {
    if (!dive.breakdown)
        return {};
    return {
        share: round(dive.breakdown.share),
        ...(dive.breakdown.name !== dive.ncuKernel ? { ncuKernel: displayKernel(dive.ncuKernel) } : {}),
    };
}
/** " (57.0% of GPU kernel time)" after the kernel's name, when the breakdown has it. */
function shareText(dive) {
    return dive.breakdown ? ` (${(dive.breakdown.share * 100).toFixed(1)}% of GPU kernel time)` : '';
}
/** The follow-up ncu request for this kernel with the sections that show the cause. */
function followUp(dive, sections) {
    return deepDiveRequest(dive.kernel, dive.breakdown?.instances ?? dive.launches, sections);
}
const UNIT_REFS = { DRAM: NCU.dram, L2: NCU.l2, 'L1/TEX': NCU.l1 };
/** The busiest of the given memory units by their SpeedOfLight throughput, or undefined. */
function busiestMemory(result, units = ['DRAM', 'L2', 'L1/TEX']) {
    let best;
    for (const unit of units) {
        const percent = ncuValue(result, UNIT_REFS[unit]);
        if (percent !== undefined && percent > (best?.percent ?? -1))
            best = { unit, percent };
    }
    return best;
}
/**
 * The memory side of SpeedOfLight: ncu's own Memory Throughput (its summary of the memory
 * hierarchy, the figure its SOLBottleneck rule weighs against compute), named after the unit whose
 * headline is closest to it (DRAM when within a point; `memory pipes` when every level is more than
 * two points off, as on vllm.cpp's GB10 GEMV). Without it, the busiest unit.
 */
function memoryThroughput(result) {
    const percent = ncuValue(result, NCU.memory);
    if (percent === undefined)
        return busiestMemory(result);
    const dram = ncuValue(result, NCU.dram);
    if (dram !== undefined && Math.abs(dram - percent) <= 1)
        return { unit: 'DRAM', percent };
    let unit = 'memory pipes';
    let distance = Infinity;
    for (const candidate of ['DRAM', 'L2', 'L1/TEX']) {
        const value = ncuValue(result, UNIT_REFS[candidate]);
        if (value !== undefined && Math.abs(value - percent) < distance)
            [unit, distance] = [candidate, Math.abs(value - percent)];
    }
    // Without any level headline, name the unit as before (DRAM); with levels all far from it, none of them.
    if (distance === Infinity)
        unit = 'DRAM';
    else if (distance > 2)
        unit = 'memory pipes';
    return { unit, percent };
}
/** The higher of compute and memory throughput, 0 when neither was captured. */
function roofPercent(result) {
    return Math.max(ncuValue(result, NCU.compute) ?? 0, memoryThroughput(result)?.percent ?? 0);
}
/** Waves per SM: the capture's own figure, else grid ÷ (SMs × resident blocks per SM). */
function wavesPerSm(result) {
    const waves = ncuValue(result, NCU.waves);
    if (waves !== undefined)
        return { waves, source: 'launch-stats' };
    const grid = gridBlocks(result);
    const sms = ncuValue(result, NCU.smCount);
    const limits = [NCU.limitRegisters, NCU.limitSharedMem, NCU.limitWarps, NCU.limitBlocks].map((m) => ncuValue(result, m)).filter((v) => v !== undefined && v > 0);
    if (grid === undefined || !sms || limits.length === 0)
        return undefined;
    return { waves: grid / (sms * Math.min(...limits)), source: 'computed' };
}
/** Blocks in the grid: Launch Statistics, else the launch's Grid Size column. */
function gridBlocks(result) {
    const grid = ncuValue(result, NCU.grid);
    if (grid !== undefined)
        return grid;
    const dims = /^\(\s*(\d+),\s*(\d+),\s*(\d+)\s*\)$/.exec(result.grid?.trim() ?? '');
    return dims ? Number(dims[1]) * Number(dims[2]) * Number(dims[3]) : undefined;
}
const GENERIC_RULE_TEXT = /^The optional metric|^Check the Warp Stall Sampling/;
/**
 * Nsight Compute's own word on the matter, as evidence attributed to it: the most relevant fired rule
 * among `names` (OPT before WRN before INF, then by estimated speedup), quoted and clipped.
 */
function ncuSays(result, names, matches) {
    const order = { OPT: 0, WRN: 1, INF: 2 };
    const candidates = result.rules
        .filter((r) => names.includes(r.name) && !GENERIC_RULE_TEXT.test(r.description) && (!matches || matches.test(r.description)))
        .sort((a, b) => (order[a.type] ?? 3) - (order[b.type] ?? 3) || (b.estimatedSpeedupPercent ?? 0) - (a.estimatedSpeedupPercent ?? 0));
    const rule = candidates[0];
    if (!rule)
        return {};
    const text = rule.description.replace(/\s+/g, ' ').trim();
    return {
        ncuRule: `${rule.name} (${rule.type})`,
        ...(rule.estimatedSpeedupPercent !== undefined ? { ncuEstimatedSpeedupPercent: rule.estimatedSpeedupPercent } : {}),
        ncuSays: text.length > 400 ? `${text.slice(0, 399)}…` : text,
    };
}
/** A kernel name for messages: one line, without a `void` return type, at most 80 characters. */
function displayKernel(name) {
    const plain = name.replace(/\s+/g, ' ').trim().replace(/^void /, '');
    return plain.length > 80 ? `${plain.slice(0, 79)}…` : plain;
}
function percentText(value) {
    return `${value.toFixed(1)}%`;
}
/** Bytes per second in the largest decimal unit that keeps a leading digit (3.88 TB/s). */
function rateText(bytesPerSecond) {
    for (const [unit, scale] of [['TB/s', 1e12], ['GB/s', 1e9], ['MB/s', 1e6]]) {
        if (bytesPerSecond >= scale)
            return `${(bytesPerSecond / scale).toFixed(2)} ${unit}`;
    }
    return `${Math.round(bytesPerSecond)} B/s`;
}
/** Duration in microseconds for evidence, when captured. */
function durationEvidence(result) {
    const ns = ncuValue(result, NCU.duration);
    return ns === undefined ? {} : { durationUs: round(ns / 1e3, 3) };
}
/** The headline numbers of one deep dive, as short plain phrases (duration, throughputs, grid, occupancy). */
function deepDiveFacts(result) {
    const facts = [];
    const duration = ncuValue(result, NCU.duration);
    if (duration !== undefined)
        facts.push(duration >= 1e6 ? `${(duration / 1e6).toFixed(2)} ms` : `${(duration / 1e3).toFixed(2)} us`);
    const compute = ncuValue(result, NCU.compute);
    if (compute !== undefined)
        facts.push(`SM ${percentText(compute)}`);
    const memory = memoryThroughput(result);
    if (memory)
        facts.push(`memory ${percentText(memory.percent)} (${memory.unit})`);
    const rate = dramBytesPerSecond(result);
    if (rate !== undefined)
        facts.push(`DRAM ${rateText(rate)}`);
    const grid = gridBlocks(result);
    const waves = wavesPerSm(result);
    if (grid !== undefined)
        facts.push(`${grid} blocks${waves ? `, ${round(waves.waves, 2)} waves` : ''}`);
    const achieved = ncuValue(result, NCU.achievedOccupancy);
    const theoretical = ncuValue(result, NCU.theoreticalOccupancy);
    if (achieved !== undefined)
        facts.push(`occupancy ${percentText(achieved)}${theoretical !== undefined ? ` of ${percentText(theoretical)}` : ''}`);
    return facts;
}

;// CONCATENATED MODULE: ./src/report/escape.ts
/**
 * Escaping for text that comes from profiles (kernel names, model names, log lines). Such text can
 * hold | < > ` * [ ] and newlines and must never inject markdown or HTML where it is rendered.
 */
const HTML_ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
function escapeHtml(text) {
    return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}
/**
 * Inline markdown text (also safe inside a table cell): newlines collapse, HTML is escaped, and every
 * markdown punctuation character is backslash-escaped so it renders literally.
 */
function escapeMarkdown(text) {
    // Markdown first, HTML second: the other order would backslash the '#' of the entities ('&\#39;').
    return escapeHtml(text.replace(/[\r\n]+/g, ' ').replace(/[\\`*_{}[\]()#+\-.!|~]/g, (c) => `\\${c}`));
}
/** A fenced block whose fence is longer than any backtick run inside the text. */
function codeBlock(text, language = '') {
    const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
    const fence = '`'.repeat(longest + 1);
    return `${fence}${language}\n${text}\n${fence}`;
}

;// CONCATENATED MODULE: ./src/compare/median-interval.ts
/**
 * The confidence interval of a median, the one every report shows (the summary, the PR comment and
 * the dashboard). Distribution-free, from order statistics: the number of samples below the true
 * median is Binomial(n, ½), so [x₍ⱼ₎, x₍ₙ₋ⱼ₊₁₎] covers it with probability 1 − 2·P(B ≤ j − 1). No
 * resampling, the same answer every time, exact for any continuous data.
 */

/**
 * The narrowest order-statistic interval of the median that covers it with at least `level`
 * (two-sided; the gate's level by default). Null when no interval reaches the level: too few
 * samples (n < 5 at 90%), so a reader is never shown a "90% CI" that covers less.
 */
function medianInterval(samples, level = CI_LEVEL) {
    const sorted = samples.filter(Number.isFinite).sort((a, b) => a - b);
    const n = sorted.length;
    const tail = (1 - level) / 2;
    // P(B ≤ j − 1) summed term by term in log space: one pass, and n in the millions neither overflows nor stalls.
    const logHalfPower = -n * Math.LN2;
    let below = Math.exp(logHalfPower);
    if (n < 2 || below > tail)
        return null;
    let j = 1;
    let logCoefficient = 0;
    while (j < n >> 1) {
        logCoefficient += Math.log(n - j + 1) - Math.log(j);
        const next = below + Math.exp(logCoefficient + logHalfPower);
        if (next > tail)
            break;
        below = next;
        j += 1;
    }
    return { low: sorted[j - 1], high: sorted[n - j], coverage: 1 - 2 * below };
}

;// CONCATENATED MODULE: ./src/report/number-format.ts
/** Number formatting shared by every renderer. */

/** The confidence level of every interval shown, in percent (the gate's: 1 − 2·alpha). */
const CI_PERCENT = Math.round(CI_LEVEL * 100);
function formatNs(ns) {
    if (!Number.isFinite(ns))
        return 'n/a';
    const abs = Math.abs(ns);
    if (abs >= 1e9)
        return `${(ns / 1e9).toFixed(2)} s`;
    if (abs >= 1e6)
        return `${(ns / 1e6).toFixed(2)} ms`;
    if (abs >= 1e3)
        return `${(ns / 1e3).toFixed(2)} us`;
    return `${Math.round(ns)} ns`;
}
function formatShare(share, digits = 1) {
    return Number.isFinite(share) ? `${(share * 100).toFixed(digits)}%` : 'n/a';
}
function formatNumber(value, digits = 2) {
    if (!Number.isFinite(value))
        return 'n/a';
    if (Number.isInteger(value))
        return String(value);
    const abs = Math.abs(value);
    if (abs >= 1000)
        return value.toFixed(0);
    if (abs >= 100)
        return value.toFixed(1);
    return value.toFixed(digits);
}
function formatSigned(value, unit, digits = 1) {
    if (!Number.isFinite(value))
        return 'n/a';
    return `${value >= 0 ? '+' : ''}${value.toFixed(digits)}${unit}`;
}
/** Shorten long (templated) kernel names for tables; the full name stays in report.json. */
function shortenName(name, max = 96) {
    const oneLine = name.replace(/\s+/g, ' ');
    return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 1)}…`;
}
/** Rank rows are worth showing for a distributed job or several devices, not for one plain capture. */
function showsRanks(ranks) {
    return ranks.length > 1 || ranks.some((r) => (r.worldSize ?? 1) > 1);
}
/** One line per rank (or device): its kernel time, collective share, exposed communication and busy share. */
function rankSummary(rank) {
    const who = rank.rank !== undefined ? `rank ${rank.rank}${rank.worldSize ? ` of ${rank.worldSize}` : ''}` : `device ${rank.device ?? 0}`;
    const parts = [`${formatNs(rank.totalKernelNs)} of kernels`];
    const collective = rank.families.find((f) => f.family === 'collective')?.share ?? 0;
    if (collective > 0)
        parts.push(`collectives ${formatShare(collective)}`);
    const t = rank.timeline;
    if (t && t.activeSpanNs > 0) {
        const span = t.activeSpanNs * Math.max(1, t.devices);
        if (t.communication)
            parts.push(`exposed communication ${formatShare(t.communication.exposedNs / span)} of the active span`);
        parts.push(`busy ${formatShare(t.busyNs / span)}`);
    }
    return `${who}: ${parts.join(', ')}`;
}
/** The idle gaps left out of the active span, as one clause (empty when none). */
function excludedGapsText(timeline) {
    if (timeline.excludedGaps.length === 0)
        return '';
    const reasons = [...new Set(timeline.excludedGaps.map((g) => g.reason))].join(', ');
    const total = timeline.excludedGaps.reduce((sum, g) => sum + g.durNs, 0);
    return `; ${timeline.excludedGaps.length} idle gap${timeline.excludedGaps.length > 1 ? 's' : ''} (${formatNs(total)}, ${reasons}) left out: active span ${formatNs(timeline.activeSpanNs)}`;
}

;// CONCATENATED MODULE: ./src/report/markdown/text.ts
/**
 * Text helpers for what GitHub renders from a report (job summary, PR comment, annotations).
 * Profile text is hostile by default: it is clipped first (so an entity is never cut in half),
 * then escaped, and @mentions / #refs are broken with a zero-width space so a kernel name or a
 * log line can never ping a user or cross-link an issue.
 */

const ZERO_WIDTH_SPACE = '\u200b';
/** One line, whitespace collapsed, at most `max` UTF-16 units including the ellipsis. */
function clip(text, max) {
    const oneLine = text.replace(/\s+/g, ' ').trim();
    if (oneLine.length <= max)
        return oneLine;
    let cut = oneLine.slice(0, Math.max(0, max - 1));
    // Never leave half of a surrogate pair behind.
    if (/[\ud800-\udbff]$/.test(cut))
        cut = cut.slice(0, -1);
    return `${cut}…`;
}
/** GitHub turns `@name`, `#12` and `GH-12` in prose into mentions and cross-links. */
function neutralizeReferences(text) {
    return text
        .replace(/@(?=[A-Za-z0-9_-])/g, `@${ZERO_WIDTH_SPACE}`)
        .replace(/#(?=\d)/g, `#${ZERO_WIDTH_SPACE}`)
        .replace(/\b(GH)-(?=\d)/gi, `$1-${ZERO_WIDTH_SPACE}`);
}
/** Inline prose from a profile, safe in a paragraph, a list item, a table cell or a <summary>. */
function safeText(text, max = 300) {
    // `$` opens GitHub's math rendering, which escapeMarkdown does not cover.
    return escapeMarkdown(neutralizeReferences(clip(text, max))).replace(/\$/g, '&#36;');
}
/**
 * A name (kernel, model, file) as an inline code element. GitHub still parses markdown between
 * raw <code> tags, so every character that could start a markdown or HTML construct, a table
 * cell, a mention or an autolink is written as a numeric entity (shown literally, never parsed).
 */
function safeCode(text, max = 160) {
    const literal = clip(text, max)
        .replace(/[&<>"'|`*_~[\]!\\@#$]/g, (c) => `&#${c.charCodeAt(0)};`)
        // Break autolinks (scheme:// and www.) without encoding every C++ `::`.
        .replace(/:(?=\/\/)/g, '&#58;')
        .replace(/\b(www)\./gi, '$1&#46;');
    return `<code>${literal}</code>`;
}
/** Characters that could end or re-open a markdown link destination, percent-encoded. */
function encodeForLink(href) {
    return href.replace(/[()[\]<>"'`*_\\| ]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}
/** An http(s) URL made safe for a markdown link destination, or undefined when it is not one. */
function safeUrl(url) {
    if (!url)
        return undefined;
    let parsed;
    try {
        parsed = new URL(url);
    }
    catch {
        return undefined;
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
        return undefined;
    return encodeForLink(parsed.href);
}
/** `[label](url)` when the URL is safe; the escaped label alone otherwise. `label` is escaped here. */
function safeLink(label, url, max = 120) {
    const href = safeUrl(url);
    const text = safeText(label, max);
    return href ? `[${text}](${href})` : text;
}
/** Plain text for places that render no markdown (annotations): no control characters, bounded. */
function plainText(text, max) {
    // eslint-disable-next-line no-control-regex
    const cleaned = text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, ' ');
    if (cleaned.length <= max)
        return cleaned;
    let cut = cleaned.slice(0, Math.max(0, max - 1));
    if (/[\ud800-\udbff]$/.test(cut))
        cut = cut.slice(0, -1);
    return `${cut}…`;
}
/** Bytes of a string as UTF-8 (the job summary limit is in bytes). */
function utf8Bytes(text) {
    return Buffer.byteLength(text, 'utf8');
}

;// CONCATENATED MODULE: ./src/report/markdown/charts.ts
/**
 * Pictures for the PR comment and the job summary, as mermaid `xychart-beta` blocks (GitHub renders
 * mermaid in both): the kernel-family shares of the baseline against this run, and each side's
 * decode throughput per timed run. A chart is drawn only from numbers the report holds; labels are
 * reduced to characters that cannot end a mermaid string or the code fence.
 */


/** Families shown: the largest by either side's share, so the chart stays readable on a phone. */
const MAX_FAMILIES = 6;
/** Timed runs drawn per side. */
const MAX_RUNS = 60;
function label(text, max = 28) {
    const clean = text.replace(/[^\p{L}\p{N} ._/+()&-]+/gu, ' ').replace(/\s+/g, ' ').trim();
    return clean.length <= max ? clean : `${clean.slice(0, max - 1)}…`;
}
const num = (value, digits = 1) => String(Number(value.toFixed(digits)));
function fence(lines) {
    return ['```mermaid', ...lines, '```'].join('\n');
}
/** The families whose share moved, baseline against current, as pairs of horizontal bars. */
function familySharesChart(report) {
    const rows = (report.comparison?.rows ?? [])
        .filter((r) => r.kind === 'family-share' && r.baseline !== null && r.current !== null && Number.isFinite(r.baseline) && Number.isFinite(r.current))
        .sort((a, b) => Math.max(b.baseline, b.current) - Math.max(a.baseline, a.current))
        .slice(0, MAX_FAMILIES);
    if (rows.length === 0)
        return undefined;
    const categories = [];
    const values = [];
    for (const row of rows) {
        const name = label(familyLabel(row.metric.replace(/^family:/, '')));
        categories.push(`"${name} · base"`, `"${name} · head"`);
        values.push(num(row.baseline), num(row.current));
    }
    const top = Math.min(100, Math.ceil(Math.max(...rows.map((r) => Math.max(r.baseline, r.current))) / 10) * 10 || 10);
    return fence([
        'xychart-beta horizontal',
        '    title "Share of GPU kernel time by family (%): baseline vs this run"',
        `    x-axis [${categories.join(', ')}]`,
        `    y-axis "share of GPU kernel time (%)" 0 --> ${top}`,
        `    bar [${values.join(', ')}]`,
    ]);
}
/** Bounds a little outside the samples, rounded, so the noise and the shift both show. */
function axisRange(values) {
    const low = Math.min(...values);
    const high = Math.max(...values);
    const pad = Math.max((high - low) * 0.1, Math.abs(high) * 0.01, 1e-9);
    const step = 10 ** Math.floor(Math.log10(pad));
    return [Math.max(0, Math.floor((low - pad) / step) * step), Math.ceil((high + pad) / step) * step];
}
/**
 * Both sides' samples of a metric in run order, one line each (baseline first). Mermaid needs both
 * lines as long as the axis, so with unequal counts the first runs of each side are drawn and the
 * title says how many.
 */
function samplesChart(report, metric = 'decode_tok_s') {
    const base = report.comparison?.baselineSamples?.[metric]?.filter(Number.isFinite);
    const cur = report.metrics.find((m) => m.name === metric)?.samples.filter(Number.isFinite);
    if (!base || !cur || base.length < 2 || cur.length < 2)
        return undefined;
    const n = Math.min(base.length, cur.length, MAX_RUNS);
    const shown = n < Math.max(base.length, cur.length) ? `, the first ${n} runs of ${base.length} and ${cur.length}` : '';
    const info = metricInfo(metric);
    const unit = label(report.metrics.find((m) => m.name === metric)?.unit ?? '', 16);
    const [low, high] = axisRange([...base.slice(0, n), ...cur.slice(0, n)]);
    const digits = high - low < 10 ? 2 : 1;
    return fence([
        '---',
        'config:',
        '  themeVariables:',
        '    xyChart:',
        '      plotColorPalette: "#8c959f, #0072b2"',
        '---',
        'xychart-beta',
        `    title "${label(info.label, 40)} per timed run: baseline (grey), this run (blue)${shown}"`,
        `    x-axis "timed run" [${Array.from({ length: n }, (_, i) => `"${i + 1}"`).join(', ')}]`,
        `    y-axis "${unit}" ${num(low, digits)} --> ${num(high, digits)}`,
        `    line [${base.slice(0, n).map((v) => num(v, digits)).join(', ')}]`,
        `    line [${cur.slice(0, n).map((v) => num(v, digits)).join(', ')}]`,
    ]);
}
/** Every chart the report has numbers for, in reading order. */
function reportCharts(report) {
    return [samplesChart(report), familySharesChart(report)].filter((chart) => chart !== undefined);
}

;// CONCATENATED MODULE: ./src/report/kernel-display-name.ts
/**
 * Short kernel names for tables. A templated C++ kernel name runs to hundreds of characters and two
 * different kernels share their first hundred (`void at::native::elementwise_kernel<128, 4, void
 * at::native::gpu_kernel_impl_nocast<…`), so cutting the name tells nothing apart. Instead: the base
 * name, as `nsys stats --base` prints it (no return type, namespaces, template arguments or
 * parameters), plus the functor or operation in its template arguments that says what the kernel
 * does: `elementwise_kernel<direct_copy_kernel_cuda>`, `elementwise_kernel<CUDAFunctor_add>`.
 * The full name stays in report.json and in the details.
 */
const ANONYMOUS_NAMESPACE = /\(anonymous namespace\)::/g;
/** Wrappers that carry the interesting functor inside them; never the answer themselves. */
const WRAPPERS = new Set([
    'gpu_kernel_impl',
    'gpu_kernel_impl_nocast',
    'gpu_index_kernel',
    'BinaryFunctor',
    'AUnaryFunctor',
    'BUnaryFunctor',
    'ReduceOp',
    'func_wrapper_t',
    'lambda',
    'operator',
    'OpaqueType',
]);
/** Base names that say nothing alone (CUTLASS's `Kernel2<config>`); the first template type names them. */
const GENERIC_BASES = new Set(['Kernel', 'Kernel2', 'device_kernel', 'kernel', 'Kernel3']);
const LOOKS_LIKE_FUNCTOR = /functor|epilogue|ops$/i;
/** Index of the bracket closing the one at `open` (`<`/`>` and `(`/`)` nest together), or -1. */
function closingBracket(text, open) {
    let depth = 0;
    for (let i = open; i < text.length; i++) {
        const ch = text[i];
        if (ch === '<' || ch === '(')
            depth += 1;
        else if (ch === '>' || ch === ')') {
            depth -= 1;
            if (depth === 0)
                return i;
        }
    }
    return -1;
}
/** The identifier (last `::` segment) after which `text[at]` begins a call `(`, skipping one `<…>`. */
function startsCall(text, at) {
    let i = at;
    if (text[i] === '<') {
        const close = closingBracket(text, i);
        if (close < 0)
            return false;
        i = close + 1;
    }
    return text[i] === '(';
}
/** The functor that tells kernels of one base apart, searched in the template arguments in order. */
function kernel_display_name_distinguishingFunctor(args, base) {
    const identifier = /[A-Za-z_][A-Za-z0-9_]*/g;
    let first;
    for (let match = identifier.exec(args); match; match = identifier.exec(args)) {
        const name = match[0];
        const end = match.index + name.length;
        if (args.startsWith('::', end))
            continue; // a namespace, not the name
        if (WRAPPERS.has(name) || /^\d/.test(name))
            continue;
        first ??= name;
        if (LOOKS_LIKE_FUNCTOR.test(name) || startsCall(args, end))
            return name;
    }
    return GENERIC_BASES.has(base) ? first : undefined;
}
const kernel_display_name_clip = (text, max) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
const stripNamespaces = (text) => text.replace(/\b[A-Za-z_]\w*::/g, '').replace(/\s+/g, ' ').trim();
function parts(name) {
    const oneLine = name.replace(/\s+/g, ' ').trim();
    // Mangled names (`_ZN7cutlass…`) and plain C names have no structure to shorten.
    if (/^_Z/.test(oneLine) || !/[<(]/.test(oneLine))
        return undefined;
    const text = oneLine.replace(ANONYMOUS_NAMESPACE, '').replace(/^(?:void|__global__ void)\s+/, '');
    const open = text.search(/[<(]/);
    const qualified = text.slice(0, open).trim();
    const base = qualified.split('::').pop() || qualified;
    if (!base || !/^[A-Za-z_~][\w~]*$/.test(base))
        return undefined;
    if (text[open] !== '<')
        return { base };
    const close = closingBracket(text, open);
    const args = close < 0 ? text.slice(open + 1) : text.slice(open + 1, close);
    const functor = kernel_display_name_distinguishingFunctor(args, base);
    const sizes = /^\s*((?:\(\w+\))?-?\d+\w*\s*,\s*)+/.exec(args)?.[0].replace(/\(\w+\)/g, '').replace(/[\s,]+$/, '').replace(/\s+/g, ' ');
    const out = { base, args: kernel_display_name_clip(stripNamespaces(args), 60), ...(functor ? { functor } : {}), ...(sizes ? { sizes } : {}) };
    if (functor) {
        const at = args.indexOf(`${functor}<`);
        if (at >= 0) {
            const fOpen = at + functor.length;
            const fClose = closingBracket(args, fOpen);
            const first = fClose > 0 ? args.slice(fOpen + 1, fClose).split(',')[0] : undefined;
            if (first)
                out.functorArg = stripNamespaces(first).slice(0, 24);
        }
    }
    const lambda = [...oneLine.matchAll(/\{lambda\(([^()]*)\)#\d+\}/g)].map((m) => stripNamespaces(m[1])).find(Boolean);
    if (lambda)
        out.lambda = lambda.slice(0, 40);
    return out;
}
/** `base<functor>` at a level of detail: 0 the short name; 1 adds the functor's type; 2 the lambda's types; 3 the sizes; 4 all template arguments. */
function render(p, level) {
    if (level >= 4 && p.args)
        return `${p.base}<${p.args}>${p.lambda ? `(${p.lambda})` : ''}`;
    const functor = p.functor ? `${p.functor}${level >= 1 && p.functorArg ? `<${p.functorArg}>` : ''}` : '';
    const inner = [level >= 3 ? p.sizes : undefined, functor].filter(Boolean).join(', ');
    return `${p.base}${inner ? `<${inner}>` : ''}${level >= 2 && p.lambda ? `(${p.lambda})` : ''}`;
}
/** The base name and the distinguishing functor: `elementwise_kernel<direct_copy_kernel_cuda>`. */
function kernelDisplayName(name) {
    const p = parts(name);
    return p ? render(p, 0) : name.replace(/\s+/g, ' ').trim();
}
/**
 * Display names for a set of kernels, distinct wherever the full names are: colliding short names
 * gain the functor's type, then the lambda's parameter types, then the kernel's sizes, then all
 * template arguments, then an ordinal.
 */
function kernelDisplayNames(names) {
    const unique = [...new Set(names)];
    const parsed = new Map(unique.map((n) => [n, parts(n)]));
    const level = new Map(unique.map((n) => [n, 0]));
    const shown = (n) => {
        const p = parsed.get(n);
        return p ? render(p, level.get(n)) : kernelDisplayName(n);
    };
    const collisions = () => {
        const byShort = new Map();
        for (const n of unique) {
            const short = shown(n);
            const group = byShort.get(short);
            if (group)
                group.push(n);
            else
                byShort.set(short, [n]);
        }
        return [...byShort.values()].filter((group) => group.length > 1);
    };
    for (let step = 1; step <= 4; step++) {
        for (const group of collisions())
            for (const n of group)
                if (parsed.get(n))
                    level.set(n, step);
    }
    const out = new Map(unique.map((n) => [n, shown(n)]));
    for (const group of collisions())
        group.forEach((n, i) => out.set(n, `${shown(n)} #${i + 1}`));
    return out;
}
const SHOWN_KERNELS = 50;
/** Every kernel name a report shows (its kernels, compared kernel shares, kernel changes). */
function namesOf(report) {
    const rows = (report.comparison?.rows ?? []).filter((r) => r.kind === 'kernel-share').map((r) => r.metric.slice(r.metric.indexOf(':') + 1));
    const changes = (report.comparison?.kernelChanges ?? []).map((c) => c.name);
    const dives = report.deepDive.map((d) => d.kernel);
    // Tables show the top kernels only (20 at the richest level); a profile may hold 100,000.
    return [...report.kernels.slice(0, SHOWN_KERNELS).map((k) => k.name), ...rows, ...changes, ...dives];
}
const cache = new WeakMap();
/** The display names of a report's kernels, distinct across the report; a name it lacks maps to its short form. */
function reportKernelNames(report) {
    let names = cache.get(report);
    if (!names)
        cache.set(report, (names = kernelDisplayNames(namesOf(report))));
    const known = names;
    return (name) => known.get(name) ?? kernelDisplayName(name);
}
/**
 * The gate's reasons with kernel names in their short form: a reason about a kernel's share starts
 * with `kernel:<name>`, the name cut at the gate's width, which tells nothing apart.
 */
function readableReasons(report) {
    const reasons = report.comparison?.reasons ?? [];
    const kernels = (report.comparison?.rows ?? []).filter((r) => r.kind === 'kernel-share');
    if (kernels.length === 0)
        return reasons;
    const names = reportKernelNames(report);
    return reasons.map((reason) => {
        if (!reason.startsWith('kernel:'))
            return reason;
        const end = reason.search(/…| share of GPU time/);
        if (end < 0)
            return reason;
        const written = reason.slice(0, end);
        // Names cut alike are told apart by the shares the reason quotes ("0.0% → 9.9%").
        const rows = kernels.filter((r) => r.metric.replace(/\s+/g, ' ').startsWith(written) && r.baseline !== null && r.current !== null && reason.includes(`${r.baseline.toFixed(1)}% → ${r.current.toFixed(1)}%`));
        if (rows.length !== 1)
            return reason;
        const row = rows[0];
        const rest = reason.slice(reason[end] === '…' ? end + 1 : end);
        return `kernel ${names(row.metric.slice('kernel:'.length))}${rest}`;
    });
}

;// CONCATENATED MODULE: ./src/report/markdown/sections.ts
/**
 * The sections of a report as GitHub shows them (job summary and PR comment), each rendered at a
 * chosen level of detail so the callers can fit any profile under GitHub's size limits.
 * Every string that came from a profile goes through gh-text.ts.
 */









const DETAIL_LEVELS = [
    { findings: 40, evidence: 10, commands: true, rows: 80, kernels: 20, kernelChanges: 20, families: 30, metrics: 20, notices: 15, nameChars: 160, textChars: 600 },
    { findings: 20, evidence: 6, commands: true, rows: 40, kernels: 10, kernelChanges: 10, families: 15, metrics: 12, notices: 8, nameChars: 100, textChars: 400 },
    { findings: 10, evidence: 4, commands: true, rows: 15, kernels: 5, kernelChanges: 5, families: 8, metrics: 8, notices: 3, nameChars: 80, textChars: 240 },
    { findings: 5, evidence: 0, commands: false, rows: 8, kernels: 0, kernelChanges: 0, families: 0, metrics: 4, notices: 0, nameChars: 60, textChars: 160 },
];
/** The verdict as a headline, the same in the summary, the comment and report.md. */
const VERDICT_HEADLINE = {
    pass: '✅ Pass',
    warn: '⚠️ Warn',
    fail: '❌ Fail',
    'insufficient-data': '❔ Insufficient data',
    invalid: '🚫 Invalid comparison',
};
const SEVERITY_ICON = { error: '❌', warning: '⚠️', info: 'ℹ️' };
const STATUS_ICON = { fail: '❌', warn: '⚠️', 'insufficient-data': '❔', improved: '🟢', pass: '✅', info: 'ℹ️' };
const STATUS_ORDER = { fail: 0, warn: 1, 'insufficient-data': 2, improved: 3, pass: 4, info: 5 };
const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 };
function verdictLine(verdict) {
    return VERDICT_HEADLINE[verdict];
}
/** What a pass means when nothing was compared: the findings alone decided. */
const NO_BASELINE_VERDICT = 'no baseline: findings only';
/** A report's headline: a pass with no comparison never reads as a bare pass. */
function reportVerdictLine(report) {
    return report.comparison || report.verdict !== 'pass' ? verdictLine(report.verdict) : `${verdictLine(report.verdict)} (${NO_BASELINE_VERDICT})`;
}
/** The line right under the headline when nothing was compared: why, and what to do about it. */
function noBaselineBanner(entry) {
    if (entry.report.comparison)
        return '';
    const why = missingBaselineText(entry).replace(/^no baseline:\s*/i, '');
    return `> **No baseline, findings only:** ${safeText(why, 700)}.`;
}
/** Primary findings before secondary ones, errors before warnings before info. */
function orderFindings(findings) {
    return [...findings].sort((a, b) => Number(a.secondary) - Number(b.secondary) || SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
}
/** Alerts (fail, warn) first, then the rest; stable within a status. */
const orderedRows = new WeakMap();
function orderRows(rows) {
    // Rendering tries several levels of detail; sort a large comparison once.
    const cached = orderedRows.get(rows);
    if (cached)
        return cached;
    const ordered = rows
        .map((row, index) => ({ row, index }))
        .sort((a, b) => STATUS_ORDER[a.row.status] - STATUS_ORDER[b.row.status] || a.index - b.index)
        .map(({ row }) => row);
    orderedRows.set(rows, ordered);
    return ordered;
}
function isAlert(row) {
    return row.status === 'fail' || row.status === 'warn';
}
function evidenceText(finding, d) {
    const entries = Object.entries(finding.evidence);
    const shown = entries
        .slice(0, d.evidence)
        .map(([key, value]) => `${safeText(key, 40)} = ${safeText(typeof value === 'number' ? formatNumber(value, 3) : String(value), 80)}`);
    if (entries.length > d.evidence)
        shown.push(`… ${entries.length - d.evidence} more`);
    return shown.join(', ');
}
/** A command in a fenced block inside a list item; line endings normalized so it cannot leave the item. */
function commandBlock(command, indent) {
    const lines = command.replace(/\r\n?/g, '\n').split('\n').slice(0, 12).map((line) => line.slice(0, 300));
    return codeBlock(lines.join('\n'), 'sh').replace(/^/gm, indent);
}
/** The finding's next step and its command: what a reviewer acts on. */
function nextStepLines(finding, textChars, commands = true) {
    const lines = [`  - Next: ${safeText(finding.advice, textChars)}`];
    if (commands && finding.command)
        lines.push('', commandBlock(finding.command, '  '), '');
    return lines;
}
function renderFindingFull(finding, d) {
    const docs = safeLink('docs', finding.docs);
    const lines = [
        `- ${SEVERITY_ICON[finding.severity]} **${safeText(finding.title, 120)}** (${safeCode(finding.id, 60)}${finding.secondary ? ', secondary' : ''}): ${safeText(finding.message, d.textChars)} ${docs === 'docs' ? '' : docs}`.trimEnd(),
    ];
    if (d.evidence > 0 && Object.keys(finding.evidence).length)
        lines.push(`  - Evidence: ${evidenceText(finding, d)}`);
    if (d.evidence > 0 && finding.basis.length)
        lines.push(`  - Rests on: ${safeText(finding.basis.join('; '), d.textChars)}`);
    lines.push(...nextStepLines(finding, d.textChars, d.commands));
    return lines.join('\n');
}
/** One line per finding, for the alert block of a PR comment. */
function renderFindingLine(finding, textChars) {
    return `- ${SEVERITY_ICON[finding.severity]} **${safeText(finding.title, 120)}** (${safeCode(finding.id, 60)}): ${safeText(finding.message, textChars)}`;
}
function findingsSection(report, d, h) {
    const out = [`${h} Findings`, ''];
    const findings = orderFindings(report.findings);
    if (findings.length === 0)
        out.push('No findings.');
    for (const finding of findings.slice(0, d.findings))
        out.push(renderFindingFull(finding, d));
    if (findings.length > d.findings) {
        const rest = findings.slice(d.findings);
        out.push(`- … ${rest.length} more findings in report.json: ${safeText(rest.map((f) => f.id).join(', '), 300)}`);
    }
    return out.join('\n');
}
/**
 * A short kernel name as inline code that may wrap after `<`, `,` and `_` (zero-width spaces), so
 * a narrow screen wraps the name instead of pushing the table's last columns out of view.
 */
function kernelCode(short, max) {
    return safeCode(short, max).replace(/(&#60;|&#95;|,)(?!<\/code>)/g, '$1\u200b');
}
function rowLabel(row, d, names) {
    const colon = row.metric.indexOf(':');
    const rest = colon >= 0 ? row.metric.slice(colon + 1) : row.metric;
    switch (row.kind) {
        case 'kernel-share':
            return `kernel ${names ? kernelCode(names(rest), d.nameChars) : safeCode(rest, d.nameChars)}`;
        case 'family-share':
            if (row.metric === 'communication:exposed')
                return 'exposed communication';
            return `family: ${safeText(familyLabel(rest), 60)}`;
        case 'finding':
            return `finding ${safeCode(rest, 60)}`;
        default:
            return safeText(metricInfo(row.metric).label, d.nameChars);
    }
}
/**
 * Deltas of metrics are relative (0.05 = +5%), of shares in percentage points, of findings in hits;
 * the CI and the threshold share the delta's unit.
 */
function deltaUnit(row) {
    if (row.kind === 'metric')
        return { scale: 100, unit: '%' };
    if (row.kind === 'finding')
        return { scale: 1, unit: '' };
    return { scale: 1, unit: ' pp' };
}
function valueText(value, row) {
    if (value === null)
        return '—';
    // Shares are percentages of GPU time.
    if (row.kind === 'family-share' || row.kind === 'kernel-share')
        return `${formatNumber(value, 1)}%`;
    if (row.kind === 'finding')
        return `${formatNumber(value)} ${value === 1 ? 'hit' : 'hits'}`;
    const suffix = row.unit && row.unit.length <= 12 ? ` ${safeText(row.unit, 12)}` : '';
    return `${formatNumber(value)}${suffix}`;
}
function comparisonRowCells(row, d, names) {
    const { scale, unit } = deltaUnit(row);
    const digits = row.kind === 'finding' ? 0 : 1;
    const delta = row.delta === null ? '—' : formatSigned(row.delta * scale, unit, digits);
    const ci = row.ci ? `${formatSigned(row.ci[0] * scale, unit)} … ${formatSigned(row.ci[1] * scale, unit)}` : '—';
    const threshold = row.threshold === null ? '—' : `±${formatNumber(Math.abs(row.threshold * scale))}${unit}`;
    const status = `${STATUS_ICON[row.status]} ${row.status}`;
    return `| ${rowLabel(row, d, names)} | ${valueText(row.baseline, row)} | ${valueText(row.current, row)} | ${delta} | ${ci} | ${threshold} | ${status} |`;
}
const COMPARISON_HEADER = '| metric | baseline | current | delta | CI | threshold | status |\n|---|---:|---:|---:|---|---:|---|';
function missingBaselineText(entry) {
    return entry.baselineNote ?? 'no baseline report was given, so the findings alone decided the verdict; to compare, give one (action input baseline: artifact, or --baseline FILE)';
}
function comparisonSection(entry, d, h) {
    const comparison = entry.report.comparison;
    const out = [`${h} Comparison with the baseline`, ''];
    if (!comparison) {
        out.push(`No comparison: ${safeText(missingBaselineText(entry), 400)}.`);
        return out.join('\n');
    }
    const rows = orderRows(comparison.rows);
    const alerts = rows.filter(isAlert).length;
    if (rows.length === 0)
        out.push('The baseline had no comparable metrics.');
    else {
        out.push(`${alerts ? `**${alerts} alert${alerts === 1 ? '' : 's'}.** ` : ''}Delta: relative for metrics, percentage points for shares; CI: ${CI_PERCENT}% interval of the delta.`, '');
        out.push(COMPARISON_HEADER);
        const names = reportKernelNames(entry.report);
        for (const row of rows.slice(0, d.rows))
            out.push(comparisonRowCells(row, d, names));
        if (rows.length > d.rows) {
            const hiddenAlerts = rows.slice(d.rows).filter(isAlert).length;
            out.push('', `… ${rows.length - d.rows} more rows${hiddenAlerts ? ` (${hiddenAlerts} of them alerts)` : ''} in report.json.`);
        }
    }
    if (comparison.newFindings.length)
        out.push('', `New findings: ${comparison.newFindings.slice(0, 20).map((id) => safeCode(id, 60)).join(', ')}`);
    if (comparison.resolvedFindings.length)
        out.push('', `Resolved findings: ${comparison.resolvedFindings.slice(0, 20).map((id) => safeCode(id, 60)).join(', ')}`);
    return out.join('\n');
}
function changeText(change) {
    if (!change)
        return '';
    if (change.change === 'added')
        return 'new';
    if (change.change === 'removed')
        return 'gone';
    return `${change.deltaNs >= 0 ? '+' : '−'}${formatNs(Math.abs(change.deltaNs))}`;
}
function kernelsSection(entry, d, h) {
    const { report } = entry;
    if (d.kernels === 0 || report.kernels.length === 0)
        return '';
    const comparison = report.comparison;
    const changes = new Map((comparison?.kernelChanges ?? []).map((c) => [c.name, c]));
    const familyDelta = new Map((comparison?.rows ?? []).filter((r) => r.kind === 'family-share' && r.delta !== null).map((r) => [r.metric.replace(/^family:/, ''), r.delta]));
    const withChanges = changes.size > 0;
    const names = reportKernelNames(report);
    const shortened = new Map();
    const shown = (name) => {
        const short = names(name);
        if (short !== name.replace(/\s+/g, ' ').trim())
            shortened.set(short, name);
        return kernelCode(short, d.nameChars);
    };
    const out = [`${h} Top kernels`, '', `${report.kernels.length} distinct kernels, ${formatNs(report.totalKernelNs)} of GPU kernel time.`, ''];
    out.push(withChanges ? '| share | total | change | calls | family | kernel |\n|---:|---:|---:|---:|---|---|' : '| share | total | calls | family | kernel |\n|---:|---:|---:|---|---|');
    const dived = new Set();
    for (const kernel of report.kernels.slice(0, d.kernels)) {
        const change = withChanges ? ` ${changeText(changes.get(kernel.name)) || '—'} |` : '';
        out.push(`| ${formatShare(kernel.share)} | ${formatNs(kernel.totalNs)} |${change} ${kernel.instances} | ${safeText(kernel.family, 30)} | ${shown(kernel.name)} |`);
        // Under the first row of that name only (an ncu capture may add its own row for the kernel).
        const deepDive = dived.has(kernel.name) ? undefined : deepDiveText(report, kernel.name, d);
        if (deepDive)
            out.push(`| |${withChanges ? ' |' : ''} | | deep dive | ↳ ${deepDive} |`);
        dived.add(kernel.name);
    }
    if (withChanges && d.kernelChanges > 0) {
        const biggest = [...changes.values()].sort((a, b) => Math.abs(b.deltaNs) - Math.abs(a.deltaNs)).slice(0, d.kernelChanges);
        out.push('', `${h}# Biggest kernel changes`, '', '| change | baseline | current | delta | family | kernel |', '|---|---:|---:|---:|---|---|');
        for (const c of biggest) {
            out.push(`| ${c.change} | ${formatNs(c.baselineNs)} | ${formatNs(c.currentNs)} | ${changeText(c)} | ${safeText(c.family, 30)} | ${shown(c.name)} |`);
        }
        if (changes.size > d.kernelChanges)
            out.push('', `… ${changes.size - d.kernelChanges} more kernel changes in report.json.`);
    }
    if (shortened.size) {
        // The full names, folded: long template names would push every column off a narrow screen.
        out.push('', '<details><summary>Full kernel names</summary>', '');
        // Each in a code block, which scrolls inside itself: the name stays whole for copying.
        for (const [short, full] of shortened)
            out.push(`- ${kernelCode(short, d.nameChars)}`, '', codeBlock(clip(full, Math.max(d.nameChars, 2 * d.textChars)), '').replace(/^/gm, '  '), '');
        out.push('', '</details>');
    }
    if (d.families > 0 && report.families.length) {
        const delta = familyDelta.size > 0;
        out.push('', `${h} Kernel families`, '', delta ? '| share | Δ share | total | kernels | family |\n|---:|---:|---:|---:|---|' : '| share | total | kernels | family |\n|---:|---:|---:|---|');
        for (const family of report.families.slice(0, d.families)) {
            const deltaCell = delta ? ` ${familyDelta.has(family.family) ? formatSigned(familyDelta.get(family.family), ' pp') : '—'} |` : '';
            out.push(`| ${formatShare(family.share)} |${deltaCell} ${formatNs(family.totalNs)} | ${family.kernels} | ${safeText(familyLabel(family.family), 60)} |`);
        }
        if (report.families.length > d.families)
            out.push('', `… ${report.families.length - d.families} more families in report.json.`);
    }
    return out.join('\n');
}
/**
 * A kernel's Nsight Compute deep dive in one line: the profiled launch's numbers and the ids of the
 * findings about that kernel. Shown in a row right under the kernel's row of the kernels table.
 */
const deepDiveCache = new WeakMap();
function deepDivesOf(report) {
    // Rendering tries several levels of detail; group the results once.
    let dives = deepDiveCache.get(report.deepDive);
    // Each profiled kernel is matched by key to its row of the kernels table (tools spell names differently).
    if (!dives)
        deepDiveCache.set(report.deepDive, (dives = deepDiveKernels(report.deepDive, report.kernels)));
    return dives;
}
function deepDiveText(report, kernel, d) {
    const dive = deepDivesOf(report).find((k) => k.kernel === kernel);
    if (!dive)
        return undefined;
    const ids = [...new Set(report.findings.filter((f) => f.kernel === kernel && f.id !== 'dominant-kernel').map((f) => f.id))];
    const launches = `Nsight Compute, ${dive.launches} launch${dive.launches === 1 ? '' : 'es'}`;
    const text = [`${launches}: ${deepDiveFacts(dive.result).join(' · ')}`, ids.length ? `findings: ${ids.join(', ')}` : ''].filter(Boolean).join(' → ');
    return safeText(text, d.textChars);
}
/** Deep dives on kernels the kernels table does not show (a name the timing capture spells otherwise, or past its rows). */
function deepDiveSection(report, d, h) {
    if (d.kernels === 0)
        return '';
    const shown = new Set(report.kernels.slice(0, d.kernels).map((k) => k.name));
    const rest = deepDivesOf(report).filter((k) => !shown.has(k.kernel));
    if (rest.length === 0)
        return '';
    const out = [`${h} Deep dive (Nsight Compute)`, ''];
    const names = reportKernelNames(report);
    for (const dive of rest.slice(0, d.kernels))
        out.push(`- ${kernelCode(names(dive.kernel), d.nameChars)}: ${deepDiveText(report, dive.kernel, d)}`);
    if (rest.length > d.kernels)
        out.push(`- … ${rest.length - d.kernels} more profiled kernels in report.json.`);
    return out.join('\n');
}
function utilizationSection(report, d, h) {
    const out = [];
    const u = report.utilization;
    if (u) {
        const throttle = u.throttleReasons.length ? u.throttleReasons.slice(0, 8).map((r) => safeText(r, 40)).join(', ') : 'none';
        out.push(`- GPU utilization: mean ${formatNumber(u.meanPercent, 1)}%, peak ${formatNumber(u.peakPercent, 1)}% over ${u.window === 'timed' ? 'the timed runs' : 'the active window'} (${u.sampleCount} of ${u.totalSampleCount} samples, ${u.devices} GPU; ${formatNumber(u.overallMeanPercent, 1)}% over all samples); hardware throttle: ${throttle}`);
    }
    const t = report.timeline;
    if (t && t.spanNs > 0)
        out.push(`- Trace: GPU busy ${formatShare(t.busyNs / (t.spanNs * Math.max(1, t.devices)))} of ${formatNs(t.spanNs)}; ${t.kernelLaunches} kernel launches, ${t.graphLaunches} graph launches${excludedGapsText(t)}`);
    if (showsRanks(report.ranks)) {
        for (const rank of report.ranks.slice(0, 16))
            out.push(`- ${rankSummary(rank)}`);
        if (report.ranks.length > 16)
            out.push(`- … ${report.ranks.length - 16} more ranks in report.json`);
    }
    if (report.gpuTimeUtilPercent !== null)
        out.push(`- nsys gpu_time_util: ${formatNumber(report.gpuTimeUtilPercent, 1)}% in use`);
    if (report.metrics.length && d.metrics > 0) {
        if (out.length)
            out.push('');
        out.push(`| metric | median | ${CI_PERCENT}% CI of the median | samples |`, '|---|---:|---|---:|');
        for (const metric of report.metrics.slice(0, d.metrics)) {
            const unit = safeText(metric.unit, 12);
            // The same interval the dashboard draws for these samples.
            const ci = medianInterval(metric.samples);
            const ciText = ci ? `${formatNumber(ci.low)} … ${formatNumber(ci.high)} ${unit}` : metric.samples.length > 1 ? '— (too few samples)' : '—';
            out.push(`| ${safeText(metricInfo(metric.name).label, 60)} | ${formatNumber(metric.value)} ${unit} | ${ciText} | ${metric.samples.length} |`);
        }
        if (report.metrics.length > d.metrics)
            out.push('', `… ${report.metrics.length - d.metrics} more metrics in report.json.`);
    }
    const notices = report.notices.filter((n) => n.severity !== 'info').slice(0, d.notices);
    if (notices.length) {
        out.push('', 'Capture notes:');
        for (const notice of notices)
            out.push(`- ${notice.severity}: ${safeText(notice.message, d.textChars)}`);
    }
    if (out.length === 0)
        return '';
    return [`${h} Utilization and throughput`, '', ...out].join('\n');
}
/** The engine's short origin ids, as a reader of the summary would say them; anything else as given. */
const ORIGIN_TEXT = new Map([
    ['a/b', 'A/B: the base build, run in this job'],
    ['artifact', "the default branch's report artifact"],
    ['file', 'a report file'],
]);
function baselineSection(entry, h) {
    const comparison = entry.report.comparison;
    const out = [`${h} Baseline`, ''];
    if (!comparison) {
        out.push(`None: ${safeText(missingBaselineText(entry), 400)}.`);
        return out.join('\n');
    }
    const b = comparison.baseline;
    out.push(`- Used: ${safeText(ORIGIN_TEXT.get(b.origin) ?? b.origin, 200)}${b.path ? ` (${safeCode(b.path, 160)})` : ''}${b.generatedAt ? `, generated ${safeText(b.generatedAt, 40)}` : ''}`);
    out.push(`- Why: ${safeText(b.reason, 400)}`);
    if (comparison.environmentMismatch.length)
        out.push(`- Environment differs: ${comparison.environmentMismatch.slice(0, 10).map((m) => safeText(m, 120)).join('; ')}`);
    return out.join('\n');
}
function artifactLine(entry) {
    const a = entry.artifact;
    if (!a)
        return undefined;
    const id = a.id !== undefined ? ` (id ${a.id})` : '';
    return `${safeLink(a.name, a.url, 100)}${id}: report.json, report.md, captures and logs`;
}
function artifactsSection(entries, links, h) {
    const out = [`${h} Artifacts`, ''];
    for (const entry of entries) {
        const line = artifactLine(entry);
        if (line)
            out.push(`- ${entries.length > 1 ? `${safeText(entry.label, 80)}: ` : ''}${line}`);
    }
    if (!entries.some((e) => e.artifact))
        out.push('- No artifact was uploaded; report.json and report.md are in the report directory of the job.');
    if (links.runUrl)
        out.push(`- ${safeLink('Workflow run', links.runUrl)} (every artifact of the run)`);
    return out.join('\n');
}
function reasonsBlock(report, max = 5) {
    const reasons = readableReasons(report);
    return reasons.slice(0, max).map((r) => `- ${safeText(r, 300)}`).join('\n');
}
/** The report's charts (mermaid), at the levels of detail that show the kernel families. */
function chartsSection(report, d, h) {
    const charts = d.families > 0 ? reportCharts(report) : [];
    return charts.length ? [`${h} Charts`, '', charts.join('\n\n')].join('\n') : '';
}
/**
 * One report's sections in reading order, as the summary and the comment both show them; the
 * comment draws the charts above its details, so it leaves them out here.
 */
function entrySections(entry, d, h, options = {}) {
    const sections = [
        findingsSection(entry.report, d, h),
        options.charts ? chartsSection(entry.report, d, h) : '',
        comparisonSection(entry, d, h),
        kernelsSection(entry, d, h),
        deepDiveSection(entry.report, d, h),
        utilizationSection(entry.report, d, h),
        baselineSection(entry, h),
    ];
    return sections.filter(Boolean).join('\n\n');
}

;// CONCATENATED MODULE: ./src/report/markdown/budget.ts
/**
 * Fitting rendered reports under a size limit: each report gets an equal share of what is left and
 * is rendered at the richest level of detail that fits its share. Whole blocks are kept or dropped,
 * never cut, so no table, fence or <details> is ever left open.
 */

const MIN_RENDERED_SHARE = 400;
/**
 * Join `head`, the blocks and `tail` with blank lines, within `budget` as counted by `measure`.
 * Blocks that do not fit even as one line are counted in a closing line instead.
 */
function fitBlocks(head, blocks, tail, budget, measure) {
    const omittedLine = (n) => `… ${n} more report${n === 1 ? '' : 's'} omitted to stay within GitHub's size limit; see the artifacts.`;
    const parts = [head];
    let used = measure(head) + measure(tail) + measure(omittedLine(blocks.length)) + 8;
    for (let i = 0; i < blocks.length; i++) {
        const share = (budget - used) / (blocks.length - i);
        const block = blocks[i];
        let chosen;
        // Below this share not even the leanest level fits; skip rendering it.
        if (share >= MIN_RENDERED_SHARE)
            for (const detail of DETAIL_LEVELS) {
                const text = block.render(detail);
                if (measure(text) + 2 <= share) {
                    chosen = text;
                    break;
                }
            }
        chosen ??= block.minimal();
        if (measure(chosen) + 2 > budget - used) {
            parts.push(omittedLine(blocks.length - i));
            break;
        }
        parts.push(chosen);
        used += measure(chosen) + 2;
    }
    if (tail)
        parts.push(tail);
    return parts.filter(Boolean).join('\n\n');
}
/** Table rows until a budget is spent; then one line saying how many were left out. */
function fitRows(rows, budget, measure, what) {
    const out = [];
    let used = 0;
    for (let i = 0; i < rows.length; i++) {
        const size = measure(rows[i]) + 1;
        if (used + size > budget) {
            out.push(`\n… ${rows.length - i} more ${what}.`);
            break;
        }
        out.push(rows[i]);
        used += size;
    }
    return out;
}

;// CONCATENATED MODULE: ./src/report/merge-reports.ts
/** Lower is worse. `invalid` (a comparison that could not be trusted) ranks just below a failure. */
const VERDICT_RANK = { fail: 0, invalid: 1, warn: 2, 'insufficient-data': 3, pass: 4 };
function worstVerdict(verdicts) {
    if (verdicts.length === 0)
        return 'insufficient-data';
    return verdicts.reduce((worst, v) => (VERDICT_RANK[v] < VERDICT_RANK[worst] ? v : worst));
}
/** A label for a report when the caller has none better: its workload, its model, or the fallback. */
function merge_reports_labelFor(report, fallback) {
    return report.run.workload ?? report.environment.model ?? fallback;
}
function merge_reports_mergeReports(entries) {
    const seen = new Map();
    const unique = entries.map((entry) => {
        const count = (seen.get(entry.label) ?? 0) + 1;
        seen.set(entry.label, count);
        return count === 1 ? entry : { ...entry, label: `${entry.label} (${count})` };
    });
    const ordered = unique
        .map((entry, index) => ({ entry, index }))
        .sort((a, b) => VERDICT_RANK[a.entry.report.verdict] - VERDICT_RANK[b.entry.report.verdict] || a.index - b.index)
        .map(({ entry }) => entry);
    const counts = { fail: 0, invalid: 0, warn: 0, 'insufficient-data': 0, pass: 0 };
    for (const entry of ordered)
        counts[entry.report.verdict] += 1;
    return { verdict: worstVerdict(ordered.map((e) => e.report.verdict)), entries: ordered, counts };
}
/** Something a reviewer should look at: not a pass, a new finding, or a comparison alert. */
function needsAttention(entry) {
    const { report } = entry;
    if (report.verdict !== 'pass')
        return true;
    if (report.comparison?.newFindings.length)
        return true;
    return report.comparison?.rows.some((row) => row.status === 'fail' || row.status === 'warn') ?? false;
}

;// CONCATENATED MODULE: ./src/report/markdown/comment.ts
/**
 * The sticky PR comment: the verdict and the alerts first, everything else folded in <details>,
 * a link to the full report, and a hidden marker that lets the next run find and update it.
 * GitHub refuses a comment over 65,536 characters, so the body is fitted under a budget.
 */







const COMMENT_LIMIT_CHARS = 65_536;
const COMMENT_BUDGET_CHARS = 60_000;
const COMMENT_POLICIES = ['auto', 'always', 'on-regression', 'off'];
/** Marker keys: letters, digits and . _ / - only, so a key can never close the HTML comment. */
function sanitizeCommentKey(key) {
    const clean = key
        .replace(/[^A-Za-z0-9._/-]+/g, '-')
        .replace(/-{2,}/g, '-')
        .replace(/^-|-$/g, '')
        .slice(0, 100);
    return clean || 'default';
}
/**
 * The marker of one key's comment, one-to-one with the key: a key the sanitizing changed (`llama fp8`,
 * `llama+fp8`) also carries a short hash of itself, so two keys never share a comment. A key that
 * needs no change keeps the marker it always had.
 */
function commentMarker(key) {
    const clean = sanitizeCommentKey(key);
    const suffix = clean === key ? '' : `~${(0,external_node_crypto_.createHash)('sha256').update(key).digest('hex').slice(0, 10)}`;
    return `<!-- profile-gate:${clean}${suffix} -->`;
}
/**
 * Whether to comment. `auto`: on pull request events. `on-regression`: create only when something
 * needs attention; an existing comment is still updated so it never shows a stale regression.
 */
function decideComment(policy, pullRequestEvent, merged) {
    switch (policy) {
        case 'off':
            return { action: 'skip', reason: "the comment input is 'off'" };
        case 'always':
            return { action: 'post', reason: "the comment input is 'always'" };
        case 'auto':
            return pullRequestEvent ? { action: 'post', reason: 'a pull request event' } : { action: 'skip', reason: 'not a pull request event' };
        case 'on-regression':
            return merged.entries.some(needsAttention)
                ? { action: 'post', reason: 'something needs attention' }
                : { action: 'update-only', reason: 'nothing changed: only an existing comment is refreshed' };
    }
}
const measure = (text) => text.length;
function alertLines(entry, labelled, textChars) {
    const lines = [];
    const prefix = labelled ? `**${safeText(entry.label, 80)}** · ` : '';
    const rows = orderRows(entry.report.comparison?.rows ?? []).filter(isAlert);
    const findings = orderFindings(entry.report.findings).filter((f) => f.severity !== 'info' && !f.secondary);
    if (labelled && (rows.length || findings.length || entry.report.verdict !== 'pass')) {
        lines.push(`${prefix}${verdictLine(entry.report.verdict)}${entry.report.comparison ? '' : ' (no baseline)'}`);
    }
    const detail = { ...DETAIL_LEVELS[2], nameChars: 80 };
    if (rows.length) {
        const names = reportKernelNames(entry.report);
        lines.push('', COMPARISON_HEADER, ...rows.slice(0, 10).map((row) => comparisonRowCells(row, detail, names)));
        if (rows.length > 10)
            lines.push('', `… ${rows.length - 10} more alerts in the details and the artifact.`);
        lines.push('');
    }
    for (const [i, finding] of findings.slice(0, 10).entries()) {
        lines.push(renderFindingLine(finding, textChars));
        // The top finding's next step stays in view: it is what the reviewer does next.
        if (i === 0)
            lines.push(...nextStepLines(finding, Math.max(textChars, 600)));
    }
    if (findings.length > 10)
        lines.push(`- … ${findings.length - 10} more findings in the details.`);
    return lines;
}
function entryDetails(entry, d, labelled) {
    const body = entrySections(entry, d, labelled ? '####' : '###');
    const head = labelled ? [`### ${verdictLine(entry.report.verdict)} · ${safeText(entry.label, 100)}`, reasonsBlock(entry.report)] : [];
    return [...head, body].filter(Boolean).join('\n\n');
}
function footer(merged, links) {
    const parts = [];
    for (const entry of merged.entries.slice(0, 20)) {
        if (!entry.artifact)
            continue;
        const label = merged.entries.length > 1 ? `${entry.label}: ${entry.artifact.name}` : entry.artifact.name;
        parts.push(safeLink(label, entry.artifact.url, 120));
    }
    if (links.runUrl)
        parts.push(safeLink('job summary and all artifacts', links.runUrl));
    return parts.length ? `Full report: ${parts.join(' · ')}` : 'Full report: report.json and report.md in the job’s report directory.';
}
function renderReportComment(report, options) {
    const entry = {
        label: options.label ?? labelFor(report, 'profile'),
        report,
        ...(options.artifact ? { artifact: options.artifact } : {}),
        ...(options.baselineNote ? { baselineNote: options.baselineNote } : {}),
    };
    return renderComment(mergeReports([entry]), options);
}
function renderComment(merged, options) {
    const budget = Math.min(options.budgetChars ?? COMMENT_BUDGET_CHARS, COMMENT_BUDGET_CHARS);
    const links = options.links ?? {};
    const labelled = merged.entries.length > 1;
    const first = merged.entries[0];
    const heading = labelled || !first
        ? `## profile-gate: ${verdictLine(merged.verdict)} · ${merged.entries.length} reports`
        : `## profile-gate: ${reportVerdictLine(first.report)} · ${safeText(first.label, 100)}`;
    const banner = !labelled && first ? noBaselineBanner(first) : '';
    const head = [commentMarker(options.key), heading, banner ? `\n${banner}\n` : '', !labelled && first ? reasonsBlock(first.report) : ''].filter(Boolean).join('\n');
    const tail = footer(merged, links);
    const alerts = merged.entries.flatMap((entry) => alertLines(entry, labelled, 300));
    const alertBudget = budget * 0.4;
    const alertBlock = alerts.length
        ? fitRows(alerts, alertBudget, measure, 'lines of alerts; see the job summary').join('\n').trim()
        : first
            ? 'No regressions and no findings.'
            : 'No report was found.';
    // Pictures of one report, where they beat a table: its throughput runs and its family shares.
    const charts = !labelled && first ? reportCharts(first.report) : [];
    const chartBlock = charts.length && measure(charts.join('\n\n')) < budget * 0.15 ? charts.join('\n\n') : '';
    const used = measure(head) + measure(alertBlock) + measure(chartBlock) + measure(tail) + 20;
    const open = `<details><summary>Details: findings, comparison, kernels, utilization, baseline</summary>`;
    const close = '</details>';
    const blocks = merged.entries.map((entry) => ({
        render: (d) => entryDetails(entry, d, labelled),
        minimal: () => `${safeText(entry.label, 80)}: details omitted to stay within GitHub's comment size limit; see the job summary.`,
    }));
    // The blank lines around the block content are what makes GitHub render markdown inside <details>.
    const details = blocks.length ? `${fitBlocks(open, blocks, close, budget - used, measure)}` : '';
    const body = [head, alertBlock, chartBlock, details, tail].filter(Boolean).join('\n\n');
    if (measure(body) <= budget)
        return `${body}\n`;
    // Unreachable with the caps above; kept so that no input can ever produce a refused comment.
    return `${[head, `Too large to show here; ${tail}`].join('\n\n')}\n`;
}

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
;// CONCATENATED MODULE: ./src/io/inputs.ts
/** File-system edges shared by the CLI and the action: expanding inputs and writing outputs. */



const SKIPPED_IN_DIRECTORIES = /\.(md|txt|py|sh)$|(^|\/)\./i;
/** Files named directly are taken as they are; directories give their capture files, recursively. */
async function expandInputs(inputs) {
    return (await expandInputSet(inputs)).files;
}
/** As expandInputs, also saying which files were found inside a directory rather than named. */
async function expandInputSet(inputs) {
    const files = await expandPaths(inputs);
    const named = new Set(inputs);
    return { files, fromDirectories: new Set(files.filter((file) => !named.has(file))) };
}
async function expandPaths(inputs) {
    const files = [];
    for (const input of inputs) {
        let info;
        try {
            info = await (0,promises_.stat)(input);
        }
        catch (error) {
            throw new errors/* InputError */.dz(input, `cannot read the input (${error.code ?? 'error'}); expected a capture file or a directory of them`);
        }
        if (!info.isDirectory()) {
            files.push(input);
            continue;
        }
        let listed;
        try {
            listed = await (0,promises_.readdir)(input, { withFileTypes: true });
        }
        catch (error) {
            throw new errors/* InputError */.dz(input, `cannot read the folder (${error.code ?? 'error'}); expected a folder of capture files that this user may list`);
        }
        const entries = listed.sort((a, b) => a.name.localeCompare(b.name));
        const nested = [];
        for (const entry of entries) {
            if (SKIPPED_IN_DIRECTORIES.test(entry.name))
                continue;
            if (entry.isDirectory() || entry.isFile())
                nested.push((0,external_node_path_.join)(input, entry.name));
        }
        files.push(...(await expandPaths(nested)));
    }
    return files;
}
/** Write to a file, or to stdout for `-`. */
async function writeOutput(target, text) {
    if (target === '-') {
        process.stdout.write(text);
        return;
    }
    try {
        await (0,promises_.mkdir)((0,external_node_path_.dirname)(target), { recursive: true });
        await (0,promises_.writeFile)(target, text);
    }
    catch (error) {
        // A full disk or a path that cannot be a file: say which file, in one line.
        const { code, message } = error;
        throw new errors/* InputError */.dz(target, `cannot write it (${code ?? 'error'}: ${message.replace(/^\w+: /, '').replace(/, \w+(?: '.*')?$/, '')})`);
    }
}

;// CONCATENATED MODULE: ./src/io/gather-captures.ts
/**
 * No capture, no pass: capture paths that hold no file (a typo, a step that wrote nothing) fail the
 * run by default. `warn` and `ignore` (action input if-no-captures, CLI flag --if-no-captures, the
 * same choice as upload-artifact's if-no-files-found) let it go on with the findings of an empty
 * capture, warned about or not.
 */



const NO_CAPTURE_POLICIES = ['error', 'warn', 'ignore'];
const DEFAULT_NO_CAPTURE_POLICY = 'error';
/**
 * The capture files under the paths (and which of them were found inside a directory rather than
 * named), or one line saying there are none and how to let that pass.
 */
async function gatherCaptures(paths, how) {
    const present = [];
    const missing = [];
    for (const path of paths) {
        try {
            await (0,promises_.stat)(path);
            present.push(path);
        }
        catch (error) {
            const code = error.code;
            if (code !== 'ENOENT' && code !== 'ENOTDIR')
                throw new errors/* InputError */.dz(path, `cannot read the input (${code ?? 'error'}); expected a capture file or a directory of them`);
            missing.push(path);
        }
    }
    const found = await expandInputSet(present);
    if (found.files.length) {
        if (missing.length && how.policy !== 'ignore')
            how.warn(`capture path${missing.length === 1 ? '' : 's'} not found: ${missing.join(', ')}`);
        return found;
    }
    const where = [...missing.map((p) => `${p} (missing)`), ...present.map((p) => `${p} (no capture file inside)`)].join(', ') || 'no path given';
    const line = `no capture files: ${where}`;
    if (how.policy === 'error')
        throw new errors/* UsageError */.eb(`${line}; check the path and that the profiling step wrote its files (${how.option}: warn or ignore lets an empty capture pass)`);
    if (how.policy === 'warn')
        how.warn(`${line}; the report holds no measurement (${how.option}: warn)`);
    return { files: [], fromDirectories: new Set() };
}

;// CONCATENATED MODULE: ./src/action/inputs.ts
/**
 * Action inputs: names defined once (== action.yml keys), read once, validated into one object.
 * Defaults live here as well as in action.yml (the runner applies action.yml's; a test checks they agree),
 * so an empty value always means "the default".
 */






const MODES = ['analyze', 'report', 'run'];
const INPUTS = {
    mode: 'mode',
    captures: 'captures',
    reportDir: 'report-dir',
    failOn: 'fail-on',
    key: 'key',
    comment: 'comment',
    commentAuthor: 'comment-author',
    githubToken: 'github-token',
    uploadArtifact: 'upload-artifact',
    uploadCaptures: 'upload-captures',
    artifactName: 'artifact-name',
    artifactPrefix: 'artifact-prefix',
    retentionDays: 'retention-days',
    reports: 'reports',
    runId: 'run-id',
    prNumber: 'pr-number',
    baseline: 'baseline',
    baselineArtifactName: 'baseline-artifact-name',
    baselineWorkflow: 'baseline-workflow',
    ifNoCaptures: 'if-no-captures',
    thresholds: 'thresholds',
    allowThrottled: 'allow-throttled',
    allowEnvironmentMismatch: 'allow-environment-mismatch',
    allowForkWorkloads: 'allow-fork-workloads',
    analyzeTimeoutSeconds: 'analyze-timeout-seconds',
    allowMixed: 'allow-mixed',
    strict: 'strict',
    smiColumns: 'smi-columns',
    overlapCheck: 'overlap-check',
    dropOutliers: 'drop-outliers',
};
/** What an empty input means. Empty strings stand for "derived at run time" (see the descriptions in action.yml). */
const DEFAULTS = {
    mode: 'analyze',
    captures: '',
    reportDir: 'profile-gate',
    failOn: DEFAULT_FAIL_ON_TEXT,
    key: '',
    comment: 'auto',
    commentAuthor: 'github-actions[bot]',
    githubToken: '',
    uploadArtifact: 'true',
    uploadCaptures: 'true',
    artifactName: '',
    artifactPrefix: 'profile-gate-',
    retentionDays: '',
    reports: '',
    runId: '',
    prNumber: '',
    baseline: '',
    baselineArtifactName: '',
    baselineWorkflow: '',
    ifNoCaptures: 'error',
    thresholds: '',
    allowThrottled: 'false',
    allowEnvironmentMismatch: '',
    allowForkWorkloads: 'false',
    analyzeTimeoutSeconds: '',
    allowMixed: 'false',
    strict: 'false',
    smiColumns: '',
    overlapCheck: 'true',
    dropOutliers: 'true',
};
const OUTPUTS = {
    verdict: 'verdict',
    decodeTokS: 'decode-tok-s',
    findings: 'findings',
    reportJson: 'report-json',
    artifactId: 'artifact-id',
    commentUrl: 'comment-url',
};
const inputs_booleanText = schemas/* enum */.k5n(['true', 'false', 'True', 'False', 'TRUE', 'FALSE']).transform((v) => v.toLowerCase() === 'true');
const positiveInt = schemas/* string */.YjP()
    .regex(/^\d+$/, 'expected a positive whole number')
    .transform(Number)
    .refine((n) => n > 0, 'expected a positive whole number');
const positiveSeconds = schemas/* string */.YjP()
    .regex(/^\d+(\.\d+)?$/, 'expected a positive number of seconds')
    .transform(Number)
    .refine((n) => n > 0, 'expected a positive number of seconds');
// Artifact names may not hold " : < > | * ? \r \n / \ (the artifact service refuses them).
const artifactName = schemas/* string */.YjP().regex(/^[^":<>|*?\r\n/\\]*$/, 'expected an artifact name without " : < > | * ? / \\ or newlines');
const ActionInputsSchema = schemas/* object */.Ikc({
    mode: schemas/* enum */.k5n(MODES, { message: `expected one of ${MODES.join(', ')}` }),
    captures: schemas/* array */.YOg(schemas/* string */.YjP().min(1)),
    reportDir: schemas/* string */.YjP().min(1),
    failOn: schemas/* array */.YOg(schemas/* string */.YjP().regex(/^[a-z0-9-]+$/, 'expected rule ids like re-prefill')),
    key: schemas/* string */.YjP(),
    comment: schemas/* enum */.k5n(COMMENT_POLICIES, { message: `expected one of ${COMMENT_POLICIES.join(', ')}` }),
    commentAuthor: schemas/* string */.YjP().min(1).regex(/^[A-Za-z0-9-]+(\[bot\])?$/, 'expected a GitHub login such as github-actions[bot]'),
    githubToken: schemas/* string */.YjP(),
    uploadArtifact: inputs_booleanText,
    uploadCaptures: inputs_booleanText,
    artifactName,
    artifactPrefix: artifactName,
    retentionDays: schemas/* union */.KCZ([schemas/* literal */.euz('').transform(() => undefined), positiveInt.refine((n) => n <= 90, 'expected 1 to 90 days')]),
    reports: schemas/* array */.YOg(schemas/* string */.YjP().min(1)),
    runId: schemas/* union */.KCZ([schemas/* literal */.euz('').transform(() => undefined), positiveInt]),
    prNumber: schemas/* union */.KCZ([schemas/* literal */.euz('').transform(() => undefined), positiveInt]),
    baseline: schemas/* string */.YjP(),
    baselineArtifactName: artifactName,
    baselineWorkflow: schemas/* string */.YjP().regex(/^([\w.-]+\.ya?ml|\d+)?$/, 'expected a workflow file name such as baseline-main.yml, or a workflow id'),
    ifNoCaptures: schemas/* enum */.k5n(NO_CAPTURE_POLICIES, { message: `expected one of ${NO_CAPTURE_POLICIES.join(', ')}` }),
    thresholds: schemas/* array */.YOg(schemas/* string */.YjP()),
    allowThrottled: inputs_booleanText,
    allowEnvironmentMismatch: schemas/* array */.YOg(schemas/* string */.YjP()),
    allowForkWorkloads: inputs_booleanText,
    analyzeTimeoutSeconds: schemas/* union */.KCZ([schemas/* literal */.euz('').transform(() => undefined), positiveSeconds]),
    allowMixed: inputs_booleanText,
    strict: inputs_booleanText,
    smiColumns: schemas/* array */.YOg(schemas/* string */.YjP()),
    overlapCheck: inputs_booleanText,
    dropOutliers: inputs_booleanText,
});
function list(value) {
    return value
        .split(/[\n,]/)
        .map((item) => item.trim())
        .filter(Boolean);
}
function read(key) {
    return core/* getInput */.V4(INPUTS[key]) || DEFAULTS[key];
}
function getInputs() {
    const raw = {
        mode: read('mode'),
        captures: list(read('captures')),
        reportDir: read('reportDir'),
        failOn: list(read('failOn')),
        key: read('key'),
        comment: read('comment'),
        commentAuthor: read('commentAuthor'),
        githubToken: read('githubToken'),
        uploadArtifact: read('uploadArtifact'),
        uploadCaptures: read('uploadCaptures'),
        artifactName: read('artifactName'),
        artifactPrefix: read('artifactPrefix'),
        retentionDays: read('retentionDays'),
        reports: list(read('reports')),
        runId: read('runId'),
        prNumber: read('prNumber'),
        baseline: read('baseline').trim(),
        baselineArtifactName: read('baselineArtifactName'),
        baselineWorkflow: read('baselineWorkflow').trim(),
        ifNoCaptures: read('ifNoCaptures').trim(),
        thresholds: list(read('thresholds')),
        allowThrottled: read('allowThrottled'),
        allowEnvironmentMismatch: list(read('allowEnvironmentMismatch')),
        allowForkWorkloads: read('allowForkWorkloads'),
        analyzeTimeoutSeconds: read('analyzeTimeoutSeconds').trim(),
        allowMixed: read('allowMixed'),
        strict: read('strict'),
        smiColumns: list(read('smiColumns')),
        overlapCheck: read('overlapCheck'),
        dropOutliers: read('dropOutliers'),
    };
    const parsed = ActionInputsSchema.safeParse(raw);
    if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const key = issue.path[0];
        const name = INPUTS[key] ?? String(issue.path[0]);
        const value = typeof raw[key] === 'string' ? ` (got ${JSON.stringify(String(raw[key]).slice(0, 60))})` : '';
        throw new errors/* UsageError */.eb(`input '${name}': ${issue.message}${key === 'githubToken' ? '' : value}`);
    }
    const inputs = parsed.data;
    if (inputs.mode === 'analyze' && inputs.captures.length === 0) {
        throw new errors/* UsageError */.eb(`input '${INPUTS.captures}': expected at least one capture path in mode 'analyze'`);
    }
    return inputs;
}

;// CONCATENATED MODULE: ./src/model/throttle.ts
/**
 * Clock-event (throttle) reasons. NVML reports gpu_idle and the clock-setting reasons too; only the
 * hardware set below makes numbers unrepresentative (same set as max.profiler.gpu's HARDWARE_THROTTLE_REASONS).
 */
const NVML_REASON_BITS = [
    [0x1, 'gpu_idle'],
    [0x2, 'applications_clocks_setting'],
    [0x4, 'sw_power_cap'],
    [0x8, 'hw_slowdown'],
    [0x10, 'sync_boost'],
    [0x20, 'sw_thermal_slowdown'],
    [0x40, 'hw_thermal_slowdown'],
    [0x80, 'hw_power_brake_slowdown'],
    [0x100, 'display_clock_setting'],
];
const HARDWARE_THROTTLE_REASONS = new Set([
    'sw_power_cap',
    'hw_slowdown',
    'sync_boost',
    'sw_thermal_slowdown',
    'hw_thermal_slowdown',
    'hw_power_brake_slowdown',
]);
/** Names of the reasons set in an NVML clocks-event bitmask. Unknown bits are named `bit_0x…`. */
function reasonsFromMask(mask) {
    const value = BigInt(mask);
    const names = [];
    let known = 0n;
    for (const [bit, name] of NVML_REASON_BITS) {
        known |= BigInt(bit);
        if (value & BigInt(bit))
            names.push(name);
    }
    const unknown = value & ~known;
    if (unknown)
        names.push(`bit_0x${unknown.toString(16)}`);
    return names;
}

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
    return merged.sort((a, b) => b.totalNs - a.totalNs || a.name.localeCompare(b.name));
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
        const info = metricInfo(name);
        return { name, unit: info.unit, direction: info.direction, samples: values, value: median(values) };
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
    return gaps.length ? median(gaps) : 0;
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
        const reasons = sample.reasons.filter((r) => HARDWARE_THROTTLE_REASONS.has(r));
        reasons.forEach((r) => hardware.add(r));
        if (reasons.length)
            throttled += 1;
    }
    const clocks = window.map((s) => s.smClockMhz).filter((v) => v !== undefined);
    const power = samples.map((s) => s.powerW).filter((v) => v !== undefined);
    return {
        window: useTimed ? 'timed' : 'active',
        meanPercent: mean(window.map((s) => s.gpuPercent)),
        peakPercent: Math.max(...samples.map((s) => s.gpuPercent)),
        sampleCount: window.length,
        overallMeanPercent: mean(samples.map((s) => s.gpuPercent)),
        totalSampleCount: samples.length,
        devices: devices.size,
        throttleReasons: [...hardware].sort(),
        throttledFraction: throttled / window.length,
        ...(clocks.length ? { meanSmClockMhz: mean(clocks) } : {}),
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
function mergeTimeline(captures) {
    const timelines = captures.filter((c) => c.timeline).map((c) => ({ path: c.source.path, timeline: c.timeline }));
    if (timelines.length <= 1)
        return { timeline: timelines[0]?.timeline ?? null, notices: [] };
    return {
        timeline: timelines[0].timeline,
        notices: [
            {
                code: 'several-timelines',
                severity: 'info',
                message: `${timelines.length} inputs carry a timeline; the first (${timelines[0].path}) is used for time-based analysis`,
            },
        ],
    };
}

;// CONCATENATED MODULE: ./src/classify/families.ts
/**
 * A tile side of at most this many rows only holds a few tokens: cuBLAS and hipBLASLt pick such a
 * narrow tile only when one GEMM dimension is that small, and in a transformer layer the small
 * dimension is the token count (weights are hundreds of rows or more). A wide tile proves nothing:
 * cuBLASLt runs 128x128 tiles for an FP8 GEMM with M = 16.
 */
const DECODE_TILE_MAX = 16;
const NVJET_TILE = /nvjet_(?:[a-z0-9]+_)*?(\d+)x(\d+)_/i;
const HIPBLASLT_TILE = /_MT(\d+)x(\d+)x\d+/;
/**
 * cuBLAS nvjet (`nvjet_sm90_tst_256x8_…`) and hipBLASLt (`…_MT128x16x64_…`) name their output tile.
 * A narrow side (≤ 16) says decode-shaped; anything wider leaves the shape unknown (`gemm`).
 */
function gemmShapeFromTile(name) {
    const tile = NVJET_TILE.exec(name) ?? HIPBLASLT_TILE.exec(name);
    if (!tile)
        return 'gemm';
    const rows = Math.min(Number(tile[1]), Number(tile[2]));
    return rows <= DECODE_TILE_MAX ? 'gemm-decode' : 'gemm';
}
/** A tile side this wide or wider only comes with many rows at once, most often a prompt; but see below. */
const WIDE_TILE_MIN = 40;
/**
 * The tile a GEMM library names, as a hint and no more: narrow (≤ 16) says few tokens; wide (≥ 40)
 * is what prompt GEMMs use, but also what cuBLASLt picks for FP8 at M = 16. Only a rule that needs
 * corroboration anyway (re-prefill) may read a wide tile, and it must say the shape came from a name.
 */
function tileHint(name) {
    const tile = NVJET_TILE.exec(name) ?? HIPBLASLT_TILE.exec(name);
    if (!tile)
        return undefined;
    const rows = Math.min(Number(tile[1]), Number(tile[2]));
    if (rows <= DECODE_TILE_MAX)
        return 'narrow';
    return rows >= WIDE_TILE_MIN ? 'wide' : undefined;
}
/**
 * Inductor names a kernel `triton_{poi,red,per,tem}_fused_<aten ops, sorted, joined by _>_<n>`.
 * `tritonOps('cat', 'neg')` matches a Triton kernel whose op list holds every one of the ops, as
 * ops between underscores (an op list can also say `all_reduce` or `embedding`: it is read here
 * before any substring row can take those words for a library kernel).
 */
function tritonOps(...ops) {
    const all = ops.map((op) => `(?=\\w*?_(?:${op})(?:_|$))`).join('');
    return new RegExp(`^triton_[a-z]+_fused${all}`);
}
/** Ops that only move or re-lay data: a Triton kernel made of nothing else is a copy. */
const TRITON_LAYOUT_ONLY = /^triton_poi_fused_(?:(?:cat|clone|copy|permute|transpose|expand|view|slice|select|unsqueeze|squeeze|repeat|repeat_interleave|stack|unbind|split|as_strided|alias|constant_pad_nd)_)+\d+$/;
const FAMILY_TABLE = [
    // Copies and fills as profilers record them; kernels that copy (ATen direct_copy, CatArrayBatchedCopy) are `copy`.
    {
        family: 'memcpy',
        pattern: /^\[(?:CUDA|HIP) memcpy|^memcpy\b|^hipMemcpy|__amd_rocclr_copy(?:Buffer|Image)/i,
        examples: ['[CUDA memcpy Device-to-Host]', '[CUDA memcpy Device-to-Device]', 'Memcpy DtoD (Device -> Device)', 'Memcpy HtoD (Pageable -> Device)', 'hipMemcpyAsync', '__amd_rocclr_copyBuffer', '__amd_rocclr_copyBuffer.kd'],
        counterExamples: [
            'void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}, std::array<char*, 2ul>, 4, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >(int, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}, std::array<char*, 2ul>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1>)',
            'void cpy_scalar<&(void cpy_1_scalar<float, float>(char const*, char*))>(char const*, char*, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long) [clone .kd]',
        ],
    },
    {
        family: 'memset',
        pattern: /^\[(?:CUDA|HIP) memset|^memset\b|^hipMemset|__amd_rocclr_fillBuffer/i,
        examples: ['[CUDA memset]', 'Memset (Device)', '__amd_rocclr_fillBufferAligned.kd', 'hipMemsetAsync'],
        counterExamples: ['void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<long>, std::array<char*, 1ul> >(int, at::native::FillFunctor<long>, std::array<char*, 1ul>)'],
    },
    // Inductor kernels, read by their op list before the substring rows below. A norm fused with
    // RoPE counts as norm (as MAX's fused_rope_rmsnorm does).
    {
        family: 'norm',
        pattern: tritonOps('mean|var_mean', 'rsqrt'),
        examples: ['triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0', 'triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_2'],
        counterExamples: ['triton_red_fused_sum_1', 'triton_poi_fused_mul_silu_1'],
    },
    // rotate_half is cat(-x2, x1): one kernel holding both is the whole RoPE, fused. (The examples
    // follow Inductor's naming; the shared captures hold no compiled RoPE yet.)
    {
        family: 'rope',
        pattern: tritonOps('cat', 'neg'),
        examples: ['triton_poi_fused_add_cat_mul_neg_slice_0', 'triton_poi_fused_add_cat_index_mul_neg_slice_unsqueeze_1'],
        counterExamples: ['triton_poi_fused_cat_3', 'triton_poi_fused_neg_0'],
    },
    // vLLM's vocab-parallel embedding: masks ids outside this rank's shard; the all_reduce follows as its own kernel.
    {
        family: 'gather-scatter',
        pattern: tritonOps('embedding|index_select|gather|scatter|scatter_add|index_put'),
        examples: ['triton_poi_fused_add_all_reduce_bitwise_and_bitwise_or_embedding_ge_lt_masked_fill_mul_sub_0', 'triton_poi_fused_embedding_0'],
        counterExamples: ['triton_poi_fused_mul_silu_1'],
    },
    {
        family: 'copy',
        pattern: TRITON_LAYOUT_ONLY,
        examples: ['triton_poi_fused_cat_3', 'triton_poi_fused_cat_4', 'triton_poi_fused_clone_0'],
        counterExamples: ['triton_poi_fused__to_copy_0', 'triton_poi_fused_add_cat_mul_neg_slice_0'],
    },
    // Before norm (allreduce_rmsnorm) and gather (allgather). No Triton kernel is a collective. The
    // MSCCL++, NVSHMEM and DeepEP names are written from those libraries' sources (namespace::kernel).
    {
        family: 'collective',
        pattern: /^(?!triton_).*?(?:nccl|rccl|mscclpp|nvshmem|deep_ep::|cross_device_reduce|quickreduce|all_?reduce|all_?gather|reduce_?scatter|all_?to_?all|^broadcast_|^ep_(?:fused_)?(?:dispatch|combine))/i,
        examples: [
            'ncclDevKernel_AllReduce_Sum_bf16_RING_LL',
            'ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)',
            'void vllm::cross_device_reduce_1stage<__nv_bfloat16, 8>(vllm::RankData*, vllm::RankSignals, vllm::Signal*, __nv_bfloat16*, int, int)',
            'allreduce_1stage_bfloat16_False_3c1d2e4f',
            'allreduce_rmsnorm_fp8_bfloat16_9a8b7c60',
            'allgather_p2p_tma_bfloat16_0a1b2c3d',
            'ep_dispatch_async_bfloat16_11223344',
            'ep_combine_wait_bfloat16_55667788',
            'ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)',
            'ncclDevKernel_AllGather_RING_LL(ncclDevComm*, unsigned long, ncclWork*)',
            'ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)',
            'void vllm::cross_device_reduce_1stage<__nv_bfloat16, 4>(vllm::RankData*, vllm::RankSignals, vllm::Signal*, __nv_bfloat16*, int, int)',
            'void mscclpp::allreduce6<__nv_bfloat16>',
            'void nvshmemi_transfer_rma_nbi_kernel<(nvshmemi_op_t)0>',
            'void deep_ep::intranode::dispatch<8, 768, 8192>',
            'void deep_ep::internode_ll::combine<false, 7168>',
        ],
        counterExamples: [
            'triton_poi_fused_add_all_reduce_bitwise_and_bitwise_or_embedding_ge_lt_masked_fill_mul_sub_0',
            'void cutlass::device_kernel<flash::FlashAttnFwdCombine<cute::tuple<cute::C<8>, cute::C<128> >, 5, 256, 1, false, true, cutlass::bfloat16_t, float, cutlass::arch::Sm90> >(flash::FlashAttnFwdCombine<cute::tuple<cute::C<8>, cute::C<128> >, 5, 256, 1, false, true, cutlass::bfloat16_t, float, cutlass::arch::Sm90>::Params)',
            'void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4>)',
        ],
    },
    // Before attention (`reshape_and_cache_flash` says flash but only writes the cache).
    {
        family: 'kv-cache',
        pattern: /reshape_and_cache|concat_and_cache|store_kv_?cache|kv_?cache_(?:write|update|store|copy)|copy_blocks|swap_blocks|(?:^|\s)k_set_rows\b/i,
        examples: [
            // llama.cpp writes new K/V rows into its cache with set_rows.
            'void k_set_rows<float, long, __half>(float const*, long const*, __half*, long, long, long, long, long, long, long, long, long, long, long, long, long, long, HIP_vector_type<unsigned int, 3u>, HIP_vector_type<unsigned int, 3u>) [clone .kd]',
            'void vllm::reshape_and_cache_flash_kernel<__nv_bfloat16, __nv_bfloat16, (vllm::Fp8KVCacheDataType)0>(const T1 *, const T1 *, T2 *, T2 *, const long *, long, long, long, long, long, int, int, int, const float *, const float *, int)',
            'void vllm::concat_and_cache_mla_kernel<__nv_bfloat16, __nv_bfloat16, (vllm::Fp8KVCacheDataType)0>(const T1 *, const T1 *, T2 *, const long *, int, int, int, int, int, int, const float *)',
        ],
        counterExamples: ['void k_get_rows_float<float, float>(float const*, int const*, float*, long, long, long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long) [clone .kd]'],
    },
    // Before norm: MAX fuses a partial norm into a GEMV and it is still the decode linear.
    {
        family: 'gemv',
        pattern: /gemv|gevm|gemmk1_kernel|(?:^|\s)mul_mat_vec(?:_f)?</i,
        examples: [
            'gemv_split_k_bfloat16_bfloat16_bfloat16_256_f519d2c2',
            'gemv_split_k_bfloat16_bfloat16_bfloat16_128_e7d08336',
            'gemv_kernel_vector_bfloat16_bfloat16_bfloat16_8_1a2b3c4d',
            'gemv_partial_norm_kernel_bfloat16_bfloat16_4d3c2b1a',
            'linalg_gemv_gpu_gemv_split_k_6A6A6A6A',
            'std::enable_if<!T7, void>::type internal::gemvx::kernel<int, int, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, float, (bool)0, (bool)1, (bool)1, (bool)0, (int)7, (bool)0, cublasGemvParamsEx<int, cublasGemvTensorStridedBatched<const __nv_bfloat16>, cublasGemvTensorStridedBatched<const __nv_bfloat16>, cublasGemvTensorStridedBatched<__nv_bfloat16>, float>>(T13, T6, T6)',
            'void gemvNSP_kernel<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, float, 1, 32, 4, 1024, false, cublasGemvParamsEx<int, cublasGemvTensorStridedBatched<__nv_bfloat16 const>, cublasGemvTensorStridedBatched<__nv_bfloat16 const>, cublasGemvTensorStridedBatched<__nv_bfloat16>, float> >(cublasGemvParamsEx<int, cublasGemvTensorStridedBatched<__nv_bfloat16 const>, cublasGemvTensorStridedBatched<__nv_bfloat16 const>, cublasGemvTensorStridedBatched<__nv_bfloat16>, float>)',
            'void gemmk1_kernel<int, float, (int)256, (int)5, (bool)1, (bool)0, (bool)0, (bool)0, cublasGemvTensorStridedBatched<const float>, cublasGemvTensorStridedBatched<const float>, cublasGemvTensorStridedBatched<float>, float, (int)0>(cublasGemmk1Params<T2, T9, T10, T11, T12, biasType<T11::value_type, T12>::type>)',
            // llama.cpp's float GEMV (its quantized one, mul_mat_vec_q, is a low-bit GEMM).
            'void mul_mat_vec_f<__half, float, 1, 256>',
        ],
        counterExamples: [
            'void mul_mat_vec_q<(ggml_type)14, 1, false, false>(void const*, void const*, int const*, ggml_cuda_mm_fusion_args_device, float*, unsigned int, HIP_vector_type<unsigned int, 3u>, unsigned int, unsigned int, unsigned int, HIP_vector_type<unsigned int, 3u>, unsigned int, unsigned int, unsigned int, HIP_vector_type<unsigned int, 3u>, unsigned int, unsigned int, unsigned int, unsigned int) [clone .kd]',
        ],
    },
    // Before quantize: a norm that also emits fp8 is still the norm. Before rope: a fused rope+norm
    // counts as norm, but llama.cpp's `rope_norm` is its plain RoPE (the "normal" rotation, not NeoX).
    {
        family: 'norm',
        pattern: /(?<!rope_)norm(?!al)|RowwiseMoments|(?:^|\s|::)bn_(?:fw|bw)_/i,
        examples: [
            'rms_norm_gpu_warp_tiling_bfloat16_4_True_1_9f8e7d6c',
            'rms_norm_fused_residual_add_gpu_block_bfloat16_5e6f7a8b',
            'rms_norm_fused_fp8_warp_tiling_bfloat16_float8_e4m3fn_2b3c4d5e',
            'fused_rope_rmsnorm_quantization_bfloat16_7c6b5a49',
            'fused_rope_rmsnorm_bfloat16_1f2e3d4c',
            'fused_qk_rms_norm_ragged_paged_gpu_bfloat16_0f1e2d3c',
            'layer_norm_gpu_warp_tiling_bfloat16_6a5b4c3d',
            'std::enable_if<T2>(int)0&&vllm::_typeConvert<T1>::exists, void>::type vllm::fused_add_rms_norm_kernel<c10::BFloat16, (int)8>(T1 *, long, T1 *, const T1 *, float, int, int)',
            'void vllm::rms_norm_kernel<c10::BFloat16, (int)8, (int)2>(T1 *, const T1 *, long, long, long, long, long, const T1 *, float, int, int)',
            'void at::native::<unnamed>::vectorized_layer_norm_kernel<c10::BFloat16, float, (bool)1>(int, T2, const T1 *, const T1 *, const T1 *, T2 *, T2 *, T1 *)',
            'void at::native::(anonymous namespace)::LayerNormForwardCUDAKernel<float, float>(long, float const*, float const*, float const*, float const*, float const*, float*)',
            'void at::native::(anonymous namespace)::RowwiseMomentsCUDAKernel<float, float>(long, float, float const*, float*, float*)',
            'MIOpenBatchNormFwdTrainSpatial',
            'void rms_norm_f32<1024, true, false>(float const*, float*, int, long, long, long, float, float const*, long, long, long, HIP_vector_type<unsigned int, 3u>, HIP_vector_type<unsigned int, 3u>, HIP_vector_type<unsigned int, 3u>, HIP_vector_type<unsigned int, 3u>, float const*, long, long, long, HIP_vector_type<unsigned int, 3u>, HIP_vector_type<unsigned int, 3u>, HIP_vector_type<unsigned int, 3u>, HIP_vector_type<unsigned int, 3u>) [clone .kd]',
            // cuDNN batch norm, forward training and backward.
            'void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1>',
            'void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, true, 1>',
        ],
        counterExamples: [
            'void rope_norm<true, false, float, __half>(float const*, __half*, int, int, int, int, int, int, int, int, int, int, int const*, float, float, float, rope_corr_dims, float, float const*, long const*, int, int, int) [clone .kd]',
            'void at::native::(anonymous namespace)::distribution_elementwise_grid_stride_kernel<float, 4, at::native::templates::cuda::normal_and_transform<float, float>(at::TensorIteratorBase&)>(int)',
        ],
    },
    {
        family: 'rope',
        pattern: /rope|rotary|rot_emb/i,
        examples: [
            'void vllm::rotary_embedding_kernel<c10::BFloat16, (bool)1>(const long *, T1 *, T1 *, const T1 *, int, long, long, long, int, int, int)',
            'rope_ragged_bfloat16_3a4b5c6d',
            'fused_qk_rope_ragged_bfloat16_8e9f0a1b',
            'void rope_norm<true, false, float, __half>(float const*, __half*, int, int, int, int, int, int, int, int, int, int, int const*, float, float, float, rope_corr_dims, float, float const*, long const*, int, int, int) [clone .kd]',
            'void rope_norm<true, false, float, float>(float const*, float*, int, int, int, int, int, int, int, int, int, int, int const*, float, float, float, rope_corr_dims, float, float const*, long const*, int, int, int) [clone .kd]',
            'void rope_neox<true, false, float, float>',
        ],
        counterExamples: ['fused_rope_rmsnorm_bfloat16_1f2e3d4c', 'void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#10}::operator()() const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#10}::operator()() const::{lambda(c10::BFloat16)#1} const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#10}::operator()() const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#10}::operator()() const::{lambda(c10::BFloat16)#1} const&)::{lambda(int)#1})'],
    },
    // Before lowbit-gemm: quantize ops name fp8/fp4/block-scaled too, but they only produce operands.
    {
        family: 'quantize',
        pattern: /quant(?!ized_?(?:gemm|matmul|mm)|Dot)|block_scales_interleave|_to_h?fp8|fp8_cast|cast_to_fp8|marlin_repack/i,
        examples: [
            'quantize_dynamic_scaled_async_fp4_kernel',
            'grouped_quantize_dynamic_scaled_async_fp4_kernel',
            'quantize_dynamic_block_scaled_mxfp4_kernel',
            'block_scales_interleave_fp4_bfloat16_16_2c3d4e5f',
            'dequant_mxfp4_to_fp8_bfloat16_4f5e6d7c',
            'void vllm::scaled_fp8_quant_kernel<c10::BFloat16, c10::Float8_e4m3fn>(T2 *, const T1 *, const float *, long)',
            'void vllm::dynamic_per_token_scaled_fp8_quant_kernel<c10::BFloat16, c10::Float8_e4m3fn>(T2 *, float *, const T1 *, const float *, int)',
            '_per_token_group_quant_fp8',
            'void at::native::vectorized_elementwise_kernel<4, fbgemm_gpu::_float_to_hfp8_gpu(at::Tensor const&, long, long, double)::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, fbgemm_gpu::_float_to_hfp8_gpu(at::Tensor const&, long, long, double)::{lambda(float)#1}, at::detail::Array<char*, 2>)',
            // llama.cpp quantizes activations to q8_1 before its quantized matmul.
            'void quantize_mmq_q8_1<(mmq_q8_1_ds_layout)1>(float const*, int const*, void*, long, long, long, long, long, int, int) [clone .kd]',
            'quantize_q8_1(float const*, void*, long, long, long, long, long, unsigned int, HIP_vector_type<unsigned int, 3u>) [clone .kd]',
        ],
        counterExamples: [
            'QuantDotGemmGroupedKernel<5, float>(T2 *, const unsigned char *, const BlockQ8_K *, const int *, long, long, long, unsigned long, unsigned long, bool)',
            'void mul_mat_q<(ggml_type)2, 128, false>(char const*, int const*, int const*, int const*, float*, float*, int, int, int, int, int, int, int, int, int, int, int, int, int, int, int, int, int) [clone .kd]',
        ],
    },
    // Before lowbit-gemm: grouped block-scaled matmuls are MoE experts first.
    {
        family: 'moe-gemm',
        pattern: /grouped_?(?:matmul|gemm|mm)|matmul_\w*grouped|(?:^|_)gmm_|fused_moe|moe_wna16|mxfp4_grouped|moe_routed|GroupProblemShape/i,
        examples: [
            'grouped_matmul_kernel_sm100_bfloat16_bfloat16_bfloat16_t128_5d4c3b2a',
            'grouped_matmul_amd_bfloat16_bfloat16_bfloat16_6e5d4c3b',
            'naive_grouped_matmul_kernel_bfloat16_7f6e5d4c',
            'blackwell_gmm_warp_specialized_blockwise_fp8_8a7f6e5d',
            'matmul_sm100_grouped_blockwise_scaled_fp8_1d2d_9b8a7f6e',
            'grouped_matmul_block_scaled_mxfp4_kernel',
            'fused_moe_kernel',
            '_ZN7cutlass13device_kernelIN2at4cuda6detail25enable_3x_kernel_for_sm9xINS_4gemm6kernel13GemmUniversalINS5_17GroupProblemShapeIN4cute5tupleIJiiiEEEEENS5_10collective13CollectiveMmaEEEvNT_6ParamsE',
            'void at::cuda::detail::prepare_grouped_gemm_data<cutlass::bfloat16_t, cutlass::bfloat16_t, cutlass::bfloat16_t, float, cute::tuple<int, int, int>, cute::tuple<long, cute::C<1>, cute::C<0> > >(cutlass::bfloat16_t*)',
        ],
        counterExamples: ['grouped_quantize_dynamic_scaled_async_fp4_kernel', 'QuantDotGemmGroupedKernel<5, float>(T2 *, const unsigned char *, const BlockQ8_K *, const int *, long, long, long, unsigned long, unsigned long, bool)'],
    },
    {
        family: 'lowbit-gemm',
        // cuBLASLt nvjet spells operand types first: `qq` is FP8 A and B (`tst` is BF16). llama.cpp's
        // mul_mat_q / mul_mat_vec_q run on its quantized blocks; vllm.cpp's QuantDot* is its quantized
        // (grouped) matmul; vLLM's ROCm wvSplitKQ is the FP8 skinny GEMM.
        pattern: /block(?:wise)?_scaled|blockwise_fp8|scaled_mm|qgemm|marlin|machete|e4m3|e5m2|fp8_?(?:gemm|matmul)|(?:gemm|matmul)_?fp8|nvfp4|mxf[468]|int8_?gemm|i8i8|w4a16|w8a8|awq_gemm|gptq|^nvjet_(?:sm\d+[a-z]?_)?qq|(?:^|\s)mul_mat_(?:vec_)?q(?:\b|_)|QuantDot|wvSplitKQ|f8f8bf16/i,
        examples: [
            'nvjet_sm90_qqtst_128x128_128x6_1x1_h_bz_coopA_algo2_ovscale_TNT',
            'void mul_mat_q<(ggml_type)2, 128, false>(char const*, int const*, int const*, int const*, float*, float*, int, int, int, int, int, int, int, int, int, int, int, int, int, int, int, int, int) [clone .kd]',
            'void mul_mat_vec_q<(ggml_type)14, 1, false, false>(void const*, void const*, int const*, ggml_cuda_mm_fusion_args_device, float*, unsigned int, HIP_vector_type<unsigned int, 3u>, unsigned int, unsigned int, unsigned int, HIP_vector_type<unsigned int, 3u>, unsigned int, unsigned int, unsigned int, HIP_vector_type<unsigned int, 3u>, unsigned int, unsigned int, unsigned int, unsigned int) [clone .kd]',
            'void mul_mat_vec_q<(ggml_type)2, 1, true, false>(void const*, void const*, int const*, ggml_cuda_mm_fusion_args_device, float*, unsigned int, HIP_vector_type<unsigned int, 3u>, unsigned int, unsigned int, unsigned int, HIP_vector_type<unsigned int, 3u>, unsigned int, unsigned int, unsigned int, HIP_vector_type<unsigned int, 3u>, unsigned int, unsigned int, unsigned int, unsigned int) [clone .kd]',
            'QuantDotGemmGroupedKernel<5, float>(T2 *, const unsigned char *, const BlockQ8_K *, const int *, long, long, long, unsigned long, unsigned long, bool)',
            'void wvSplitKQ_hf_sml_<__hip_bfloat16, __hip_fp8_e4m3, 64, 2, 16, 8, 2, 1>',
            'matmul_sm100_blockwise_scaled_fp8_1d2d_1c2d3e4f',
            'blackwell_warp_specialized_blockwise_fp8_2d3e4f5a',
            'bmm_sm100_blockwise_scaled_fp8_3e4f5a6b',
            'SM100_block_scaled_ss_mxf4nvf4_4f5a6b7c',
            'multistage_qgemm_bfloat16_5a6b7c8d',
            'void cutlass::device_kernel<vllm::cutlass_3x_gemm<cutlass::float_e4m3_t, cutlass::bfloat16_t, vllm::c3x::ScaledEpilogue, cute::tuple<cute::C<128>, cute::C<128>, cute::C<128> > > >(vllm::cutlass_3x_gemm<cutlass::float_e4m3_t>::GemmKernel::Params)',
            'sm90_xmma_gemm_e4m3bf16_e4m3f32_f32_tn_n_tilesize128x128x128_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas',
            'void marlin::Marlin<__nv_bfloat16, 4, 256, 4, 8, 4, false>(const int4 *, const int4 *, int4 *, const int4 *, int, int, int)',
            '_w8a8_block_fp8_matmul',
        ],
        counterExamples: [
            'nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT',
            'void quantize_mmq_q8_1<(mmq_q8_1_ds_layout)1>(float const*, int const*, void*, long, long, long, long, long, int, int) [clone .kd]',
            'void vllm::dynamic_per_token_scaled_fp8_quant_kernel<c10::BFloat16, c10::Float8_e4m3fn>(T2 *, float *, const T1 *, const float *, int)',
        ],
    },
    // Before attention-fused (`mha_bmm0` starts like a MAX attention kernel) and generic GEMM.
    {
        family: 'attention-bmm',
        pattern: /(?:^|[_:\s])bmm\d?(?:_|$)|batched_?matmul|batch_?matmul|baddbmm/i,
        examples: ['mha_bmm0_bfloat16_bfloat16_6b7c8d9e', 'mha_bmm1_bfloat16_bfloat16_7c8d9e0f', 'batched_matmul_bfloat16_bfloat16_8d9e0f1a'],
        counterExamples: ['bmm_sm100_blockwise_scaled_fp8_3e4f5a6b'],
    },
    {
        family: 'attention-fused',
        // `_fwd_kernel` is the Triton prefix-prefill attention of vLLM (anchored: other Triton kernels end in _fwd_kernel too).
        pattern: /flash|fmha|(?:^|_)mha_|(?:^|_)mla_|sdpa|paged_?attention|(?:Batch|Single)(?:Decode|Prefill)With|multihead_?attention|mmha|xqa|attn_fwd|^_fwd_kernel\b|_fwd_(?:grouped_)?kernel_stage|unified_attention|decode_attention|lean_reduction|fused_attn/i,
        examples: [
            // FA3 as vLLM runs it (real name, cut after its first template arguments).
            'void cutlass::device_kernel<flash::enable_sm90_or_later<flash::FlashAttnFwdSm90<flash::CollectiveMainloopFwdSm90<2, cute::tuple<cute::C<1>, cute::C<1>, cute::C<1> >, cute::tuple<cute::C<128>, cute::C<128>, cute::C<128> >, 128, cutlass::bfloat16_t, float, cutlass::arch::Sm90',
            'void cutlass::device_kernel<flash::FlashAttnFwdCombine<cute::tuple<cute::C<8>, cute::C<128> >, 5, 256, 1, false, true, cutlass::bfloat16_t, float, cutlass::arch::Sm90> >(flash::FlashAttnFwdCombine<cute::tuple<cute::C<8>, cute::C<128> >, 5, 256, 1, false, true, cutlass::bfloat16_t, float, cutlass::arch::Sm90>::Params)',
            // From the llama.cpp and vLLM (ROCm) sources.
            'void flash_attn_ext_f16<128, 128, 8, 2, 2, false, false, false>',
            'void paged_attention_ll4mi_QKV_mfma16_kernel<__hip_bfloat16, __hip_bfloat16, (vllm::Fp8KVCacheDataType)0, 16, 128, 256, true, 4>',
            '_fwd_kernel',
            'sm100_mha_1q_depth128_bfloat16_bfloat16_nqh32_nkvh8_2a3b4c5d',
            'sm90_mha_depth128_bfloat16_bfloat16_3b4c5d6e',
            'mha_decoding_depth128_bfloat16_bfloat16_64x64x32_4c5d6e7f',
            'mha_splitk_reduce_bfloat16_5d6e7f8a',
            'mha_prefill_v2_amd_bfloat16_6e7f8a9b',
            'sm100_mla_decode_kv_bf16_7f8a9b0c',
            'cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x64_4x1x1_cga1x1x1_kernel0_0',
            'cudnn_generated_fort_native_sdpa_sm80_flash_fprop_wmma_f16_knob_35_16x128x128_1x4x1_cga1x1x1_kernel0_0',
            'void cudnn::fusion::lean_reduction_kernel<(bool)0, (bool)0, (bool)0>(void *, float *, float *, float *, float *, const float *, float *, float *, float *, float *, float *, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int)',
            'void flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 128, 64, 4, cutlass::bfloat16_t> >, false, true, false, false, true, true, false, false>(Flash_fwd_params)',
            'void flash::flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<(int)128, (int)64, (int)128, (int)4, (bool)0, (bool)0, cutlass::bfloat16_t, Flash_kernel_traits<(int)128, (int)64, (int)128, (int)4, cutlass::bfloat16_t>>, (bool)0, (bool)0, (bool)0, (bool)0, (bool)1, (bool)0, (bool)1, (bool)0>(Flash_fwd_params)',
            'fmha_cutlassF_bf16_aligned_64x64_rf_sm80(PyTorchMemEffAttention::AttentionKernel<cutlass::bfloat16_t, cutlass::arch::Sm80, true, 64, 64, 64, true, true>::Params)',
            'void flashinfer::BatchDecodeWithPagedKVCacheKernel<(flashinfer::PosEncodingMode)0, 2u, 4u, 8u, 16u, 1u, 8u, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, int>(__nv_bfloat16*, flashinfer::paged_kv_t<__nv_bfloat16, int>, flashinfer::kv_partition_info_t<int>, __nv_bfloat16*, float*, bool*, float, float, float, float)',
            'void flashinfer::BatchPrefillWithPagedKVCacheKernel<1u, 1u, 8u, (flashinfer::QKVLayout)0, (flashinfer::PosEncodingMode)0, false, (flashinfer::MaskMode)1, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, int>(int*)',
            'void vllm::paged_attention_v1_kernel<__nv_bfloat16, __nv_bfloat16, 128, 16, 128, (vllm::Fp8KVCacheDataType)0, false>(__nv_bfloat16*, const __nv_bfloat16*, const __nv_bfloat16*, const __nv_bfloat16*, int, float, const int*, const int*, int, const float*, int, int, int, const float*, const float*)',
            'void tensorrt_llm::kernels::mmha::masked_multihead_attention_kernel<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, 128, 256, false, false, false, false, false, false>(tensorrt_llm::kernels::Multihead_attention_params<__nv_bfloat16, false>)',
            'kernel_unified_attention_2d',
            '_fwd_grouped_kernel_stage1',
        ],
        counterExamples: [
            'void vllm::reshape_and_cache_flash_kernel<__nv_bfloat16, __nv_bfloat16, (vllm::Fp8KVCacheDataType)0>(__nv_bfloat16 const*, __nv_bfloat16 const*, __nv_bfloat16*, __nv_bfloat16*, long const*, long, long, long, long, long, int, int, int, float const*, float const*, int)',
            '_layer_norm_fwd_1pass_kernel',
            'void soft_max_f32<true, 512, 512, float>(float const*, float const*, float const*, float*, soft_max_params) [clone .kd]',
        ],
    },
    // Before softmax (topkGatingSoftmax), sampling (radixSortKVInPlace) and gather (gatherTopK).
    {
        family: 'moe-routing',
        pattern: /topk_?gating|moe_align|moe_create_indices|group_limited_router|single_group_router|moe_sum|moe_(?:un)?permute|count_and_sort_expert|expert_?(?:map|count|offsets?)|gatherTopK|sbtopk|mbtopk|(?:bitonic|radix)SortKVInPlace|kernelHistogram/i,
        examples: [
            'void vllm::moe::topkGatingSoftmax<8, 8, 4, 16, 32, int, float, (vllm::moe::ScoringFunc)0>(const float *, const bool *, float *, int, int *, int *, int, int, int)',
            'void vllm::moe::moe_align_block_size_kernel<int>(const int *, int *, int *, int *, int, int, int, int, unsigned long, int *)',
            'moe_create_indices_bucket_group_int32_t128_8b9c0d1e',
            'group_limited_router_bfloat16_9c0d1e2f',
            'void at::native::sbtopk::gatherTopK<float, unsigned int, (int)1, (bool)0>(at::cuda::detail::TensorInfo<const T1, T2>, T2, T2, bool, T2, T2, at::cuda::detail::TensorInfo<T1, T2>, T2, at::cuda::detail::TensorInfo<long, T2>, T2, T1 *)',
            'void at::native::bitonicSortKVInPlace<-2, -1, 16, 16, float, long, at::native::GTOp<float, true>, unsigned int>(at::cuda::detail::TensorInfo<float, unsigned int>, unsigned int, unsigned int, unsigned int, at::cuda::detail::TensorInfo<long, unsigned int>, unsigned int, at::native::GTOp<float, true>)',
            'void at::native::radixSortKVInPlace<-2, -1, 32, 32, long, long, unsigned int>(at::cuda::detail::TensorInfo<long, unsigned int>, unsigned int, unsigned int, unsigned int, at::cuda::detail::TensorInfo<long, unsigned int>, unsigned int)',
            'void at::cuda::kernelHistogram1D<int, int, long, 1, 2, -1, (at::cuda::CUDAHistogramMemoryType)0, at::cuda::CUDA_tensor_histogram<int, int, false>(at::Tensor, at::Tensor, at::Tensor, long, at::AccumulateType<int, true>::type, at::AccumulateType<int, true>::type, at::cuda::TensorArgType, at::cuda::TensorArgType)::{lambda(at::cuda::detail::TensorInfo<int, unsigned int>, long)#1}>(at::cuda::detail::TensorInfo<int, unsigned int>, at::cuda::detail::TensorInfo<int, unsigned int>, at::cuda::detail::TensorInfo<int, unsigned int>, int, long, long, unsigned int, at::cuda::detail::TensorInfo<int, unsigned int>, long)',
        ],
        counterExamples: ['topk_softmax_sample_bfloat16_0d1e2f3a', 'void at::native::vectorized_gather_kernel<16, long>(char*, char*, long*, int, long, long, long, long, bool)'],
    },
    // Before softmax (`topk_softmax_sample`) and reduce (ArgMaxOps is greedy sampling).
    {
        family: 'sampling',
        pattern: /(?:^|_|::)(?:top_?[kp]_?)?sampl(?:e|ing)|gumbel|apply_min_p|topp_minp|topk_(?:stage\d|wrapper|mask_logits)|ArgMaxOps|argmax|radix_?sort|RadixSort|penalt|multinomial/i,
        examples: [
            'topk_softmax_sample_bfloat16_0d1e2f3a',
            'topk_sampling_from_prob_bfloat16_1e2f3a4b',
            'topp_minp_sampling_bfloat16_2f3a4b5c',
            'apply_gumbel_noise_bfloat16_3a4b5c6d',
            'topk_stage1_bfloat16_int64_True_4b5c6d7e',
            'radix_sort_pairs_bfloat16_5c6d7e8f',
            'void at::native::reduce_kernel<(int)512, (int)1, at::native::ReduceOp<float, at::native::ArgMaxOps<float>, unsigned int, long, (int)4, (int)4>>(T3)',
            'void at_cuda_detail::cub::DeviceSegmentedRadixSortKernel<at_cuda_detail::cub::DeviceRadixSortPolicy<float, long, int>::Policy900, (bool)1, (bool)0, float, long, at::native::<unnamed>::offset_t, at::native::<unnamed>::offset_t, int>(const T4 *, T4 *, const T5 *, T5 *, T6, T7, int, int, int)',
        ],
        counterExamples: ['upsample_bilinear2d_out_frame', 'void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4>)'],
    },
    {
        family: 'attention-softmax',
        pattern: /softmax|soft_max/i,
        examples: [
            'void (anonymous namespace)::softmax_warp_forward<float, float, float, 8, false, false>(float*, float const*, int, int, int, bool const*, int, bool)',
            'void <unnamed>::softmax_warp_forward<float, float, float, (int)6, (bool)0, (bool)0>(T2 *, const T1 *, int, int, int, const bool *, int, bool)',
            'void at::native::<unnamed>::cunn_SoftMaxForward<(int)4, float, float, float, at::native::<unnamed>::SoftMaxForwardEpilogue>(T4 *, const T2 *, int)',
            'softmax_kernel_bfloat16_6d7e8f9a',
            'triton_per_fused__softmax_0',
            'void soft_max_f32<true, 512, 512, float>(float const*, float const*, float const*, float*, soft_max_params) [clone .kd]',
        ],
        counterExamples: ['void vllm::moe::topkGatingSoftmax<8, 8, 4, 16, 32, int, float, (vllm::moe::ScoringFunc)0>(const float *, const bool *, float *, int, int *, int *, int, int, int)', 'topk_softmax_sample_bfloat16_0d1e2f3a'],
    },
    // Before elementwise: ATen index kernels are named `index_elementwise_kernel`. llama.cpp looks up embeddings with get_rows.
    {
        family: 'gather-scatter',
        pattern: /gather|scatter|index_?(?:elementwise|select|put|copy|add)|indexSelect|index_kernel|embedding|take_along|(?:^|\s)k_get_rows/i,
        examples: [
            'void at::native::vectorized_gather_kernel<16, long>(char*, char*, long*, int, long, long, long, long, bool)',
            'void at::native::index_elementwise_kernel<(int)128, (int)4, void at::native::index_copy_kernel_impl<at::native::OpaqueType<(int)2>>(at::TensorIterator &, long, long, long)::[lambda(int) (instance 1)]>(long, T3)',
            'void at::native::_scatter_gather_elementwise_kernel<(int)128, (int)8, void at::native::_cuda_scatter_fill_internal_kernel<at::native::OpaqueType<(int)8>, long>::operator ()<at::native::TensorAssign>(at::TensorIterator &, at::native::OpaqueType<(int)8>, long, long, const at::native::TensorAssign &)::[lambda(int) (instance 1)]>(int, T3)',
            'void at::native::<unnamed>::indexSelectSmallIndex<c10::BFloat16, long, unsigned int, (int)2, (int)2, (int)-2>(at::cuda::detail::TensorInfo<T1, T3>, at::cuda::detail::TensorInfo<const T1, T3>, at::cuda::detail::TensorInfo<const T2, T3>, int, int, T3, long)',
            'void split_embedding_codegen_forward_unweighted_kernel<c10::Half, c10::Half, float, false, long, 2ul, 32ul>(at::GenericPackedTensorAccessor<c10::Half, 1ul, at::RestrictPtrTraits, long>)',
            'void k_get_rows_float<float, float>(float const*, int const*, float*, long, long, long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long) [clone .kd]',
        ],
        counterExamples: ['ncclDevKernel_AllGather_RING_LL(ncclDevComm*, unsigned long, ncclWork*)', 'void k_set_rows<float, long, __half>(float const*, long const*, __half*, long, long, long, long, long, long, long, long, long, long, long, long, long, long, HIP_vector_type<unsigned int, 3u>, HIP_vector_type<unsigned int, 3u>) [clone .kd]'],
    },
    // Convolutions, before every GEMM row: cuDNN's implicit-GEMM convolutions say `gemm` too.
    {
        family: 'conv',
        pattern: /scudnn|hcudnn|(?:fprop|dgrad|wgrad)_(?:implicit|engine)|dgrad_engine|wgrad_|implicit_convolve|explicit_convolve|precomputed_convolve|(?:^|_|::)conv(?:\d?d|_depthwise|olution)|Convolution|naive_conv|igemm_(?:fwd|bwd|wrw)|MIOpenConv|miopenSp\dAsmConv|fft2d_(?:r2c|c2r)|cask_cudnn::computeOffsets|winograd|im2col|col2im/i,
        examples: [
            'cudnn_ampere_scudnn_128x64_relu_xregs_large_nn_v1',
            'sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_alignc4_execute_kernel_cudnn',
            'void fft2d_c2r_32x32<float, false, false, 0u, false, false>(float*, float2 const*, int, int, int, int, int, int, int, int, int, float, float, cudnn::reduced_divisor, bool, float*, float*, int2, int, int)',
            'void fft2d_r2c_32x32<float, false, 5u, true>(float2*, float const*, int, int, int, int, int, int, int, int, int, cudnn::reduced_divisor, bool, int2, int, int)',
            'void cask_cudnn::computeOffsetsKernel<false, false>(cask_cudnn::ComputeOffsetsParams)',
            // Written from cuDNN and MIOpen kernel names as their traces print them.
            'void cudnn::detail::dgrad_engine<float, 128, 6, 7, 3, 3, 5, false>',
            'sm80_xmma_wgrad_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_execute_kernel_cudnn',
            'void implicit_convolve_sgemm<float, float, 128, 5, 5, 3, 3, 3, 1, false, false, true>',
            'naive_conv_fwd_nchw_float_double_float',
        ],
        counterExamples: [
            'void convert_unary<float, __half>(void const*, __half*, long, long, long, HIP_vector_type<unsigned int, 3u>, long, long, long) [clone .kd]',
            'ampere_sgemm_32x32_sliced1x4_tn',
            'void cudnn::ops::nchwToNhwcKernel<float, float, float, false, true, (cudnnKernelDataType_t)2>(cudnn::ops::nchw2nhwc_params_t<float>, float const*, float*)',
        ],
    },
    // vLLM's ROCm skinny GEMMs: it sends only a few tokens' rows to them (wvSplitK, LLGemm1 for one row).
    {
        family: 'gemm-decode',
        pattern: /(?:^|\s)(?:wvSplitK(?!Q)|LLGemm1|LLMM1)/,
        examples: ['void wvSplitK_hf_sml_<__hip_bfloat16, 64, 2, 16, 8, 2, 1>', 'void wvSplitK_hf_big_<__hip_bfloat16, 64, 2, 16, 8, 2, 4>', 'void LLGemm1_kernel<__hip_bfloat16, 4>'],
        counterExamples: ['void wvSplitKQ_hf_sml_<__hip_bfloat16, __hip_fp8_e4m3, 64, 2, 16, 8, 2, 1>', 'sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas'],
    },
    // GEMMs whose name gives the output tile: a narrow tile says decode-shaped, a wide one nothing.
    {
        family: 'gemm',
        pattern: /nvjet_|^Cijk_/i,
        shape: gemmShapeFromTile,
        examples: [
            ['nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT', 'gemm-decode'],
            ['nvjet_sm90_tst_8x64_64x16_4x1_v_bz_TNN', 'gemm-decode'],
            ['nvjet_sm90_tst_256x8_64x6_4x1_v_bz_NNT', 'gemm-decode'],
            ['nvjet_sm90_tst_64x16_64x16_4x2_h_bz_TNT', 'gemm-decode'],
            ['nvjet_sm90_tst_64x8_64x16_2x1_v_bz_splitK_NNT', 'gemm-decode'],
            ['nvjet_sm90_tst_64x32_64x16_4x1_v_bz_TNT', 'gemm'],
            ['nvjet_sm90_tst_64x24_64x16_2x4_h_bz_TNT', 'gemm'],
            ['nvjet_sm90_tst_128x48_64x9_2x1_v_bz_TNT', 'gemm'],
            ['nvjet_sm90_tst_64x152_64x7_4x1_v_bz_TNT', 'gemm'],
            ['nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT', 'gemm'],
            ['nvjet_sm90_tst_192x192_64x4_2x1_v_bz_coopB_TNN', 'gemm'],
            ['nvjet_hsh_128x256_64x4_2x1_v_bz_coopA_NNN', 'gemm'],
            ['Cijk_Alik_Bljk_SB_Bias_AS_SAV_UserArgs_MT64x16x32_MI16x16x1_SN_LDSB0_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_EPS0_GRVWA2_GRVWB2_GSUAMB_ISA90a_IU1_K1', 'gemm-decode'],
            ['Cijk_Alik_Bljk_BBS_BH_MT128x128x64_MI16x16x16x1_SN_1LDSB1_AFC1_AFEM1_ISA942', 'gemm'],
            ['Cijk_Ailk_Bjlk_HHS_BH_MT32x32x64_MI16x16x16x1_SN_ISA90a', 'gemm'],
            ['Cijk_Alik_Bljk_HSS_BH_Bias_HA_S_SAV_UserArgs_MT16x128x32_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTLA0_DTLB0_DTVA0_DTVB1_EPS1_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMB_GLS0_ISA1201_IU1_K1_LDSTI0_L', 'gemm-decode'],
            ['Cijk_Alik_Bljk_HHS_BH_Bias_HA_S_SAV_UserArgs_MT64x64x32_MI16x16x1_SN_LDSB0_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTLA0_DTLB0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMB_GLS0_ISA1201_IU1_K1_LDSTI0_LB', 'gemm'],
            ['Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT192x16x128_MI16x16x1_SN_LDSB1_AFC1_AFEM1_ISA942', 'gemm-decode'],
        ],
        counterExamples: ['nvjet_sm90_qqtst_128x128_128x6_1x1_h_bz_coopA_algo2_ovscale_TNT'],
    },
    // Split-K partial sums belong to the GEMM they finish (before reduce).
    {
        family: 'gemm',
        pattern: /splitKreduce/i,
        examples: [
            'void cublasLt::splitKreduce_kernel<(int)32, (int)16, int, float, __nv_bfloat16, float, __nv_bfloat16, (bool)0, float, __nv_bfloat16, __nv_bfloat16, (bool)1, (bool)0, (bool)0, (bool)0>(cublasLt::cublasSplitKParams<T6>, const T4 *, const T6 *, T6 *, const T5 *, const T5 *, const T7 *, const T4 *, T7 *, void *, long, T5 *, int *, T5 *, T5 *, const T5 *, const T5 *, const T5 *)',
            'void splitKreduce_kernel<float, float, float, float, true, false, false>(cublasSplitKParams<float>, float const*, float const*, float*, float const*, float const*, float const*, float const*, float*, void*, long, float*, int*)',
        ],
        counterExamples: ['void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4>)'],
    },
    // MAX sends single-row products to gemv; its matmul kernels are the multi-row (prompt) path (MAX's
    // documented dispatch, the one name-only prefill reading kept).
    {
        family: 'gemm-prefill',
        pattern: /^(?:multistage_gemm|matmul_kernel_naive|matmul_|linalg_matmul_gpu)/,
        examples: [
            'multistage_gemm_kernel_bfloat16_bfloat16_bfloat16_7e8f9a0b',
            'multistage_gemm_split_k_kernel_bfloat16_8f9a0b1c',
            'sm90_matmul_bfloat16_bfloat16_bfloat16_True_9a0b1c2d',
            'matmul_kernel_naive_bfloat16_0b1c2d3e',
            'linalg_matmul_gpu___init___m6A6A6A6A_09fd2dc3',
            'linalg_matmul_gpu__multistage6A6A6A6A',
        ],
        counterExamples: ['gemv_split_k_bfloat16_bfloat16_bfloat16_256_f519d2c2', 'matmul_sm100_blockwise_scaled_fp8_1d2d_1c2d3e4f'],
    },
    // `fbgemm` is a library name, not a GEMM (fbgemm_gpu::permute_2D_data_kernel is a permute).
    {
        family: 'gemm',
        pattern: /(?<!fb)gemm|matmul|^triton_tem_|xmma|s16816|s1688|s161616|sgemm|hgemm|wgmma|tensorop|GemmUniversal|cutlass::Kernel|kernel_gemm|gcgemm/i,
        examples: [
            'ampere_bf16_s16816gemm_bf16_128x64_ldg8_f2f_stages_32x6_tn',
            'ampere_bf16_s16816gemm_bf16_64x64_sliced1x2_ldg8_f2f_stages_64x6_tn',
            'sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas',
            'sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize32x32x8_stage3_warpsize1x2x1_ffma_aligna4_alignc4_execute_kernel__5x_cublas',
            'void cutlass::Kernel2<cutlass_80_simt_sgemm_128x32_8x5_tn_align1>(cutlass_80_simt_sgemm_128x32_8x5_tn_align1::Params)',
            'void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_16x16_128x1_tn_align8>(T1::Params)',
            'void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_256x128_32x3_tn_align1>(cutlass_80_tensorop_s1688gemm_256x128_32x3_tn_align1::Params)',
            'void ck::kernel_gemm_xdl_cshuffle_v3<ck::GridwiseGemm_xdl_cshuffle_v3<ck::tensor_layout::gemm::RowMajor>, true, 2, 1>(ck::GridwiseGemm_xdl_cshuffle_v3<ck::tensor_layout::gemm::RowMajor>::Argument)',
            'triton_tem_fused_mm_0',
            'ampere_sgemm_32x32_sliced1x4_tn',
            'volta_sgemm_128x32_nt',
            'sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas',
            'void cutlass::Kernel2<cutlass_80_tensorop_s16816gemm_bf16_128x64_64x6_tn_align8>(cutlass_80_tensorop_s16816gemm_bf16_128x64_64x6_tn_align8::Params)',
            'void magma_sgemmEx_kernel<float, float, float, true, false, 6, 4, 6, 3, 4>(int, int, int, Tensor, int, Tensor, int, Tensor, int, Tensor, int, int, int, float const*, float const*, float, float, int, cublasLtEpilogue_t, int, void const*, int, void*)',
        ],
        counterExamples: [
            'void fbgemm_gpu::permute_2D_data_kernel<false, int, int, decltype(nullptr)>(int, int, int, int const*, decltype(nullptr) const*, int const*, int const*, int const*, int*, decltype(nullptr)*)',
            'sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_alignc4_execute_kernel_cudnn',
        ],
    },
    {
        family: 'reduce',
        pattern: /reduce_kernel|ReduceOp|DeviceReduce|DeviceScan|scan_innermost|reduction|^triton_(?:red|per)_/i,
        examples: [
            'void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4>)',
            'void at::native::reduce_kernel<(int)128, (int)4, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator ()(at::TensorIterator &)::[lambda(float, float) (instance 1)]>, unsigned int, float, (int)4, (int)4>>(T3)',
            'void at_cuda_detail::cub::DeviceScanKernel<at_cuda_detail::cub::DeviceScanPolicy<long, std::plus<long>>::Policy900, const long *, long *, at_cuda_detail::cub::ScanTileState<long, (bool)1>, std::plus<long>, at_cuda_detail::cub::NullType, int>(T2, T3, T4, int, T5, T6, T7)',
            'void at::native::tensor_kernel_scan_innermost_dim<float, std::plus<float>>(T1 *, const T1 *, unsigned int, unsigned int, unsigned int, T1, T2)',
            'triton_red_fused_sum_1',
        ],
        counterExamples: ['triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0', 'void vllm::cross_device_reduce_1stage<__nv_bfloat16, 4>(vllm::RankData*, vllm::RankSignals, vllm::Signal*, __nv_bfloat16*, int, int)'],
    },
    // Copies and layout changes (split out of elementwise: they move bytes and compute nothing):
    // ATen's copy_ kernels (contiguous, expand+clone as in repeat_interleave / repeat_kv, and the casts
    // of `.to(dtype)`, which run through the same copy_), cat, transposes and permutes, cuDNN layout
    // conversions, llama.cpp's cpy and convert. The launching op (`launchedBy`) tells a cast from a
    // layout copy where the trace records it.
    {
        family: 'copy',
        pattern: /^(?!triton_).*?(?:direct_copy_kernel|_copy_kernel_cuda|(?:^|\s)convert_unary\b|CatArray|(?:^|\s|::)cpy_|contiguous|transpose|permute|(?:^|_|::)concat|padded_copy|nchwToNhwc|nhwcToNchw|nchw2nhwc|nhwc2nchw|repeat_interleave|repeat_kv)/i,
        examples: [
            'void at::native::elementwise_kernel<(int)128, (int)4, void at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase &)::[lambda() (instance 3)]::operator ()() const::[lambda() (instance 12)]::operator ()() const::[lambda(c10::BFloat16) (instance 1)]>(at::TensorIteratorBase &, const T1 &)::[lambda(int) (instance 1)]>(int, T3)',
            'void at::native::<unnamed>::CatArrayBatchedCopy_vectorized<at::native::<unnamed>::OpaqueType<(unsigned int)2>, unsigned int, (int)3, (int)128, (int)1, (int)16, (int)8>(char *, at::native::<unnamed>::CatArrInputTensorMetadata<T1, T2, T4, T5>, at::native::<unnamed>::TensorSizeStride<T2, (unsigned int)4>, int, T2)',
            'concat_gpu_flat_bfloat16_2e3f4a5b',
            'padded_copy_bfloat16_3f4a5b6c',
            'void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}, std::array<char*, 2ul>, 4, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >(int, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}, std::array<char*, 2ul>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1>)',
            'void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, unsigned int, 2, 128, 1>(float*, at::native::(anonymous namespace)::CatArrInputTensorMetadata<float, unsigned int, 128, 1>, at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int)',
            'void cudnn::ops::nchwToNhwcKernel<float, float, float, false, true, (cudnnKernelDataType_t)2>(cudnn::ops::nchw2nhwc_params_t<float>, float const*, float*)',
            'void at::native::vectorized_elementwise_kernel<8, at::native::bfloat16_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::bfloat16_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul>)',
            'void convert_unary<float, __half>(void const*, __half*, long, long, long, HIP_vector_type<unsigned int, 3u>, long, long, long) [clone .kd]',
            'void cpy_scalar<&(void cpy_1_scalar<float, float>(char const*, char*))>(char const*, char*, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long) [clone .kd]',
            'void fbgemm_gpu::permute_2D_data_kernel<false, int, int, decltype(nullptr)>(int, int, int, int const*, decltype(nullptr) const*, int const*, int const*, int const*, int*, decltype(nullptr)*)',
        ],
        counterExamples: [
            'void at::native::vectorized_elementwise_kernel<8, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>)',
            'void at::native::index_elementwise_kernel<128, 4, at::native::gpu_index_kernel<at::native::index_kernel_impl<at::native::OpaqueType<2> >(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1}>(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>, at::native::index_kernel_impl<at::native::OpaqueType<2> >(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1} const&)::{lambda(int)#1}>(long, at::native::index_kernel_impl<at::native::OpaqueType<2> >(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1})',
            'void vllm::reshape_and_cache_flash_kernel<__nv_bfloat16, __nv_bfloat16, (vllm::Fp8KVCacheDataType)0>(__nv_bfloat16 const*, __nv_bfloat16 const*, __nv_bfloat16*, __nv_bfloat16*, long const*, long, long, long, long, long, int, int, int, float const*, float const*, int)',
            'triton_poi_fused__to_copy_0',
            '__amd_rocclr_copyBuffer.kd',
        ],
    },
    {
        family: 'elementwise',
        pattern: /elementwise|FillFunctor|fill_|act_and_mul|silu|gelu|swiglu|where_kernel|masked_fill|arange|multi_tensor_apply|clamp|_r\d+_w\d+_b\d+|^triton_poi_|(?:^|\s)(?:k_bin_bcast|unary_gated_op_kernel|unary_op_kernel)\b/i,
        examples: [
            'void at::native::vectorized_elementwise_kernel<8, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>)',
            'void vllm::act_and_mul_kernel<c10::BFloat16, &vllm::silu_kernel<c10::BFloat16>, (bool)1>(T1 *, const T1 *, int)',
            'void (anonymous namespace)::elementwise_kernel_with_index<int, at::native::arange_cuda_out(c10::Scalar const&, c10::Scalar const&, c10::Scalar const&, at::Tensor&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}>(int, at::native::arange_cuda_out(c10::Scalar const&, c10::Scalar const&, c10::Scalar const&, at::Tensor&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}, function_traits<at::native::arange_cuda_out(c10::Scalar const&, c10::Scalar const&, c10::Scalar const&, at::Tensor&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}>::result_type*)',
            'elementwise_View_mo_slice_r3_w8_b256_0c1d2e3f',
            'functional_elementwise_6A6A6A6A_1d2e3f4a',
            'at::native::<unnamed>::fill_reverse_indices_kernel(long *, int, at::cuda::detail::IntDivider<unsigned int>)',
            'triton_poi_fused_add_mul_0',
            'void k_bin_bcast<&(op_add(float, float)), float, float, float, float const*>(float const*, float const*, float*, int, int, int, HIP_vector_type<unsigned int, 3u>, HIP_vector_type<unsigned int, 3u>, HIP_vector_type<unsigned int, 3u>, HIP_vector_type<unsigned int, 3u>, int, int, int, int, int, int, int, int, int, int, int, int) [clone .kd]',
            'void unary_gated_op_kernel<&(op_silu(float)), float>(float const*, float const*, float*, long, long, long, long) [clone .kd]',
            'triton_poi_fused_mul_silu_1',
            'triton_poi_fused__to_copy_0',
        ],
        counterExamples: [
            'void at::native::<unnamed>::CatArrayBatchedCopy_vectorized<at::native::<unnamed>::OpaqueType<(unsigned int)2>, unsigned int, (int)3, (int)128, (int)1, (int)16, (int)8>(char *, at::native::<unnamed>::CatArrInputTensorMetadata<T1, T2, T4, T5>, at::native::<unnamed>::TensorSizeStride<T2, (unsigned int)4>, int, T2)',
            'triton_poi_fused_cat_3',
        ],
    },
];

;// CONCATENATED MODULE: ./src/classify/classify.ts



/**
 * Token counts that decide a GEMM's shape. A bf16 GEMM with M rows of activations does about M
 * FLOPs per byte of weights read, and the GPUs we read (A100 to B200, MI300) reach their compute
 * roofline between ~150 and ~300 FLOP/byte. At M ≤ 64 the GEMM is far below it and streams weights
 * (decode); at M ≥ 256 it is at or past it (a prompt, or a batch as large as one). Between the two
 * a large decode batch and a short prompt look alike, so the shape stays unknown.
 */
const DECODE_TOKENS_MAX = 64;
const PREFILL_TOKENS_MIN = 256;
const DENSE_GEMM = new Set(['gemm', 'gemm-decode', 'gemm-prefill']);
/** The shape a dense GEMM's launching op gives it (M = its token count). */
function gemmShapeFromTokens(tokens) {
    if (tokens <= DECODE_TOKENS_MAX)
        return 'gemm-decode';
    if (tokens >= PREFILL_TOKENS_MIN)
        return 'gemm-prefill';
    return 'gemm';
}
/** The family of one name under the given rules, or `other`. */
function classifyName(name, rules = FAMILY_TABLE) {
    // Mangled names (`_ZN7cutlass13device_kernelI…`) are read demangled, as the other tools print them.
    const readable = name.trimStart().startsWith('_Z') ? (demangle(name.trim()) ?? name) : name;
    const normalized = normalizeKernelName(readable);
    const rule = rules.find((candidate) => candidate.pattern.test(normalized));
    if (!rule)
        return 'other';
    return 'shape' in rule && rule.shape ? rule.shape(normalized) : rule.family;
}
/** User rules come first, so a team can claim its own kernels. */
function createClassifier(userRules = []) {
    const rules = [...userRules, ...FAMILY_TABLE];
    const userFamilies = new Set(userRules.map((rule) => rule.family));
    const cache = new Map();
    return (kernel) => {
        let family = cache.get(kernel.name);
        if (family === undefined) {
            family = classifyName(kernel.name, rules);
            cache.set(kernel.name, family);
        }
        // A family a team named itself is theirs; only the table's dense GEMMs take a shape from tokens.
        if (kernel.tokens === undefined || userFamilies.has(family) || !DENSE_GEMM.has(family))
            return family;
        return gemmShapeFromTokens(kernel.tokens);
    };
}

;// CONCATENATED MODULE: ./src/pipeline/build-profile.ts


/** `notices`: what was decided about the inputs before merging (files set aside, mixed inputs allowed). */
function buildProfile(captures, classify = createClassifier(), inputNotices = []) {
    // An Nsight Compute capture replays a few launches of kernels another capture already timed: its
    // kernel rows count only when no other input has kernel times.
    const timedElsewhere = captures.some((c) => c.source.format !== 'ncu-csv' && c.kernels.length > 0);
    const merged = mergeKernels(timedElsewhere ? captures.filter((c) => c.source.format !== 'ncu-csv') : captures);
    const totalKernelNs = merged.reduce((sum, k) => sum + k.totalNs, 0);
    // The merged kernels are fresh copies: completed in place rather than copied once more.
    const kernels = merged.map((kernel) => Object.assign(kernel, {
        family: classify(kernel),
        share: totalKernelNs > 0 ? kernel.totalNs / totalKernelNs : 0,
    }));
    const families = familySharesOf(kernels, totalKernelNs);
    const kernelSources = captures.filter((c) => c.kernels.length > 0 && !(timedElsewhere && c.source.format === 'ncu-csv'));
    // Ranks of a job: the lowest rank's timeline stands for the run; every rank keeps its own in `ranks`.
    const byRank = [...captures].sort((a, b) => (a.distributed?.rank ?? Number.MAX_SAFE_INTEGER) - (b.distributed?.rank ?? Number.MAX_SAFE_INTEGER));
    const { timeline, notices: timelineNotices } = mergeTimeline(byRank);
    const notices = [...inputNotices, ...captures.flatMap((c) => c.notices), ...timelineNotices];
    if (kernelSources.length > 1) {
        notices.push({
            code: 'kernels-summed',
            severity: 'info',
            message: `kernel times from ${kernelSources.length} inputs were summed (${kernelSources.map((c) => c.source.path).join(', ')})`,
        });
    }
    const gpuTimeUtil = captures.find((c) => c.gpuTimeUtilPercent !== undefined)?.gpuTimeUtilPercent;
    return {
        sources: captures.map((c) => c.source),
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
    const classified = kernels.map((k) => ({ family: classify(k), totalNs: k.totalNs, instances: k.instances }));
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
    const split = captures.find((c) => c.source.format !== 'ncu-csv' && new Set(c.kernels.map((k) => k.device ?? 0)).size > 1);
    if (!split)
        return [];
    const devices = [...new Set(split.kernels.map((k) => k.device ?? 0))].sort((a, b) => a - b);
    return devices.map((device) => rankOf(split.kernels.filter((k) => (k.device ?? 0) === device), classify, { device, sources: [split.source.path], timeline: split.deviceTimelines.find((d) => d.device === device)?.timeline ?? null }));
}

;// CONCATENATED MODULE: ./src/compare/percent-format.ts
/** Number formats for the gate's notes and reasons. */
/** 0.0512 → "+5.1%". */
function formatPct(fraction, digits = 1) {
    const value = fraction * 100;
    const text = Math.abs(value).toFixed(digits);
    if (Number(text) === 0)
        return `${(0).toFixed(digits)}%`;
    return `${value < 0 ? '−' : '+'}${text}%`;
}
/** 4.25 → "+4.3 pp". */
function formatPp(pp) {
    const text = Math.abs(pp).toFixed(1);
    if (Number(text) === 0)
        return '0.0 pp';
    return `${pp < 0 ? '−' : '+'}${text} pp`;
}
/** A p-value with its relation: "p<0.001", "p=0.012". */
function formatP(p) {
    if (p < 0.001)
        return 'p<0.001';
    return `p=${p.toPrecision(2).replace(/\.?0+$/, '') || '0'}`;
}
/** A readable number with its unit: 358.4 tok/s, 12.3 ms. */
function formatValue(value, unit) {
    const abs = Math.abs(value);
    const digits = abs >= 100 ? 1 : abs >= 1 ? 2 : 4;
    return `${value.toFixed(digits)}${unit ? ` ${unit}` : ''}`;
}

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

;// CONCATENATED MODULE: ./src/compare/rank-tests.ts
/**
 * Rank tests used by the gate: Mann-Whitney U between the two sides, and Mann-Kendall for a trend
 * over the sample order within one side. Both are exact for small samples (ties included for
 * Mann-Whitney) and fall back to the normal approximation with tie correction for larger ones.
 */
/** Standard normal CDF, via the complementary error function. */
function normalCdf(z) {
    return 0.5 * erfc(-z / Math.SQRT2);
}
/** Numerical Recipes' Chebyshev fit of erfc, fractional error below 1.2e-7 everywhere. */
function erfc(x) {
    const z = Math.abs(x);
    const t = 1 / (1 + 0.5 * z);
    const r = t *
        Math.exp(-z * z -
            1.26551223 +
            t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
    return x >= 0 ? r : 2 - r;
}
/** 1-based ranks, tied values sharing the mean of their ranks. */
function midranks(values) {
    const order = values.map((v, i) => [v, i]).sort((a, b) => a[0] - b[0]);
    const ranks = new Array(values.length);
    for (let start = 0; start < order.length;) {
        let end = start;
        while (end + 1 < order.length && order[end + 1][0] === order[start][0])
            end += 1;
        const rank = (start + end) / 2 + 1;
        for (let k = start; k <= end; k += 1)
            ranks[order[k][1]] = rank;
        start = end + 1;
    }
    return ranks;
}
/** Sizes of the groups of tied values (groups of one left out). */
function tieGroups(values) {
    const counts = new Map();
    for (const v of values)
        counts.set(v, (counts.get(v) ?? 0) + 1);
    return [...counts.values()].filter((t) => t > 1);
}
/** Largest n + m for which the exact permutation distribution is computed. */
const MANN_WHITNEY_EXACT_MAX = 50;
function mannWhitneyU(x, y, exactMax = MANN_WHITNEY_EXACT_MAX) {
    const n = x.length;
    const m = y.length;
    if (n === 0 || m === 0)
        throw new RangeError('mannWhitneyU needs at least one value on each side');
    const ranks = midranks([...x, ...y]);
    let rankSumX = 0;
    for (let i = 0; i < n; i += 1)
        rankSumX += ranks[i];
    const u = rankSumX - (n * (n + 1)) / 2;
    const result = n + m <= exactMax ? exactRankSumTails(ranks, n, rankSumX) : normalRankSumTails([...x, ...y], n, m, u);
    const pLess = Math.min(1, result.pLess);
    const pGreater = Math.min(1, result.pGreater);
    return { u, pLess, pGreater, pTwoSided: Math.min(1, 2 * Math.min(pLess, pGreater)), method: result.method };
}
/**
 * The permutation distribution of the rank sum of n items drawn from the given midranks. Midranks
 * are multiples of one half, so doubled ranks are integers and a subset-sum count is exact with ties.
 */
function exactRankSumTails(ranks, n, rankSumX) {
    const doubled = ranks.map((r) => Math.round(r * 2));
    const maxSum = doubled.reduce((a, b) => a + b, 0);
    // ways[j][s]: number of j-subsets of the items seen so far with doubled rank sum s (as a probability-safe float).
    const ways = Array.from({ length: n + 1 }, () => new Float64Array(maxSum + 1));
    ways[0][0] = 1;
    let reach = 0;
    for (const d of doubled) {
        reach += d;
        for (let j = n; j >= 1; j -= 1) {
            const into = ways[j];
            const from = ways[j - 1];
            for (let s = reach; s >= d; s -= 1)
                into[s] += from[s - d];
        }
    }
    const dist = ways[n];
    const observed = Math.round(rankSumX * 2);
    let total = 0;
    let atMost = 0;
    let atLeast = 0;
    for (let s = 0; s <= maxSum; s += 1) {
        const w = dist[s];
        if (w === 0)
            continue;
        total += w;
        if (s <= observed)
            atMost += w;
        if (s >= observed)
            atLeast += w;
    }
    return { pLess: atMost / total, pGreater: atLeast / total, method: 'exact' };
}
function normalRankSumTails(all, n, m, u) {
    const total = n + m;
    const tieTerm = tieGroups(all).reduce((sum, t) => sum + t ** 3 - t, 0);
    const variance = ((n * m) / 12) * (total + 1 - tieTerm / (total * (total - 1)));
    if (variance <= 0)
        return { pLess: 1, pGreater: 1, method: 'normal' };
    const sd = Math.sqrt(variance);
    const mean = (n * m) / 2;
    // Continuity correction of one half toward the mean.
    return {
        pLess: normalCdf((u - mean + 0.5) / sd),
        pGreater: 1 - normalCdf((u - mean - 0.5) / sd),
        method: 'normal',
    };
}
/** Largest n for which the exact null distribution of S (no ties) is used. */
const MANN_KENDALL_EXACT_MAX = 30;
function mannKendall(values) {
    const n = values.length;
    let s = 0;
    for (let i = 0; i < n; i += 1)
        for (let j = i + 1; j < n; j += 1)
            s += Math.sign(values[j] - values[i]);
    const ties = tieGroups(values);
    if (n < 2)
        return { s, pIncreasing: 1, pDecreasing: 1, pTwoSided: 1, method: 'exact' };
    let pIncreasing;
    let pDecreasing;
    let method;
    if (ties.length === 0 && n <= MANN_KENDALL_EXACT_MAX) {
        // Without ties S = pairs - 2·inversions; the inversion count of a random order has the Mahonian distribution.
        const dist = inversionDistribution(n);
        const pairs = (n * (n - 1)) / 2;
        const inversions = (pairs - s) / 2;
        pIncreasing = 0;
        pDecreasing = 0;
        dist.forEach((p, k) => {
            if (k <= inversions)
                pIncreasing += p;
            if (k >= inversions)
                pDecreasing += p;
        });
        method = 'exact';
    }
    else {
        const variance = (n * (n - 1) * (2 * n + 5) - ties.reduce((sum, t) => sum + t * (t - 1) * (2 * t + 5), 0)) / 18;
        if (variance <= 0)
            return { s, pIncreasing: 1, pDecreasing: 1, pTwoSided: 1, method: 'normal' };
        const sd = Math.sqrt(variance);
        pIncreasing = 1 - normalCdf((s - 1) / sd);
        pDecreasing = normalCdf((s + 1) / sd);
        method = 'normal';
    }
    pIncreasing = Math.min(1, pIncreasing);
    pDecreasing = Math.min(1, pDecreasing);
    return { s, pIncreasing, pDecreasing, pTwoSided: Math.min(1, 2 * Math.min(pIncreasing, pDecreasing)), method };
}
const inversionCache = new Map();
/** P(a random permutation of n items has k inversions), k = 0 … n(n−1)/2. */
function inversionDistribution(n) {
    const cached = inversionCache.get(n);
    if (cached)
        return cached;
    let dist = new Float64Array([1]);
    for (let size = 2; size <= n; size += 1) {
        const next = new Float64Array(dist.length + size - 1);
        // Inserting the new largest item adds 0 … size−1 inversions, each equally likely.
        for (let k = 0; k < dist.length; k += 1)
            for (let j = 0; j < size; j += 1)
                next[k + j] += dist[k] / size;
        dist = next;
    }
    inversionCache.set(n, dist);
    return dist;
}
/** Theil-Sen slope: the median of the slopes between every pair of samples, per step of the sample order. */
function theilSenSlope(values) {
    const slopes = [];
    for (let i = 0; i < values.length; i += 1) {
        for (let j = i + 1; j < values.length; j += 1)
            slopes.push((values[j] - values[i]) / (j - i));
    }
    if (slopes.length === 0)
        return 0;
    slopes.sort((a, b) => a - b);
    const mid = slopes.length >> 1;
    return slopes.length % 2 ? slopes[mid] : (slopes[mid - 1] + slopes[mid]) / 2;
}

;// CONCATENATED MODULE: ./src/compare/statistics.ts
/**
 * The statistics the gate uses, as small pure functions: robust location and scale, a seeded PRNG,
 * a bootstrap CI of the ratio of medians, multiple-comparison corrections, the warm-up rule and
 * drift detection. Rank tests live in rank-tests.ts and are re-exported here.
 */




/** Scales a MAD to a standard deviation for normal data. */
const MAD_TO_SD = 1.4826;
/** Quantile of sorted values by linear interpolation between order statistics (Hyndman-Fan type 7, R's default). */
function quantileSorted(sorted, q) {
    const n = sorted.length;
    if (n === 0)
        return Number.NaN;
    const h = (n - 1) * Math.min(1, Math.max(0, q));
    const lo = Math.floor(h);
    const hi = Math.min(n - 1, lo + 1);
    return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}
/** Median absolute deviation from the median (unscaled). */
function mad(values) {
    if (values.length === 0)
        return Number.NaN;
    const center = median(values);
    return median(values.map((v) => Math.abs(v - center)));
}
/** mulberry32: a small, fast 32-bit PRNG; the same seed gives the same stream on every platform. */
function mulberry32(seed) {
    let state = seed >>> 0;
    return () => {
        state = (state + 0x6d2b79f5) >>> 0;
        let t = state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}
/** A seed for one named stream (FNV-1a over the key, mixed with the base seed), so rows do not depend on their order. */
function seedFor(seed, key) {
    let hash = (2166136261 ^ seed) >>> 0;
    for (let i = 0; i < key.length; i += 1)
        hash = Math.imul(hash ^ key.charCodeAt(i), 16777619) >>> 0;
    return hash;
}
function medianOfResample(values, random, scratch) {
    const n = values.length;
    // Insertion sort while drawing: the samples are few, and TypedArray#sort costs more per call here.
    for (let i = 0; i < n; i += 1) {
        const v = values[Math.floor(random() * n)];
        let j = i - 1;
        while (j >= 0 && scratch[j] > v) {
            scratch[j + 1] = scratch[j];
            j -= 1;
        }
        scratch[j + 1] = v;
    }
    const mid = n >> 1;
    return n % 2 ? scratch[mid] : (scratch[mid - 1] + scratch[mid]) / 2;
}
/**
 * Percentile bootstrap CI of median(current) / median(baseline), resampling each side on its own.
 * `level` is two-sided (0.90 → the 5th and 95th percentiles).
 */
function bootstrapMedianRatioCI(current, baseline, options) {
    const ratio = median(current) / median(baseline);
    const ratios = new Float64Array(options.resamples);
    const scratchCurrent = new Float64Array(current.length);
    const scratchBaseline = new Float64Array(baseline.length);
    for (let b = 0; b < options.resamples; b += 1) {
        ratios[b] = medianOfResample(current, options.random, scratchCurrent) / medianOfResample(baseline, options.random, scratchBaseline);
    }
    ratios.sort();
    const tail = (1 - options.level) / 2;
    return { ratio, low: quantileSorted(ratios, tail), high: quantileSorted(ratios, 1 - tail) };
}
/** Holm's step-down adjusted p-values (family-wise error control), in the input order. */
function holmAdjust(pValues) {
    const m = pValues.length;
    const order = pValues.map((p, i) => [p, i]).sort((a, b) => a[0] - b[0]);
    const adjusted = new Array(m);
    let running = 0;
    order.forEach(([p, i], rank) => {
        running = Math.max(running, Math.min(1, (m - rank) * p));
        adjusted[i] = running;
    });
    return adjusted;
}
/** Benjamini-Hochberg step-up adjusted p-values (false discovery rate control), in the input order. */
function benjaminiHochbergAdjust(pValues) {
    const m = pValues.length;
    const order = pValues.map((p, i) => [p, i]).sort((a, b) => a[0] - b[0]);
    const adjusted = new Array(m);
    let running = 1;
    for (let rank = m - 1; rank >= 0; rank -= 1) {
        const [p, i] = order[rank];
        running = Math.min(running, Math.min(1, (m / (rank + 1)) * p));
        adjusted[i] = running;
    }
    return adjusted;
}
function adjustPValues(pValues, method) {
    return method === 'holm' ? holmAdjust(pValues) : benjaminiHochbergAdjust(pValues);
}
const DEFAULT_WARMUP_RULE = { minKeep: 3, maxDrop: 2, madMultiple: 5, minRelative: 0.01 };
/**
 * Drops leading samples that are slow outliers against the samples after them. Only the slow side
 * counts: warm-up (lazy init, cold caches, clock ramp) makes the first runs slower, never faster.
 */
function dropWarmupOutliers(samples, direction, rule = DEFAULT_WARMUP_RULE) {
    let first = 0;
    while (first < rule.maxDrop && samples.length - first - 1 >= rule.minKeep) {
        const rest = samples.slice(first + 1);
        const center = median(rest);
        const spread = MAD_TO_SD * mad(rest);
        const slowBy = direction === 'higher' ? center - samples[first] : samples[first] - center;
        if (!(slowBy > rule.madMultiple * spread && slowBy > rule.minRelative * Math.abs(center)))
            break;
        first += 1;
    }
    return { kept: samples.slice(first), dropped: samples.slice(0, first) };
}
/** A monotone trend over the sample order that is both significant and at least `minChange` across the side. */
function detectDrift(samples, options) {
    if (samples.length < 3)
        return { drift: false, pValue: 1, change: 0 };
    const { pTwoSided } = mannKendall(samples);
    const center = median(samples);
    const change = center === 0 ? 0 : (theilSenSlope(samples) * (samples.length - 1)) / Math.abs(center);
    return { drift: pTwoSided <= options.alpha && Math.abs(change) >= options.minChange, pValue: pTwoSided, change };
}
/**
 * 5 robust sd as in the warm-up rule; a spread of at least 0.2% (about three times the largest
 * within-process sd measured on the H200, 0.07%), so the distance is at least 1%; and 1% at least,
 * the warm-up rule's minimum (a run closer than that cannot reach the overlap margin of half a 3% floor).
 * Two slow runs within 3 robust sd of each other are as close as the runs of the cluster itself: a
 * second state with two or more runs in it, not two stalls.
 */
const DEFAULT_OUTLIER_RULE = { minKeep: 3, madMultiple: 5, minSpread: 0.002, minRelative: 0.01, modeWidth: 3 };
function findSlowOutliers(samples, direction, rule = DEFAULT_OUTLIER_RULE, neighbours = {}) {
    const other = neighbours.other ?? [];
    const dropped = neighbours.dropped ?? [];
    const n = samples.length;
    const none = () => ({ outliers: [], kept: [...samples], restSpread: relativeSpread(samples) });
    const limit = Math.min(Math.floor((n - 1) / 2), n - rule.minKeep);
    if (limit <= 0)
        return none();
    const center = median(samples);
    const scale = Math.abs(center);
    if (!(scale > 0))
        return none();
    const spread = Math.max(MAD_TO_SD * mad(samples), rule.minSpread * scale);
    const distance = Math.max(rule.madMultiple * spread, rule.minRelative * scale);
    const slowBy = (v) => (direction === 'higher' ? center - v : v - center);
    const candidates = samples.map((v, i) => [v, i]).filter(([v]) => slowBy(v) > distance);
    const width = rule.modeWidth * spread;
    const near = (a, b) => Math.abs(a - b) <= width;
    // The other side shows both states (runs at this run's level and at this side's median): two clock states.
    const otherSpansBoth = (v) => other.some((w) => near(w, v)) && other.some((w) => near(w, center));
    const isolated = candidates.filter(([v, i]) => !samples.some((w, j) => j !== i && near(w, v)) && !dropped.some((w) => near(w, v)) && !otherSpansBoth(v));
    if (!isolated.length || isolated.length > limit)
        return none();
    const out = new Set(isolated.map(([, i]) => i));
    const kept = samples.filter((_, i) => !out.has(i));
    return { outliers: [...out].sort((a, b) => a - b), kept, restSpread: relativeSpread(kept) };
}
function relativeSpread(values) {
    if (!values.length)
        return 0;
    const center = median(values);
    if (!(Math.abs(center) > 0))
        return 0;
    return Math.max(...values.map((v) => Math.abs(v / center - 1)));
}

;// CONCATENATED MODULE: ./src/compare/metric-rows.ts
/**
 * Metric rows: a gated metric regresses only when the change is statistically real (one-sided
 * exact Mann-Whitney, corrected across the metrics of the run, and a bootstrap CI of the median
 * ratio on the same side of zero) AND at least the metric's practical floor AND neither side's own
 * runs reach the other side's median (with two clock states, medians move by which state more runs
 * fell in; the rank test cannot tell that from a regression).
 */





function prepareSide(label, metric, options, notes, other) {
    const samples = metric.samples.filter(Number.isFinite);
    const rule = { ...DEFAULT_WARMUP_RULE, minKeep: options.minSamples };
    const { kept, dropped } = options.dropWarmup ? dropWarmupOutliers(samples, metric.direction, rule) : { kept: samples, dropped: [] };
    if (options.dropWarmup && !dropped.length && dropWarmupOutliers(samples, metric.direction, { ...rule, minKeep: 2 }).dropped.length) {
        notes.push(`the first sample of ${label} looks like warm-up but was kept: dropping it would leave fewer than ${options.minSamples}`);
    }
    if (dropped.length) {
        const list = dropped.map((v) => formatValue(v, '')).join(', ');
        notes.push(`dropped ${dropped.length === 1 ? 'the first sample' : `the first ${dropped.length} samples`} of ${label} as warm-up (${list} vs median ${formatValue(median(kept), metric.unit)})`);
    }
    const outliers = [];
    let clean = kept;
    if (options.dropOutliers) {
        const found = findSlowOutliers(kept, metric.direction, { ...DEFAULT_OUTLIER_RULE, minKeep: options.minSamples }, { other: other.samples.filter(Number.isFinite), dropped });
        if (found.outliers.length) {
            clean = found.kept;
            const center = median(clean);
            for (const i of found.outliers) {
                // Runs are numbered as measured, the warm-up runs included.
                outliers.push(`${label} run ${i + dropped.length + 1}: ${formatPct(kept[i] / center - 1)}`);
            }
            const rest = `±${(found.restSpread * 100).toFixed(found.restSpread < 0.001 ? 2 : 1)}%`;
            notes.push(`left out ${outliers.join(', ')}, ${outliers.length === 1 ? 'an outlier' : 'outliers'} against ${rest} for the rest`);
        }
    }
    return { label, kept: clean, dropped, outliers, value: clean.length ? median(clean) : metric.value };
}
function infoRow(name, base, cur, note) {
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
        note,
    };
}
/** Worse-is-positive: the change as a regression fraction for this metric's direction. */
function worseBy(direction, delta) {
    return direction === 'higher' ? -delta : delta;
}
/** `decode_tok_s: left out baseline run 3 (−15.0%) …`, metrics that left out the same runs named together. */
function outlierNotes(pending) {
    const byRuns = new Map();
    for (const p of pending) {
        const runs = [...p.base.outliers, ...p.cur.outliers];
        if (!runs.length)
            continue;
        const key = runs.map((r) => r.slice(0, r.indexOf(':'))).join(',');
        const entry = byRuns.get(key);
        if (entry)
            entry.names.push(p.name);
        else
            byRuns.set(key, { names: [p.name], text: p.notes.filter((n) => n.startsWith('left out ')).join('; ') });
    }
    return [...byRuns.values()].map((e) => `${e.names.join(', ')}: ${e.text}`);
}
function compareMetrics(current, baseline, options) {
    const baseByName = new Map(baseline.map((m) => [m.name, m]));
    const curByName = new Map(current.map((m) => [m.name, m]));
    const names = [...new Set([...baseByName.keys(), ...curByName.keys()])].filter((n) => !DESCRIPTIVE_METRICS.has(n));
    const rows = [];
    const pending = [];
    let compared = 0;
    let gatedInBaseline = 0;
    for (const name of names) {
        const base = baseByName.get(name);
        const cur = curByName.get(name);
        const floor = metricFloor(options, name);
        if (floor === undefined) {
            if (base && cur)
                rows.push({ row: infoRow(name, base, cur, 'not gated (no threshold)') });
            continue;
        }
        if (base)
            gatedInBaseline += 1;
        if (!base || !cur) {
            const side = base ? 'baseline' : 'current';
            rows.push({ row: infoRow(name, base, cur, `only in the ${side}; not compared`), reason: `${name} is only in the ${side}; not compared` });
            continue;
        }
        compared += 1;
        const direction = cur.direction;
        const notes = [];
        const baseSide = prepareSide('baseline', base, options, notes, cur);
        const curSide = prepareSide('current', cur, options, notes, base);
        if (!(baseSide.value > 0) || !(curSide.value >= 0)) {
            // A ratio of medians needs a positive baseline (e.g. failed_requests at 0 has no relative change).
            rows.push({ row: { ...infoRow(name, base, cur, 'no relative change: the baseline median is not positive'), delta: null } });
            continue;
        }
        const nBase = baseSide.kept.length;
        const nCur = curSide.kept.length;
        const delta = curSide.value / baseSide.value - 1;
        if (nBase < options.minSamples || nCur < options.minSamples) {
            const message = `${name}: ${nBase} baseline and ${nCur} current samples; at least ${options.minSamples} per side are needed`;
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
                    status: 'insufficient-data',
                    note: [...notes, `at least ${options.minSamples} samples per side are needed`].join('; '),
                },
                reason: message,
                undecided: true,
            });
            continue;
        }
        const test = mannWhitneyU(curSide.kept, baseSide.kept);
        const interval = bootstrapMedianRatioCI(curSide.kept, baseSide.kept, {
            level: ciLevel(options.alpha),
            resamples: options.bootstrapResamples,
            random: mulberry32(seedFor(options.seed, name)),
        });
        const drift = [];
        for (const side of [baseSide, curSide]) {
            const found = detectDrift(side.kept, { alpha: options.drift.alpha, minChange: options.drift.minChangePct / 100 });
            if (found.drift)
                drift.push(`drift within ${side.label}: ${formatPct(found.change)} across ${side.kept.length} samples (Mann-Kendall ${formatP(found.pValue)})`);
        }
        pending.push({
            name,
            unit: cur.unit,
            direction,
            floor,
            base: baseSide,
            cur: curSide,
            notes,
            drift,
            delta,
            ci: [interval.low - 1, interval.high - 1],
            pWorse: direction === 'higher' ? test.pLess : test.pGreater,
            pBetter: direction === 'higher' ? test.pGreater : test.pLess,
        });
    }
    // One correction per direction: a regression family (what fails) and an improvement family.
    const adjWorse = adjustPValues(pending.map((p) => p.pWorse), options.correction);
    const adjBetter = adjustPValues(pending.map((p) => p.pBetter), options.correction);
    pending.forEach((p, i) => rows.push(decide(p, adjWorse[i], adjBetter[i], options)));
    return { rows, compared, gatedInBaseline, outlierNotes: outlierNotes(pending) };
}
/**
 * When one side's own runs reach the other side's median (a baseline run as slow as the current's
 * typical run), the medians' difference can come from which state more runs fell in: two clock or
 * power states, or a heavy tail. Says which runs, or undefined when the sides do not overlap so.
 */
function overlap(p, worse) {
    // In "worse is larger" terms, so one comparison serves both directions.
    const bad = (value) => (p.direction === 'higher' ? -value : value);
    const [slow, fast] = worse > 0 ? [p.cur, p.base] : [p.base, p.cur];
    // Within half the floor counts as reaching: run-to-run jitter is not a state of its own.
    const margin = (p.floor / 2) * fast.value;
    const fastReach = fast.kept.filter((v) => bad(v) >= bad(slow.value) - margin).length;
    const slowReach = slow.kept.filter((v) => bad(v) <= bad(fast.value) + margin).length;
    const parts = [];
    if (fastReach)
        parts.push(`${fastReach} of ${fast.kept.length} ${fast.label} runs are as ${p.direction === 'higher' ? 'low' : 'high'} as the ${slow.label} median ${formatValue(slow.value, p.unit)}`);
    if (slowReach)
        parts.push(`${slowReach} of ${slow.kept.length} ${slow.label} runs are as ${p.direction === 'higher' ? 'high' : 'low'} as the ${fast.label} median ${formatValue(fast.value, p.unit)}`);
    return parts.length ? `the sides overlap: ${parts.join(', and ')}` : undefined;
}
function decide(p, pWorse, pBetter, options) {
    const worse = worseBy(p.direction, p.delta);
    const [ciLow, ciHigh] = p.ci;
    // The CI must lie wholly on the side of the change, in the direction's terms.
    const ciWorse = p.direction === 'higher' ? ciHigh < 0 : ciLow > 0;
    const ciBetter = p.direction === 'higher' ? ciLow > 0 : ciHigh < 0;
    // An adaptive A/B run spends alpha over its looks; the CI stays at the nominal level (it only adds a condition).
    const alpha = options.look ? alphaAtLook(options.alpha, options.look.index, options.look.of) : options.alpha;
    const significantWorse = pWorse <= alpha && ciWorse;
    const significantBetter = pBetter <= alpha && ciBetter;
    const pValue = worse > 0 ? pWorse : pBetter;
    const floorText = formatPct(p.floor, 0).replace('+', '');
    const change = `${formatValue(p.base.value, p.unit)} → ${formatValue(p.cur.value, p.unit)}, ${formatPct(p.delta)}`;
    const stats = `${Math.round(ciLevel(options.alpha) * 100)}% CI ${formatPct(ciLow)} … ${formatPct(ciHigh)}, ${formatP(pValue)}${options.look && options.look.of > 1 ? ` at look ${options.look.index} of ${options.look.of} (alpha ${Number(alpha.toPrecision(2))})` : ''}, ${p.base.kept.length} vs ${p.cur.kept.length} samples`;
    const notes = [...p.notes];
    const decided = (significantWorse && worse >= p.floor) || (significantBetter && -worse >= p.floor);
    const overlapping = decided && options.overlapCheck ? overlap(p, worse) : undefined;
    let status;
    let reason;
    let undecided = false;
    if (overlapping) {
        // Significant and past the floor, yet one side's own runs reach the other's median: not decided.
        status = worse > 0 ? 'warn' : 'pass';
        notes.push(overlapping);
        if (worse > 0) {
            undecided = true;
            reason = `${p.name} looks worse (${change}; ${stats}), but ${overlapping}; more runs per side (in A/B: max-runs) or pinned clocks would decide it`;
        }
    }
    else if (significantWorse && worse >= p.floor) {
        status = 'fail';
        reason = `${p.name} regressed (${change}; ${stats}), beyond the ${floorText} floor`;
    }
    else if (significantBetter && -worse >= p.floor) {
        status = 'improved';
        reason = `${p.name} improved (${change}; ${stats})`;
    }
    else if (worse >= p.floor) {
        status = 'warn';
        undecided = true;
        notes.push(`beyond the ${floorText} floor but not significant`);
        reason = `${p.name} looks worse (${change}; ${stats}): beyond the ${floorText} floor but not significant; add samples to decide`;
    }
    else {
        status = 'pass';
        if (significantWorse || significantBetter)
            notes.push(`a real but small change, below the ${floorText} floor`);
    }
    if (p.drift.length) {
        notes.push(...p.drift);
        if (status === 'pass' || status === 'improved') {
            status = 'warn';
            reason = `${p.name}: ${p.drift.join('; ')}; the samples are not stable`;
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
            status,
            ...(notes.length ? { note: notes.join('; ') } : {}),
        },
        ...(reason ? { reason } : {}),
        ...(undecided ? { undecided } : {}),
    };
}

;// CONCATENATED MODULE: ./src/compare/between-jobs.ts
/**
 * Noise between jobs, from the default branch's recent reports: a baseline from another job (an
 * artifact) differs from this job by another runner, boot and clock state as well as by the change.
 * The spread of recent per-job medians of the same workload says how large that is, and the floor
 * of each metric is widened to cover it. Pure: the reports are handed in (see `HistoryEntry`).
 */

/** Fewer reports than this give no estimate: a robust spread of four medians is a guess. */
const MIN_HISTORY_REPORTS = 5;
/**
 * Two jobs' medians differ by about √2 × the between-job sd; 2.33 of that is the one-sided 1% point
 * of a normal difference, so the widened floor is 2.33 × √2 ≈ 3.3 × the spread.
 */
const BETWEEN_JOB_FLOOR_FACTOR = 2.33 * Math.SQRT2;
/** The per-metric spread of the reports' medians: 1.4826 × MAD of their logarithms. */
function estimateBetweenJobNoise(history, metrics, minReports = MIN_HISTORY_REPORTS) {
    const out = [];
    for (const metric of metrics) {
        const values = history.map((report) => report.metrics.find((m) => m.name === metric)?.value).filter((v) => v !== undefined && Number.isFinite(v) && v > 0);
        if (values.length < minReports)
            continue;
        const logs = values.map(Math.log);
        // exp(sd of logs) − 1 ≈ the relative sd; the same for higher- and lower-is-better metrics.
        out.push({ metric, spread: Math.expm1(MAD_TO_SD * mad(logs)), reports: values.length });
    }
    return out;
}
/** The floor (a fraction) that covers the between-job noise: never below the metric's own floor. */
function widenedFloor(floor, spread) {
    return Math.max(floor, BETWEEN_JOB_FLOOR_FACTOR * spread);
}

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
        .sort((a, b) => b.totalNs - a.totalNs || a.name.localeCompare(b.name))
        .slice(0, n)
        .map((k) => k.name);
}
function limitsFor(key, options) {
    const fail = options.thresholds[key] ?? options.shareThresholds.fail;
    return { warn: Math.min(options.shareThresholds.warn, fail), fail };
}
/** Reasons are sentences: a templated kernel name (often over 1 KB) is cut to its head there; the row keeps it whole. */
function shortLabel(metric, max = 80) {
    const oneLine = metric.replace(/\s+/g, ' ');
    return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 1)}…`;
}
function shareRow(metric, kind, baseShare, curShare, limits, extra, of = 'GPU time') {
    const baseline = baseShare * 100;
    const current = curShare * 100;
    const delta = current - baseline;
    let status = 'pass';
    let reason;
    const notes = [...extra];
    const what = `${shortLabel(metric)} share of ${of} ${baseline.toFixed(1)}% → ${current.toFixed(1)}% (${formatPp(delta)})`;
    if (delta >= limits.fail) {
        status = 'fail';
        notes.push(`growth of ${limits.fail} pp or more fails`);
        reason = `${what}, at or beyond the ${limits.fail} pp fail threshold`;
    }
    else if (delta >= limits.warn) {
        status = 'warn';
        reason = `${what}, at or beyond the ${limits.warn} pp warn threshold`;
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
        ...(notes.length ? { note: notes.join('; ') } : {}),
    };
    return { row, ...(reason ? { reason } : {}) };
}
function compareFamilies(current, baseline, options) {
    const base = new Map(baseline.families.map((f) => [f.family, f.share]));
    const cur = new Map(current.families.map((f) => [f.family, f.share]));
    const families = [...new Set([...base.keys(), ...cur.keys()])].sort();
    return families.map((family) => {
        const extra = [];
        if (!base.has(family))
            extra.push('new family');
        if (!cur.has(family))
            extra.push('family gone');
        return shareRow(`family:${family}`, 'family-share', base.get(family) ?? 0, cur.get(family) ?? 0, limitsFor(`family:${family}`, options), extra);
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
    return [shareRow(metric, 'family-share', base ?? 0, cur ?? 0, limitsFor(metric, options), [], 'the active span (collectives no compute overlaps)')];
}
function compareKernels(current, baseline, options) {
    const base = kernelsByName(baseline.kernels);
    const cur = kernelsByName(current.kernels);
    const baseTop = new Set(topNames(base, options.topN));
    const curTop = new Set(topNames(cur, options.topN));
    const names = [...new Set([...baseTop, ...curTop])];
    const rows = [];
    const changes = [];
    for (const name of names) {
        const b = base.get(name);
        const c = cur.get(name);
        const extra = [];
        if (!b)
            extra.push('new kernel');
        else if (!c)
            extra.push('kernel gone');
        else if (!baseTop.has(name))
            extra.push(`entered the top ${options.topN}`);
        else if (!curTop.has(name))
            extra.push(`left the top ${options.topN}`);
        const family = (c ?? b).family;
        if (b && c && b.family !== c.family)
            extra.push(`family ${b.family} → ${c.family}`);
        rows.push(shareRow(`kernel:${name}`, 'kernel-share', b?.share ?? 0, c?.share ?? 0, limitsFor(`kernel:${name}`, options), extra));
        const baselineNs = b?.totalNs ?? 0;
        const currentNs = c?.totalNs ?? 0;
        const deltaNs = currentNs - baselineNs;
        if (b && c && deltaNs === 0)
            continue;
        changes.push({ name, family, change: !b ? 'added' : !c ? 'removed' : deltaNs > 0 ? 'increased' : 'decreased', baselineNs, currentNs, deltaNs });
    }
    changes.sort((x, y) => Math.abs(y.deltaNs) - Math.abs(x.deltaNs) || x.name.localeCompare(y.name));
    return { rows, changes };
}

;// CONCATENATED MODULE: ./src/compare/gate.ts








function throttleReasons(input) {
    return [...new Set(input.utilization?.throttleReasons ?? [])].filter((r) => HARDWARE_THROTTLE_REASONS.has(r)).sort();
}
/** Findings that count: primary, warning or error (info findings and explained secondaries do not). */
function countedIds(findings) {
    const ids = new Map();
    for (const f of findings)
        if (f.severity !== 'info' && isPrimary(f))
            ids.set(f.id, (ids.get(f.id) ?? 0) + 1);
    return ids;
}
function findingRows(current, baseline, options) {
    const cur = countedIds(current.findings);
    const base = countedIds(baseline.findings);
    const rows = [];
    const added = [];
    const resolved = [];
    for (const id of [...new Set([...base.keys(), ...cur.keys()])].sort()) {
        const b = base.get(id) ?? 0;
        const c = cur.get(id) ?? 0;
        let status = 'info';
        let reason;
        let note = 'present in both';
        if (b === 0) {
            added.push(id);
            const failing = options.failOn.includes(id);
            status = failing ? 'fail' : 'warn';
            note = failing ? 'new since the baseline; in failOn' : 'new since the baseline';
            reason = `new finding ${id}${failing ? ' (in failOn)' : ''}`;
        }
        else if (c === 0) {
            resolved.push(id);
            status = 'improved';
            note = 'resolved since the baseline';
            reason = `finding ${id} resolved`;
        }
        rows.push({
            row: { metric: `finding:${id}`, kind: 'finding', unit: 'hits', baseline: b, current: c, delta: c - b, ci: null, threshold: null, status, note },
            ...(reason ? { reason } : {}),
        });
    }
    return { rows, added, resolved };
}
const ORDER = { fail: 0, 'insufficient-data': 1, warn: 2, improved: 3, info: 4, pass: 5 };
function compare(current, baseline, optionsInput = {}, context = {}) {
    let options = parseGateOptions(optionsInput);
    if (!baseline)
        return { verdict: verdictFromFindings(current.findings, options.failOn), comparison: null };
    const invalid = [];
    const notes = [];
    const mismatches = environmentMismatches(baseline.environment, current.environment);
    const blocking = blockingMismatches(mismatches, options.allowEnvironmentMismatch);
    if (blocking.length)
        invalid.push(`environment differs (${blocking.map(formatMismatch).join('; ')}); compare like with like or allow the keys with allowEnvironmentMismatch`);
    const allowed = mismatches.filter((m) => !blocking.includes(m));
    if (allowed.length)
        notes.push(`environment differs, allowed: ${allowed.map(formatMismatch).join('; ')}`);
    for (const [label, side] of [['baseline', baseline], ['current', current]]) {
        const reasons = throttleReasons(side);
        if (!reasons.length)
            continue;
        const text = `the ${label} run was throttled (${reasons.join(', ')})`;
        if (options.allowThrottled)
            notes.push(`${text}; allowed by allowThrottled`);
        else
            invalid.push(`${text}; its numbers are not representative: rerun, or allow it with allowThrottled`);
    }
    let betweenJobs;
    const sameJob = baseline.origin?.origin === 'a/b';
    if (context.history?.length && !sameJob) {
        const gated = [...new Set(baseline.metrics.map((m) => m.name))].filter((name) => metricFloor(options, name) !== undefined);
        const spreads = estimateBetweenJobNoise(context.history, gated);
        const thresholds = { ...options.thresholds };
        const rows = [];
        for (const { metric, spread } of spreads) {
            const floor = widenedFloor(metricFloor(options, metric), spread);
            thresholds[metric] = floor * 100;
            rows.push({ metric, spread, floor });
        }
        options = { ...options, thresholds };
        betweenJobs = { reports: context.history.length, metrics: rows };
        if (rows.length) {
            const parts = rows.map((r) => `${r.metric} ±${(r.spread * 100).toFixed(1)}% (floor ${(r.floor * 100).toFixed(1)}%)`);
            notes.push(`a comparison between jobs: the last ${context.history.length} reports of the default branch vary ${parts.join(', ')} between jobs, and the floors cover it; an A/B run in one job (base-workdir) takes that noise out`);
        }
        else {
            notes.push(`a comparison between jobs: ${context.history.length} earlier report${context.history.length === 1 ? '' : 's'} of the default branch, too few (${MIN_HISTORY_REPORTS} needed) to estimate the noise between jobs; the floors are as set`);
        }
    }
    const metrics = compareMetrics(current.metrics, baseline.metrics, options);
    const rows = [...metrics.rows];
    notes.push(...metrics.outlierNotes);
    const hasKernels = current.kernels.length > 0 && baseline.kernels.length > 0;
    let kernelChanges = [];
    if (hasKernels) {
        rows.push(...compareFamilies(current, baseline, options));
        rows.push(...compareCommunication(current, baseline, options));
        const kernels = compareKernels(current, baseline, options);
        rows.push(...kernels.rows);
        kernelChanges = kernels.changes;
    }
    else if (current.kernels.length || baseline.kernels.length) {
        notes.push(`kernel shares not compared: the ${current.kernels.length ? 'baseline' : 'current run'} has no kernel capture`);
    }
    const findings = findingRows(current, baseline, options);
    rows.push(...findings.rows);
    const noThroughput = metrics.gatedInBaseline > 0 && metrics.compared === 0;
    if (noThroughput)
        notes.push('no gated metric is present on both sides');
    const has = (status) => rows.some((r) => r.row.status === status);
    const verdict = combineVerdict({
        invalid: invalid.length > 0,
        fail: has('fail'),
        insufficient: has('insufficient-data') || noThroughput,
        warn: has('warn'),
    });
    const ranked = rows.filter((r) => r.reason).sort((a, b) => ORDER[a.row.status] - ORDER[b.row.status]);
    const reasons = [...invalid, ...ranked.map((r) => r.reason), ...notes];
    if (verdict === 'pass') {
        const metricCount = rows.filter((r) => r.row.kind === 'metric' && r.row.status === 'pass').length;
        const parts = [`${metricCount} gated metric${metricCount === 1 ? '' : 's'} within ${metricCount === 1 ? 'its floor' : 'their floors'}`];
        if (hasKernels)
            parts.push(`no kernel share grew by ${options.shareThresholds.warn} pp or more`);
        parts.push('no new findings');
        reasons.push(`no regression: ${parts.join(', ')}`);
    }
    const comparison = {
        baseline: {
            origin: baseline.origin?.origin ?? 'file',
            ...(baseline.origin?.path ? { path: baseline.origin.path } : {}),
            ...(baseline.generatedAt ? { generatedAt: baseline.generatedAt } : {}),
            reason: baseline.origin?.reason ?? 'baseline given',
        },
        environmentMismatch: mismatches.map(formatMismatch),
        rows: rows.map((r) => r.row),
        kernelChanges,
        newFindings: findings.added,
        resolvedFindings: findings.resolved,
        reasons,
        undecided: rows.filter((r) => r.undecided).map((r) => r.row.metric),
        ...(betweenJobs ? { betweenJobs } : {}),
        ...(options.look ? { look: { ...options.look, alpha: alphaAtLook(options.alpha, options.look.index, options.look.of) } } : {}),
    };
    return { verdict, comparison };
}

;// CONCATENATED MODULE: ./src/diagnose/evidence.ts
const EVIDENCE_KINDS = (/* unused pure expression or super */ null && (['kernel-breakdown', 'timeline', 'kernel-metrics', 'utilization', 'throughput']));
/** Below these a reading is thin: too few to tell a steady state from start-up or noise. */
const THIN = {
    /** Kernel time in a breakdown; a capture range that closed early holds less. */
    breakdownNs: 1e6,
    /** Launches in a breakdown; a handful cannot describe a workload's mix. */
    breakdownLaunches: 5,
    /** Launches on a timeline; fewer cannot show how busy the GPU stays. */
    timelineLaunches: 20,
    /** Utilization samples in the window read; one snapshot says nothing about a run. */
    utilizationSamples: 10,
    /** Throughput samples; a single run cannot tell a change from noise. */
    throughputSamples: 3,
};
const THROUGHPUT_METRICS = new Set(['decode_tok_s', 'output_tok_s', 'total_tok_s', 'request_throughput', 'tpot_ms', 'ttft_ms', 'itl_ms']);
function count(n, unit) {
    const plural = /(?:ch|sh|s|x)$/.test(unit) ? `${unit}es` : `${unit}s`;
    return `${n.toLocaleString('en-US')} ${n === 1 ? unit : plural}`;
}
function evidence_ms(ns) {
    return `${(ns / 1e6).toFixed(1)} ms`;
}
function item(kind, coverage, thinBecause) {
    return thinBecause ? { kind, strength: 'thin', coverage, thinBecause } : { kind, strength: 'full', coverage };
}
function evidence_breakdownEvidence(profile) {
    if (profile.kernels.length === 0 || profile.kernelOrigin === 'deep-dive')
        return undefined;
    const launches = profile.kernels.reduce((sum, k) => sum + k.instances, 0);
    const coverage = `${count(launches, 'launch')} of ${count(profile.kernels.length, 'kernel')}, ${evidence_ms(profile.totalKernelNs)} of kernel time`;
    let thin;
    if (profile.totalKernelNs < THIN.breakdownNs)
        thin = `under ${evidence_ms(THIN.breakdownNs)} of kernel time`;
    else if (launches < THIN.breakdownLaunches)
        thin = `fewer than ${THIN.breakdownLaunches} launches`;
    return item('kernel-breakdown', coverage, thin);
}
function timelineEvidence(profile) {
    const timeline = profile.timeline;
    if (timeline && timeline.spanNs > 0) {
        const active = timeline.activeSpanNs ?? timeline.spanNs;
        const excluded = timeline.excludedGaps ?? [];
        const steps = timeline.steps.length > 0 ? `, ${count(timeline.steps.length, 'step')}` : '';
        const gaps = excluded.length > 0 ? `, ${count(excluded.length, 'gap')} left out as not the workload (${evidence_ms(excluded.reduce((s, g) => s + g.durNs, 0))})` : '';
        const coverage = `${evidence_ms(active)} of per-launch timeline over ${count(timeline.devices, 'device')}${steps}${gaps}`;
        const thin = timeline.kernelLaunches < THIN.timelineLaunches ? `fewer than ${THIN.timelineLaunches} launches on the timeline` : undefined;
        return item('timeline', coverage, thin);
    }
    if (profile.gpuTimeUtilPercent !== null) {
        return item('timeline', 'the profiler\'s GPU-in-use analysis over the capture range', undefined);
    }
    return undefined;
}
function utilizationEvidence(profile) {
    const util = profile.utilization;
    if (!util || util.sampleCount === 0)
        return undefined;
    const where = util.window === 'timed' ? "inside the workload's timed runs" : 'over each whole recording, idle start and end trimmed';
    const coverage = `${count(util.sampleCount, 'sample')} on ${count(Math.max(1, util.devices), 'device')}, ${where}`;
    const thin = util.sampleCount < THIN.utilizationSamples ? `fewer than ${THIN.utilizationSamples} samples` : undefined;
    return item('utilization', coverage, thin);
}
function throughputEvidence(profile) {
    const metrics = profile.metrics.filter((m) => THROUGHPUT_METRICS.has(m.name) && m.samples.length > 0);
    if (metrics.length === 0)
        return undefined;
    const samples = Math.max(...metrics.map((m) => m.samples.length));
    const coverage = `${metrics.map((m) => m.name).join(', ')}: up to ${count(samples, 'sample')}`;
    const thin = samples < THIN.throughputSamples ? `fewer than ${THIN.throughputSamples} samples` : undefined;
    return item('throughput', coverage, thin);
}
function kernelMetricsEvidence(profile) {
    if (profile.ncu.length === 0)
        return undefined;
    const kernels = new Set(profile.ncu.map((r) => r.kernel)).size;
    // A deep dive is exact for the launches it replayed, and says nothing about the rest of the run.
    return item('kernel-metrics', `Nsight Compute: ${count(profile.ncu.length, 'profiled launch')} of ${count(kernels, 'kernel')}`, undefined);
}
function gatherEvidence(profile) {
    const evidence = {};
    for (const found of [evidence_breakdownEvidence(profile), timelineEvidence(profile), kernelMetricsEvidence(profile), utilizationEvidence(profile), throughputEvidence(profile)]) {
        if (found)
            evidence[found.kind] = found;
    }
    return evidence;
}
/** The evidence a rule's needs are met by, or null when one need is not met. */
function evidenceFor(needs, evidence) {
    const used = [];
    for (const need of needs) {
        const options = typeof need === 'string' ? [need] : need;
        const present = options.map((kind) => evidence[kind]).filter((e) => e !== undefined);
        if (present.length === 0)
            return null;
        used.push(...present);
    }
    return used;
}
/** How a finding's basis reads: "kernel breakdown (thin: fewer than 5 launches): 3 launches …". */
function describeEvidence(evidence) {
    const label = evidence.kind.replace('-', ' ');
    return evidence.strength === 'thin' ? `${label} (thin: ${evidence.thinBecause}): ${evidence.coverage}` : `${label}: ${evidence.coverage}`;
}

;// CONCATENATED MODULE: ./src/diagnose/rule.ts
const REFERENCES_URL = 'https://github.com/profile-gate/profile-gate/blob/main/references/rules';
function defineRule(rule) {
    return rule;
}
function docsUrl(id) {
    return `${REFERENCES_URL}/${id}.md`;
}

;// CONCATENATED MODULE: ./src/diagnose/rules/capture-includes-warmup.ts
/**
 * Compilation or first-run work fell inside the capture: module loads and JIT in the API table, a
 * first step far slower than the rest, or the tool itself reporting compilation.
 */



const LOAD_API = /^(?:cu(?:Module|Library)Load|cuLink(?:Create|AddData|Complete)|nvrtc|nvJitLink|hip(?:Module|Library)Load|hiprtc)/;
const COMPILE_NOTICE = /compil|autotun/i;
/* harmony default export */ const capture_includes_warmup = (defineRule({
    meta: {
        id: 'capture-includes-warmup',
        severity: 'warning',
        title: 'Capture includes warm-up or compilation',
        stage: 'capture',
        needs: [],
        description: 'Module loading, JIT compilation or a slow first step is inside the captured window, which inflates times and shifts the kernel mix.',
        defaults: { firstStepRatio: 3, minSteps: 3, maxModuleLoadShare: 0.05 },
    },
    check({ profile, options }) {
        const evidence = {};
        const signals = [];
        const steps = profile.timeline?.steps ?? [];
        if (steps.length >= options.minSteps) {
            const rest = median(steps.slice(1).map((s) => s.durNs));
            const ratio = rest > 0 ? steps[0].durNs / rest : 0;
            if (ratio >= options.firstStepRatio) {
                signals.push('first-step');
                Object.assign(evidence, { firstStepMs: ms(steps[0].durNs), medianStepMs: ms(rest), firstStepRatio: round(ratio, 2) });
            }
        }
        const apiNs = profile.apiCalls.reduce((sum, a) => sum + a.totalNs, 0);
        const loads = profile.apiCalls.filter((a) => LOAD_API.test(a.name));
        const loadNs = loads.reduce((sum, a) => sum + a.totalNs, 0);
        if (apiNs > 0 && loadNs / apiNs >= options.maxModuleLoadShare) {
            signals.push('module-load');
            Object.assign(evidence, {
                moduleLoadCalls: loads.reduce((sum, a) => sum + a.calls, 0),
                moduleLoadMs: ms(loadNs),
                moduleLoadShare: round(loadNs / apiNs),
            });
        }
        const notice = profile.notices.find((n) => n.severity !== 'info' && (COMPILE_NOTICE.test(n.code) || COMPILE_NOTICE.test(n.message)));
        if (notice) {
            signals.push('notice');
            evidence.notice = notice.code;
        }
        if (signals.length === 0)
            return [];
        return [
            {
                message: `Warm-up work is inside the capture (${signals.join(', ')}); times and shares include one-off costs.`,
                evidence: { ...evidence, signals: signals.join(',') },
                advice: 'Warm up before the capture window and profile only steady-state steps: `max generate --num-warmups N` (one warm-up generation of N tokens), cudaProfilerStart() after warm-up with a capture range in nsys, or torch.profiler.schedule(wait=1, warmup=2, active=N) in PyTorch:',
                command: 'nsys profile --capture-range=cudaProfilerApi --capture-range-end=stop --cuda-graph-trace=node --trace=cuda,nvtx --sample=none --cpuctxsw=none -o steady <workload>',
            },
        ];
    },
}));

;// CONCATENATED MODULE: ./src/diagnose/rules/communication-bound.ts


/** Kernels that only a backward pass or an optimizer step launches: the run is training. */
const TRAINING_KERNEL = /backward|_bwd|bwd_|dgrad|wgrad|multi_tensor_apply|adam|_sgd_/i;
/** A straggler computing this much longer than its peers explains part of their exposed time. */
const STRAGGLER_EXCESS = 0.1;
/** Below this busy share of the active span, the idle rest is named too. */
const IDLE_NOTE_BUSY = 0.8;
/** Families only serving and generation have. */
const INFERENCE_FAMILIES = ['kv-cache', 'sampling', 'gemm-decode'];
function workloadOf(profile) {
    if (profile.kernels.some((k) => TRAINING_KERNEL.test(k.name)))
        return 'training';
    if (profile.families.some((f) => INFERENCE_FAMILIES.includes(f.family)) || (profile.timeline?.graphLaunches ?? 0) > 0)
        return 'inference';
    return 'unknown';
}
const ADVICE = {
    training: 'Training: gradients should be reduced while backward still runs. Check that the all-reduce overlaps backward compute (DDP reduces each bucket as soon as its gradients are ready; an explicit sync, find_unused_parameters=True or a hook that waits serializes it), tune the bucket size (DDP bucket_cap_mb, default 25: larger buckets mean fewer, more efficient collectives, smaller ones start earlier), consider gradient accumulation (no_sync) to reduce less often, and for FSDP enable forward/backward prefetch. Then check the interconnect: NCCL over PCIe or the network instead of NVLink/xGMI multiplies the time.',
    inference: 'Inference: the tensor-parallel all-reduce after attention and after the MLP is on the critical path of every layer. If the model fits, a lower TP degree (or data-parallel replicas) removes it; keep the custom all-reduce on for small messages (vLLM: do not set disable_custom_all_reduce; CUDA graphs capture it), use a fused all-reduce + norm where the engine has one, and overlap communication with compute (sequence parallel / async TP). Check that the GPUs talk over NVLink/xGMI, not PCIe.',
    unknown: 'For training, overlap the gradient all-reduce with backward and tune the bucket size (DDP bucket_cap_mb); for tensor-parallel inference, weigh a lower TP degree, the custom all-reduce for small messages and compute/communication overlap. In both, check that the GPUs talk over NVLink/xGMI, not PCIe or the network.',
};
function collectiveOf(families) {
    const entry = families.find((f) => f.family === 'collective');
    return { ns: entry?.totalNs ?? 0, instances: entry?.instances ?? 0 };
}
/** Each rank with its own numbers; the whole profile when it has no ranks. */
function subjectsOf(profile) {
    const ranks = profile.ranks.filter((r) => r.totalKernelNs > 0);
    if (ranks.length > 0) {
        return ranks.map((r) => {
            const c = collectiveOf(r.families);
            const label = r.rank !== undefined ? `rank ${r.rank}` : `device ${r.device ?? 0}`;
            return { label, rankEntry: r, ...(r.rank !== undefined ? { rank: r.rank } : {}), totalKernelNs: r.totalKernelNs, collectiveNs: c.ns, collectiveLaunches: c.instances, timeline: r.timeline };
        });
    }
    const c = collectiveOf(profile.families);
    return [{ label: 'the run', totalKernelNs: profile.totalKernelNs, collectiveNs: c.ns, collectiveLaunches: c.instances, timeline: profile.timeline }];
}
/* harmony default export */ const communication_bound = (defineRule({
    meta: {
        id: 'communication-bound',
        severity: 'warning',
        title: 'Communication-bound: collectives no compute overlaps',
        stage: 'utilization',
        needs: ['kernel-breakdown'],
        description: 'Collective kernels (NCCL/RCCL, custom all-reduce) that no compute overlaps take a large share of the active span on some rank; smaller shares are reported as info.',
        defaults: { minCollectiveShare: 0.05, maxExposedShare: 0.15, minCollectiveLaunches: 10 },
    },
    check({ profile, options }) {
        const subjects = subjectsOf(profile).filter((s) => s.totalKernelNs > 0 && s.collectiveNs / s.totalKernelNs >= options.minCollectiveShare);
        if (subjects.length === 0)
            return [];
        const workload = workloadOf(profile);
        const measured = subjects.filter((s) => s.timeline?.communication && s.timeline.activeSpanNs > 0);
        if (measured.length === 0) {
            // No per-launch timeline: the share of kernel time is known, its overlap is not.
            const top = subjects.reduce((a, b) => (b.collectiveNs / b.totalKernelNs > a.collectiveNs / a.totalKernelNs ? b : a));
            const share = top.collectiveNs / top.totalKernelNs;
            return [
                {
                    severity: 'info',
                    message: `Collectives take ${percent(share)} of kernel time${top.label === 'the run' ? '' : ` on ${top.label}`}; how much of it compute hides is not in this capture (no per-launch timeline).`,
                    evidence: { collectiveShare: round(share), collectiveLaunches: top.collectiveLaunches, workload, signals: 'kernel-share' },
                    advice: `A PyTorch profiler or rocprofv3 kernel trace shows whether the collectives overlap compute. ${ADVICE[workload]}`,
                },
            ];
        }
        const read = measured.map((s) => {
            const timeline = s.timeline;
            const comm = timeline.communication;
            const exposedShare = comm.exposedNs / (timeline.activeSpanNs * Math.max(1, timeline.devices));
            return { subject: s, exposedShare, comm, timeline };
        });
        const worst = read.reduce((a, b) => (b.exposedShare > a.exposedShare ? b : a));
        const { subject, exposedShare, comm, timeline } = worst;
        const collectiveShare = subject.collectiveNs / subject.totalKernelNs;
        const hiddenFraction = comm.collectiveNs > 0 ? 1 - comm.exposedNs / comm.collectiveNs : 0;
        const busyFraction = timeline.busyNs / (timeline.activeSpanNs * Math.max(1, timeline.devices));
        const evidence = {
            exposedShare: round(exposedShare),
            exposedMs: round(comm.exposedNs / 1e6, 3),
            collectiveShare: round(collectiveShare),
            hiddenFraction: round(hiddenFraction),
            busyFraction: round(busyFraction),
            collectiveLaunches: subject.collectiveLaunches,
            workload,
            ranksMeasured: read.length,
            ...(subject.rank !== undefined ? { rank: subject.rank } : {}),
        };
        const thin = subject.collectiveLaunches < options.minCollectiveLaunches;
        const exposed = exposedShare >= options.maxExposedShare;
        const where = read.length > 1 ? ` (worst of ${read.length} ranks: ${subject.label})` : subject.label === 'the run' ? '' : ` on ${subject.label}`;
        // Fast ranks wait inside the collective for a straggler: their exposed time is its extra compute.
        const straggler = stragglerOf(profile);
        const waiting = straggler && straggler.computeExcess >= STRAGGLER_EXCESS && straggler.slow !== subject.rankEntry ? straggler : undefined;
        if (waiting) {
            evidence.stragglerRank = waiting.slow.rank ?? waiting.slow.device ?? 0;
            evidence.stragglerExcess = round(waiting.computeExcess);
        }
        const idleNote = busyFraction < IDLE_NOTE_BUSY ? ` The GPU is idle a further ${percent(1 - busyFraction)} of the active span (host work, or waiting for the all-reduce to finish before the next step).` : '';
        const waitNote = waiting ? ` Part of it is waiting for ${waiting.slow.rank !== undefined ? `rank ${waiting.slow.rank}` : `device ${waiting.slow.device ?? 0}`}, which computes ${percent(waiting.computeExcess)} longer (see rank-imbalance).` : '';
        const command = profile.environment.vendor === 'amd' ? 'rocm-smi --showtopo' : 'nvidia-smi topo -m';
        if (!exposed || thin) {
            return [
                {
                    severity: 'info',
                    message: `Communication share${where}: collectives are ${percent(collectiveShare)} of kernel time and ${percent(exposedShare)} of the active span is collective time no compute overlaps${thin ? ` (only ${subject.collectiveLaunches} collective launches)` : ''}.${waitNote}`,
                    evidence,
                    advice: `Within normal bounds for ${workload === 'unknown' ? 'a multi-GPU run' : `multi-GPU ${workload}`}; watch the share as the degree of parallelism or the interconnect changes. ${ADVICE[workload]}`,
                    command,
                },
            ];
        }
        return [
            {
                message: `Communication-bound${where}: ${percent(exposedShare)} of the active span is collective time that no compute overlaps (${round(comm.exposedNs / 1e6, 1)} ms; collectives are ${percent(collectiveShare)} of kernel time, ${hiddenFraction > 0 ? `${percent(hiddenFraction)} of it hidden` : "none of it hidden"}): the GPU spends it waiting on the interconnect and the other ranks, which neither the host side nor kernel tuning changes.${idleNote}${waitNote}`,
                evidence,
                advice: ADVICE[workload],
                command,
            },
        ];
    },
}));

;// CONCATENATED MODULE: ./src/diagnose/rules/copy-heavy.ts


/** Ops that repeat KV heads (transformers' repeat_kv is expand + reshape, which copies). */
const KV_REPEAT_OP = /repeat_interleave|repeat_kv|aten::repeat\b|aten::expand/;
/** Ops that only change the dtype (aten::to, .float(), .half()). */
const CAST_OP = /aten::_to_copy|aten::to\b/;
const PATTERNS = [
    [/bfloat16_copy_kernel|float16_copy_kernel|convert_unary/i, 'dtype casts (.to())'],
    [/CatArray|concat|\bcat\b/i, 'concatenation (cat)'],
    [/transpose|permute|nchwToNhwc|nhwcToNchw/i, 'transpose / permute'],
    [/direct_copy|copy_kernel|contiguous|copy_/i, 'strided copies (.contiguous(), reshape of a transposed or expanded view)'],
];
function patternOf(kernel) {
    if (kernel.launchedBy && KV_REPEAT_OP.test(kernel.launchedBy))
        return 'KV heads repeated (repeat_interleave / repeat_kv)';
    if (kernel.launchedBy && CAST_OP.test(kernel.launchedBy))
        return 'dtype casts (.to())';
    const found = PATTERNS.find(([pattern]) => pattern.test(kernel.name));
    return found ? found[1] : 'copies';
}
/* harmony default export */ const copy_heavy = (defineRule({
    meta: {
        id: 'copy-heavy',
        severity: 'warning',
        title: 'Copy and layout kernels take a large share of GPU time',
        stage: 'kernels',
        needs: ['kernel-breakdown'],
        description: 'Direct copies, transposes, permutes, cat and KV-head expands take a large share of kernel time: data is moved, not computed on.',
        // A quarter of kernel time moving bytes: well above the few percent a decode spends writing its
        // KV cache and casting, and far below what a repeated GQA cache costs (57 % on an H200).
        defaults: { minCopyShare: 0.25 },
    },
    check({ profile, options }) {
        const copy = familyTotals(profile, ['copy']);
        if (copy.share < options.minCopyShare)
            return [];
        const top = profile.kernels.filter((k) => k.family === 'copy').sort((a, b) => b.totalNs - a.totalNs)[0];
        const pattern = patternOf(top);
        const attributed = top.launchedBy !== undefined;
        const site = top.pythonSites?.[0];
        const repeatsKv = pattern.startsWith('KV heads');
        const casts = pattern.startsWith('dtype casts');
        const advice = [
            casts
                ? 'Keep activations in one dtype through the step: cast weights once at load, not per call, and let torch.compile fuse the remaining casts into their neighbours.'
                : repeatsKv
                    ? 'Stop repeating the KV heads: pass the grouped K and V to a kernel that reads them as they are (torch: F.scaled_dot_product_attention(..., enable_gqa=True); FlashAttention, FlashInfer and vLLM attention take GQA natively; transformers: attn_implementation="sdpa" or "flash_attention_2").'
                    : 'Find the op that makes the copy and remove it: if K/V heads are repeated for GQA (repeat_kv, repeat_interleave, expand(...).reshape), use native GQA (F.scaled_dot_product_attention(..., enable_gqa=True), FlashAttention/FlashInfer); if a .contiguous() or .transpose().reshape() feeds a matmul, keep the layout the consumer reads (or fuse the permute into it, e.g. under torch.compile).',
            attributed || (site && (!site.graphReplay || site.graphCapture))
                ? ''
                : ' This trace does not say which op launched the kernel (no CPU ops for it, as under CUDA-graph replay): profile a few eager steps with torch.profiler(record_shapes=True, with_stack=True) to see it.',
        ].join('');
        return [
            {
                message: `Copy and layout kernels take ${percent(copy.share)} of kernel time. The largest, ${pattern}, is ${percent(top.share)} over ${top.instances} launches${launchOrigin(top)}.`,
                evidence: {
                    copyShare: round(copy.share),
                    copyLaunches: copy.instances,
                    topCopyShare: round(top.share),
                    topCopyLaunches: top.instances,
                    pattern,
                    attributed,
                    ...(top.launchedBy ? { launchedBy: top.launchedBy } : {}),
                    ...(site ? { pythonSite: pythonSiteText(site).replace(/`/g, ''), pythonSiteShare: site.share } : {}),
                },
                advice,
                kernel: top.name,
            },
        ];
    },
}));

;// CONCATENATED MODULE: ./src/diagnose/rules/dominant-kernel.ts
/**
 * One kernel takes most of the GPU time: the next step is a deep dive on that kernel alone. The
 * finding carries the request as data (kernel key, launch skip, sections); `profile-gate run` runs
 * it, and its command shows it. A collective gets no deep dive: it waits on its peers.
 */



/* harmony default export */ const dominant_kernel = (defineRule({
    meta: {
        id: 'dominant-kernel',
        severity: 'info',
        title: 'One kernel dominates GPU time',
        stage: 'deep-dive',
        needs: ['kernel-breakdown'],
        description: 'A single kernel takes at least the configured share of GPU kernel time; profile it with Nsight Compute (a collective instead gets the questions communication raises).',
        defaults: { minShare: 0.4, workload: '<workload command>' },
    },
    check({ profile, options }) {
        // Copies are not kernels Nsight Compute can profile.
        const candidates = profile.kernels.filter((k) => k.family !== 'memcpy' && k.family !== 'memset');
        const top = candidates.reduce((best, k) => (!best || k.share > best.share ? k : best), undefined);
        if (!top || top.share < options.minShare)
            return [];
        const site = top.pythonSites?.[0];
        const evidence = {
            share: round(top.share),
            instances: top.instances,
            totalMs: ms(top.totalNs),
            family: top.family,
            ...(site ? { pythonSite: pythonSiteText(site).replace(/`/g, ''), pythonSiteShare: site.share } : {}),
        };
        // Only where the trace holds Python stacks: the op chain alone was never part of this finding.
        const origin = site ? launchOrigin(top) : '';
        if (top.family === 'collective') {
            return [
                {
                    message: `One collective takes ${percent(top.share)} of GPU kernel time (${top.instances} launches, ${ms(top.totalNs)} ms)${origin}.`,
                    evidence,
                    advice: 'A collective waits on its peers, so one GPU\'s counters (Nsight Compute) do not say why it is slow. Ask instead whether it overlaps with compute, whether its messages are large enough (bucket sizes), and what the interconnect delivers (nccl-tests on the same GPUs); a timeline of all ranks (Nsight Systems) shows the waiting.',
                    kernel: top.name,
                },
            ];
        }
        const request = deepDiveRequest(top.name, top.instances);
        return [
            {
                message: `One ${top.family} kernel takes ${percent(top.share)} of GPU kernel time (${top.instances} launches, ${ms(top.totalNs)} ms)${origin}.`,
                evidence: { ...evidence, launchSkip: request.launchSkip },
                advice: 'Profile one steady-state launch of it with Nsight Compute (clocks left alone): SpeedOfLight says whether it is memory- or compute-bound and how close to peak; Occupancy and LaunchStats say whether the grid fills the GPU.',
                ...askDeepDive(request, options.workload),
                kernel: top.name,
            },
        ];
    },
}));

;// CONCATENATED MODULE: ./src/diagnose/rules/empty-capture.ts
/**
 * Nothing, or almost nothing, was captured: every other finding would be built on air. "Almost
 * nothing" is measured in kernel time, not in launches: five launches holding two seconds are a
 * real capture. An Nsight Compute deep dive holds a few launches by design and is not a breakdown.
 */


/** Tool statements that say the kernel data is missing (MAX without nsys or GPU, nsys reports skipped). */
const NO_KERNEL_CODES = new Set(['max-no-kernel-data', 'max-no-nsys', 'max-no-nsys-rep', 'max-nsys-failed', 'max-cpu-only', 'max-no-gpu', 'max-no-cudart', 'nsys-report-skipped']);
const NO_KERNEL_MESSAGE = /No GPU kernel data found|does not contain CUDA kernel data|only Python\/CPU profile/i;
/** Formats that normally carry per-kernel times. */
const KERNEL_FORMATS = new Set(['nsys-stats', 'rocprof-csv', 'kineto-json']);
const CAPTURE_COMMAND = 'nsys profile --trace=cuda,nvtx --cuda-graph-trace=node --sample=none --cpuctxsw=none --capture-range=cudaProfilerApi --capture-range-end=stop -o profile <workload>';
/** What a capture without kernels still holds, in words; undefined when it holds nothing. */
function otherRecords(profile) {
    const parts = [
        profile.memops.length ? `${profile.memops.length} memory-operation row(s)` : '',
        profile.apiCalls.length ? `${profile.apiCalls.length} host API call row(s)` : '',
    ].filter(Boolean);
    return parts.length ? parts.join(' and ') : undefined;
}
/** The kernel report of the tool that wrote the capture. */
function kernelReportCommand(format) {
    if (format.startsWith('rocprof') || format === 'rocpd-sqlite')
        return 'rocprofv3 --kernel-trace --stats --output-format csv -- <workload>   # writes *_kernel_stats.csv and *_kernel_trace.csv';
    if (format.startsWith('nsys'))
        return 'nsys stats --report cuda_gpu_kern_sum --format csv profile.nsys-rep';
    return CAPTURE_COMMAND;
}
/* harmony default export */ const empty_capture = (defineRule({
    meta: {
        id: 'empty-capture',
        severity: 'warning',
        title: 'Capture is empty or nearly empty',
        stage: 'capture',
        needs: [],
        description: 'The inputs hold no GPU kernels (or too little kernel time to mean anything), so kernel findings are not possible.',
        defaults: { minTotalKernelMs: 1 },
    },
    check({ profile, options }) {
        const launches = totalLaunches(profile);
        const kernelMs = ms(profile.totalKernelNs);
        const hasOtherData = profile.metrics.length > 0 || profile.utilization !== null || profile.timeline !== null || profile.ncu.length > 0;
        const evidence = {
            kernels: profile.kernels.length,
            kernelLaunches: launches,
            totalKernelMs: kernelMs,
            metrics: profile.metrics.length,
            utilizationSamples: profile.utilization?.sampleCount ?? 0,
        };
        const hits = [];
        const held = otherRecords(profile);
        const toolSaysNoKernels = profile.notices.some((n) => (NO_KERNEL_CODES.has(n.code) && n.severity !== 'info') || NO_KERNEL_MESSAGE.test(n.message));
        const graphLaunches = profile.apiCalls.some((call) => /GraphLaunch/.test(call.name) && call.calls > 0);
        if (profile.kernels.length === 0 && !hasOtherData && held && !toolSaysNoKernels && !graphLaunches) {
            // A real capture, read to the end, of something other than kernels (a memory or API summary
            // given alone): the data is there, the kernel report is not. Say which report would do.
            const source = profile.sources[0];
            hits.push({
                message: `No kernel data in the inputs: they hold only ${held} (${profile.sources.flatMap((s) => s.parts ?? [s.format]).join(', ')}). Kernel findings need the kernel report of the same capture.`,
                evidence: { ...evidence, memops: profile.memops.length, apiCalls: profile.apiCalls.length },
                advice: 'Give the kernel summary or trace of the same capture alongside:',
                command: kernelReportCommand(source.format),
            });
            return hits;
        }
        if (profile.kernels.length === 0 && !hasOtherData) {
            hits.push({
                severity: 'error',
                message: `Nothing was captured: ${profile.sources.length} input(s), no kernels, metrics or utilization samples.`,
                evidence,
                advice: 'Check that the profiler wrapped the workload and that the capture range opened (cudaProfilerStart after warm-up). Re-capture:',
                command: CAPTURE_COMMAND,
            });
            return hits;
        }
        if (profile.kernels.length === 0) {
            // Graph launches without kernels are a graph-level trace: graph-level-trace names the exact cause.
            if (profile.apiCalls.some((call) => /GraphLaunch/.test(call.name) && call.calls > 0))
                return hits;
            const notice = profile.notices.find((n) => (NO_KERNEL_CODES.has(n.code) && n.severity !== 'info') || NO_KERNEL_MESSAGE.test(n.message));
            const kernelSource = profile.sources.find((s) => KERNEL_FORMATS.has(s.format));
            if (notice || kernelSource) {
                hits.push({
                    message: notice
                        ? `No GPU kernel data: the tool said "${notice.message}". Only metrics and utilization can be judged.`
                        : `No GPU kernel data in ${kernelSource.path} (${kernelSource.format}), which normally lists kernels.`,
                    evidence: { ...evidence, ...(notice ? { notice: notice.code } : { source: kernelSource.format }) },
                    advice: 'Kernel data needs nsys on PATH (`max generate --profile` re-runs itself under nsys only when nsys, nvidia-smi and libcudart are all found) and a capture range that covers GPU work. Capture directly:',
                    command: CAPTURE_COMMAND,
                });
            }
            return hits;
        }
        if (profile.kernelOrigin === 'deep-dive')
            return hits; // a deep dive of chosen kernels, not a capture of the run
        if (profile.totalKernelNs < options.minTotalKernelMs * 1e6) {
            hits.push({
                message: `Almost nothing was captured: ${launches} kernel launch(es), ${kernelMs} ms of kernel time.`,
                evidence,
                advice: 'The capture window probably missed the workload (range closed early, or only set-up ran). Widen the range around the steady-state steps and re-capture:',
                command: CAPTURE_COMMAND,
            });
        }
        return hits;
    },
}));

;// CONCATENATED MODULE: ./src/diagnose/rules/gpu-throttled.ts
/** Hardware clock-event reasons were active: the numbers describe a slowed GPU, not the code. */


/* harmony default export */ const gpu_throttled = (defineRule({
    meta: {
        id: 'gpu-throttled',
        severity: 'warning',
        title: 'GPU clocks were throttled',
        stage: 'utilization',
        needs: ['utilization'],
        description: 'Power, thermal or sync-boost clock reasons were active during the run, so its speed is not representative.',
        defaults: { minThrottledFraction: 0.05 },
    },
    check({ profile, options }) {
        const util = profile.utilization;
        if (!util || util.throttleReasons.length === 0)
            return [];
        const reasons = util.throttleReasons.join(',');
        const representative = util.throttledFraction < options.minThrottledFraction;
        return [
            {
                ...(representative ? { severity: 'info' } : {}),
                message: `${reasons} active in ${percent(util.throttledFraction)} of ${util.sampleCount} samples${representative ? ' (briefly; numbers still usable)' : '; throughput and latency are not representative'}.`,
                evidence: {
                    reasons,
                    throttledFraction: round(util.throttledFraction),
                    samples: util.sampleCount,
                    ...(util.meanSmClockMhz !== undefined ? { meanSmClockMhz: round(util.meanSmClockMhz, 1) } : {}),
                    ...(util.peakPowerW !== undefined ? { peakPowerW: round(util.peakPowerW, 1) } : {}),
                },
                advice: 'Do not gate on these numbers. sw_power_cap means the board hit its power limit (heavy sustained load or a lowered limit); thermal reasons mean cooling; hw_slowdown and power brake are hardware protection. Re-run on an idle, cool GPU, and watch the reasons live:',
                command: 'nvidia-smi --query-gpu=timestamp,clocks_event_reasons.active,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv -lms 500',
            },
        ];
    },
}));

;// CONCATENATED MODULE: ./src/diagnose/rules/graph-level-trace.ts
/**
 * CUDA graphs were traced as opaque launches: the kernels they replay are missing from the kernel
 * table, so every share computed from it describes only the few kernels launched outside the graphs.
 */


const GRAPH_LAUNCH_API = /^(?:cu|cuda|hip)GraphLaunch/;
/* harmony default export */ const graph_level_trace = (defineRule({
    meta: {
        id: 'graph-level-trace',
        severity: 'warning',
        title: 'CUDA graphs traced without their kernels',
        stage: 'capture',
        needs: [],
        description: 'Graph launches appear but the kernels they replay do not, so the kernel mix is incomplete.',
        defaults: { minKernelsPerGraphLaunch: 8 },
    },
    check({ profile, options }) {
        const timeline = profile.timeline;
        let graphLaunches = 0;
        let kernels = 0;
        let source = '';
        if (timeline && timeline.graphLaunches > 0 && timeline.graphKernels === 0) {
            graphLaunches = timeline.graphLaunches;
            kernels = timeline.kernelLaunches;
            source = 'timeline';
        }
        else {
            graphLaunches = profile.apiCalls.filter((a) => GRAPH_LAUNCH_API.test(a.name)).reduce((sum, a) => sum + a.calls, 0);
            kernels = totalLaunches(profile);
            source = 'api';
        }
        if (graphLaunches === 0)
            return [];
        const perGraph = kernels / graphLaunches;
        if (perGraph >= options.minKernelsPerGraphLaunch)
            return [];
        return [
            {
                message: `${graphLaunches} CUDA graph launches but only ${kernels} kernel launches recorded (${round(perGraph, 2)} per graph): the graphs' kernels are missing.`,
                evidence: { graphLaunches, kernelLaunches: kernels, kernelsPerGraphLaunch: round(perGraph, 3), source },
                advice: 'Nsight Systems traces a graph as one launch unless told to trace its nodes. Re-capture with node-level graph tracing (PyTorch profiler traces graph kernels already):',
                command: 'nsys profile --cuda-graph-trace=node --trace=cuda,nvtx --sample=none --cpuctxsw=none -o profile <workload>',
            },
        ];
    },
}));

;// CONCATENATED MODULE: ./src/diagnose/ncu-advice.ts

const GEMM_FAMILIES = new Set(LINEAR_FAMILIES);
const ATTENTION_FAMILIES = new Set(['attention-fused', 'attention-softmax', 'attention-bmm']);
const REDUCTION_FAMILIES = new Set(['reduce', 'norm']);
/** Layout work among elementwise kernels: direct copies, transposes and permutes, cat, contiguous, KV-head expands. */
const COPY_NAME = /direct_copy|copy_kernel|CatArray|\bcat_|transpose|permute|contiguous|repeat_interleave|repeat_kv|expand_kv|copyBuffer/i;
const MATMUL_NAME = /gemm|gemv|matmul|mul_mat|QuantDot|dot_?product/i;
/** The kind of work a kernel does, from its family (and its name, for copies filed as elementwise). */
function kernelKind(family, name) {
    if (family === 'collective')
        return 'collective';
    if (family === 'copy' || ((family === 'elementwise' || family === undefined || family === 'other') && COPY_NAME.test(name)))
        return 'copy';
    if (family && GEMM_FAMILIES.has(family))
        return 'gemm';
    // A quantized matmul filed as quantize or other by an older table (QuantDot…, mul_mat_q) is a GEMM.
    if ((family === 'quantize' || family === 'other' || family === undefined) && MATMUL_NAME.test(name))
        return 'gemm';
    if (family && ATTENTION_FAMILIES.has(family))
        return 'attention';
    if (family && REDUCTION_FAMILIES.has(family))
        return 'reduction';
    // A KV-cache write is needed work, not a copy to avoid; it is read as elementwise.
    if (family === 'elementwise' || family === 'rope' || family === 'quantize' || family === 'kv-cache')
        return 'elementwise';
    return 'other';
}
const AVOID_COPY = 'The fastest copy is the one not made: keep tensors in the layout and type their consumer reads (no .contiguous() after a permute or transpose, no cast there and back), use the attention kernel\'s native GQA instead of repeat_kv/repeat_interleave of the KV heads, and fuse what remains into the consumer (torch.compile, or a kernel that takes strided input).';
/** Advice for a bound, by kind; the family tells a quantized GEMM (`lowbit-gemm`) from a dense one. */
function boundAdvice(bound, kind, unit, family) {
    const lowBit = family === 'lowbit-gemm' || family === 'quantize';
    if (bound === 'memory') {
        switch (kind) {
            case 'copy':
                return `The kernel is a copy, so it is as fast as its bytes allow${unit && unit !== 'DRAM' ? `, and ${unit} being busier than DRAM says its accesses are strided` : ''}. ${AVOID_COPY}`;
            case 'elementwise':
                return 'An elementwise kernel at a memory roof: fuse it with its producer or consumer so the tensor is read and written once (torch.compile, a fused epilogue), and keep activations in the narrowest type the model allows.';
            case 'attention':
                return 'Attention at a memory roof streams its K and V: fewer bytes per token make it faster (a lower-precision KV cache such as FP8, fewer KV heads through GQA or MQA), and a split-KV decode kernel keeps the bandwidth busy.';
            case 'reduction':
                return 'A reduction at a memory roof reads its input once already: fuse it with its neighbours (residual add and RMSNorm in one kernel, the norm into the next matmul\'s prologue) so the activations are not read again.';
            case 'gemm':
                return unit === 'DRAM' || unit === undefined
                    ? `The GEMM streams close to the DRAM roof: fewer bytes make it faster (${lowBit ? 'a smaller weight format or larger quantization groups' : 'lower-precision weights such as FP8 or INT4'}, more tokens per weight read through batching, fusing the consumer so the output is written once).`
                    : `The ${unit} cache is the busiest unit: the tiles re-read data from it. A tile shape that reuses more per load (a larger tile, or a swizzled layout), or a kernel variant tuned for this shape, cuts that traffic.`;
            default:
                return unit === 'DRAM' || unit === undefined
                    ? 'The kernel streams close to the DRAM roof: only fewer bytes make it faster (a narrower data type, fusing its producer or consumer so data is read once).'
                    : `The ${unit} cache is the busiest unit: data is re-read from it many times. Better reuse (tiling into shared memory, fewer passes) or coalesced accesses cut that traffic.`;
        }
    }
    if (bound === 'compute') {
        switch (kind) {
            case 'copy':
                return `A copy near the SM roof is issue-bound on its index math: a strided or permuted copy computes a multi-dimensional offset for every element, and those integer instructions are what the SM throughput counts. Cheaper arithmetic does not help. ${AVOID_COPY} Where the copy must stay, a contiguous inner dimension lets it use wide vectorized loads.`;
            case 'elementwise':
                return 'An elementwise kernel near the SM roof is issue-bound on per-element instructions (index math, type conversions, transcendental functions): fuse it into a neighbour, vectorize along the contiguous dimension, or use fast intrinsics where the precision allows.';
            case 'attention':
                return 'Attention near the SM roof: a kernel built for this GPU (FlashAttention 3 or cuDNN on Hopper), an FP8 attention path, and skipping fully masked blocks (causal, sliding window) cut the math.';
            case 'reduction':
                return 'A reduction near the SM roof spends its time in instructions: vectorized loads, warp-shuffle reductions and a single pass (Welford for mean and variance) cut them.';
            case 'gemm':
                return lowBit
                    ? 'A quantized GEMM near the SM roof spends its issue slots on dequantization: a kernel that dequantizes into tensor-core fragments (or a native FP8/FP4 tensor-core path on this GPU) instead of scalar unpacking, and larger quantization groups, cut that work.'
                    : 'The GEMM is near the SM roof: a lower-precision tensor-core path (FP8 on Hopper, with per-channel scales), skipping padded or masked work, or a library kernel whose tile fits the shape make it faster.';
            default:
                return 'The kernel is near the SM roof: less or cheaper arithmetic makes it faster (a better-suited algorithm, a lower precision where the results allow, skipping padded or masked work).';
        }
    }
    switch (kind) {
        case 'copy':
            return `A copy that reaches no roof waits on its loads. ${AVOID_COPY}`;
        case 'elementwise':
            return 'An elementwise kernel below every roof: fuse it with its neighbours so its tensors are read once (torch.compile); in a short launch much of the time is ramp-up, which fusion or a CUDA graph hides.';
        case 'attention':
            return 'Decode attention far from every roof has too little parallel work per launch: a split-KV (flash-decoding) kernel spreads one sequence over more blocks.';
        case 'reduction':
            return 'A reduction far from every roof has too few rows per block or blocks per SM: more rows per launch, or fusing it with the producer, hides the latency.';
        case 'gemm':
            return lowBit
                ? 'A quantized GEMM far from every roof waits on its weight loads: coalesced, vectorized loads of the packed weights (and of their scales), a layout made for the kernel at load time, and more tokens per weight read.'
                : 'A GEMM far from every roof has too little parallel work for the GPU at this shape: a split-K or stream-K variant, a smaller tile, or more tokens per launch.';
        default:
            return '';
    }
}

;// CONCATENATED MODULE: ./src/diagnose/rules/grid-too-small.ts
/**
 * A profiled kernel's grid is smaller than one wave: fewer blocks than the GPU can hold at once, so
 * SMs sit idle for the whole launch. Typical for batch-1 decode GEMVs and attention on big GPUs.
 */





/** ncu's own verdicts on a small grid (SOLBottleneck, LaunchConfiguration). */
const NCU_SMALL_GRID = /grid is too small|less than the GPU's \d+ multiprocessors/;
/** How each kind of kernel gets more blocks. */
const GRID_ADVICE = {
    gemm: 'Give the GPU more blocks: a split-K or stream-K variant of the GEMV/GEMM, a smaller tile, or more tokens per launch (batching).',
    attention: 'Give the GPU more blocks: a split-KV (flash-decoding) kernel spreads each sequence over several blocks; more sequences per launch (batching) adds more.',
    copy: 'A copy this small is mostly launch cost: avoid it (the layout its consumer reads, native GQA instead of repeat_kv) or fuse it into its neighbour.',
    elementwise: 'An elementwise kernel this small is mostly launch cost: fuse it with its neighbours (torch.compile) or capture the step in a CUDA graph.',
    reduction: 'Give the GPU more blocks: split each row over several blocks, or fuse the reduction into its producer.',
    other: 'Give the GPU more blocks: smaller work per block, more work per launch (batching), or independent kernels on concurrent streams.',
};
/* harmony default export */ const grid_too_small = (defineRule({
    meta: {
        id: 'grid-too-small',
        severity: 'warning',
        title: 'Grid too small to fill the GPU',
        stage: 'deep-dive',
        needs: ['kernel-metrics'],
        description: 'The kernel launches fewer blocks than one wave across the SMs (waves per SM below the threshold), so part of the GPU idles for the whole launch.',
        defaults: { maxWaves: 1, roofPercent: 60, workload: '<workload command>' },
    },
    check({ profile, options }) {
        const hits = [];
        for (const dive of deepDiveKernels(profile.ncu, profile.kernels)) {
            const { kernel, result, launches } = dive;
            const kind = kernelKind(dive.family, kernel);
            // A collective waits on its peers: one GPU's counters do not say why it is slow.
            if (kind === 'collective')
                continue;
            const waves = wavesPerSm(result);
            const ncu = ncuSays(result, ['SOLBottleneck', 'LaunchConfiguration'], NCU_SMALL_GRID);
            // Without waves (no LaunchStats section and no SM count) only Nsight Compute's own rule can say so.
            if (waves ? waves.waves >= options.maxWaves : !ncu.ncuRule)
                continue;
            const grid = gridBlocks(result);
            const sms = ncuValue(result, NCU.smCount);
            const block = ncuValue(result, NCU.block);
            const compute = ncuValue(result, NCU.compute) ?? 0;
            const memory = memoryThroughput(result)?.percent ?? 0;
            const atRoof = Math.max(compute, memory) >= options.roofPercent;
            const idleSms = grid !== undefined && sms !== undefined && grid < sms ? sms - grid : undefined;
            const shape = `${grid !== undefined ? `${grid} blocks` : 'the grid'}${sms !== undefined ? ` on ${sms} SMs` : ''}`;
            hits.push({
                message: waves
                    ? `${displayKernel(kernel)}${shareText(dive)}: ${shape} make ${round(waves.waves, 2)} waves${idleSms !== undefined ? `, so ${idleSms} SMs get no block` : ''}${atRoof ? `; it still reaches ${percentText(Math.max(compute, memory))} of a roof, so the gain is bounded` : ''}.`
                    : `${displayKernel(kernel)}${shareText(dive)}: Nsight Compute reports the grid (${shape}) as too small to fill the GPU; the capture has no Launch Statistics to count the waves.`,
                evidence: {
                    ...(waves ? { wavesPerSm: round(waves.waves, 3), wavesSource: waves.source } : { wavesSource: 'ncu rule' }),
                    ...(grid !== undefined ? { gridBlocks: grid } : {}),
                    ...(block !== undefined ? { blockThreads: block } : {}),
                    ...(sms !== undefined ? { smCount: sms } : {}),
                    ...(idleSms !== undefined ? { idleSms } : {}),
                    computePercent: round(compute, 2),
                    memoryPercent: round(memory, 2),
                    ...breakdownEvidence(dive),
                    ...durationEvidence(result),
                    launches,
                    ...ncu,
                },
                severity: atRoof ? 'info' : 'warning',
                advice: `${GRID_ADVICE[kind] ?? GRID_ADVICE['other']} Run the command below for the launch shape and the occupancy limits.`,
                ...askDeepDive(followUp(dive, ['SpeedOfLight', 'LaunchStats', 'Occupancy']), options.workload),
                kernel,
            });
        }
        return hits;
    },
}));

;// CONCATENATED MODULE: ./src/diagnose/rules/healthy-dense-decode.ts
/** The kernel mix of a healthy dense decode: decode-shaped linear layers dominate, fused attention and norms below. */



/* harmony default export */ const healthy_dense_decode = (defineRule({
    meta: {
        id: 'healthy-dense-decode',
        severity: 'info',
        title: 'Healthy dense decode kernel mix',
        stage: 'kernels',
        needs: ['kernel-breakdown'],
        description: 'Decode-shaped GEMV/GEMM kernels dominate, attention runs fused and no MoE kernels appear: the shape a correct dense decode has.',
        defaults: { minDecodeShare: 0.5, minLinearShare: 0.3, maxMoeShare: 0.01 },
    },
    check({ profile, options }) {
        const linear = familyTotals(profile, LINEAR_FAMILIES);
        const decode = familyTotals(profile, ['gemv', 'gemm-decode']);
        const fused = familyTotals(profile, ['attention-fused']);
        const moe = familyTotals(profile, ['moe-gemm', 'moe-routing']);
        if (linear.share < options.minLinearShare || linear.ns === 0)
            return [];
        const decodeShare = decode.ns / linear.ns;
        if (decodeShare < options.minDecodeShare || fused.ns === 0 || moe.share >= options.maxMoeShare)
            return [];
        return [
            {
                message: `Healthy dense decode: decode-shaped linear kernels are ${percent(decodeShare)} of linear time (${percent(linear.share)} of all kernel time), attention is fused.`,
                evidence: {
                    decodeShare: round(decodeShare),
                    linearShare: round(linear.share),
                    attentionFusedShare: round(fused.share),
                    normShare: round(familyTotals(profile, ['norm']).share),
                },
                advice: 'The kernel mix is right. Decode GEMVs are memory-bound, so speed now comes from bytes moved per token (lower-bit weights, larger batch) or from the host side if utilization is low.',
            },
        ];
    },
}));

;// CONCATENATED MODULE: ./src/diagnose/rules/healthy-moe-decode.ts
/** The kernel mix of a healthy MoE decode: expert matmuls dominate, routing and gathers stay small. */


/* harmony default export */ const healthy_moe_decode = (defineRule({
    meta: {
        id: 'healthy-moe-decode',
        severity: 'info',
        title: 'Healthy MoE decode kernel mix',
        stage: 'kernels',
        needs: ['kernel-breakdown'],
        description: 'MoE kernels (grouped matmuls, top-k routing) are present and routing plus gather/scatter stay well below the matmul time.',
        defaults: { minMoeShare: 0.01, minRoutingPerSamplingLaunch: 4, maxRoutingRatio: 0.5 },
    },
    check({ profile, options }) {
        const mix = moeMix(profile, options);
        if (!mix.isMoe || mix.routingRatio >= options.maxRoutingRatio)
            return [];
        return [
            {
                message: `Healthy MoE mix: routing and gather/scatter take ${percent(mix.routingRatio)} of the matmul time.`,
                evidence: {
                    routingRatio: round(mix.routingRatio),
                    moeGemmShare: round(mix.moeGemmShare),
                    routingShare: round(mix.routingShare),
                    gatherShare: round(mix.gatherShare),
                },
                advice: 'The MoE kernel mix is in proportion; expert matmuls are where time goes. On several GPUs, check expert-parallel dispatch/combine (collective family) next.',
            },
        ];
    },
}));

;// CONCATENATED MODULE: ./src/diagnose/rules/host-bound.ts


/** A steady reading at or above this says the GPU was busy; a low reading elsewhere is then an artefact of its window. */
const BUSY_PERCENT = 80;
/** Whole-process samples per device below this many say nothing either way. */
const MIN_WHOLE_PROCESS_SAMPLES = 3;
/** Host-side waits on the GPU above this share of CUDA API time mean the host was waiting, not the GPU. */
const SYNC_API_SHARE = 0.5;
/** Above this share of kernel time in collectives, idle time is the peers', not the host's (communication-bound). */
const COLLECTIVE_SHARE = 0.2;
const SYNC_CALL = /^(?:cuda|hip)(?:DeviceSynchronize|StreamSynchronize|EventSynchronize|StreamWaitEvent)/;
const host_bound_TRAINING_KERNEL = /backward|_bwd|bwd_|dgrad|wgrad|Backward|multi_tensor_apply|adam|sgd_/i;
function readings(profile) {
    const found = [];
    const timeline = profile.timeline;
    if (timeline && timeline.spanNs > 0) {
        const span = timeline.activeSpanNs ?? timeline.spanNs;
        if (span > 0)
            found.push({ percent: (100 * timeline.busyNs) / (span * Math.max(1, timeline.devices)), signal: 'timeline', steady: true });
    }
    if (profile.gpuTimeUtilPercent !== null)
        found.push({ percent: profile.gpuTimeUtilPercent, signal: 'gpu-time-util', steady: true });
    const util = profile.utilization;
    if (util && util.sampleCount > 0)
        found.push({ percent: util.meanPercent, signal: 'utilization', steady: util.window === 'timed' });
    return found;
}
function syncShare(profile) {
    const total = profile.apiCalls.reduce((sum, call) => sum + call.totalNs, 0);
    if (total <= 0)
        return undefined;
    const sync = profile.apiCalls.filter((call) => SYNC_CALL.test(call.name)).reduce((sum, call) => sum + call.totalNs, 0);
    return sync / total;
}
function adviceFor(profile) {
    const training = profile.kernels.some((k) => host_bound_TRAINING_KERNEL.test(k.name));
    const decode = familyTotals(profile, ['gemv', 'gemm-decode']).share >= 0.2 || profile.metrics.some((m) => m.name === 'decode_tok_s');
    const memcpy = profile.memops.filter((m) => m.kind.startsWith('memcpy')).reduce((sum, m) => sum + (m.totalNs ?? 0), 0);
    const copies = memcpy > profile.totalKernelNs && memcpy > 0 ? ' Host↔device copies take longer than the kernels here: see transfer-bound.' : '';
    const command = 'nsys profile --trace=cuda,osrt,nvtx --cuda-graph-trace=node --cpuctxsw=none -o host-gaps <workload>';
    if (training) {
        return {
            advice: `Find what the host does between steps: the input pipeline (DataLoader workers, pinned memory, prefetch), per-step synchronizations (.item(), logging, .cpu()), and optimizer steps launched kernel by kernel (fused/foreach optimizers, CUDA graphs for the step).${copies} To see the host gaps:`,
            command,
        };
    }
    if (decode) {
        return {
            advice: `Cut per-launch host cost before tuning kernels: replay decode steps as CUDA graphs (PyTorch: torch.compile(mode="reduce-overhead") or a static KV cache with CUDA graphs; MAX: keep device-graph capture on, i.e. no --no-device-graph-capture), raise the batch or concurrency, and remove per-step syncs (.item(), .cpu()).${copies} To see the host gaps:`,
            command,
        };
    }
    return {
        advice: `Find what the host does between launches: Python overhead per launch, synchronizations, data preparation, or work too small per launch to fill the GPU (batch more, fuse, or capture the loop as a CUDA graph).${copies} To see the host gaps:`,
        command,
    };
}
/* harmony default export */ const host_bound = (defineRule({
    meta: {
        id: 'host-bound',
        severity: 'warning',
        title: 'Host-bound: the GPU is mostly idle',
        stage: 'utilization',
        needs: [['timeline', 'utilization']],
        description: 'Over the steady window (the capture\'s own timeline, the profiler\'s GPU-in-use analysis, or samples inside the timed runs) the GPU is mostly idle, so the host side limits the run and kernel tuning will not help.',
        defaults: { maxMeanUtilPercent: 40, partialMeanUtilPercent: 70, maxBusyFraction: 0.5, maxGpuTimeUtilPercent: 40 },
    },
    check({ profile, options }) {
        const found = readings(profile);
        const steady = found.filter((r) => r.steady);
        const evidence = {};
        for (const reading of found) {
            if (reading.signal === 'timeline')
                evidence.busyFraction = round(reading.percent / 100);
            if (reading.signal === 'gpu-time-util')
                evidence.gpuTimeUtilPercent = round(reading.percent, 1);
            if (reading.signal === 'utilization')
                evidence.meanUtilPercent = round(reading.percent, 1);
        }
        const util = profile.utilization;
        if (util) {
            evidence.peakUtilPercent = round(util.peakPercent, 1);
            evidence.utilSamples = util.sampleCount;
            evidence.utilWindow = util.window;
        }
        const timeline = profile.timeline;
        if (timeline && timeline.spanNs > 0) {
            const span = timeline.activeSpanNs ?? timeline.spanNs;
            evidence.spanMs = round(span / 1e6, 3);
            evidence.launchesPerMs = round(timeline.kernelLaunches / Math.max(span / 1e6, 1e-9), 2);
            if (timeline.idleGaps.count > 0)
                evidence.longestGapMs = round(timeline.idleGaps.longestNs / 1e6, 3);
            const excluded = timeline.excludedGaps ?? [];
            if (excluded.length > 0) {
                evidence.excludedGaps = excluded.length;
                evidence.excludedGapMs = round(excluded.reduce((sum, g) => sum + g.durNs, 0) / 1e6, 3);
            }
        }
        // The GPU was busy in some window: a low reading elsewhere comes from start-up, compile or idle tails.
        if (found.some((r) => r.steady && r.percent >= BUSY_PERCENT))
            return [];
        const collectives = familyTotals(profile, ['collective']).share;
        if (collectives >= COLLECTIVE_SHARE)
            return [];
        const { advice, command } = adviceFor(profile);
        const threshold = (r) => r.signal === 'timeline' ? options.maxBusyFraction * 100 : r.signal === 'gpu-time-util' ? options.maxGpuTimeUtilPercent : options.maxMeanUtilPercent;
        if (steady.length > 0) {
            const low = steady.filter((r) => r.percent < threshold(r)).map((r) => r.signal);
            if (low.length > 0) {
                return [
                    {
                        message: `The GPU is idle most of the steady window (${low.join(', ')} below threshold): the host limits this run, so kernel findings are secondary.`,
                        evidence: { ...evidence, signals: low.join(',') },
                        advice,
                        command,
                    },
                ];
            }
            const partial = steady.find((r) => r.percent < options.partialMeanUtilPercent);
            if (!partial)
                return [];
            return [
                {
                    severity: 'info',
                    message: `The GPU is busy ${round(partial.percent, 1)}% of the steady window (${partial.signal}): partly host-bound (launch or sync overhead, or a small batch).`,
                    evidence: { ...evidence, signals: `${partial.signal}-moderate` },
                    advice,
                    command,
                },
            ];
        }
        // Only whole-process samples: start-up, model load and compile are in them. A hint at most,
        // and none from a snapshot (one sample of each of 8 GPUs is still one moment).
        const perDevice = util ? util.sampleCount / Math.max(1, util.devices) : 0;
        if (!util || perDevice < MIN_WHOLE_PROCESS_SAMPLES || util.meanPercent >= options.partialMeanUtilPercent)
            return [];
        const sync = syncShare(profile);
        if (sync !== undefined && sync >= SYNC_API_SHARE)
            return []; // the host spent its time waiting for the GPU
        const hit = {
            severity: 'info',
            message: `Utilization sampled over whole processes averages ${round(util.meanPercent, 1)}% (${util.sampleCount} samples, start-up included): that does not show the steady loop. Host-bound is not established.`,
            evidence: { ...evidence, signals: 'whole-process-utilization' },
            advice: `To decide, measure the steady window: have the workload print {"kind":"run","tok_s":…,"t_start":…,"t_end":…} per timed run (utilization is then read inside those windows), or profile a capture range around steady steps. ${advice}`,
            command,
        };
        return [hit];
    },
}));

;// CONCATENATED MODULE: ./src/diagnose/ncu-bound.ts


const UNIT_WORDS = { DRAM: 'DRAM', L2: 'L2', L1: 'L1/TEX', 'L1/TEX': 'L1/TEX' };
/** ncu's SOLBottleneck rule as a bound; undefined when it did not fire or speaks of the grid only. */
function ncuVerdict(result) {
    for (const rule of result.rules) {
        if (rule.name !== 'SOLBottleneck')
            continue;
        const text = rule.description.replace(/\s+/g, ' ').trim();
        const base = { rule: `SOLBottleneck (${rule.type})`, text };
        if (/low compute throughput and memory bandwidth utilization/i.test(text))
            return { ...base, bound: 'latency' };
        if (/Compute is more heavily utilized than Memory/i.test(text))
            return { ...base, bound: 'compute' };
        const unit = UNIT_WORDS[/(?:Start by analyzing|identify the) (DRAM|L2|L1\/TEX|L1)\b/i.exec(text)?.[1]?.toUpperCase() ?? ''];
        if (/Memory is more heavily utilized than Compute/i.test(text))
            return { ...base, bound: 'memory', ...(unit ? { unit } : {}) };
        if (/greater than [\d.]+% of the available compute or memory/i.test(text)) {
            if (/analyzing workloads in the Compute Workload Analysis/i.test(text))
                return { ...base, bound: 'compute' };
            if (unit)
                return { ...base, bound: 'memory', unit };
        }
    }
    return undefined;
}
const BOUND_DEFAULTS = { roofPercent: 60, leadPoints: 20 };
/** The bound the SpeedOfLight numbers show, with the memory side they read. */
function fromNumbers(result, o) {
    const compute = ncuValue(result, NCU.compute);
    const memory = memoryThroughput(result);
    const headline = ncuValue(result, NCU.memory) !== undefined;
    if (compute === undefined || !memory)
        return { ...(compute !== undefined ? { compute } : {}), ...(memory ? { memory } : {}), headline };
    const offChip = busiestMemory(result, ['DRAM', 'L2']);
    let bound;
    if (memory.percent >= o.roofPercent && compute <= memory.percent - o.leadPoints)
        bound = 'memory';
    // On-chip L1/shared traffic feeds the math units of a compute-bound kernel; the memory roofs are DRAM and L2.
    else if (offChip && compute >= o.roofPercent && offChip.percent <= compute - o.leadPoints && memory.percent < compute + o.leadPoints)
        bound = 'compute';
    else if (compute < o.roofPercent && memory.percent < o.roofPercent)
        bound = 'latency';
    return { ...(bound ? { bound } : {}), compute, memory, headline };
}
/** The launch's bound, ncu's verdict first; undefined when neither the verdict nor the numbers decide. */
function readBound(result, o = BOUND_DEFAULTS) {
    const numbers = fromNumbers(result, o);
    const verdict = ncuVerdict(result);
    const measured = (unit) => {
        const ref = unit && unit !== 'memory pipes' ? { DRAM: NCU.dram, L2: NCU.l2, 'L1/TEX': NCU.l1 }[unit] : undefined;
        const percent = ref ? ncuValue(result, ref) : undefined;
        if (unit && percent !== undefined)
            return { memoryUnit: unit, memoryPercent: percent };
        return numbers.memory && (!unit || unit === numbers.memory.unit) ? { memoryUnit: numbers.memory.unit, memoryPercent: numbers.memory.percent } : unit ? { memoryUnit: unit } : {};
    };
    const base = { ...(numbers.compute !== undefined ? { compute: numbers.compute } : {}) };
    if (!verdict)
        return numbers.bound ? { ...base, bound: numbers.bound, ...measured(), agreement: 'no ncu verdict' } : undefined;
    if (verdict.bound === numbers.bound)
        return { ...base, bound: verdict.bound, ...measured(verdict.unit), verdict, agreement: 'agrees' };
    const dram = ncuValue(result, NCU.dram);
    const l2 = ncuValue(result, NCU.l2);
    const compute = numbers.compute;
    if (numbers.bound === 'compute' && verdict.bound === 'memory' && verdict.unit === 'L1/TEX' && compute !== undefined) {
        const l1 = ncuValue(result, NCU.l1);
        const offChip = [dram !== undefined ? `DRAM ${percentText(dram)}` : '', l2 !== undefined ? `L2 ${percentText(l2)}` : ''].filter(Boolean).join(', ');
        return {
            ...base,
            bound: 'compute',
            ...measured(),
            verdict,
            agreement: 'overrules ncu',
            why: `ncu's SOLBottleneck points at L1/TEX${l1 !== undefined ? ` (${percentText(l1)})` : ''}: with SM throughput at ${percentText(compute)} that is the on-chip staging that feeds the math pipes, while the off-chip roofs are far (${offChip})`,
        };
    }
    // Complete numbers (SM and ncu's own Memory Throughput) read with this rule's thresholds are the
    // user's choice when they differ from ncu's fixed 60/80% bands; otherwise ncu's verdict stands.
    if (numbers.bound && numbers.headline && numbers.memory && compute !== undefined) {
        return {
            ...base,
            bound: numbers.bound,
            ...measured(),
            verdict,
            agreement: 'overrules ncu',
            why: `ncu's SOLBottleneck reads ${verdict.bound}${verdict.unit ? ` (${verdict.unit})` : ''} by its own bands; with a roof at ${o.roofPercent}% and a lead of ${o.leadPoints} points, SM ${percentText(compute)} and memory (${numbers.memory.unit}) ${percentText(numbers.memory.percent)} read ${numbers.bound}-bound`,
        };
    }
    const numbersSaid = numbers.memory && compute !== undefined
        ? `The SpeedOfLight numbers alone do not decide (SM ${percentText(compute)}, ${numbers.memory.unit} ${percentText(numbers.memory.percent)})`
        : 'The capture lacks the SpeedOfLight numbers to check it';
    const missing = !numbers.headline ? '; the capture has no Memory Throughput row, the figure ncu weighs every memory unit by' : '';
    return { ...base, bound: verdict.bound, ...measured(verdict.unit), verdict, agreement: 'from ncu verdict', why: `${numbersSaid}${missing}; ncu's own verdict is followed` };
}
/** The reading as finding evidence. */
function boundEvidence(reading) {
    return {
        ...(reading.memoryUnit ? { memoryUnit: reading.memoryUnit } : {}),
        ...(reading.memoryPercent !== undefined ? { memoryPercent: round(reading.memoryPercent, 2) } : {}),
        ...(reading.verdict ? { ncuBottleneck: reading.verdict.unit ? `${reading.verdict.bound} (${reading.verdict.unit})` : reading.verdict.bound } : {}),
        boundSource: reading.agreement,
        ...(reading.why ? { whyNotNcu: reading.why } : {}),
    };
}
/** Every throughput level the capture gives, as evidence: SM, ncu's Memory Throughput, DRAM, L2, L1/TEX. */
function levelEvidence(result) {
    const out = {};
    for (const [key, ref] of [['computePercent', NCU.compute], ['memoryThroughputPercent', NCU.memory], ['dramPercent', NCU.dram], ['l2Percent', NCU.l2], ['l1Percent', NCU.l1]]) {
        const value = ncuValue(result, ref);
        if (value !== undefined)
            out[key] = round(value, 2);
    }
    return out;
}

;// CONCATENATED MODULE: ./src/diagnose/ncu-roofline.ts


/** A `<prefix>byte/cycle` value in bytes per cycle (ncu prints the DRAM peak as `Kbyte/cycle`). */
function bytesPerCycle(result, label, raw) {
    const metric = result.metrics.find((m) => (m.section === ROOFLINE && m.name === label) || m.name === raw);
    const value = typeof metric?.value === 'number' && Number.isFinite(metric.value) ? metric.value : undefined;
    const prefix = /^([kmgt]?)byte\/cycle$/i.exec(metric?.unit ?? '')?.[1]?.toLowerCase();
    if (value === undefined || prefix === undefined)
        return undefined;
    return value * { '': 1, k: 1e3, m: 1e6, g: 1e9, t: 1e12 }[prefix];
}
/** Peak DRAM bytes/s: from the roofline section's peak, else implied by achieved bandwidth ÷ DRAM share. */
function dramPeakBytesPerSecond(result) {
    const perCycle = bytesPerCycle(result, 'Theoretical DRAM Bytes Accessible', 'dram__bytes.sum.peak_sustained');
    const clock = ncuValue(result, NCU.dramClock);
    if (perCycle !== undefined && clock !== undefined)
        return perCycle * clock;
    const achieved = dramBytesPerSecond(result);
    const percent = ncuValue(result, NCU.dram);
    return achieved !== undefined && percent !== undefined && percent >= 1 ? achieved / (percent / 100) : undefined;
}
const PRECISIONS = [
    ['h', 'fp16', 'H'],
    ['f', 'fp32', 'F'],
    ['d', 'fp64', 'D'],
];
/**
 * Where the kernel sits on the DRAM roofline, from the FP instruction counts ncu's roofline section
 * collects (add + mul + 2 × fma, predicated on). Tensor-core work is not in those counts, so a kernel
 * that keeps the tensor pipe busy gets no roofline rather than a misleadingly low one.
 */
function roofline(result) {
    if ((ncuValue(result, NCU.tensorPipe) ?? 0) >= 5)
        return undefined;
    const smClock = ncuValue(result, NCU.smClock);
    const smspClock = ncuValue(result, NCU.smspClock) ?? smClock;
    const duration = ncuValue(result, NCU.duration);
    let best;
    for (const [p, precision, P] of PRECISIONS) {
        const perCycle = (op, weight) => {
            const value = ncuValue(result, metricRef(ROOFLINE, `Predicated-On ${P}${op.toUpperCase()} Thread Instructions Executed Per Cycle`, [`smsp__sass_thread_inst_executed_op_${p}${op}_pred_on.sum.per_cycle_elapsed`]));
            return value === undefined ? undefined : value * weight;
        };
        const count = (op, weight) => {
            const value = ncuValue(result, metricRef('', '', [`sm__sass_thread_inst_executed_op_${p}${op}_pred_on.sum`, `smsp__sass_thread_inst_executed_op_${p}${op}_pred_on.sum`]));
            return value === undefined ? undefined : value * weight;
        };
        const sum = (values) => (values.some((v) => v !== undefined) ? values.reduce((a, v) => a + (v ?? 0), 0) : undefined);
        const rate = sum([perCycle('add', 1), perCycle('mul', 1), perCycle('fma', 2)]);
        const total = sum([count('add', 1), count('mul', 1), count('fma', 2)]);
        const flopsPerSecond = rate !== undefined && smspClock ? rate * smspClock : total !== undefined && duration ? total / (duration / 1e9) : undefined;
        const peakPerCycle = ncuValue(result, metricRef(ROOFLINE, `Theoretical Predicated-On ${P}FMA Thread Instructions Executed`, [`sm__sass_thread_inst_executed_op_${p}fma_pred_on.sum.peak_sustained`]));
        if (!flopsPerSecond || peakPerCycle === undefined || !smClock)
            continue;
        if (!best || flopsPerSecond > best.flopsPerSecond)
            best = { precision, flopsPerSecond, peakFlopsPerSecond: peakPerCycle * 2 * smClock };
    }
    const bandwidth = dramBytesPerSecond(result);
    const peakBandwidth = dramPeakBytesPerSecond(result);
    if (!best || !bandwidth || !peakBandwidth)
        return undefined;
    const arithmeticIntensity = best.flopsPerSecond / bandwidth;
    const ridgePoint = best.peakFlopsPerSecond / peakBandwidth;
    const roof = Math.min(best.peakFlopsPerSecond, arithmeticIntensity * peakBandwidth);
    return { ...best, arithmeticIntensity, ridgePoint, side: arithmeticIntensity < ridgePoint ? 'memory' : 'compute', shareOfRoof: best.flopsPerSecond / roof };
}
/** Roofline numbers as finding evidence (empty when the capture has no FP instruction counts). */
function rooflineEvidence(result) {
    const r = roofline(result);
    if (!r)
        return {};
    return {
        rooflinePrecision: r.precision,
        flopsPerSecond: Number(r.flopsPerSecond.toPrecision(4)),
        peakFlopsPerSecond: Number(r.peakFlopsPerSecond.toPrecision(4)),
        arithmeticIntensity: Number(r.arithmeticIntensity.toPrecision(4)),
        ridgePoint: Number(r.ridgePoint.toPrecision(4)),
        rooflineSide: r.side,
        shareOfRoof: round(r.shareOfRoof),
    };
}

;// CONCATENATED MODULE: ./src/diagnose/rules/kernel-compute-bound.ts
/**
 * A profiled kernel runs near the SM's compute roof while DRAM and L2 are far below theirs. ncu's
 * SOLBottleneck verdict comes first (ncu-bound.ts). What "compute" means depends on the kernel: for a
 * GEMM it is math, for a copy it is the index arithmetic of a strided access (ncu-advice.ts).
 */






function offChipEvidence(result) {
    const offChip = busiestMemory(result, ['DRAM', 'L2']);
    return offChip ? { memoryUnit: offChip.unit, memoryPercent: Math.round(offChip.percent * 100) / 100 } : {};
}
/* harmony default export */ const kernel_compute_bound = (defineRule({
    meta: {
        id: 'kernel-compute-bound',
        severity: 'info',
        title: 'Kernel is compute-bound',
        stage: 'deep-dive',
        needs: ['kernel-metrics'],
        description: 'Nsight Compute shows the kernel near the SM compute roof while DRAM and L2 throughput are far from theirs (ncu\'s SOLBottleneck verdict first); the advice depends on the kernel\'s family.',
        defaults: { minComputePercent: 60, minLeadPoints: 20, workload: '<workload command>' },
    },
    check({ profile, options }) {
        const hits = [];
        for (const dive of deepDiveKernels(profile.ncu, profile.kernels)) {
            const { kernel, result, launches } = dive;
            const kind = kernelKind(dive.family, kernel);
            if (kind === 'collective')
                continue;
            const reading = readBound(result, { roofPercent: options.minComputePercent, leadPoints: options.minLeadPoints });
            if (reading?.bound !== 'compute')
                continue;
            const levels = levelEvidence(result);
            const offChip = [['DRAM', levels['dramPercent']], ['L2', levels['l2Percent']]].filter((e) => e[1] !== undefined);
            const memoryText = offChip.length ? `, ${offChip.map(([u, p]) => `${u} at ${percentText(p)}`).join(' and ')}` : '';
            const smText = reading.compute !== undefined ? `SM throughput at ${percentText(reading.compute)} of peak` : 'Nsight Compute names compute as the limit';
            hits.push({
                message: `${displayKernel(kernel)}${shareText(dive)} is ${kind === 'copy' ? 'issue-bound (compute side)' : 'compute-bound'}: ${smText}${memoryText}.${reading.why ? ` ${reading.why}.` : ''}`,
                evidence: {
                    ...levels,
                    ...boundEvidence(reading),
                    // The memory side of a compute-bound kernel is off-chip: L1/shared traffic feeds its math.
                    ...offChipEvidence(result),
                    kernelKind: kind,
                    ...breakdownEvidence(dive),
                    ...durationEvidence(result),
                    launches,
                    ...rooflineEvidence(result),
                    ...ncuSays(result, ['SOLBottleneck', 'SOLFPRoofline', 'HighPipeUtilization']),
                },
                advice: `${boundAdvice('compute', kind, reading.memoryUnit, dive.family)} Run the command below to see which pipeline and which instructions are the limit.`,
                ...askDeepDive(followUp(dive, ['SpeedOfLight', 'ComputeWorkloadAnalysis', 'InstructionStats', 'SpeedOfLight_RooflineChart']), options.workload),
                kernel,
            });
        }
        return hits;
    },
}));

;// CONCATENATED MODULE: ./src/diagnose/rules/kernel-latency-bound.ts
/**
 * A profiled kernel is far from every roof: compute and ncu's memory throughput both well below peak
 * (ncu's SOLBottleneck verdict first, ncu-bound.ts). Its time goes to waiting (memory latency,
 * dependencies, too few warps or blocks), not to throughput.
 */







/** Below this achieved occupancy the advice points at the occupancy limiter (as low-occupancy does by default). */
const FEW_WARPS_PERCENT = 25;
/* harmony default export */ const kernel_latency_bound = (defineRule({
    meta: {
        id: 'kernel-latency-bound',
        severity: 'warning',
        title: 'Kernel is latency-bound',
        stage: 'deep-dive',
        needs: ['kernel-metrics'],
        description: 'Nsight Compute shows both compute and memory throughput far below peak (ncu\'s SOLBottleneck verdict first), so the kernel spends its time waiting; occupancy, grid size and warp stalls say on what.',
        defaults: { maxPercent: 60, workload: '<workload command>' },
    },
    check({ profile, options }) {
        const hits = [];
        for (const dive of deepDiveKernels(profile.ncu, profile.kernels)) {
            const { kernel, result, launches } = dive;
            const kind = kernelKind(dive.family, kernel);
            if (kind === 'collective')
                continue;
            const reading = readBound(result, { roofPercent: options.maxPercent, leadPoints: 20 });
            if (reading?.bound !== 'latency')
                continue;
            const compute = reading.compute;
            const achieved = ncuValue(result, NCU.achievedOccupancy);
            const theoretical = ncuValue(result, NCU.theoreticalOccupancy);
            const waves = wavesPerSm(result);
            const stall = topStall(result);
            const warpCycles = ncuValue(result, NCU.warpCycles);
            const eligible = ncuValue(result, NCU.eligibleWarps);
            const grid = gridBlocks(result);
            const sms = ncuValue(result, NCU.smCount);
            const causes = [];
            if (waves && waves.waves < 1)
                causes.push(`the grid fills ${round(waves.waves, 2)} waves, leaving SMs idle (see grid-too-small)`);
            if (achieved !== undefined && achieved < FEW_WARPS_PERCENT)
                causes.push(`only ${percentText(achieved)} of warp slots are occupied, too few to hide latency (see low-occupancy)`);
            if (stall?.reason === 'long_scoreboard')
                causes.push('warps mostly wait on global-memory loads: keep more loads in flight (wider vectorized loads, more independent work per thread, asynchronous copies)');
            else if (stall)
                causes.push(`the top warp stall is ${stall.reason.replace(/_/g, ' ')}`);
            const memoryText = reading.memoryPercent !== undefined ? ` and memory (${reading.memoryUnit}) at ${percentText(reading.memoryPercent)}` : '';
            // A level near its roof that ncu's Memory Throughput headline leaves out is worth saying (a clamp's L2 at 82%).
            const levels = levelEvidence(result);
            const busyLevels = [['L2', levels['l2Percent']], ['L1/TEX', levels['l1Percent']]].filter(([, p]) => p !== undefined && p >= options.maxPercent).map(([u, p]) => `${u} at ${percentText(p)}`);
            const busyText = busyLevels.length ? `; ${busyLevels.join(' and ')} is near its own roof, so the memory system is partly busy` : '';
            const family = boundAdvice('latency', kind, reading.memoryUnit, dive.family);
            hits.push({
                message: `${displayKernel(kernel)}${shareText(dive)} is latency-bound: ${compute !== undefined ? `compute (SM) at ${percentText(compute)}${memoryText} of peak, both below ${options.maxPercent}%${busyText}` : 'Nsight Compute finds compute and memory both far from their peaks'}.${reading.why ? ` ${reading.why}.` : ''}`,
                evidence: {
                    ...levels,
                    ...boundEvidence(reading),
                    kernelKind: kind,
                    ...(achieved !== undefined ? { achievedOccupancyPercent: round(achieved, 2) } : {}),
                    ...(theoretical !== undefined ? { theoreticalOccupancyPercent: round(theoretical, 2) } : {}),
                    ...(waves ? { wavesPerSm: round(waves.waves, 3) } : {}),
                    ...(grid !== undefined ? { gridBlocks: grid } : {}),
                    ...(sms !== undefined ? { smCount: sms } : {}),
                    ...(warpCycles !== undefined ? { warpCyclesPerIssuedInstruction: round(warpCycles, 2) } : {}),
                    ...(stall ? { topStall: stall.reason, topStallCycles: round(stall.cycles, 2) } : {}),
                    ...(eligible !== undefined ? { eligibleWarpsPerScheduler: round(eligible, 3) } : {}),
                    ...breakdownEvidence(dive),
                    ...durationEvidence(result),
                    launches,
                    ...rooflineEvidence(result),
                    ...ncuSays(result, ['SOLBottleneck', 'CPIStall', 'IssueSlotUtilization']),
                },
                advice: `${causes.length ? `${causes.map((c) => c[0].toUpperCase() + c.slice(1)).join('. ')}. ` : ''}${family ? `${family} ` : ''}Run the command below for the warp stall reasons, the scheduler and the occupancy limits of this launch.`,
                ...askDeepDive(followUp(dive, ['SpeedOfLight', 'Occupancy', 'LaunchStats', 'WarpStateStats', 'SchedulerStats']), options.workload),
                kernel,
            });
        }
        return hits;
    },
}));

;// CONCATENATED MODULE: ./src/diagnose/rules/kernel-memory-bound.ts
/**
 * A profiled kernel runs near a memory roof (DRAM, L2 or L1/TEX) while its compute is far below it:
 * it is as fast as the bytes it moves allow. ncu's SOLBottleneck verdict comes first (ncu-bound.ts);
 * the advice depends on what the kernel is (ncu-advice.ts).
 */






/* harmony default export */ const kernel_memory_bound = (defineRule({
    meta: {
        id: 'kernel-memory-bound',
        severity: 'info',
        title: 'Kernel is memory-bound',
        stage: 'deep-dive',
        needs: ['kernel-metrics'],
        description: 'Nsight Compute shows the kernel near a memory throughput roof while compute throughput is far from its own (ncu\'s SOLBottleneck verdict first); speed comes from moving fewer bytes.',
        defaults: { minMemoryPercent: 60, minLeadPoints: 20, workload: '<workload command>' },
    },
    check({ profile, options }) {
        const hits = [];
        for (const dive of deepDiveKernels(profile.ncu, profile.kernels)) {
            const { kernel, result, launches } = dive;
            const kind = kernelKind(dive.family, kernel);
            // A collective waits on its peers: one GPU's counters do not say why it is slow.
            if (kind === 'collective')
                continue;
            const reading = readBound(result, { roofPercent: options.minMemoryPercent, leadPoints: options.minLeadPoints });
            if (reading?.bound !== 'memory')
                continue;
            const rate = dramBytesPerSecond(result);
            const peak = dramPeakBytesPerSecond(result);
            const levels = levelEvidence(result);
            const unit = reading.memoryUnit ?? 'DRAM';
            const bandwidth = rate !== undefined ? `; DRAM moves ${rateText(rate)}${peak !== undefined ? ` of its ${rateText(peak)} peak` : ''}` : '';
            const where = reading.memoryPercent !== undefined ? `${unit} throughput at ${percentText(reading.memoryPercent)} of peak` : `Nsight Compute names ${unit} as the limit`;
            const dram = levels['dramPercent'];
            hits.push({
                message: `${displayKernel(kernel)}${shareText(dive)} is memory-bound: ${where}${dram !== undefined && unit !== 'DRAM' ? ` (DRAM ${percentText(dram)})` : ''}${bandwidth}${reading.compute !== undefined ? `, compute (SM) at ${percentText(reading.compute)}` : ''}.${reading.why ? ` ${reading.why}.` : ''}`,
                evidence: {
                    ...levels,
                    ...boundEvidence(reading),
                    kernelKind: kind,
                    ...(rate !== undefined ? { dramBytesPerSecond: Number(rate.toPrecision(4)) } : {}),
                    ...(peak !== undefined ? { dramPeakBytesPerSecond: Number(peak.toPrecision(4)) } : {}),
                    ...(rate !== undefined && peak !== undefined ? { dramShareOfPeak: Math.round((rate / peak) * 1e4) / 1e4 } : {}),
                    ...breakdownEvidence(dive),
                    ...durationEvidence(result),
                    launches,
                    ...rooflineEvidence(result),
                    ...ncuSays(result, ['SOLBottleneck', 'SOLFPRoofline']),
                },
                advice: `${boundAdvice('memory', kind, unit, dive.family)} Run the command below to see which accesses carry the bytes.`,
                ...askDeepDive(followUp(dive, ['SpeedOfLight', 'MemoryWorkloadAnalysis', 'MemoryWorkloadAnalysis_Tables', 'SpeedOfLight_RooflineChart']), options.workload),
                kernel,
            });
        }
        return hits;
    },
}));

;// CONCATENATED MODULE: ./src/diagnose/rules/low-occupancy.ts
/**
 * A profiled kernel away from every roof keeps few warps resident: too few to hide memory and
 * instruction latency. The Occupancy section's block limits name what caps it.
 */





const LIMITS = [
    [NCU.limitRegisters, 'blockLimitRegisters', 'registers'],
    [NCU.limitSharedMem, 'blockLimitSharedMem', 'shared memory'],
    [NCU.limitWarps, 'blockLimitWarps', 'warps per block (block size)'],
    [NCU.limitBlocks, 'blockLimitSm', 'blocks per SM (block too small)'],
];
const BELOW_THEORY = 'achieved below theoretical (load imbalance, a partial last wave, or a grid smaller than the GPU)';
/* harmony default export */ const low_occupancy = (defineRule({
    meta: {
        id: 'low-occupancy',
        severity: 'info',
        title: 'Kernel runs at low occupancy',
        stage: 'deep-dive',
        needs: ['kernel-metrics'],
        description: 'A kernel far from every throughput roof keeps few warps resident (achieved occupancy low, or far below theoretical); the Occupancy block limits name the limiter.',
        defaults: { minAchievedPercent: 25, minAchievedShareOfTheoretical: 0.5, maxThroughputPercent: 60, workload: '<workload command>' },
    },
    check({ profile, options }) {
        const hits = [];
        for (const dive of deepDiveKernels(profile.ncu, profile.kernels)) {
            const { kernel, result, launches } = dive;
            const kind = kernelKind(dive.family, kernel);
            // A collective waits on its peers: one GPU's counters do not say why it is slow.
            if (kind === 'collective')
                continue;
            const achieved = ncuValue(result, NCU.achievedOccupancy);
            const theoretical = ncuValue(result, NCU.theoreticalOccupancy);
            if (achieved === undefined)
                continue;
            // At a throughput roof more warps would not help: big-tile GEMMs run at one block per SM by design.
            if (roofPercent(result) >= options.maxThroughputPercent)
                continue;
            const share = theoretical ? achieved / theoretical : undefined;
            const fewWarps = achieved < options.minAchievedPercent;
            const belowTheory = share !== undefined && share < options.minAchievedShareOfTheoretical;
            if (!fewWarps && !belowTheory)
                continue;
            const limits = LIMITS.map(([metric, key, name]) => ({ key, name, blocks: ncuValue(result, metric) })).flatMap((l) => (l.blocks === undefined ? [] : [{ ...l, blocks: l.blocks }]));
            const fewest = limits.length ? Math.min(...limits.map((l) => l.blocks)) : undefined;
            // Resources are the cap when even the theoretical occupancy is low; the fewest resident blocks name them.
            const capped = fewWarps && (theoretical === undefined || theoretical < options.minAchievedPercent);
            const resourceLimit = capped ? limits.filter((l) => l.blocks === fewest).map((l) => l.name) : [];
            const limiter = [resourceLimit.join(' and '), belowTheory || (fewWarps && !capped) ? BELOW_THEORY : ''].filter(Boolean).join('; ') || 'not captured (no Occupancy block limits)';
            const registers = ncuValue(result, NCU.registers);
            hits.push({
                message: `${displayKernel(kernel)}${shareText(dive)} runs at ${percentText(achieved)} achieved occupancy${theoretical !== undefined ? ` (theoretical ${percentText(theoretical)})` : ''}; limited by ${limiter}.`,
                evidence: {
                    achievedOccupancyPercent: round(achieved, 2),
                    ...(theoretical !== undefined ? { theoreticalOccupancyPercent: round(theoretical, 2) } : {}),
                    ...(share !== undefined ? { achievedShareOfTheoretical: round(share) } : {}),
                    limiter,
                    ...(fewest !== undefined ? { blocksPerSm: fewest } : {}),
                    ...Object.fromEntries(limits.map((l) => [l.key, l.blocks])),
                    ...(registers !== undefined ? { registersPerThread: registers } : {}),
                    ...breakdownEvidence(dive),
                    ...durationEvidence(result),
                    launches,
                    ...ncuSays(result, ['TheoreticalOccupancy', 'AchievedOccupancy']),
                },
                advice: resourceLimit.includes('registers')
                    ? 'Registers cap the resident blocks: cap them (__launch_bounds__, -maxrregcount) or pick a kernel variant with smaller tiles, and check that spills stay at zero. Run the command below for the occupancy limits of this launch.'
                    : resourceLimit.includes('shared memory')
                        ? 'Shared memory per block caps the resident blocks: smaller tiles or fewer pipeline stages free it. Run the command below for the occupancy limits of this launch.'
                        : resourceLimit.length
                            ? 'The block size caps the resident warps: change the threads per block. Run the command below for the occupancy limits of this launch.'
                            : 'Resources would allow more warps than run: look for imbalance between blocks, a partial last wave or a grid too small for the GPU. Run the command below for the occupancy limits of this launch.',
                ...askDeepDive(followUp(dive, ['Occupancy', 'LaunchStats', 'WarpStateStats']), options.workload),
                kernel,
            });
        }
        return hits;
    },
}));

;// CONCATENATED MODULE: ./src/diagnose/rules/moe-routing-heavy.ts
/** MoE routing and token gather/scatter rival the expert matmuls they serve. */


/* harmony default export */ const moe_routing_heavy = (defineRule({
    meta: {
        id: 'moe-routing-heavy',
        severity: 'warning',
        title: 'MoE routing and gathers rival the expert matmuls',
        stage: 'kernels',
        needs: ['kernel-breakdown'],
        description: 'Top-k routing plus gather/scatter/index kernels take at least the configured fraction of the matmul time.',
        defaults: { minMoeShare: 0.01, minRoutingPerSamplingLaunch: 4, maxRoutingRatio: 0.5, workload: '<workload command>' },
    },
    check({ profile, options }) {
        const mix = moeMix(profile, options);
        if (!mix.isMoe || mix.routingRatio < options.maxRoutingRatio)
            return [];
        const heaviest = profile.kernels.find((k) => k.family === 'moe-routing' || k.family === 'gather-scatter');
        return [
            {
                message: `Routing and gather/scatter take ${percent(mix.routingRatio)} of the matmul time (routing ${percent(mix.routingShare)}, gather/scatter ${percent(mix.gatherShare)} of all kernel time).`,
                evidence: {
                    routingRatio: round(mix.routingRatio),
                    routingShare: round(mix.routingShare),
                    gatherShare: round(mix.gatherShare),
                    moeGemmShare: round(mix.moeGemmShare),
                    routingLaunches: mix.routingLaunches,
                },
                advice: 'Dispatch tokens to experts once per layer instead of gathering per expert: a fused MoE path (MAX grouped_matmul with moe_create_indices, vLLM/SGLang fused_moe, torch._grouped_mm) sorts tokens by expert and runs one grouped matmul. Then profile the heaviest routing kernel:',
                ...(heaviest ? { command: ncuCommand(heaviest.name, steadyLaunchSkip(heaviest.instances), options.workload), kernel: heaviest.name } : {}),
            },
        ];
    },
}));

;// CONCATENATED MODULE: ./src/diagnose/rules/quant-prep-heavy.ts
/**
 * Low-bit runs quantize activations and lay out scales before their matmuls. That is normal while
 * it stays small; when the prep kernels take as long as the matmuls they feed, the low-bit path
 * loses its point.
 */



/* harmony default export */ const quant_prep_heavy = (defineRule({
    meta: {
        id: 'quant-prep-heavy',
        severity: 'warning',
        title: 'Quantize / scale kernels dwarf the matmuls they feed',
        stage: 'kernels',
        needs: ['kernel-breakdown'],
        description: 'Quantization and scale-layout kernels are reported; they are a problem when their time reaches the configured fraction of the low-bit matmul time.',
        defaults: { minQuantizeShare: 0.005, maxQuantizeToMatmulRatio: 1, workload: '<workload command>' },
    },
    check({ profile, options }) {
        const quantize = familyTotals(profile, ['quantize']);
        if (quantize.share < options.minQuantizeShare)
            return [];
        const lowbit = familyTotals(profile, ['lowbit-gemm']);
        // Without named low-bit matmuls (e.g. fp8 cuBLAS kernels with plain names), compare with all linear work.
        const fed = lowbit.ns > 0 ? lowbit : familyTotals(profile, LINEAR_FAMILIES);
        const ratio = fed.ns > 0 ? quantize.ns / fed.ns : Number.POSITIVE_INFINITY;
        const heavy = ratio >= options.maxQuantizeToMatmulRatio;
        const top = profile.kernels.find((k) => k.family === 'quantize');
        const evidence = {
            quantizeShare: round(quantize.share),
            matmulShare: round(fed.share),
            quantizeToMatmulRatio: Number.isFinite(ratio) ? round(ratio) : -1,
            matmulFamily: lowbit.ns > 0 ? 'lowbit-gemm' : 'linear',
            quantizeLaunches: quantize.instances,
        };
        if (lowbit.ns === 0 && heavy) {
            // No low-bit matmul in the capture: nothing shows what these kernels feed (fbgemm's
            // _float_to_hfp8 compresses embeddings for an all-to-all, not activations for a GEMM).
            return [
                {
                    severity: 'info',
                    message: `Quantize/scale kernels take ${percent(quantize.share)} of kernel time, but the capture holds no low-bit matmul for them to feed: they may serve communication or storage rather than the linear layers.`,
                    evidence,
                    advice: 'If this run should use low-bit matmuls, check that their kernels ran (fp8/fp4 GEMMs are named e4m3, qq, block_scaled …); otherwise these kernels are not linear-layer prep.',
                },
            ];
        }
        if (!heavy) {
            return [
                {
                    severity: 'info',
                    message: `Low-bit prep: quantize/scale kernels take ${percent(quantize.share)} of kernel time, ${percent(ratio)} of the matmuls they feed (normal).`,
                    evidence,
                    advice: 'Normal for fp8/fp4 paths. Watch the ratio across changes; a jump means a fused quantize path stopped being used.',
                },
            ];
        }
        return [
            {
                message: `Quantize/scale kernels take ${percent(quantize.share)} of kernel time, ${Number.isFinite(ratio) ? `${round(ratio, 2)}x` : 'more than'} the matmul time they feed.`,
                evidence,
                advice: 'Fuse activation quantization into the kernel that produces the activation (norm + quant, e.g. rms_norm_fused_fp8 / fused_rope_rmsnorm_quantization in MAX, fused_add_rms_norm with static fp8 scales in vLLM), quantize weights offline rather than per call, and prefer static activation scales. Then profile the heaviest prep kernel:',
                command: ncuCommand(top.name, steadyLaunchSkip(top.instances), options.workload),
                kernel: top.name,
            },
        ];
    },
}));

;// CONCATENATED MODULE: ./src/diagnose/rules/rank-imbalance.ts



const labelOf = (rank) => (rank.rank !== undefined ? `rank ${rank.rank}` : `device ${rank.device ?? 0}`);
const medianStepNs = (rank) => {
    const steps = rank.timeline?.steps ?? [];
    return steps.length ? median(steps.map((s) => s.durNs)) : undefined;
};
/** The family the slow rank spends most extra time on, against the others' median. */
function extraFamily(slow, others) {
    let best = { family: 'other', extraNs: -Infinity };
    for (const entry of slow.families) {
        if (entry.family === 'collective')
            continue;
        const peer = median(others.map((r) => r.families.find((f) => f.family === entry.family)?.totalNs ?? 0));
        if (entry.totalNs - peer > best.extraNs)
            best = { family: entry.family, extraNs: entry.totalNs - peer };
    }
    return best;
}
/* harmony default export */ const rank_imbalance = (defineRule({
    meta: {
        id: 'rank-imbalance',
        severity: 'warning',
        title: 'Rank imbalance: one rank is a straggler',
        stage: 'utilization',
        needs: ['kernel-breakdown'],
        description: "One rank's compute kernel time (or median step) is well above the other ranks' median, so every collective waits for it.",
        defaults: { maxExcess: 0.1 },
    },
    check({ profile, options }) {
        const straggler = stragglerOf(profile);
        if (!straggler)
            return [];
        const { slow, others, computeExcess, peerComputeNs: peerCompute, slowComputeNs, perStep } = straggler;
        const slowStep = medianStepNs(slow);
        const peerSteps = others.map(medianStepNs);
        const stepExcess = slowStep && peerSteps.every((s) => s !== undefined && s > 0) ? slowStep / median(peerSteps) - 1 : undefined;
        const excess = Math.max(computeExcess, stepExcess ?? -Infinity);
        if (excess < options.maxExcess)
            return [];
        const extra = extraFamily(slow, others);
        return [
            {
                message: `Straggler: ${labelOf(slow)} computes ${percent(computeExcess)} longer than the median of the other ${others.length} rank${others.length > 1 ? 's' : ''}${stepExcess !== undefined ? ` (median step ${percent(stepExcess)} longer)` : ''}; most of the extra is ${extra.family} (+${round(extra.extraNs / 1e6, 1)} ms). The other ranks wait for it at every collective.`,
                evidence: {
                    slowRank: slow.rank ?? slow.device ?? 0,
                    computeExcess: round(computeExcess),
                    ...(stepExcess !== undefined ? { stepExcess: round(stepExcess) } : {}),
                    slowComputeMs: round(slowComputeNs / 1e6, 3),
                    peerComputeMs: round(peerCompute / 1e6, 3),
                    extraFamily: extra.family,
                    extraMs: round(extra.extraNs / 1e6, 3),
                    ranks: others.length + 1,
                    perStep,
                },
                advice: `Find why ${labelOf(slow)} does more: uneven data or sequence lengths per rank (balance the sampler or pad/bucket by length), an uneven split of layers or experts, a slower or throttled GPU (compare clocks and temperature per GPU), or another process on that GPU or its CPU cores. Compare the ranks' kernel lists side by side.`,
                command: 'nvidia-smi --query-gpu=index,clocks.sm,temperature.gpu,power.draw,clocks_event_reasons.active --format=csv -l 1',
            },
        ];
    },
}));

;// CONCATENATED MODULE: ./src/diagnose/rules/re-prefill.ts
/**
 * Decode redoes the prompt every step: a missing or unused KV cache turns generation into O(n²).
 * Two things must both hold: a prefill-shaped linear mix that repeats every step, and decode that
 * costs what a prompt costs (each output token about as slow as the first one, or GPU work per step
 * growing with position). The mix alone is at most a warning that says what would confirm it.
 * Shapes come from evidence (the family table uses recorded shapes where the capture has them);
 * a GEMM tile named in a kernel is a weak hint only: cuBLASLt runs an FP8 GEMM of 16 rows on a
 * 128×128 tile.
 */





/** A decode token costing at least this fraction of the time to first token is prefill-priced. */
const TPOT_OF_TTFT = 0.5;
/** Below this fraction decode is clearly priced like decode: the throughput contradicts re-prefill. */
const TPOT_OF_TTFT_DECODE = 0.2;
/** GPU work late in the run over GPU work early in it (first step or decile skipped: it holds the prompt). */
function stepGrowth(profile) {
    const steps = profile.timeline?.steps ?? [];
    if (steps.length >= 5) {
        const busy = steps.slice(1).map((s) => s.gpuBusyNs);
        const quarter = Math.max(1, Math.floor(busy.length / 4));
        const early = median(busy.slice(0, quarter));
        return early > 0 ? median(busy.slice(-quarter)) / early : undefined;
    }
    const deciles = profile.timeline?.busyByDecile ?? [];
    if (deciles.length === 10) {
        const early = mean(deciles.slice(1, 4));
        return early > 0 ? mean(deciles.slice(7)) / early : undefined;
    }
    return undefined;
}
/** Prefill-shaped linear time: from the family table (shape evidence), and from tile names (a hint). */
function prefillMix(profile) {
    const strong = familyTotals(profile, ['gemm-prefill']);
    let hintNs = 0;
    let hintInstances = 0;
    for (const kernel of profile.kernels) {
        if (kernel.family === 'gemm' && tileHint(kernel.name) === 'wide') {
            hintNs += kernel.totalNs;
            hintInstances += kernel.instances;
        }
    }
    return { ns: strong.ns + hintNs, instances: strong.instances + hintInstances, hintNs };
}
/* harmony default export */ const re_prefill = (defineRule({
    meta: {
        id: 're-prefill',
        severity: 'error',
        title: 'Decode re-runs prefill every step (KV cache missing)',
        stage: 'kernels',
        needs: ['kernel-breakdown'],
        description: 'Prefill-shaped GEMMs dominate and run every step while tokens are generated, and decode costs what a prompt costs: the KV cache is missing or unused, so each step recomputes the whole sequence.',
        defaults: { minPrefillShare: 0.5, minPrefillLaunchShare: 0.3, minStepGrowth: 1.5 },
    },
    check({ profile, options }) {
        const linear = familyTotals(profile, LINEAR_FAMILIES);
        const prefill = prefillMix(profile);
        const decode = familyTotals(profile, ['gemv', 'gemm-decode']);
        if (linear.ns === 0 || prefill.instances === 0)
            return [];
        const prefillShare = prefill.ns / linear.ns;
        const launchShare = prefill.instances / (prefill.instances + decode.instances);
        if (prefillShare < options.minPrefillShare || launchShare < options.minPrefillLaunchShare)
            return [];
        const outputTokens = metricValue(profile, 'output_tokens');
        if (outputTokens !== undefined && outputTokens <= 1)
            return []; // a prefill-only workload
        const growth = stepGrowth(profile);
        const grows = growth !== undefined && growth >= options.minStepGrowth;
        const batch = batchSize(profile);
        // A batched decode legitimately runs multi-row GEMMs every step; then only growth can tell.
        if (batch !== undefined && batch > 1 && !grows)
            return [];
        const ttft = metricValue(profile, 'ttft_ms');
        const tpot = metricValue(profile, 'tpot_ms');
        const tokenPricedLikePrompt = ttft !== undefined && tpot !== undefined && ttft > 0 && tpot / ttft >= TPOT_OF_TTFT;
        if (ttft !== undefined && tpot !== undefined && ttft > 0 && tpot / ttft < TPOT_OF_TTFT_DECODE && !grows)
            return [];
        const fromHintsOnly = prefill.hintNs / prefill.ns > 0.5;
        const confirmed = (tokenPricedLikePrompt || grows) && (!fromHintsOnly || grows);
        const decodeTokS = metricValue(profile, 'decode_tok_s');
        const evidence = {
            prefillShare: round(prefillShare),
            prefillLaunchShare: round(launchShare),
            prefillLaunches: prefill.instances,
            decodeLaunches: decode.instances,
            shapeFrom: fromHintsOnly ? 'tile-names' : 'shapes',
            confirmed,
            ...(growth !== undefined ? { stepGrowth: round(growth, 3) } : {}),
            ...(ttft !== undefined && tpot !== undefined && ttft > 0 ? { tpotOverTtft: round(tpot / ttft, 3) } : {}),
            ...(outputTokens !== undefined ? { outputTokens } : {}),
            ...(decodeTokS !== undefined ? { decodeTokS } : {}),
        };
        const fix = 'Make decode read the KV cache and feed only the new token: transformers: do not pass use_cache=False (and return past_key_values from a custom forward); MAX custom architecture: wire the KV-cache inputs into attention and let decode steps take one token per sequence.';
        if (!confirmed) {
            return [
                {
                    severity: 'warning',
                    message: `Prefill-shaped GEMMs are ${percent(prefillShare)} of linear-layer time and ${percent(launchShare)} of GEMM launches${fromHintsOnly ? ' (shapes read from tile names, a weak hint)' : ''}: decode may be recomputing the sequence each step. Throughput does not confirm it.`,
                    evidence,
                    advice: `To confirm, time two generation lengths: with a working KV cache per-token time stays flat as max-new-tokens grows, and time per output token stays far below time to first token (report ttft_ms and tpot_ms, or capture per-step ranges). If it is re-prefill: ${fix}`,
                },
            ];
        }
        return [
            {
                message: `Prefill-shaped GEMMs are ${percent(prefillShare)} of linear-layer time and ${percent(launchShare)} of GEMM launches, and ${grows ? `GPU work per step grows ${round(growth, 2)}× over the run` : `each output token takes ${round((tpot / ttft) * 100, 1)}% of the time to first token`}: each decode step recomputes the sequence (O(n²)).`,
                evidence,
                advice: `${fix} Confirm the fix by timing two generation lengths: per-token time must stay flat as max-new-tokens grows.`,
            },
        ];
    },
}));

;// CONCATENATED MODULE: ./src/diagnose/rules/transfer-bound.ts
/**
 * Host↔device copies that take as long as the kernels: the GPU spends its time moving data over
 * PCIe rather than computing. Often set-up (weights, a dataset copied in) captured with the run,
 * or pageable memory and per-step copies in the loop.
 */


const HOST_COPY_KINDS = ['memcpy-htod', 'memcpy-dtoh'];
/** Kineto names copies from unpinned memory `(Pageable -> Device)` / `(Device -> Pageable)`. */
const PAGEABLE = /pageable/i;
/* harmony default export */ const transfer_bound = (defineRule({
    meta: {
        id: 'transfer-bound',
        severity: 'warning',
        title: 'Transfer-bound: host↔device copies rival the kernels',
        stage: 'utilization',
        needs: ['kernel-breakdown'],
        description: 'Host-to-device and device-to-host copies take at least the configured multiple of the kernel time; a smaller but notable share is info.',
        defaults: { maxCopyToKernelRatio: 1, minCopyToKernelRatio: 0.25, minCopyMs: 1, minExposedCopyShare: 0.25 },
    },
    check({ profile, options }) {
        const copies = profile.memops.filter((m) => HOST_COPY_KINDS.includes(m.kind) && (m.totalNs ?? 0) > 0);
        const copyNs = copies.reduce((sum, m) => sum + (m.totalNs ?? 0), 0);
        if (copyNs < options.minCopyMs * 1e6)
            return [];
        const kernelNs = profile.totalKernelNs;
        const ratio = kernelNs > 0 ? copyNs / kernelNs : Number.POSITIVE_INFINITY;
        if (ratio < options.minCopyToKernelRatio)
            return [];
        const htodNs = copies.filter((m) => m.kind === 'memcpy-htod').reduce((sum, m) => sum + (m.totalNs ?? 0), 0);
        const pageableNs = copies.filter((m) => PAGEABLE.test(m.name)).reduce((sum, m) => sum + (m.totalNs ?? 0), 0);
        const count = copies.reduce((sum, m) => sum + m.count, 0);
        const bytes = copies.every((m) => m.bytes !== undefined) ? copies.reduce((sum, m) => sum + m.bytes, 0) : undefined;
        const timeline = profile.timeline;
        const setUp = timeline?.excludedGaps.some((g) => g.reason === 'set-up') ?? false;
        const evidence = {
            copyMs: round(copyNs / 1e6, 3),
            kernelMs: round(kernelNs / 1e6, 3),
            copyToKernelRatio: Number.isFinite(ratio) ? round(ratio, 3) : -1,
            htodShare: round(htodNs / copyNs),
            pageableShare: round(pageableNs / copyNs),
            copies: count,
            ...(bytes !== undefined ? { copyMB: round(bytes / 1e6, 3) } : {}),
            ...(timeline && timeline.activeSpanNs > 0 ? { copyShareOfActiveSpan: round(copyNs / (timeline.activeSpanNs * Math.max(1, timeline.devices))) } : {}),
            setUpGap: setUp,
            ...(timeline?.transfers && timeline.transfers.copyNs > 0 ? { exposedCopyShare: round(timeline.transfers.exposedNs / timeline.transfers.copyNs) } : {}),
        };
        // A per-launch trace shows whether kernels ran meanwhile: copies hidden behind compute cost little.
        const hidden = timeline?.transfers && timeline.transfers.copyNs > 0 && timeline.transfers.exposedNs / timeline.transfers.copyNs < options.minExposedCopyShare;
        const advice = [
            setUp ? 'The capture holds a set-up phase (an idle gap before the work): if these copies load weights or data once, start the profiler after set-up (torch.profiler schedule with wait/warmup) so they are not mistaken for the loop.' : '',
            pageableNs > 0 ? `${percent(pageableNs / copyNs)} of the copy time is from pageable memory: pin it (DataLoader(pin_memory=True), tensor.pin_memory()) and copy with non_blocking=True so copies overlap compute.` : '',
            'Keep tensors on the device across steps, batch many small copies into one, move preprocessing to the GPU, and overlap the remaining copies with compute on a side stream.',
        ]
            .filter(Boolean)
            .join(' ');
        const what = `host↔device copies took ${round(copyNs / 1e6, 1)} ms against ${round(kernelNs / 1e6, 1)} ms of kernels`;
        if (hidden) {
            return [{ severity: 'info', message: `Copies: ${what}, but kernels ran during ${percent(1 - timeline.transfers.exposedNs / timeline.transfers.copyNs)} of it: the copies are mostly hidden behind compute.`, evidence, advice }];
        }
        if (ratio < options.maxCopyToKernelRatio) {
            return [{ severity: 'info', message: `Copies: ${what} (${percent(ratio)} of kernel time).`, evidence, advice }];
        }
        return [{ message: `Transfer-bound: ${what}${Number.isFinite(ratio) ? ` (${round(ratio, 1)}×)` : ''}; the GPU moves data more than it computes.`, evidence, advice }];
    },
}));

;// CONCATENATED MODULE: ./src/diagnose/rules/uncoalesced-access.ts
/**
 * A profiled kernel's memory accesses are uncoalesced: the threads of a warp touch more sectors (or
 * shared-memory wavefronts) than the bytes they use need, so part of every transfer is wasted.
 * Read from the SourceCounters metrics (excessive vs ideal sectors), else from ncu's own rule rows.
 */





/** ncu's SourceCounters rule text: "… N excessive sectors (78% of the total M sectors)". */
const RULE_SHARE = /\((\d+(?:\.\d+)?)% of the total/;
function excessOf(result, space) {
    const [excessRef, idealRef, rule] = space === 'global' ? [NCU.globalExcessSectors, NCU.globalIdealSectors, 'UncoalescedGlobalAccess'] : [NCU.sharedExcessWavefronts, NCU.sharedIdealWavefronts, 'UncoalescedSharedAccess'];
    const excess = ncuValue(result, excessRef);
    const ideal = ncuValue(result, idealRef);
    if (excess !== undefined && ideal !== undefined && excess + ideal > 0)
        return { space, share: excess / (excess + ideal), excess, ideal, source: 'metrics' };
    const fired = result.rules.find((r) => r.name === rule && RULE_SHARE.test(r.description));
    return fired ? { space, share: Number(RULE_SHARE.exec(fired.description)[1]) / 100, source: 'ncu rule' } : undefined;
}
/* harmony default export */ const uncoalesced_access = (defineRule({
    meta: {
        id: 'uncoalesced-access',
        severity: 'warning',
        title: 'Uncoalesced memory accesses',
        stage: 'deep-dive',
        needs: ['kernel-metrics'],
        description: 'A large share of the sectors (global) or wavefronts (shared) the kernel moves is excess over what its accesses need, a sign of strided or scattered accesses across a warp.',
        defaults: { minExcessShare: 0.25, workload: '<workload command>' },
    },
    check({ profile, options }) {
        const hits = [];
        for (const dive of deepDiveKernels(profile.ncu, profile.kernels)) {
            const { kernel, result, launches } = dive;
            const kind = kernelKind(dive.family, kernel);
            // A collective waits on its peers: one GPU's counters do not say why it is slow.
            if (kind === 'collective')
                continue;
            const worst = ['global', 'shared']
                .map((space) => excessOf(result, space))
                .filter((e) => e !== undefined && e.share >= options.minExcessShare)
                .sort((a, b) => b.share - a.share)[0];
            if (!worst)
                continue;
            const bytesPerSector = ncuValue(result, NCU.globalLoadBytesPerSector);
            const unit = worst.space === 'global' ? 'sectors' : 'shared-memory wavefronts';
            hits.push({
                message: `${displayKernel(kernel)}${shareText(dive)}: ${percentText(worst.share * 100)} of its ${worst.space} ${unit} are excess over what its accesses need${worst.source === 'ncu rule' ? ' (as Nsight Compute reports it)' : ''}${worst.space === 'global' && bytesPerSector !== undefined ? `; global loads use ${round(bytesPerSector, 1)} of the 32 bytes of each sector` : ''}.`,
                evidence: {
                    space: worst.space,
                    excessShare: round(worst.share),
                    source: worst.source,
                    ...(worst.excess !== undefined ? { excess: worst.excess } : {}),
                    ...(worst.ideal !== undefined ? { ideal: worst.ideal } : {}),
                    ...(bytesPerSector !== undefined ? { globalLoadBytesPerSector: round(bytesPerSector, 2) } : {}),
                    ...breakdownEvidence(dive),
                    ...durationEvidence(result),
                    launches,
                    ...ncuSays(result, worst.space === 'global' ? ['UncoalescedGlobalAccess', 'MemoryCacheAccessPattern'] : ['UncoalescedSharedAccess', 'SharedMemoryConflicts']),
                },
                advice: worst.space === 'global' && kind === 'copy'
                    ? 'A strided copy (a transpose or permute made contiguous) reads across rows, so most of each sector is wasted. The fix is the copy itself: keep the layout the consumer reads, use native GQA instead of repeat_kv, or fuse the permute into the consumer; where the copy must stay, transpose through shared memory so both sides are coalesced. Run the command below; the report\'s source page names the offending loads.'
                    : worst.space === 'global'
                        ? 'Make consecutive threads touch consecutive addresses: transpose through shared memory, change the data layout, or vectorize along the contiguous dimension. Build with -lineinfo and run the command below; the report\'s source page names the offending loads.'
                        : 'Shared-memory bank conflicts: pad or swizzle the shared tile so a warp hits distinct banks. Build with -lineinfo and run the command below; the report\'s source page names the offending instructions.',
                ...askDeepDive(followUp(dive, ['MemoryWorkloadAnalysis_Tables', 'SourceCounters']), options.workload),
                kernel,
            });
        }
        return hits;
    },
}));

;// CONCATENATED MODULE: ./src/diagnose/rules/unfused-attention.ts
/**
 * Attention runs as generic matmul/bmm + softmax instead of one fused kernel: the classic wiring
 * mistake of a custom architecture (or eager attention in transformers). Softmax launches that no
 * fused attention kernel accounts for are the signal; a sampling softmax runs once per step and
 * stays far below the per-layer rate.
 */



/** llama.cpp's ggml kernels: their fused path is a run flag, not a code change. */
const LLAMA_CPP = /^soft_max_f32|(?:^|[^a-z])mul_mat_(?:vec_)?q|^ggml_|flash_attn_ext/m;
/* harmony default export */ const unfused_attention = (defineRule({
    meta: {
        id: 'unfused-attention',
        severity: 'warning',
        title: 'Attention is not fused',
        stage: 'kernels',
        needs: ['kernel-breakdown'],
        description: 'Softmax kernels run at a per-layer rate with no fused attention kernel to account for them: attention is matmul + softmax + elementwise.',
        defaults: { minSoftmaxShare: 0.002, minSoftmaxPerLinearLaunch: 0.03 },
    },
    check({ profile, options }) {
        const softmax = familyTotals(profile, ['attention-softmax']);
        const fused = familyTotals(profile, ['attention-fused']);
        const bmm = familyTotals(profile, ['attention-bmm']);
        const linear = familyTotals(profile, LINEAR_FAMILIES);
        const unexplained = softmax.instances - fused.instances;
        if (softmax.share < options.minSoftmaxShare || unexplained <= 0)
            return [];
        if (unexplained < options.minSoftmaxPerLinearLaunch * linear.instances)
            return [];
        return [
            {
                message: `Attention appears unfused: ${softmax.instances} softmax launches (${percent(softmax.share)} of kernel time) against ${fused.instances} fused attention launches.`,
                evidence: {
                    softmaxShare: round(softmax.share),
                    softmaxLaunches: softmax.instances,
                    fusedAttentionLaunches: fused.instances,
                    linearLaunches: linear.instances,
                    bmmShare: round(bmm.share),
                    fusedAttentionShare: round(fused.share),
                },
                advice: `${LLAMA_CPP.test(profile.kernels.map((k) => k.name).join('\n')) ? 'llama.cpp: run with flash attention on (-fa / --flash-attn): flash_attn_ext then replaces soft_max_f32 and the KQ/KQV matmuls. ' : ''}Use a fused attention kernel. transformers: from_pretrained(..., attn_implementation="sdpa") or "flash_attention_2" (not "eager"); PyTorch: torch.nn.functional.scaled_dot_product_attention instead of matmul + softmax. MAX custom architecture: build attention from the max.nn attention layers (they lower to the *_mha_* / flash kernels) rather than ops.matmul + ops.softmax. Fused attention shows up as flash/mha/sdpa kernels in the next capture.`,
            },
        ];
    },
}));

;// CONCATENATED MODULE: ./src/diagnose/rules/unfused-norm-rope.ts
/**
 * Norms or rotary embeddings run as chains of small kernels: RMSNorm as mean-reduce + pow + rsqrt +
 * mul (ATen's eager RMSNorm), RoPE as neg + cat + mul (rotate_half). Each step re-reads the tensor.
 */


const MEAN_REDUCE = /MeanOps|mean_kernel|WelfordOps/;
const NORM_PIECES = /MeanOps|mean_kernel|WelfordOps|rsqrt_kernel|pow_tensor_scalar/;
const ROTATE_HALF = /neg_kernel/;
/* harmony default export */ const unfused_norm_rope = (defineRule({
    meta: {
        id: 'unfused-norm-rope',
        severity: 'warning',
        title: 'Norm or RoPE runs as unfused elementwise chains',
        stage: 'kernels',
        needs: ['kernel-breakdown'],
        description: 'Mean-reduce + rsqrt kernels without a norm kernel (RMSNorm), or neg kernels without a rotary kernel (RoPE), take a visible share of GPU time.',
        defaults: { minPiecesShare: 0.01 },
    },
    check({ profile, options }) {
        const hits = [];
        const norm = familyTotals(profile, ['norm']);
        const mean = kernelsMatching(profile, MEAN_REDUCE, ['reduce']);
        const rsqrt = kernelsMatching(profile, /rsqrt/, ['elementwise']);
        const pieces = kernelsMatching(profile, NORM_PIECES, ['reduce', 'elementwise']);
        if (mean.instances > 0 && rsqrt.instances > 0 && norm.instances < mean.instances && pieces.share >= options.minPiecesShare) {
            hits.push({
                message: `RMSNorm runs unfused: ${mean.instances} mean-reduce and ${rsqrt.instances} rsqrt launches take ${percent(pieces.share)} of kernel time (plus the adds and muls around them).`,
                evidence: {
                    part: 'norm',
                    piecesShare: round(pieces.share),
                    meanReduceLaunches: mean.instances,
                    rsqrtLaunches: rsqrt.instances,
                    normKernelLaunches: norm.instances,
                },
                advice: 'Use a fused RMSNorm: torch.nn.RMSNorm under torch.compile (one Triton kernel per norm), a fused kernel (vLLM rms_norm / fused_add_rms_norm, Liger, Apex FusedRMSNorm), or MAX\'s rms_norm op, which also fuses the residual add.',
            });
        }
        const rope = familyTotals(profile, ['rope']);
        const neg = kernelsMatching(profile, ROTATE_HALF, ['elementwise']);
        if (rope.instances === 0 && neg.instances > 0 && neg.share >= options.minPiecesShare) {
            hits.push({
                message: `RoPE runs unfused: ${neg.instances} neg launches (rotate_half) take ${percent(neg.share)} of kernel time, with cat and mul kernels around them.`,
                evidence: { part: 'rope', piecesShare: round(neg.share), negLaunches: neg.instances, ropeKernelLaunches: 0 },
                advice: 'Apply rotary embeddings in one kernel: torch.compile the attention block, a fused rotary kernel (vLLM rotary_embedding, flash-attn apply_rotary_emb), or MAX\'s fused rope (fused_qk_rope / fused_rope_rmsnorm).',
            });
        }
        return hits;
    },
}));

;// CONCATENATED MODULE: ./src/diagnose/rules/index.ts























// Keep sorted by id; a test checks it.
const RULES = [
    capture_includes_warmup,
    communication_bound,
    copy_heavy,
    dominant_kernel,
    empty_capture,
    gpu_throttled,
    graph_level_trace,
    grid_too_small,
    healthy_dense_decode,
    healthy_moe_decode,
    host_bound,
    kernel_compute_bound,
    kernel_latency_bound,
    kernel_memory_bound,
    low_occupancy,
    moe_routing_heavy,
    quant_prep_heavy,
    rank_imbalance,
    re_prefill,
    transfer_bound,
    uncoalesced_access,
    unfused_attention,
    unfused_norm_rope,
];

;// CONCATENATED MODULE: ./src/diagnose/run-rules.ts



const STAGE_ORDER = { capture: 0, utilization: 1, kernels: 2, 'deep-dive': 3 };
const run_rules_SEVERITY_ORDER = { error: 0, warning: 1, info: 2 };
const LOWER = { error: 'warning', warning: 'info', info: 'info' };
/** Findings that explain the whole run; kernel findings below them are secondary. */
const RUN_LEVEL_IDS = new Set(['host-bound', 'gpu-throttled', 'empty-capture', 'communication-bound', 'transfer-bound']);
/** One rule over one profile, evidence gate and severity cap included (what the rule tester runs too). */
function checkRule(rule, profile, options, evidence = gatherEvidence(profile)) {
    const used = evidenceFor(rule.meta.needs, evidence);
    if (used === null)
        return [];
    const thin = used.some((e) => e.strength === 'thin');
    const basis = used.map(describeEvidence);
    return rule.check({ profile, options, evidence }).map((hit) => {
        const declared = hit.severity ?? rule.meta.severity;
        return { ...hit, severity: thin ? LOWER[declared] : declared, basis };
    });
}
function runRules(profile, config = {}, rules = RULES) {
    const disabled = new Set(config.disabled ?? []);
    const evidence = gatherEvidence(profile);
    const findings = [];
    for (const rule of rules) {
        if (disabled.has(rule.meta.id))
            continue;
        const options = { ...rule.meta.defaults, ...(config.options?.[rule.meta.id] ?? {}) };
        for (const hit of checkRule(rule, profile, options, evidence)) {
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
                docs: docsUrl(rule.meta.id),
                secondary: false,
                basis: hit.basis,
                stage: rule.meta.stage,
            });
        }
    }
    const runLevel = findings.some((f) => RUN_LEVEL_IDS.has(f.id) && f.severity !== 'info');
    for (const finding of findings) {
        if (runLevel && (finding.stage === 'kernels' || finding.stage === 'deep-dive'))
            finding.secondary = true;
    }
    findings.sort((a, b) => Number(a.secondary) - Number(b.secondary) ||
        STAGE_ORDER[a.stage] - STAGE_ORDER[b.stage] ||
        run_rules_SEVERITY_ORDER[a.severity] - run_rules_SEVERITY_ORDER[b.severity]);
    return findings.map(({ stage: _stage, ...finding }) => finding);
}

;// CONCATENATED MODULE: ./src/model/capture.ts
/**
 * What one importer reads from one input file: the raw, unclassified facts of a capture.
 * Every importer returns this shape; `buildProfile` merges several of them into one Profile.
 * Times are integer-ish nanoseconds, shares are 0..1, percentages are 0..100.
 */

const FORMAT_IDS = [
    'max-generate',
    'max-benchmark',
    'max-benchmark-json',
    'nsys-stats',
    'nsys-gpu-time-util',
    'rocprof-csv',
    'kineto-json',
    'ncu-csv',
    'nvidia-smi-csv',
    'rocm-smi-json',
    'max-gpu-stats-json',
    'gpu-snapshot-jsonl',
    'workload-metrics-jsonl',
    'rocprof-json',
    'rocm-smi-csv',
    'amd-smi-csv',
    'amd-smi-json',
    'nsys-sqlite',
    'rocpd-sqlite',
];
const FormatIdSchema = schemas/* enum */.k5n(FORMAT_IDS);
/** A recoverable problem met while reading, counted rather than thrown (nothing vanishes silently). */
const ImportStatSchema = schemas/* object */.Ikc({
    name: schemas/* string */.YjP(),
    severity: schemas/* enum */.k5n(['info', 'data-loss', 'error']),
    count: schemas/* number */.aig().int().nonnegative(),
    detail: schemas/* string */.YjP().optional(),
});
const SourceSchema = schemas/* object */.Ikc({
    path: schemas/* string */.YjP(),
    format: FormatIdSchema,
    /** The report or table kinds found inside, e.g. nsys `cuda_gpu_kern_sum`, ncu `details`. */
    parts: schemas/* array */.YOg(schemas/* string */.YjP()).default([]),
    tool: schemas/* string */.YjP().optional(),
    toolVersion: schemas/* string */.YjP().optional(),
    stats: schemas/* array */.YOg(ImportStatSchema).default([]),
});
const Dim3Schema = schemas/* tuple */.PVZ([schemas/* number */.aig(), schemas/* number */.aig(), schemas/* number */.aig()]);
/**
 * A line of the workload's Python that launched a kernel, where the trace holds Python stacks
 * (Kineto `with_stack=True`): the innermost frame of the user's code around the launch call.
 */
const PythonSiteSchema = schemas/* object */.Ikc({
    /** The function, as Python names it (`forward`, `sdpa`). */
    function: schemas/* string */.YjP(),
    /** Its file as the profiler wrote it: relative to the sys.path entry it was found under. */
    file: schemas/* string */.YjP(),
    /** The function's first line (the profiler records a frame's line on entry). */
    line: schemas/* number */.aig().int().nonnegative(),
    /** The innermost nn.Module around the frame, by class (`LlamaAttention`). */
    module: schemas/* string */.YjP().optional(),
    /**
     * The kernel ran in a CUDA graph replay. Alone: this is where the graph was replayed (its kernels
     * were captured elsewhere).
     */
    graphReplay: schemas/* boolean */.zMY().optional(),
    /**
     * With graphReplay: the graph's capture is in the same trace, and this is where the capture's
     * launch that made the kernel's node ran (the replay's kernels, in start order, are the
     * capture's launches in order).
     */
    graphCapture: schemas/* boolean */.zMY().optional(),
    /** Share of the kernel's time launched from here (0..1). */
    share: schemas/* number */.aig().min(0).max(1),
});
const KernelStatSchema = schemas/* object */.Ikc({
    name: schemas/* string */.YjP(),
    totalNs: schemas/* number */.aig().nonnegative(),
    instances: schemas/* number */.aig().int().nonnegative(),
    minNs: schemas/* number */.aig().nonnegative().optional(),
    maxNs: schemas/* number */.aig().nonnegative().optional(),
    device: schemas/* number */.aig().int().optional(),
    /** Launch shape of the launches that took the most time, where the capture records it. */
    grid: Dim3Schema.optional(),
    block: Dim3Schema.optional(),
    /**
     * The CPU op chain that launched it, outermost first (`aten::linear > aten::addmm`), where the trace
     * links kernels to ops (Kineto; a CUDA graph replay's kernel through its graph's capture, when that
     * is in the trace). When launches came from several chains, the one with the most time.
     */
    launchedBy: schemas/* string */.YjP().optional(),
    /** Share of the kernel's time launched from `launchedBy` (0..1). */
    launchedByShare: schemas/* number */.aig().min(0).max(1).optional(),
    /** Token count M (rows of activations) of the matmul op that launched it, from recorded input shapes. */
    tokens: schemas/* number */.aig().int().nonnegative().optional(),
    /** Where in the workload's Python it was launched from, most time first (at most 3). */
    pythonSites: schemas/* array */.YOg(PythonSiteSchema).max(3).optional(),
});
const MemopStatSchema = schemas/* object */.Ikc({
    /** `memcpy-htod` | `memcpy-dtoh` | `memcpy-dtod` | `memcpy-other` | `memset` */
    kind: schemas/* string */.YjP(),
    name: schemas/* string */.YjP(),
    totalNs: schemas/* number */.aig().nonnegative().optional(),
    count: schemas/* number */.aig().int().nonnegative(),
    bytes: schemas/* number */.aig().nonnegative().optional(),
});
const ApiStatSchema = schemas/* object */.Ikc({
    name: schemas/* string */.YjP(),
    totalNs: schemas/* number */.aig().nonnegative(),
    calls: schemas/* number */.aig().int().nonnegative(),
});
const MetricSampleSchema = schemas/* object */.Ikc({
    /** Canonical name from METRIC_CATALOG (src/model/metrics.ts). */
    name: schemas/* string */.YjP(),
    value: schemas/* number */.aig(),
});
const UtilSampleSchema = schemas/* object */.Ikc({
    /** Seconds since the epoch or since the start of sampling; only differences matter. */
    t: schemas/* number */.aig().optional(),
    device: schemas/* number */.aig().int().default(0),
    gpuPercent: schemas/* number */.aig().min(0).max(100),
    memoryPercent: schemas/* number */.aig().min(0).max(100).optional(),
    smClockMhz: schemas/* number */.aig().optional(),
    powerW: schemas/* number */.aig().optional(),
    memoryUsedBytes: schemas/* number */.aig().optional(),
    /** Clock-event reasons active in this sample, in NVML/max.profiler.gpu names (gpu_idle included). */
    reasons: schemas/* array */.YOg(schemas/* string */.YjP()).default([]),
});
/** One profiler step (ProfilerStep#N or a user range), as the GPU saw it. */
const StepSchema = schemas/* object */.Ikc({
    name: schemas/* string */.YjP(),
    startNs: schemas/* number */.aig(),
    durNs: schemas/* number */.aig().nonnegative(),
    gpuBusyNs: schemas/* number */.aig().nonnegative(),
    kernels: schemas/* number */.aig().int().nonnegative(),
});
/**
 * An idle stretch that is not the workload: set-up before the first step (weights copied in, lazy
 * initialization), a pause between benchmark repetitions, or tear-down. Left out of utilization.
 */
const ExcludedGapSchema = schemas/* object */.Ikc({
    /** ns from the first GPU op. */
    startNs: schemas/* number */.aig().nonnegative(),
    durNs: schemas/* number */.aig().nonnegative(),
    reason: schemas/* enum */.k5n(['set-up', 'between-repetitions', 'tear-down']),
});
/** Collective kernels on the timeline, summed over devices. */
const TimelineCommunicationSchema = schemas/* object */.Ikc({
    /** Union of collective kernel intervals. */
    collectiveNs: schemas/* number */.aig().nonnegative(),
    /** Collective time with no other (compute) kernel running on the same device: on the critical path. */
    exposedNs: schemas/* number */.aig().nonnegative(),
});
/** Host↔device copies on the timeline, summed over devices. */
const TimelineTransfersSchema = schemas/* object */.Ikc({
    /** Union of host-to-device and device-to-host copy intervals. */
    copyNs: schemas/* number */.aig().nonnegative(),
    /** Copy time with no kernel running on the same device. */
    exposedNs: schemas/* number */.aig().nonnegative(),
});
/** What a per-launch trace (Kineto, rocprofv3 kernel_trace) says about time, beyond per-kernel sums. */
const TimelineObjectSchema = schemas/* object */.Ikc({
    /** First GPU op start to last GPU op end, over all devices. */
    spanNs: schemas/* number */.aig().nonnegative(),
    /** Union of GPU op intervals (kernels, memcpy, memset), summed over devices. */
    busyNs: schemas/* number */.aig().nonnegative(),
    devices: schemas/* number */.aig().int().nonnegative(),
    idleGaps: schemas/* object */.Ikc({
        count: schemas/* number */.aig().int().nonnegative(),
        totalNs: schemas/* number */.aig().nonnegative(),
        longestNs: schemas/* number */.aig().nonnegative(),
    }),
    kernelLaunches: schemas/* number */.aig().int().nonnegative(),
    graphLaunches: schemas/* number */.aig().int().nonnegative(),
    /** Kernels that ran inside a CUDA graph replay, where the trace says so. */
    graphKernels: schemas/* number */.aig().int().nonnegative(),
    steps: schemas/* array */.YOg(StepSchema).default([]),
    /** GPU kernel time per tenth of the span (for growth over the capture). */
    busyByDecile: schemas/* array */.YOg(schemas/* number */.aig().nonnegative()).default([]),
    /** Idle stretches that are not the workload (see ExcludedGapSchema), in time order. */
    excludedGaps: schemas/* array */.YOg(ExcludedGapSchema).default([]),
    /** spanNs less the excluded gaps; equals spanNs when there are none. */
    activeSpanNs: schemas/* number */.aig().nonnegative().optional(),
    /** Present when the trace holds collective kernels. */
    communication: TimelineCommunicationSchema.optional(),
    /** Present when the trace holds host↔device copies. */
    transfers: TimelineTransfersSchema.optional(),
});
const TimelineSchema = TimelineObjectSchema.transform((timeline) => ({
    ...timeline,
    activeSpanNs: timeline.activeSpanNs ?? Math.max(0, timeline.spanNs - timeline.excludedGaps.reduce((sum, gap) => sum + gap.durNs, 0)),
}));
const CpuFunctionSchema = schemas/* object */.Ikc({
    name: schemas/* string */.YjP(),
    totalNs: schemas/* number */.aig().nonnegative(),
    calls: schemas/* string */.YjP(),
    percent: schemas/* number */.aig().optional(),
});
/** A statement the tool itself printed about the capture (fallbacks, skipped reports, errors). */
const NoticeSchema = schemas/* object */.Ikc({
    code: schemas/* string */.YjP(),
    severity: schemas/* enum */.k5n(['info', 'warning', 'error']),
    message: schemas/* string */.YjP(),
});
/** One Nsight Compute result (one profiled launch): metrics keyed by section and metric label. */
const NcuMetricSchema = schemas/* object */.Ikc({
    section: schemas/* string */.YjP(),
    name: schemas/* string */.YjP(),
    unit: schemas/* string */.YjP(),
    /** The value in base units (ns, byte, byte/s, hz, %), or the raw text when not numeric. */
    value: schemas/* union */.KCZ([schemas/* number */.aig(), schemas/* string */.YjP()]),
});
const NcuRuleSchema = schemas/* object */.Ikc({
    section: schemas/* string */.YjP(),
    name: schemas/* string */.YjP(),
    type: schemas/* string */.YjP(),
    description: schemas/* string */.YjP(),
    speedupType: schemas/* string */.YjP().optional(),
    estimatedSpeedupPercent: schemas/* number */.aig().optional(),
});
const NcuResultSchema = schemas/* object */.Ikc({
    id: schemas/* number */.aig().int(),
    kernel: schemas/* string */.YjP(),
    device: schemas/* string */.YjP().optional(),
    cc: schemas/* string */.YjP().optional(),
    grid: schemas/* string */.YjP().optional(),
    block: schemas/* string */.YjP().optional(),
    metrics: schemas/* array */.YOg(NcuMetricSchema),
    rules: schemas/* array */.YOg(NcuRuleSchema),
});
const EnvironmentSchema = schemas/* object */.Ikc({
    gpuName: schemas/* string */.YjP().optional(),
    gpuCount: schemas/* number */.aig().int().optional(),
    vendor: schemas/* enum */.k5n(['nvidia', 'amd']).optional(),
    driver: schemas/* string */.YjP().optional(),
    cuda: schemas/* string */.YjP().optional(),
    rocm: schemas/* string */.YjP().optional(),
    engine: schemas/* string */.YjP().optional(),
    engineVersion: schemas/* string */.YjP().optional(),
    model: schemas/* string */.YjP().optional(),
    dtype: schemas/* string */.YjP().optional(),
    batch: schemas/* string */.YjP().optional(),
    sequence: schemas/* string */.YjP().optional(),
});
/** A stretch of wall-clock time (seconds since the epoch) in which the workload says it timed itself. */
const TimedWindowSchema = schemas/* object */.Ikc({ startS: schemas/* number */.aig(), endS: schemas/* number */.aig() });
/** Where a capture sits in a distributed job (Kineto `distributedInfo`). */
const DistributedSchema = schemas/* object */.Ikc({
    rank: schemas/* number */.aig().int().nonnegative(),
    worldSize: schemas/* number */.aig().int().positive().optional(),
    backend: schemas/* string */.YjP().optional(),
    host: schemas/* string */.YjP().optional(),
});
const CaptureSchema = schemas/* object */.Ikc({
    source: SourceSchema,
    /** The rank this capture was taken on, where the trace says. */
    distributed: DistributedSchema.optional(),
    kernels: schemas/* array */.YOg(KernelStatSchema).default([]),
    memops: schemas/* array */.YOg(MemopStatSchema).default([]),
    apiCalls: schemas/* array */.YOg(ApiStatSchema).default([]),
    metrics: schemas/* array */.YOg(MetricSampleSchema).default([]),
    utilization: schemas/* array */.YOg(UtilSampleSchema).default([]),
    timeline: TimelineSchema.optional(),
    /** One timeline per device when a per-launch trace spans several (device ids as in KernelStat.device). */
    deviceTimelines: schemas/* array */.YOg(schemas/* object */.Ikc({ device: schemas/* number */.aig().int(), timeline: TimelineSchema })).default([]),
    cpuFunctions: schemas/* array */.YOg(CpuFunctionSchema).default([]),
    notices: schemas/* array */.YOg(NoticeSchema).default([]),
    ncu: schemas/* array */.YOg(NcuResultSchema).default([]),
    environment: EnvironmentSchema.default({}),
    /** Where the workload reported its timed runs: utilization is read over these when samples fall inside. */
    timedWindows: schemas/* array */.YOg(TimedWindowSchema).default([]),
    /** GPU utilization as a profiler computed it over the capture (e.g. nsys analyze gpu_time_util), 0..100. */
    gpuTimeUtilPercent: schemas/* number */.aig().min(0).max(100).optional(),
});

;// CONCATENATED MODULE: ./src/ingest/common/importer.ts
/**
 * An importer reads one capture format into a Capture. It is small: a cheap `sniff` over the first
 * bytes (content, never the file name) plus `read`. Detection loops over the registry in order.
 */


function defineImporter(importer) {
    return importer;
}
function createImportContext(path, options = {}) {
    const counters = new Map();
    return {
        path,
        options,
        ...(options.isCollective ? { isCollective: options.isCollective } : {}),
        count(name, severity, detail) {
            const existing = counters.get(name);
            if (existing)
                existing.count += 1;
            else
                counters.set(name, { name, severity, count: 1, ...(detail ? { detail } : {}) });
        },
        stats: () => [...counters.values()],
    };
}
/**
 * 2^53 − 1: larger than any value a real capture holds (in ns, 104 days), every whole number up to it
 * is exact, and sums over millions of them stay finite. A file with `1e308` where a duration should
 * be is refused, not summed to Infinity.
 */
const MAX_PLAUSIBLE_VALUE = Number.MAX_SAFE_INTEGER;
/** Where the first non-finite or implausibly large number sits in what an importer built, if anywhere. */
function implausibleNumber(value, path = '') {
    if (typeof value === 'number')
        return Number.isFinite(value) && Math.abs(value) <= MAX_PLAUSIBLE_VALUE ? undefined : { path, value };
    if (typeof value !== 'object' || value === null)
        return undefined;
    if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
            const found = implausibleNumber(value[i], `${path}[${i}]`);
            if (found)
                return found;
        }
        return undefined;
    }
    const record = value;
    const label = typeof record['name'] === 'string' ? ` (${JSON.stringify(record['name'].slice(0, 80))})` : '';
    for (const key of Object.keys(record)) {
        const found = implausibleNumber(record[key], `${path}${label}${path || label ? '.' : ''}${key}`);
        if (found)
            return found;
    }
    return undefined;
}
/** Run one importer on one file and validate what it built against the model. */
async function importer_runImporter(importer, file, options = {}) {
    const ctx = createImportContext(file.path, options);
    const raw = await importer.read(file, ctx);
    const implausible = implausibleNumber(raw);
    if (implausible) {
        throw new errors/* InputError */.dz(file.path, `expected finite values up to ${MAX_PLAUSIBLE_VALUE}, got ${implausible.value} at ${implausible.path}`);
    }
    const parsed = CaptureSchema.parse(raw);
    parsed.source.stats = [...parsed.source.stats, ...ctx.stats()];
    return parsed;
}

// EXTERNAL MODULE: ./src/ingest/common/input-file.ts
var input_file = __webpack_require__(73311);
// EXTERNAL MODULE: external "node:stream"
var external_node_stream_ = __webpack_require__(57075);
;// CONCATENATED MODULE: ./src/ingest/formats/kineto/categories.ts
/** Kineto event categories the importer decodes, recognized from their raw bytes. */
const CAT_PENDING = -1;
const CAT_SKIP = 0;
/** The scanner could not read the category from the bytes; decode the event to find out. */
const CAT_UNKNOWN = 1;
const CAT_KERNEL = 2;
const CAT_MEMCPY = 3;
const CAT_MEMSET = 4;
const CAT_RUNTIME = 5;
const CAT_DRIVER = 6;
const CAT_CPU_ANNOTATION = 7;
const CAT_GPU_ANNOTATION = 8;
/** PyTorch ops on the CPU: read for which op launched each kernel. */
const CAT_CPU_OP = 9;
/** Python calls (`with_stack=True`): read for which line of the workload launched each kernel. */
const CAT_PYTHON = 10;
const NAMES = [
    ['kernel', CAT_KERNEL],
    ['Kernel', CAT_KERNEL], // PyTorch <= ~1.10
    ['gpu_memcpy', CAT_MEMCPY],
    ['Memcpy', CAT_MEMCPY],
    ['gpu_memset', CAT_MEMSET],
    ['Memset', CAT_MEMSET],
    ['cuda_runtime', CAT_RUNTIME],
    ['Runtime', CAT_RUNTIME],
    ['cuda_driver', CAT_DRIVER],
    ['user_annotation', CAT_CPU_ANNOTATION],
    ['gpu_user_annotation', CAT_GPU_ANNOTATION],
    ['cpu_op', CAT_CPU_OP],
    ['Operator', CAT_CPU_OP], // PyTorch <= ~1.10
    ['python_function', CAT_PYTHON],
];
const BY_LENGTH = new Map();
for (const [name, category] of NAMES) {
    const list = BY_LENGTH.get(name.length) ?? [];
    list.push({ bytes: Buffer.from(name, 'latin1'), category });
    BY_LENGTH.set(name.length, list);
}
/** Category of the JSON string whose characters are bytes[start, end) (no quotes). */
function categoryOf(bytes, start, end) {
    const candidates = BY_LENGTH.get(end - start);
    if (!candidates)
        return CAT_SKIP;
    outer: for (const { bytes: name, category } of candidates) {
        for (let k = 0; k < name.length; k++)
            if (bytes[start + k] !== name[k])
                continue outer;
        return category;
    }
    return CAT_SKIP;
}
function categoryOfString(cat) {
    const found = NAMES.find(([name]) => name === cat);
    return found ? found[1] : CAT_SKIP;
}

;// CONCATENATED MODULE: ./src/ingest/formats/kineto/string-end.ts
/**
 * Finding the end of a JSON string fast: short strings byte by byte, long ones (kernel names are
 * often 1-4 KB) through Buffer.indexOf, which is native memchr.
 */
const QUOTE = 34;
const BACKSLASH = 92;
/** Bytes scanned in JS before switching to indexOf; below this the call costs more than it saves. */
const SHORT = 24;
/**
 * Index of the closing quote of a string whose characters start at `from`, or -1 when it does not
 * end before `end`. `from` must not be an escaped character (the caller skips a pending escape).
 */
function stringEnd(buf, from, end) {
    const stop = from + SHORT < end ? from + SHORT : end;
    let j = from;
    while (j < stop) {
        const c = buf[j];
        if (c === QUOTE)
            return j;
        j += c === BACKSLASH ? 2 : 1;
    }
    if (j >= end)
        return -1;
    for (;;) {
        j = buf.indexOf(QUOTE, j);
        if (j < 0 || j >= end)
            return -1;
        // A quote preceded by an odd run of backslashes is escaped.
        let k = j - 1;
        while (k >= from && buf[k] === BACKSLASH)
            k--;
        if (((j - 1 - k) & 1) === 0)
            return j;
        j++;
    }
}
/** True when the bytes [from, end) of an unfinished string end in an escape (odd backslash run). */
function endsInEscape(buf, from, end) {
    let k = end - 1;
    while (k >= from && buf[k] === BACKSLASH)
        k--;
    return ((end - 1 - k) & 1) === 1;
}
/** The text of a JSON string's raw characters (escapes resolved); undefined when invalid. */
function decodeJsonString(buf, start, end) {
    const raw = buf.toString('utf8', start, end);
    if (!raw.includes('\\'))
        return raw;
    try {
        return JSON.parse(`"${raw}"`);
    }
    catch {
        return undefined;
    }
}

;// CONCATENATED MODULE: ./src/ingest/formats/kineto/json-element.ts
/**
 * One element of a Chrome trace (a traceEvents entry, or a top-level member's value), scanned
 * over as many chunks as it spans: strings, escapes and bracket nesting, plus the event's `"cat"`
 * value read straight from the bytes. Events of an unwanted category are skipped without keeping
 * their bytes; wanted ones go to the sink, decoded in place when they began in the current chunk.
 */


const json_element_QUOTE = 34;
const COMMA = 44;
const COLON = 58;
const LBRACE = 123;
const RBRACE = 125;
const LBRACKET = 91;
const RBRACKET = 93;
/** Past this an event is not kept: no real trace event is anywhere near it. */
const MAX_EVENT_BYTES = 64 * 1024 * 1024;
/** Top-level members above this (other than traceEvents) are skipped; metadata is small. */
const MAX_MEMBER_BYTES = 4 * 1024 * 1024;
/**
 * Deepest bracket nesting inside one element. A trace event nests 3 or 4 levels (args holding lists
 * of shapes); without a bound, a file of `[` alone grows the bracket stack with its whole size.
 */
const MAX_NESTING = 512;
// Byte classes for the hot loop: one table load instead of six compares for ordinary bytes.
const OTHER = 0;
const IS_QUOTE = 1;
const IS_COMMA = 2;
const IS_OPEN = 3;
const CLASS = new Uint8Array(256);
CLASS[json_element_QUOTE] = IS_QUOTE;
CLASS[COMMA] = IS_COMMA;
CLASS[LBRACE] = CLASS[LBRACKET] = IS_OPEN;
CLASS[RBRACE] = CLASS[RBRACKET] = 4;
/** Thrown for bytes that are not the expected JSON; the caller turns it into an InputError. */
class ScanError extends Error {
    expected;
    offset;
    constructor(expected, offset) {
        super(`${expected} at byte ${offset}`);
        this.expected = expected;
        this.offset = offset;
    }
}
function isSpace(c) {
    return c === 32 || c === 10 || c === 13 || c === 9;
}
function describeByte(c) {
    return c >= 32 && c < 127 ? `\`${String.fromCharCode(c)}\`` : `byte 0x${c.toString(16).padStart(2, '0')}`;
}
class ElementScanner {
    sink;
    /** Absolute offset of the current chunk's first byte. */
    base = 0;
    /** Set once the element has ended. */
    done = false;
    isEvent = false;
    /** The top-level key whose value this is (members only). */
    key = '';
    elementStart = 0; // in the current chunk (0 when it began in an earlier one)
    elementOffset = 0; // absolute
    depth = 0;
    stack = new Uint8Array(MAX_NESTING);
    inString = false;
    escape = false;
    scalar = false;
    expectKey = false;
    catNext = false;
    category = CAT_PENDING;
    uncertain = false;
    keep = true;
    pieces = [];
    keptBytes = 0;
    decodeNow = false;
    constructor(sink) {
        this.sink = sink;
    }
    begin(isEvent, key, chunk, i) {
        const c = chunk[i];
        if (c === RBRACKET || c === RBRACE || c === COMMA || c === COLON)
            this.fail(isEvent ? 'a trace event' : 'a value', chunk, i);
        this.done = false;
        this.isEvent = isEvent;
        this.key = key;
        this.elementStart = i;
        this.elementOffset = this.base + i;
        this.depth = 0;
        this.inString = false;
        this.escape = false;
        this.scalar = c !== LBRACE && c !== LBRACKET && c !== json_element_QUOTE;
        this.expectKey = false;
        this.catNext = false;
        this.category = CAT_PENDING;
        this.uncertain = false;
        this.keep = true;
        this.dropPieces();
    }
    /** Scan from i; returns the index after the element (and sets `done`), or n. */
    scan(chunk, i, n) {
        i = this.scanElement(chunk, i, n);
        if (this.decodeNow)
            i = this.decodeInPlace(chunk, i, n);
        return i;
    }
    /** The chunk ends inside the element: keep its bytes if they may be needed. */
    chunkEnd(chunk) {
        if (this.keep)
            this.retain(chunk.subarray(this.elementStart, chunk.length));
        this.elementStart = 0;
    }
    fail(expected, chunk, i) {
        throw new ScanError(`expected ${expected}, got ${describeByte(chunk[i])}`, this.base + i);
    }
    /** Hand the event to the sink from its start; when it runs past the chunk, keep scanning from i. */
    decodeInPlace(chunk, i, n) {
        this.decodeNow = false;
        const end = this.sink.event(chunk, this.elementStart, n, this.category, this.elementOffset);
        if (end < 0)
            return i;
        this.depth = 0;
        this.done = true;
        return end;
    }
    retain(piece) {
        this.pieces.push(piece);
        this.keptBytes += piece.length;
        const limit = this.isEvent ? MAX_EVENT_BYTES : MAX_MEMBER_BYTES;
        if (this.keptBytes <= limit)
            return;
        if (this.isEvent)
            throw new ScanError(`expected trace events under ${limit} bytes, got a larger one`, this.elementOffset);
        this.keep = false;
        this.dropPieces();
    }
    /** Forget the kept bytes of the element (allocating only when some were kept). */
    dropPieces() {
        if (this.keptBytes === 0)
            return;
        this.pieces = [];
        this.keptBytes = 0;
    }
    /** Unquoted scalars (numbers, true/false/null) end at the next delimiter, which stays unread. */
    scanScalar(chunk, i, n) {
        let j = i;
        while (j < n) {
            const c = chunk[j];
            if (c === COMMA || c === RBRACE || c === RBRACKET || isSpace(c))
                break;
            j++;
        }
        if (j < n)
            this.endElement(chunk, j);
        return j;
    }
    /** Finish a string that began in an earlier chunk. Returns the index after it, or n. */
    resumeString(chunk, i, n) {
        const from = this.escape ? i + 1 : i;
        const j = stringEnd(chunk, from, n);
        if (j < 0) {
            this.escape = endsInEscape(chunk, from, n);
            return n;
        }
        this.escape = false;
        this.inString = false;
        if (this.depth === 0) {
            this.endElement(chunk, j + 1);
        }
        else if (this.isEvent && this.depth === 1 && (this.expectKey || this.catNext)) {
            // A key or a category split across chunks is not read from the bytes; the event is decoded.
            if (this.catNext)
                this.setCategory(CAT_UNKNOWN);
            else
                this.uncertain = true;
            this.expectKey = false;
            this.catNext = false;
        }
        return j + 1;
    }
    /** The hot loop: strings, nesting, and the event's `"cat"` value. Returns the next index. */
    scanElement(chunk, i, n) {
        if (this.scalar)
            return this.scanScalar(chunk, i, n);
        if (this.inString) {
            i = this.resumeString(chunk, i, n);
            if (this.inString || this.done)
                return i;
        }
        let depth = this.depth;
        let expectKey = this.expectKey;
        let catNext = this.catNext;
        const stack = this.stack;
        const watchKeys = this.isEvent;
        for (; i < n; i++) {
            const c = chunk[i];
            const kind = CLASS[c];
            if (kind === OTHER)
                continue;
            if (kind === IS_QUOTE) {
                const s = i + 1;
                const j = stringEnd(chunk, s, n);
                if (j < 0) {
                    this.inString = true;
                    this.escape = endsInEscape(chunk, s, n);
                    break;
                }
                i = j;
                if (depth === 0) {
                    this.endElement(chunk, j + 1);
                    return j + 1;
                }
                if (watchKeys && depth === 1) {
                    if (expectKey) {
                        expectKey = false;
                        catNext = j - s === 3 && chunk[s] === 99 && chunk[s + 1] === 97 && chunk[s + 2] === 116;
                    }
                    else if (catNext) {
                        catNext = false;
                        const category = categoryOf(chunk, s, j);
                        this.setCategory(category);
                        // A wanted event that began in this chunk is decoded in place by scan(), in one pass.
                        if (category !== CAT_SKIP && this.keptBytes === 0) {
                            this.depth = depth;
                            this.expectKey = expectKey;
                            this.catNext = catNext;
                            this.decodeNow = true;
                            return j + 1;
                        }
                    }
                }
            }
            else if (kind === IS_COMMA) {
                if (depth === 1) {
                    expectKey = true;
                    catNext = false;
                }
            }
            else if (kind === IS_OPEN) {
                if (depth === MAX_NESTING)
                    throw new ScanError(`expected JSON nested at most ${MAX_NESTING} deep, got nesting deeper than ${MAX_NESTING}`, this.base + i);
                stack[depth] = c;
                depth++;
                if (depth === 1)
                    expectKey = c === LBRACE;
            }
            else {
                if (depth === 0 || stack[depth - 1] !== c - 2)
                    this.fail(stack[depth - 1] === LBRACE ? '`}`' : '`]`', chunk, i);
                depth--;
                if (depth === 0) {
                    this.depth = 0;
                    this.endElement(chunk, i + 1);
                    return i + 1;
                }
            }
        }
        this.depth = depth;
        this.expectKey = expectKey;
        this.catNext = catNext;
        return n;
    }
    setCategory(category) {
        this.category = category;
        if (category === CAT_SKIP) {
            this.keep = false;
            this.dropPieces();
        }
    }
    endElement(chunk, end) {
        this.done = true;
        if (!this.keep)
            return;
        let category = this.category;
        if (this.isEvent && category === CAT_PENDING) {
            if (!this.uncertain)
                return; // no "cat": metadata and instant events
            category = CAT_UNKNOWN;
        }
        let bytes = chunk;
        let start = this.elementStart;
        if (this.keptBytes !== 0) {
            bytes = Buffer.concat([...this.pieces, chunk.subarray(0, end)]);
            start = 0;
            end = bytes.length;
            this.dropPieces();
        }
        if (this.isEvent) {
            if (this.sink.event(bytes, start, end, category, this.elementOffset) < 0) {
                throw new ScanError('expected a complete trace event', this.elementOffset);
            }
        }
        else
            this.sink.member(this.key, bytes, start, end, this.elementOffset);
    }
}

;// CONCATENATED MODULE: ./src/ingest/formats/kineto/json-scanner.ts
/**
 * Streaming splitter for Chrome trace JSON: `{ …, "traceEvents": [ {event}, … ], … }`.
 * Bytes are fed chunk by chunk. This state machine walks the root object and the traceEvents
 * array; each element in them (an event, or another top-level member's value) is scanned by
 * ElementScanner, which skips unwanted events by their bytes and hands wanted ones to the sink.
 * Top-level keys may come before or after traceEvents. Truncated or malformed input throws a
 * ScanError with the absolute byte offset.
 * Limits: skipped events are checked only for balanced brackets and closed strings, not full JSON
 * grammar. Input must be UTF-8 (the JSON structural bytes are ASCII).
 */



// Outer states: between elements of the root object and of the traceEvents array.
const BEFORE_ROOT = 0;
const ROOT_KEY = 1; // after `{` or `,`: a key (or `}` right after `{`)
const ROOT_KEY_STRING = 2; // inside a key string
const ROOT_COLON = 3;
const ROOT_VALUE = 4;
const ROOT_AFTER_VALUE = 5;
const ARRAY_FIRST = 6; // after `[`: an event or `]`
const ARRAY_AFTER = 7; // after an event: `,` or `]`
const ARRAY_NEXT = 8; // after `,`: an event
const AFTER_ROOT = 9;
const IN_ELEMENT = 10;
const EXPECTED_AT_EOF = [
    'a JSON object',
    'a key or `}` in the top-level object',
    'the end of a top-level key',
    '`:` after a top-level key',
    'a value for a top-level key',
    '`,` or `}` after a top-level value',
    'the traceEvents array to continue',
    '`,` or `]` in the traceEvents array',
    'the next element of the traceEvents array',
    '',
    'the rest of the JSON value',
];
class TraceScanner {
    state = BEFORE_ROOT;
    /** Absolute offset of the current chunk's first byte. */
    base = 0;
    keyPieces = [];
    keyStart = 0;
    keyEscape = false;
    key = '';
    rootEmpty = true;
    element;
    sawTraceEvents = false;
    constructor(sink) {
        this.element = new ElementScanner(sink);
    }
    get bytesSeen() {
        return this.base;
    }
    push(chunk) {
        this.keyStart = 0;
        this.element.base = this.base;
        this.run(chunk, chunk.length);
        if (this.state === IN_ELEMENT)
            this.element.chunkEnd(chunk);
        if (this.state === ROOT_KEY_STRING)
            this.keyPieces.push(Buffer.from(chunk.subarray(this.keyStart)));
        this.base += chunk.length;
    }
    /** Kept apart from push so that the rare chunk-end paths cannot deoptimize the loop. */
    run(chunk, n) {
        const element = this.element;
        let i = 0;
        while (i < n) {
            const state = this.state;
            if (state === IN_ELEMENT) {
                i = element.scan(chunk, i, n);
                if (element.done)
                    this.state = element.isEvent ? ARRAY_AFTER : ROOT_AFTER_VALUE;
            }
            else if (state === ROOT_KEY_STRING)
                i = this.scanKey(chunk, i, n);
            else {
                const c = chunk[i];
                i = isSpace(c) ? i + 1 : this.outer(chunk, i, c);
            }
        }
    }
    /** Call at end of input; throws ScanError when the JSON is incomplete. */
    finish() {
        if (this.state === AFTER_ROOT)
            return;
        if (this.base === 0)
            throw new ScanError('expected a JSON object, got an empty file', 0);
        throw new ScanError(`expected ${EXPECTED_AT_EOF[this.state]}, got end of file`, this.base);
    }
    fail(expected, chunk, i) {
        throw new ScanError(`expected ${expected}, got ${describeByte(chunk[i])}`, this.base + i);
    }
    /** One structural byte between elements; returns the next index. */
    outer(chunk, i, c) {
        switch (this.state) {
            case BEFORE_ROOT:
                if (c === 0xef && this.base + i === 0 && chunk[i + 1] === 0xbb && chunk[i + 2] === 0xbf)
                    return i + 3;
                if (c !== LBRACE)
                    this.fail('a JSON object (`{`)', chunk, i);
                this.state = ROOT_KEY;
                return i + 1;
            case ROOT_KEY:
                if (c === RBRACE && this.rootEmpty) {
                    this.state = AFTER_ROOT;
                    return i + 1;
                }
                if (c !== json_element_QUOTE)
                    this.fail('a quoted key in the top-level object', chunk, i);
                this.state = ROOT_KEY_STRING;
                this.keyStart = i + 1;
                this.keyPieces = [];
                this.keyEscape = false;
                return i + 1;
            case ROOT_COLON:
                if (c !== COLON)
                    this.fail('`:` after a top-level key', chunk, i);
                this.state = ROOT_VALUE;
                return i + 1;
            case ROOT_VALUE:
                if (this.key !== 'traceEvents')
                    return this.beginElement(false, chunk, i);
                if (c !== LBRACKET)
                    this.fail('traceEvents to be an array (`[`)', chunk, i);
                // JSON.parse would keep the last one and other tools the first: neither is safe to guess.
                if (this.sawTraceEvents)
                    throw new ScanError('expected one "traceEvents" array, got a second one', this.base + i);
                this.sawTraceEvents = true;
                this.state = ARRAY_FIRST;
                return i + 1;
            case ROOT_AFTER_VALUE:
                if (c === COMMA)
                    this.state = ROOT_KEY;
                else if (c === RBRACE)
                    this.state = AFTER_ROOT;
                else
                    this.fail('`,` or `}` after a top-level value', chunk, i);
                this.rootEmpty = false;
                return i + 1;
            case ARRAY_FIRST:
                if (c !== RBRACKET)
                    return this.beginElement(true, chunk, i);
                this.state = ROOT_AFTER_VALUE;
                return i + 1;
            case ARRAY_AFTER:
                if (c === COMMA)
                    this.state = ARRAY_NEXT;
                else if (c === RBRACKET)
                    this.state = ROOT_AFTER_VALUE;
                else
                    this.fail('`,` or `]` between trace events', chunk, i);
                return i + 1;
            case ARRAY_NEXT:
                return this.beginElement(true, chunk, i);
            default:
                return this.fail('nothing after the top-level object', chunk, i);
        }
    }
    /** A top-level key's characters, possibly over several chunks. */
    scanKey(chunk, i, n) {
        const from = this.keyEscape ? i + 1 : i;
        const j = stringEnd(chunk, from, n);
        if (j < 0) {
            this.keyEscape = endsInEscape(chunk, from, n);
            return n;
        }
        this.keyEscape = false;
        const last = chunk.subarray(this.keyStart, j);
        const raw = this.keyPieces.length ? Buffer.concat([...this.keyPieces, last]) : last;
        this.keyPieces = [];
        try {
            this.key = JSON.parse(`"${raw.toString('utf8')}"`);
        }
        catch {
            this.fail('a valid JSON string as key', chunk, j);
        }
        this.state = ROOT_COLON;
        return j + 1;
    }
    beginElement(isEvent, chunk, i) {
        this.element.begin(isEvent, this.key, chunk, i);
        this.state = IN_ELEMENT;
        return i;
    }
}

;// CONCATENATED MODULE: ./src/ingest/formats/kineto/timeline.ts
/** What an op is, for the timeline: a copy or fill, a compute kernel, a collective kernel, a host copy. */
const OP_MEMOP = 0;
const OP_KERNEL = 1;
const OP_COLLECTIVE = 2;
/** A host-to-device or device-to-host copy (other copies and fills are OP_MEMOP). */
const OP_HOST_COPY = 3;
const isKernel = (kind) => kind === OP_KERNEL || kind === OP_COLLECTIVE;
/**
 * A gap is left out of utilization when it is at least this long: far longer than any launch, sync
 * or host step of a decode or training loop (those are µs to a few ms).
 */
const EXCLUDED_GAP_MIN_NS = 50e6;
/** … and at least this many times the median gap between GPU ops (the typical inter-launch gap). */
const EXCLUDED_GAP_MEDIAN_FACTOR = 1000;
/** Kernels before a gap below this share of all kernels: the gap ends set-up (after it, tear-down). */
const SET_UP_KERNEL_SHARE = 0.02;
class OpLog {
    count = 0;
    starts = new Float64Array(1024);
    ends = new Float64Array(1024);
    devices = new Int32Array(1024);
    correlations = new Float64Array(1024);
    /** OP_MEMOP, OP_KERNEL, OP_COLLECTIVE or OP_HOST_COPY. */
    kind = new Uint8Array(1024);
    push(start, end, device, correlation, kind) {
        if (this.count === this.starts.length)
            this.grow();
        const k = this.count++;
        this.starts[k] = start;
        this.ends[k] = end;
        this.devices[k] = device;
        this.correlations[k] = correlation;
        this.kind[k] = kind;
    }
    grow() {
        const size = this.starts.length * 2;
        const grow = (old, fresh) => {
            fresh.set(old);
            return fresh;
        };
        this.starts = grow(this.starts, new Float64Array(size));
        this.ends = grow(this.ends, new Float64Array(size));
        this.devices = grow(this.devices, new Int32Array(size));
        this.correlations = grow(this.correlations, new Float64Array(size));
        this.kind = grow(this.kind, new Uint8Array(size));
    }
}
/**
 * Union of the device's op intervals; gaps (the spaces between merged intervals) are added to
 * `gaps`. The merged intervals are written over the sorted inputs (the k-th merged interval needs
 * at least k starts and k ends already read), so a trace of millions of ops needs no second copy.
 */
function mergeDevice(starts, ends, gaps) {
    starts.sort();
    ends.sort();
    let merged = 0;
    let busy = 0;
    let active = 0;
    let open = 0;
    let i = 0;
    let j = 0;
    while (j < ends.length) {
        if (i < starts.length && starts[i] <= ends[j]) {
            if (active === 0) {
                open = starts[i];
                const last = merged ? ends[merged - 1] : open;
                if (open > last) {
                    gaps.count++;
                    gaps.totalNs += open - last;
                    if (open - last > gaps.longestNs)
                        gaps.longestNs = open - last;
                }
            }
            active++;
            i++;
        }
        else {
            active--;
            if (active === 0) {
                const end = ends[j];
                starts[merged] = open;
                ends[merged++] = end;
                busy += end - open;
            }
            j++;
        }
    }
    return { starts: starts.subarray(0, merged), ends: ends.subarray(0, merged), busy };
}
/** Busy time of one device inside [from, to). */
function busyWithin(device, from, to) {
    const { starts, ends } = device;
    let lo = 0;
    let hi = ends.length;
    while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (ends[mid] <= from)
            lo = mid + 1;
        else
            hi = mid;
    }
    let total = 0;
    for (let k = lo; k < starts.length && starts[k] < to; k++)
        total += Math.min(ends[k], to) - Math.max(starts[k], from);
    return total;
}
function lowerBound(sorted, value) {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (sorted[mid] < value)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}
/** Copy the intervals of the device's ops whose kind `take` accepts into the buffers; returns how many. */
function fill(ops, device, take, starts, ends) {
    let m = 0;
    for (let k = 0; k < ops.count; k++) {
        if (ops.devices[k] !== device || !take(ops.kind[k]))
            continue;
        starts[m] = ops.starts[k];
        ends[m++] = ops.ends[k];
    }
    return m;
}
/** Length of the union of the device's ops of the kinds `take` accepts, sorted in the given buffers. */
function unionNs(ops, device, take, starts, ends) {
    const m = fill(ops, device, take, starts, ends);
    return m ? mergeDevice(starts.subarray(0, m), ends.subarray(0, m), { count: 0, totalNs: 0, longestNs: 0 }).busy : 0;
}
/**
 * Collective time on one device, and the part of it no compute kernel overlaps. Kernels of one
 * stream never overlap, so an overlap is always with another stream. exposed = |C ∖ K| = |C ∪ K| − |K|:
 * three unions, each sorted in the same two buffers, so no interval list is kept.
 */
function communicationOf(ops, device, starts, ends) {
    const collectiveNs = unionNs(ops, device, (kind) => kind === OP_COLLECTIVE, starts, ends);
    const kernelNs = unionNs(ops, device, isKernel, starts, ends);
    const computeNs = unionNs(ops, device, (kind) => kind === OP_KERNEL, starts, ends);
    return { collectiveNs, exposedNs: Math.max(0, kernelNs - computeNs) };
}
/** Host↔device copy time on one device, and the part no kernel overlaps: |K ∪ H| − |K|. */
function transfersOf(ops, device, starts, ends) {
    const copyNs = unionNs(ops, device, (kind) => kind === OP_HOST_COPY, starts, ends);
    const withKernels = unionNs(ops, device, (kind) => kind === OP_HOST_COPY || isKernel(kind), starts, ends);
    const kernelNs = unionNs(ops, device, isKernel, starts, ends);
    return { copyNs, exposedNs: Math.max(0, withKernels - kernelNs) };
}
/** Fewer gaps than this give no typical inter-launch gap to compare against: nothing is excluded. */
const MIN_GAPS_FOR_EXCLUSION = 10;
/**
 * Idle stretches (when no device is busy) that are not the workload: at least EXCLUDED_GAP_MIN_NS,
 * at least EXCLUDED_GAP_MEDIAN_FACTOR × the median gap, and not inside a profiler step (idle inside
 * a step is the workload's own). Named set-up when fewer than 2 % of the kernels ran before it,
 * tear-down when fewer than 2 % ran after it, otherwise between repetitions.
 */
function excludedGapsOf(union, windows, kernelStarts, spanStart, captures = []) {
    const { starts, ends } = union;
    const count = starts.length - 1;
    // The GPU waits while the host records a CUDA graph: set-up by its cause, whatever its length
    // and even inside a profiler step. Half the gap under a capture is enough to name it.
    const captured = new Set();
    for (let k = 0; k < count; k++) {
        const from = ends[k];
        const to = starts[k + 1];
        const overlap = captures.reduce((sum, c) => sum + Math.max(0, Math.min(c.end, to) - Math.max(c.start, from)), 0);
        if (to > from && overlap >= (to - from) / 2)
            captured.add(k);
    }
    const capturedGaps = [...captured].map((k) => ({ startNs: ends[k] - spanStart, durNs: starts[k + 1] - ends[k], reason: 'set-up' }));
    if (count < MIN_GAPS_FOR_EXCLUSION)
        return capturedGaps;
    const lengths = new Float64Array(count);
    for (let k = 0; k < count; k++)
        lengths[k] = starts[k + 1] - ends[k];
    lengths.sort();
    const threshold = Math.max(EXCLUDED_GAP_MIN_NS, EXCLUDED_GAP_MEDIAN_FACTOR * lengths[count >> 1]);
    if (lengths[count - 1] < threshold)
        return capturedGaps;
    const kernels = kernelStarts.length;
    const out = [];
    for (let k = 0; k < count; k++) {
        const from = ends[k];
        const to = starts[k + 1];
        if (captured.has(k)) {
            out.push({ startNs: from - spanStart, durNs: to - from, reason: 'set-up' });
            continue;
        }
        if (to - from < threshold)
            continue;
        const inStep = windows.some((w) => Math.min(w.end, to) - Math.max(w.start, from) > (to - from) / 2);
        if (inStep)
            continue;
        const before = lowerBound(kernelStarts, to);
        const reason = kernels === 0 ? 'between-repetitions' : before < SET_UP_KERNEL_SHARE * kernels ? 'set-up' : kernels - before < SET_UP_KERNEL_SHARE * kernels ? 'tear-down' : 'between-repetitions';
        out.push({ startNs: from - spanStart, durNs: to - from, reason });
    }
    return out;
}
/** The union over devices of their merged busy intervals (the device's own when there is one). */
function unionOfDevices(devices) {
    if (devices.length === 1)
        return devices[0];
    const size = devices.reduce((sum, d) => sum + d.starts.length, 0);
    const starts = new Float64Array(size);
    const ends = new Float64Array(size);
    let m = 0;
    for (const d of devices) {
        starts.set(d.starts, m);
        ends.set(d.ends, m);
        m += d.starts.length;
    }
    return mergeDevice(starts, ends, { count: 0, totalNs: 0, longestNs: 0 });
}
function buildTimeline(ops, windows, counts) {
    const n = ops.count;
    const perDevice = new Map();
    let spanStart = Infinity;
    let spanEnd = -Infinity;
    let kernels = 0;
    for (let k = 0; k < n; k++) {
        const device = ops.devices[k];
        let entry = perDevice.get(device);
        if (!entry)
            perDevice.set(device, (entry = { size: 0, collectives: 0, hostCopies: 0 }));
        entry.size++;
        if (ops.kind[k] === OP_COLLECTIVE)
            entry.collectives++;
        if (ops.starts[k] < spanStart)
            spanStart = ops.starts[k];
        if (ops.ends[k] > spanEnd)
            spanEnd = ops.ends[k];
        if (ops.kind[k] === OP_HOST_COPY)
            entry.hostCopies++;
        if (isKernel(ops.kind[k]))
            kernels++;
    }
    if (n === 0)
        spanStart = spanEnd = windows.length ? Math.min(...windows.map((w) => w.start)) : 0;
    const devices = [];
    let busyNs = 0;
    const idleGaps = { count: 0, totalNs: 0, longestNs: 0 };
    let communication;
    let transfers;
    for (const [device, { size, collectives, hostCopies }] of perDevice) {
        const starts = new Float64Array(size);
        const ends = new Float64Array(size);
        if (hostCopies > 0) {
            const own = transfersOf(ops, device, starts, ends);
            transfers = { copyNs: (transfers?.copyNs ?? 0) + own.copyNs, exposedNs: (transfers?.exposedNs ?? 0) + own.exposedNs };
        }
        if (collectives > 0) {
            const own = communicationOf(ops, device, starts, ends);
            communication = { collectiveNs: (communication?.collectiveNs ?? 0) + own.collectiveNs, exposedNs: (communication?.exposedNs ?? 0) + own.exposedNs };
        }
        fill(ops, device, () => true, starts, ends);
        const merged = mergeDevice(starts, ends, idleGaps);
        devices.push(merged);
        busyNs += merged.busy;
    }
    const kernelStarts = new Float64Array(kernels);
    const busyByDecile = new Array(10).fill(0);
    const width = (spanEnd - spanStart) / 10;
    let graphKernels = 0;
    for (let k = 0, m = 0; k < n; k++) {
        if (!isKernel(ops.kind[k]))
            continue;
        const start = ops.starts[k];
        const end = ops.ends[k];
        kernelStarts[m++] = start;
        if (counts.graphCorrelations.size && counts.graphCorrelations.has(ops.correlations[k]))
            graphKernels++;
        if (width <= 0)
            continue;
        for (let d = Math.min(9, Math.floor((start - spanStart) / width)); d < 10; d++) {
            const from = spanStart + d * width;
            const to = d === 9 ? spanEnd : from + width;
            if (from >= end)
                break;
            busyByDecile[d] += Math.max(0, Math.min(end, to) - Math.max(start, from));
        }
    }
    kernelStarts.sort();
    const steps = windows
        .slice()
        .sort((a, b) => a.start - b.start)
        .map((w) => ({
        name: w.name,
        startNs: w.start - spanStart,
        durNs: w.end - w.start,
        gpuBusyNs: devices.reduce((sum, device) => sum + busyWithin(device, w.start, w.end), 0),
        kernels: lowerBound(kernelStarts, w.end) - lowerBound(kernelStarts, w.start),
    }));
    const excludedGaps = devices.length ? excludedGapsOf(unionOfDevices(devices), windows, kernelStarts, spanStart, counts.captureWindows) : [];
    const spanNs = Math.max(0, spanEnd - spanStart);
    return {
        spanNs,
        busyNs,
        devices: perDevice.size,
        idleGaps,
        kernelLaunches: counts.kernelLaunches,
        graphLaunches: counts.graphLaunches,
        graphKernels,
        steps,
        busyByDecile: busyByDecile.map((ns) => Math.round(ns)),
        excludedGaps,
        activeSpanNs: Math.max(0, spanNs - excludedGaps.reduce((sum, gap) => sum + gap.durNs, 0)),
        ...(communication ? { communication } : {}),
        ...(transfers ? { transfers } : {}),
    };
}
/**
 * One timeline per device, when the ops span several (a single-process multi-GPU run). Each is built
 * from that device's ops alone; its launch count is the kernels that ran on it (the API calls that
 * launched them are per process, not per device), and it has no graph-launch count.
 */
function deviceTimelines(ops, windows, counts) {
    const devices = new Set();
    for (let k = 0; k < ops.count; k++)
        devices.add(ops.devices[k]);
    if (devices.size < 2)
        return [];
    return [...devices]
        .sort((a, b) => a - b)
        .map((device) => {
        const own = new OpLog();
        let kernels = 0;
        for (let k = 0; k < ops.count; k++) {
            if (ops.devices[k] !== device)
                continue;
            own.push(ops.starts[k], ops.ends[k], device, ops.correlations[k], ops.kind[k]);
            if (isKernel(ops.kind[k]))
                kernels++;
        }
        return { device, timeline: buildTimeline(own, windows, { kernelLaunches: kernels, graphLaunches: 0, graphCorrelations: counts.graphCorrelations, ...(counts.captureWindows ? { captureWindows: counts.captureWindows } : {}) }) };
    });
}

;// CONCATENATED MODULE: ./src/ingest/formats/kineto/graph-captures.ts
/**
 * CUDA-graph replays tied to their capture, when the capture is inside the same trace.
 *
 * A replayed kernel has no CPU op: its correlation id is that of a `cudaGraphLaunch` call. But when
 * the profiler also recorded the graph's capture (`torch.cuda.graph`, `make_graphed_callables`,
 * torch.compile's cudagraph trees), the capture's launch calls are in the trace, between
 * `cudaStreamBeginCapture` and `cudaStreamEndCapture` on one CPU thread, each with its op's
 * External id and inside its Python frames; no GPU event carries their correlation ids (nothing ran
 * then). Each launch became one node of the graph, and a replay runs its nodes in capture order on
 * one stream: sorted by start time, the i-th GPU event of a replay is the i-th launch of its capture.
 * Kernel launches (runtime and driver API: cuBLAS launches with `cuLaunchKernelEx`) and async
 * memcpy/memset calls are nodes on both sides (a captured `cudaMemcpyAsync` is a memcpy node, and its
 * replays show a `gpu_memcpy` with the graph launch's correlation id); host-function, event and
 * other nodes leave no GPU event, and their calls are not counted.
 *
 * A replay is attributed only when that is sound: it ran on one stream (nodes on several streams
 * need not start in capture order); its node count equals that of exactly one capture completed
 * before its graph launch (a trace cut in mid-replay, a graph captured before profiling began, or
 * two captures of one count are refused); the capture's calls were in time order on its thread, did
 * not overlap another capture there, and launched no graph of their own; and all replays tied to a
 * capture ran the same kernel at each position. Refused replays are counted by reason.
 *
 * Memory: per capture, per launch an op site, a Python site code and a correlation id (24 bytes).
 * GPU events that carry no op are kept (ref, correlation, stream, start, duration) only once a
 * capture has begun, since only then can a replay be tied to it, and at most MAX_DEFERRED of them.
 */
/** GPU events kept for matching at most (40 bytes each: about 84 MB). Past it, the rest are read as without a capture. */
const MAX_DEFERRED = 1 << 21;
class GrowList {
    values;
    length = 0;
    constructor(size = 64) {
        this.values = new Float64Array(size);
    }
    push(value) {
        if (this.length === this.values.length) {
            const grown = new Float64Array(this.values.length * 2);
            grown.set(this.values);
            this.values = grown;
        }
        this.values[this.length++] = value;
    }
    at(k) {
        return this.values[k];
    }
}
const hostKey = (pid, tid) => `${pid}:${tid}`;
class GraphCaptures {
    open = new Map();
    completed = [];
    /** Graph launch correlation id → captures completed when it was read. */
    capturesAtLaunch = new Map();
    /** Correlation ids carried by GPU events since the first capture began (1 bit each). */
    gpuCorrelations = new Uint8Array(0);
    gpuCorrelationsFar = new Set();
    began = false;
    // The GPU events that carry no op, kept while a capture is in the trace.
    refs = [];
    correlations = new GrowList(1024);
    streams = new GrowList(1024);
    starts = new GrowList(1024);
    durations = new GrowList(1024);
    overflow = false;
    graphLaunches = 0;
    /** Graph launches read before any capture had ended: their graphs were captured earlier. */
    launchesBeforeCapture = 0;
    /** True once a capture has begun: GPU events without an op are then kept for matching. */
    get active() {
        return this.began;
    }
    /** `cudaStreamBeginCapture` (or its driver or HIP twin) at `ns` on CPU thread (pid, tid). */
    begin(pid, tid, ns) {
        this.began = true;
        const key = hostKey(pid, tid);
        const known = this.open.get(key);
        const capture = { lastNs: ns, opSites: new GrowList(), pythonCodes: new GrowList(), correlations: new GrowList(), unsound: false };
        if (known) {
            // Two streams captured at once on one thread: which launch went to which is not known.
            known.unsound = true;
            capture.unsound = true;
        }
        this.open.set(key, capture);
    }
    /** `cudaStreamEndCapture` at `ns` on (pid, tid). */
    end(pid, tid, ns) {
        const key = hostKey(pid, tid);
        const capture = this.open.get(key);
        if (!capture)
            return; // began before the trace: its launches before this are not all here
        this.inOrder(capture, ns);
        this.open.delete(key);
        this.completed.push(capture);
    }
    /**
     * A call that makes a graph node when captured (a kernel launch, an async memcpy or memset) at
     * `ns` on (pid, tid), with the op site and Python site code it was launched from (-1: none).
     */
    launch(pid, tid, ns, correlation, opSite, pythonCode) {
        if (this.open.size === 0)
            return;
        const capture = this.open.get(hostKey(pid, tid));
        if (!capture)
            return;
        this.inOrder(capture, ns);
        capture.opSites.push(opSite);
        capture.pythonCodes.push(pythonCode);
        capture.correlations.push(correlation);
    }
    /** A graph launch call: its replay may be tied to the captures completed before it. */
    graphLaunch(pid, tid, correlation) {
        const inside = this.open.size ? this.open.get(hostKey(pid, tid)) : undefined;
        if (inside)
            inside.unsound = true; // a child graph: its nodes are not the capture's launches
        this.graphLaunches++;
        if (this.completed.length === 0)
            this.launchesBeforeCapture++;
        else if (Number.isFinite(correlation))
            this.capturesAtLaunch.set(correlation, this.completed.length);
    }
    /** Every GPU event, once a capture has begun: a launch whose correlation one carries ran then, outside the graph. */
    gpuEvent(correlation) {
        if (!Number.isInteger(correlation) || correlation < 0)
            return;
        if (correlation >= 1 << 30) {
            this.gpuCorrelationsFar.add(correlation);
            return;
        }
        const byte = correlation >> 3;
        if (byte >= this.gpuCorrelations.length) {
            let size = Math.max(1024, this.gpuCorrelations.length);
            while (size <= byte)
                size *= 2;
            const grown = new Uint8Array(size);
            grown.set(this.gpuCorrelations);
            this.gpuCorrelations = grown;
        }
        this.gpuCorrelations[byte] |= 1 << (correlation & 7);
    }
    /**
     * Keep a GPU event that carries no op (`ref`: its sums) until the end; false when it is not kept
     * (no capture has begun, or the store is full), and the caller reads it as before.
     */
    defer(ref, correlation, stream, startNs, durNs) {
        if (!this.began || !Number.isInteger(correlation) || correlation < 0)
            return false;
        if (this.refs.length >= MAX_DEFERRED) {
            this.overflow = true;
            return false;
        }
        this.refs.push(ref);
        this.correlations.push(correlation);
        this.streams.push(stream);
        this.starts.push(startNs);
        this.durations.push(durNs);
        return true;
    }
    /**
     * At the end of the trace: each kept GPU event goes to `attribute` (with the op site and Python
     * code of its capture launch) or, when its replay is not tied to a capture or it is no replay, to
     * `fallback`, exactly once.
     */
    finish(isGraphLaunch, attribute, fallback) {
        for (const capture of this.completed) {
            const nodes = [];
            for (let k = 0; k < capture.correlations.length; k++)
                if (!this.ranOutsideGraph(capture.correlations.at(k)))
                    nodes.push(k);
            capture.nodes = nodes;
        }
        const reading = { captures: this.completed.length, replays: this.graphLaunches, attributedReplays: 0, attributedNodes: 0, refused: new Map(), overflow: this.overflow };
        if (this.launchesBeforeCapture)
            reading.refused.set('no-capture', { replays: this.launchesBeforeCapture, nodes: 0 });
        const refuse = (reason, replay) => {
            const known = reading.refused.get(reason) ?? { replays: 0, nodes: 0 };
            known.replays++;
            known.nodes += replay.events.length;
            reading.refused.set(reason, known);
            for (const k of replay.events)
                fallback(this.refs[k], replay.correlation, this.durations.at(k));
        };
        const matched = [];
        for (const replay of this.replays()) {
            if (!isGraphLaunch(replay.correlation)) {
                for (const k of replay.events)
                    fallback(this.refs[k], replay.correlation, this.durations.at(k));
                continue;
            }
            const reason = this.match(replay);
            if (reason === 'no-capture')
                for (const k of replay.events)
                    fallback(this.refs[k], replay.correlation, this.durations.at(k));
            else if (reason)
                refuse(reason, replay);
            else
                matched.push(replay);
        }
        // All replays tied to one capture must agree on the kernel at each position.
        const disagreeing = new Set();
        for (const replay of matched) {
            const capture = replay.capture;
            const kinds = replay.events.map((k) => this.refs[k]);
            if (!capture.reference)
                capture.reference = kinds;
            else if (kinds.some((kind, i) => kind !== capture.reference[i]))
                disagreeing.add(capture);
        }
        for (const replay of matched) {
            const capture = replay.capture;
            if (disagreeing.has(capture)) {
                refuse('replays-disagree', replay);
                continue;
            }
            reading.attributedReplays++;
            reading.attributedNodes += replay.events.length;
            replay.events.forEach((k, i) => {
                const launch = capture.nodes[i];
                attribute(this.refs[k], capture.opSites.at(launch), capture.pythonCodes.at(launch), this.durations.at(k));
            });
        }
        this.refs = [];
        return reading;
    }
    /** Why a replay may not be tied to a capture, or undefined (and its capture set) when it may. */
    match(replay) {
        const before = this.capturesAtLaunch.get(replay.correlation) ?? 0;
        if (before === 0)
            return 'no-capture';
        const stream = this.streams.at(replay.events[0]);
        if (replay.events.some((k) => this.streams.at(k) !== stream))
            return 'streams';
        const size = replay.events.length;
        const candidates = this.completed.slice(0, before).filter((capture) => capture.nodes.length === size);
        if (candidates.length === 0)
            return 'count';
        if (candidates.length > 1)
            return 'ambiguous';
        if (candidates[0].unsound)
            return 'capture-order';
        replay.capture = candidates[0];
        return undefined;
    }
    /** The kept GPU events grouped by correlation id, each group sorted by start (then file order). */
    replays() {
        const order = Array.from({ length: this.refs.length }, (_, k) => k);
        const corr = this.correlations.values;
        const start = this.starts.values;
        order.sort((a, b) => corr[a] - corr[b] || start[a] - start[b] || a - b);
        const out = [];
        for (const k of order) {
            const last = out[out.length - 1];
            if (last && last.correlation === corr[k])
                last.events.push(k);
            else
                out.push({ correlation: corr[k], events: [k], capture: undefined });
        }
        return out;
    }
    ranOutsideGraph(correlation) {
        if (!Number.isInteger(correlation) || correlation < 0)
            return false;
        if (correlation >= 1 << 30)
            return this.gpuCorrelationsFar.has(correlation);
        const byte = correlation >> 3;
        return byte < this.gpuCorrelations.length && (this.gpuCorrelations[byte] & (1 << (correlation & 7))) !== 0;
    }
    inOrder(capture, ns) {
        if (ns < capture.lastNs)
            capture.unsound = true;
        else
            capture.lastNs = ns;
    }
}

;// CONCATENATED MODULE: ./src/ingest/formats/kineto/event-reader.ts
/**
 * Reads the few fields the importer needs from one trace event's bytes, without JSON.parse:
 * `ph`, `name`, `pid`, `tid`, `ts`, `dur`, and from `args`: `device`, `stream`, `correlation`, `External id`,
 * `bytes`, `grid`, `block`, and the byte range of `Input Dims`. Times are split into whole µs and a ns remainder so that float µs timestamps keep their
 * ns digits exactly (a float64 of epoch µs does not). Other keys are skipped by their bytes.
 */


const MINUS = 45;
const DOT = 46;
const ZERO = 48;
const NINE = 57;
/** Thrown when the event runs past the bytes given to read(): it continues in the next chunk. */
const INCOMPLETE = new Error('incomplete trace event');
/** Thrown for an event that is not valid JSON; `at` is an index into the bytes given to read(). */
class EventSyntaxError extends Error {
    at;
    constructor(message, at) {
        super(message);
        this.at = at;
    }
}
const key = (text) => Buffer.from(text, 'latin1');
const K_PH = key('ph');
const K_TS = key('ts');
const K_PID = key('pid');
const K_TID = key('tid');
const K_EXTERNAL_ID = key('External id');
const K_INPUT_DIMS = key('Input Dims');
const K_DUR = key('dur');
const K_CAT = key('cat');
const K_NAME = key('name');
const K_ARGS = key('args');
const K_GRID = key('grid');
const K_BYTES = key('bytes');
const K_BLOCK = key('block');
const K_DEVICE = key('device');
const K_STREAM = key('stream');
const K_CORRELATION = key('correlation');
class EventFields {
    b = Buffer.alloc(0);
    end = 0;
    /** First character of the `ph` value ('X' = 88 for complete events), 0 when absent. */
    ph = 0;
    cat;
    nameStart = -1;
    nameEnd = -1;
    pid = NaN;
    /** Numeric tid (NaN when absent or a string). */
    tid = NaN;
    hasTs = false;
    tsUs = 0;
    tsFracNs = 0;
    hasDur = false;
    durNs = 0;
    device = NaN;
    /** args.stream of a GPU event (NaN when absent). */
    stream = NaN;
    correlation = NaN;
    externalId = NaN;
    /** Byte range of the `Input Dims` value (record_shapes), -1 when absent. */
    inputDimsStart = -1;
    inputDimsEnd = -1;
    bytes = NaN;
    /** grid x,y,z then block x,y,z; NaN where absent. */
    shape = new Float64Array(6);
    wantCat = false;
    wantArgs = true;
    // Scratch for number parsing.
    whole = 0;
    fracNs = 0;
    num = 0;
    /**
     * Parse the event object starting at bytes[start] and ending before `end`; returns the index
     * after its `}`. Throws INCOMPLETE when it does not end before `end`, EventSyntaxError on bad JSON.
     * Without `wantArgs`, `args` is skipped by its bytes (an event whose top-level fields say all).
     */
    read(bytes, start, end, wantCat, wantArgs = true) {
        this.b = bytes;
        this.end = end;
        this.wantCat = wantCat;
        this.wantArgs = wantArgs;
        this.ph = 0;
        this.cat = undefined;
        this.nameStart = -1;
        this.nameEnd = -1;
        this.pid = NaN;
        this.tid = NaN;
        this.hasTs = false;
        this.hasDur = false;
        this.device = NaN;
        this.stream = NaN;
        this.correlation = NaN;
        this.externalId = NaN;
        this.inputDimsStart = -1;
        this.inputDimsEnd = -1;
        this.bytes = NaN;
        this.shape.fill(NaN);
        const p = this.ws(start);
        if (bytes[p] !== LBRACE)
            this.fail('a trace event object', p);
        return this.members(p, 1);
    }
    /** The bytes the last read() parsed; name and other ranges index into it. */
    get buffer() {
        return this.b;
    }
    /** The raw JSON of `Input Dims`, when the event has it. */
    inputDims() {
        return this.inputDimsStart < 0 ? undefined : this.b.toString('utf8', this.inputDimsStart, this.inputDimsEnd);
    }
    /** The event's name, decoded. */
    name() {
        if (this.nameStart < 0)
            return undefined;
        return this.decode(this.nameStart, this.nameEnd);
    }
    /** True when the name starts with the given ASCII text (checked on the bytes). */
    nameStartsWith(prefix) {
        if (this.nameStart < 0 || this.nameEnd - this.nameStart < prefix.length)
            return false;
        for (let k = 0; k < prefix.length; k++)
            if (this.b[this.nameStart + k] !== prefix[k])
                return false;
        return true;
    }
    decode(start, end) {
        const text = decodeJsonString(this.b, start, end);
        if (text === undefined)
            throw new EventSyntaxError('expected a valid JSON string', start);
        return text;
    }
    fail(expected, p) {
        if (p >= this.end)
            throw INCOMPLETE;
        throw new EventSyntaxError(`expected ${expected}, got \`${String.fromCharCode(this.b[p])}\``, p);
    }
    /** Skip whitespace. An event never ends in whitespace, so reaching the end means it continues. */
    ws(p) {
        const b = this.b;
        const end = this.end;
        while (p < end) {
            const c = b[p];
            if (c !== 32 && c !== 10 && c !== 13 && c !== 9)
                return p;
            p++;
        }
        throw INCOMPLETE;
    }
    /** Index of the closing quote of the string opening at p. */
    stringEnd(p) {
        const j = stringEnd(this.b, p + 1, this.end);
        if (j < 0)
            this.fail('a closing quote', this.end);
        return j;
    }
    /** Members of the object opening at p (level 1 = the event, 2 = args). Returns the index after `}`. */
    members(p, level) {
        const b = this.b;
        p = this.ws(p + 1);
        if (b[p] === RBRACE)
            return p + 1;
        for (;;) {
            if (b[p] !== json_element_QUOTE)
                this.fail('a quoted key', p);
            const ks = p + 1;
            const ke = this.stringEnd(p);
            p = this.ws(ke + 1);
            if (b[p] !== COLON)
                this.fail('`:`', p);
            p = this.ws(p + 1);
            p = level === 1 ? this.eventMember(ks, ke, p) : this.argsMember(ks, ke, p);
            p = this.ws(p);
            if (b[p] === COMMA)
                p = this.ws(p + 1);
            else if (b[p] === RBRACE)
                return p + 1;
            else
                this.fail('`,` or `}`', p);
        }
    }
    is(ks, ke, name) {
        if (ke - ks !== name.length)
            return false;
        for (let k = 0; k < name.length; k++)
            if (this.b[ks + k] !== name[k])
                return false;
        return true;
    }
    eventMember(ks, ke, p) {
        const b = this.b;
        switch (ke - ks) {
            case 2:
                if (this.is(ks, ke, K_PH) && b[p] === json_element_QUOTE && p + 1 < this.end) {
                    this.ph = b[p + 1];
                }
                else if (this.is(ks, ke, K_TS) && this.isNumberStart(b[p])) {
                    const q = this.micros(p);
                    this.hasTs = true;
                    this.tsUs = this.whole;
                    this.tsFracNs = this.fracNs;
                    return q;
                }
                break;
            case 3:
                if (this.is(ks, ke, K_DUR) && this.isNumberStart(b[p])) {
                    const q = this.micros(p);
                    this.hasDur = true;
                    this.durNs = this.whole * 1000 + this.fracNs;
                    return q;
                }
                if (this.is(ks, ke, K_PID) && this.isNumberStart(b[p])) {
                    const q = this.number(p);
                    this.pid = this.num;
                    return q;
                }
                if (this.is(ks, ke, K_TID) && this.isNumberStart(b[p])) {
                    const q = this.number(p);
                    this.tid = this.num;
                    return q;
                }
                if (this.wantCat && this.is(ks, ke, K_CAT) && b[p] === json_element_QUOTE) {
                    const e = this.stringEnd(p);
                    this.cat = this.decode(p + 1, e);
                    return e + 1;
                }
                break;
            case 4:
                if (this.is(ks, ke, K_NAME) && b[p] === json_element_QUOTE) {
                    const e = this.stringEnd(p);
                    this.nameStart = p + 1;
                    this.nameEnd = e;
                    return e + 1;
                }
                if (this.wantArgs && this.is(ks, ke, K_ARGS) && b[p] === LBRACE)
                    return this.members(p, 2);
                break;
        }
        return this.skipValue(p);
    }
    argsMember(ks, ke, p) {
        const b = this.b;
        const c = b[p];
        switch (ke - ks) {
            case 4:
                if (c === LBRACKET && this.is(ks, ke, K_GRID))
                    return this.dim3(p, 0);
                break;
            case 5:
                if (c === LBRACKET && this.is(ks, ke, K_BLOCK))
                    return this.dim3(p, 3);
                if (this.isNumberStart(c) && this.is(ks, ke, K_BYTES)) {
                    const q = this.number(p);
                    this.bytes = this.num;
                    return q;
                }
                break;
            case 6:
                if (this.isNumberStart(c) && this.is(ks, ke, K_DEVICE)) {
                    const q = this.number(p);
                    this.device = this.num;
                    return q;
                }
                if (this.isNumberStart(c) && this.is(ks, ke, K_STREAM)) {
                    const q = this.number(p);
                    this.stream = this.num;
                    return q;
                }
                break;
            case 10:
                if (c === LBRACKET && this.is(ks, ke, K_INPUT_DIMS)) {
                    const q = this.skipValue(p);
                    this.inputDimsStart = p;
                    this.inputDimsEnd = q;
                    return q;
                }
                break;
            case 11:
                if (this.isNumberStart(c) && this.is(ks, ke, K_CORRELATION)) {
                    const q = this.number(p);
                    this.correlation = this.num;
                    return q;
                }
                if (this.isNumberStart(c) && this.is(ks, ke, K_EXTERNAL_ID)) {
                    const q = this.number(p);
                    this.externalId = this.num;
                    return q;
                }
                break;
        }
        return this.skipValue(p);
    }
    isNumberStart(c) {
        return c !== undefined && ((c >= ZERO && c <= NINE) || c === MINUS);
    }
    /** Index after the number token starting at p. */
    tokenEnd(p) {
        const b = this.b;
        let q = p;
        while (q < this.end) {
            const c = b[q];
            if (c === COMMA || c === RBRACE || c === RBRACKET || isSpace(c))
                return q;
            q++;
        }
        throw INCOMPLETE;
    }
    /** Parse the number at p into `num`; returns the index after it. */
    number(p) {
        const b = this.b;
        let value = 0;
        let q = p;
        while (q < this.end) {
            const c = b[q];
            if (c < ZERO || c > NINE)
                break;
            value = value * 10 + (c - ZERO);
            q++;
        }
        const end = this.tokenEnd(q);
        if (end !== q || q === p) {
            value = Number(b.toString('latin1', p, end));
            if (Number.isNaN(value))
                this.fail('a number', p);
        }
        this.num = value;
        return end;
    }
    /** A µs value into `whole` µs and `fracNs` (rounded ns of the fraction). */
    micros(p) {
        const b = this.b;
        let q = p;
        const negative = b[q] === MINUS;
        if (negative)
            q++;
        let whole = 0;
        const digitsStart = q;
        while (q < this.end && b[q] >= ZERO && b[q] <= NINE)
            whole = whole * 10 + (b[q++] - ZERO);
        let frac = 0;
        if (b[q] === DOT) {
            q++;
            let scale = 100;
            while (q < this.end && b[q] >= ZERO && b[q] <= NINE) {
                const digit = b[q++] - ZERO;
                if (scale >= 1)
                    frac += digit * scale;
                else if (scale > 0.05 && digit >= 5)
                    frac += 1; // round on the first digit past ns
                scale /= 10;
            }
        }
        const end = this.tokenEnd(q);
        if (end !== q || q === digitsStart) {
            const value = Number(b.toString('latin1', p, end));
            if (!Number.isFinite(value))
                this.fail('a number', p);
            whole = Math.trunc(value);
            frac = Math.round((value - whole) * 1000);
        }
        else if (negative) {
            whole = -whole;
            frac = -frac;
        }
        this.whole = whole;
        this.fracNs = frac;
        return end;
    }
    dim3(p, offset) {
        const b = this.b;
        let q = this.ws(p + 1);
        for (let k = 0; k < 3; k++) {
            if (!this.isNumberStart(b[q]))
                return this.skipValue(p);
            q = this.number(q);
            this.shape[offset + k] = this.num;
            q = this.ws(q);
            if (b[q] === COMMA)
                q = this.ws(q + 1);
        }
        if (b[q] !== RBRACKET)
            return this.skipValue(p);
        return q + 1;
    }
    /** Skip any JSON value starting at p; returns the index after it. */
    skipValue(p) {
        const b = this.b;
        const c = b[p];
        if (c === json_element_QUOTE)
            return this.stringEnd(p) + 1;
        if (c !== LBRACE && c !== LBRACKET) {
            const end = this.tokenEnd(p);
            if (end === p)
                this.fail('a value', p);
            return end;
        }
        let depth = 0;
        for (let q = p; q < this.end; q++) {
            const d = b[q];
            if (d === json_element_QUOTE)
                q = this.stringEnd(q);
            else if (d === LBRACE || d === LBRACKET)
                depth++;
            else if (d === RBRACE || d === RBRACKET) {
                depth--;
                if (depth === 0)
                    return q + 1;
            }
        }
        return this.fail('the end of a nested value', this.end);
    }
}

;// CONCATENATED MODULE: ./src/ingest/formats/kineto/id-table.ts
/**
 * Small non-negative numbers kept per trace id (External id, correlation id). Kineto numbers both
 * densely from 0 or 1 per profiling session, so a typed array indexed by id costs 2 bytes an id
 * (4 once a value passes 65,534); an id past DENSE_ID_LIMIT (corrupt or foreign) goes to a map.
 */
const DENSE_ID_LIMIT = 1 << 26;
class IdTable {
    /** value + 1 per id; 0: none. */
    dense = new Uint16Array(1024);
    sparse = new Map();
    set(id, value) {
        if (id >= DENSE_ID_LIMIT) {
            this.sparse.set(id, value);
            return;
        }
        const wide = value + 1 > 0xffff && this.dense instanceof Uint16Array;
        if (id >= this.dense.length || wide) {
            let size = this.dense.length;
            while (size <= id)
                size = Math.ceil(size * 1.5);
            const grown = wide || this.dense instanceof Int32Array ? new Int32Array(size) : new Uint16Array(size);
            grown.set(this.dense);
            this.dense = grown;
        }
        this.dense[id] = value + 1;
    }
    /** The value set for `id`, or -1. */
    get(id) {
        if (!(id >= 0))
            return -1;
        if (id >= DENSE_ID_LIMIT)
            return this.sparse.get(id) ?? -1;
        return id < this.dense.length ? this.dense[id] - 1 : -1;
    }
}

;// CONCATENATED MODULE: ./src/ingest/formats/kineto/launch-sites.ts
/**
 * Which CPU op launched each kernel, from a Kineto trace's `cpu_op` events: PyTorch writes each op
 * with an `External id`, and each kernel with the External id of the innermost op that launched it.
 * Ops are nested by time on their thread (the trace lists them in start order per thread), so the
 * chain of enclosing ops (`aten::repeat_interleave > aten::copy_`) is known when an op is read.
 * With `record_shapes`, a matmul op's `Input Dims` give its token count M.
 *
 * Memory stays bounded on multi-GB traces: per op only a small site number is kept, by External id
 * (id-table.ts); the distinct sites (chain, tokens) are few. Per kernel, time is summed by site as
 * kernels are read.
 */

/** The matmul ops whose input shapes give M, and which input holds the activations (addmm: mat1). */
const MATMUL_INPUT = new Map([
    ['aten::mm', 0],
    ['aten::matmul', 0],
    ['aten::linear', 0],
    ['aten::bmm', 0],
    ['aten::addmm', 1],
    ['aten::baddbmm', 1],
    ['aten::_addmm_activation', 1],
    ['aten::_scaled_mm', 0],
    ['aten::_grouped_mm', 0],
    ['aten::_scaled_grouped_mm', 0],
]);
/** Ops shown in a chain: the outermost, then the innermost few. */
const CHAIN_HEAD = 1;
const CHAIN_TAIL = 3;
const NO_TOKENS = -1;
/** Kineto writes µs with three decimals: a child's end may pass its parent's by a rounding ns. */
const NEST_SLACK_NS = 2;
/** True for the ops whose Input Dims are read (the others' are never decoded). */
function isMatmulOp(opName) {
    return MATMUL_INPUT.has(opName);
}
/**
 * M of a matmul from its `Input Dims` JSON (`[[5, 128], [128, 128], …]`): the product of all but the
 * last dim of the activation input. Undefined when the dims are missing or not a matrix.
 */
function matmulTokens(opName, inputDims) {
    const input = MATMUL_INPUT.get(opName);
    if (input === undefined || inputDims === undefined)
        return undefined;
    let dims;
    try {
        dims = JSON.parse(inputDims);
    }
    catch {
        return undefined;
    }
    const shape = Array.isArray(dims) ? dims[input] : undefined;
    if (!Array.isArray(shape) || shape.length < 2 || !shape.every((d) => Number.isInteger(d) && d >= 0))
        return undefined;
    return shape.slice(0, -1).reduce((product, d) => product * d, 1);
}
/** The id of `key` in `ids`; a new key gets `next`, and `store` records what it stands for. */
function intern(ids, key, next, store) {
    const known = ids.get(key);
    if (known !== undefined)
        return known;
    store();
    ids.set(key, next);
    return next;
}
class LaunchSites {
    opNames = [];
    opNameIds = new Map();
    /** Chain nodes: parent chain (-1 at the root) and op name id. */
    chainParent = [];
    chainName = [];
    chainIds = new Map();
    /** Sites: a chain and the token count of its innermost matmul (-1: none). */
    siteChain = [];
    siteTokens = [];
    siteIds = new Map();
    open = new Map();
    /** External id → site. */
    siteById = new IdTable();
    /** Ops read; ops whose start went back in time on their thread (their chain may be cut short). */
    ops = 0;
    unordered = 0;
    /**
     * Kernel launches linked to an op (graph replays tied to their capture's launches included), and
     * the others: no External id (CUDA graph replays), an old trace's correlation-as-id, or an op not
     * read before the kernel (PyTorch writes ops first).
     */
    attributed = 0;
    unlinked = 0;
    /** One cpu_op event. `inputDims` is the raw JSON of its Input Dims, when recorded. */
    op(name, externalId, thread, start, end, inputDims) {
        this.ops++;
        let stack = this.open.get(thread);
        if (!stack)
            this.open.set(thread, (stack = []));
        const top = stack[stack.length - 1];
        if (top && start < top.start)
            this.unordered++;
        // Closed ops leave; so does one this op is not inside (µs rounding can cross ends by a ns or two).
        while (stack.length) {
            const last = stack[stack.length - 1];
            if (last.end > start + NEST_SLACK_NS && end <= last.end + NEST_SLACK_NS)
                break;
            stack.pop();
        }
        const enclosing = stack[stack.length - 1];
        const chain = this.chainOf(enclosing?.chain ?? -1, this.nameId(name));
        const own = matmulTokens(name, inputDims);
        const tokens = own ?? enclosing?.tokens ?? NO_TOKENS;
        stack.push({ start, end, chain, tokens });
        if (Number.isInteger(externalId) && externalId >= 0)
            this.siteById.set(externalId, this.siteOf(chain, tokens));
    }
    /** The site of the op an event's External id names, or -1 (none, or an op not read). */
    siteOfEvent(externalId, correlation) {
        // Old traces give GPU events the correlation id as External id: that names no op.
        if (!Number.isInteger(externalId) || externalId === correlation)
            return -1;
        return this.siteById.get(externalId);
    }
    /** Add one kernel launch's time to its site; returns false when the launch links to no op. */
    kernel(times, externalId, correlation, durNs) {
        const site = this.siteOfEvent(externalId, correlation);
        if (site < 0) {
            this.unlinked++;
            return false;
        }
        this.attributed++;
        times.set(site, (times.get(site) ?? 0) + durNs);
        return true;
    }
    /**
     * A kernel counted unlinked when read (a graph replay's), now tied to the site of the launch its
     * graph's capture made for it (graph-captures.ts).
     */
    replayed(times, site, durNs) {
        if (site < 0)
            return;
        this.unlinked--;
        this.attributed++;
        times.set(site, (times.get(site) ?? 0) + durNs);
    }
    /** The site with the most time, as a chain of op names, with its share and tokens. */
    attribution(times, totalNs) {
        if (!times || times.size === 0)
            return undefined;
        let best = -1;
        let bestNs = -1;
        for (const [site, ns] of times)
            if (ns > bestNs)
                [best, bestNs] = [site, ns];
        const chain = this.siteChain[best];
        // Launches from the same chain with other token counts count towards the chain's share.
        let chainNs = 0;
        for (const [site, ns] of times)
            if (this.siteChain[site] === chain)
                chainNs += ns;
        const out = { launchedBy: this.chainText(chain), launchedByShare: totalNs > 0 ? Math.min(1, chainNs / totalNs) : 1 };
        const tokens = this.siteTokens[best];
        if (tokens !== NO_TOKENS)
            out.tokens = tokens;
        return out;
    }
    nameId(name) {
        return intern(this.opNameIds, name, this.opNames.length, () => this.opNames.push(name));
    }
    chainOf(parent, name) {
        return intern(this.chainIds, (parent + 1) * 2 ** 22 + name, this.chainParent.length, () => {
            this.chainParent.push(parent);
            this.chainName.push(name);
        });
    }
    siteOf(chain, tokens) {
        return intern(this.siteIds, chain * 2 ** 24 + Math.min(tokens + 1, 2 ** 24 - 1), this.siteChain.length, () => {
            this.siteChain.push(chain);
            this.siteTokens.push(tokens);
        });
    }
    chainText(chain) {
        const names = [];
        for (let node = chain; node >= 0; node = this.chainParent[node])
            names.push(this.opNames[this.chainName[node]]);
        names.reverse();
        if (names.length <= CHAIN_HEAD + CHAIN_TAIL)
            return names.join(' > ');
        return [...names.slice(0, CHAIN_HEAD), '…', ...names.slice(-CHAIN_TAIL)].join(' > ');
    }
}

;// CONCATENATED MODULE: ./src/ingest/formats/kineto/name-cache.ts
/**
 * Interns event names by their raw bytes: a fingerprint of sampled bytes picks candidates, a
 * native compare confirms, and each distinct name is decoded to a string once. Kernel names are
 * often kilobytes long and repeat thousands of times; decoding and hashing each one would dominate.
 * The fingerprint skips bytes, so names built to differ only there share it: a bucket that grows
 * past a few entries gets an index on the complete bytes, and the lookup stays O(name length).
 */
const SAMPLES = 12;
/** Entries a bucket holds before it is indexed by the complete name (real traces: one or two). */
const BUCKET_SCAN = 8;
class NameCache {
    decode;
    create;
    buckets = new Map();
    constructor(decode, create) {
        this.decode = decode;
        this.create = create;
    }
    get(buf, start, end) {
        const length = end - start;
        let hash = length;
        if (length > 0) {
            const step = length > SAMPLES ? Math.floor(length / SAMPLES) : 1;
            for (let k = start; k < end; k += step)
                hash = (Math.imul(hash, 31) + buf[k]) | 0;
            hash = (Math.imul(hash, 31) + buf[end - 1]) | 0;
        }
        let bucket = this.buckets.get(hash);
        let key;
        if (bucket?.byBytes) {
            key = buf.toString('latin1', start, end);
            const found = bucket.byBytes.get(key);
            if (found)
                return found;
        }
        else if (bucket) {
            for (const entry of bucket.entries) {
                if (entry.bytes.length === length && entry.bytes.compare(buf, start, end) === 0)
                    return entry;
            }
        }
        else {
            this.buckets.set(hash, (bucket = { entries: [] }));
        }
        const bytes = Buffer.from(buf.subarray(start, end));
        const name = this.decode(bytes);
        const entry = { name, bytes, value: this.create(name) };
        bucket.entries.push(entry);
        if (bucket.byBytes)
            bucket.byBytes.set(key, entry);
        else if (bucket.entries.length > BUCKET_SCAN)
            bucket.byBytes = new Map(bucket.entries.map((known) => [known.bytes.toString('latin1'), known]));
        return entry;
    }
    *entries() {
        for (const bucket of this.buckets.values())
            yield* bucket.entries;
    }
}

;// CONCATENATED MODULE: ./src/ingest/formats/kineto/python-frames.ts

const FRAME = /^(.*)\((\d+)\): (.+)$/s;
const MODULE = /^nn\.Module: (.+?)(?:_\d+)?$/s;
/** Modules torch wraps around compiled or traced code: they name no layer of the model. */
const WRAPPER_MODULES = new Set(['GraphModule', 'OptimizedModule']);
/** The PyTorch stack between the model and the GPU (first path component of the file). */
const RUNTIME_PACKAGES = new Set(['torch', 'functorch', 'triton', 'torchvision', 'torchaudio']);
/**
 * Standard-library modules that wrap calls or run them (context managers, decorators, threads,
 * process bootstraps). torch imports each of them at start-up, so a workload file of the same name
 * would shadow it and break the import: a frame of that name is the standard library's.
 */
const STDLIB_MODULES = new Set([
    'abc', 'asyncio', 'collections', 'concurrent', 'contextlib', 'copy', 'copyreg', 'dataclasses', 'enum', 'functools',
    'importlib', 'inspect', 'itertools', 'logging', 'multiprocessing', 'operator', 'os', 'pickle', 'queue', 'runpy',
    'selectors', 'threading', 'traceback', 'types', 'typing', 'unittest', 'warnings', 'weakref',
]);
/** Code the runtime wrote: Inductor/Triton output kept in their caches. */
const GENERATED_FILE = /(?:^|\/)(?:torchinductor_[^/]*|inductor_cache|torch_compile_cache|\.triton|triton_cache)\//;
/** An absolute path into a Python install's own library (no site-packages left after trimming). */
const STDLIB_PATH = /(?:^|\/)lib\/python3(?:\.\d+)?\//;
/** Files in angle brackets are generated (`<string>`, `<frozen os>`), but for code typed by the user. */
const USER_PSEUDO_FILE = /^<(?:stdin|ipython-input-[^>]*)>$/;
const PACKAGES_DIR = /^.*\/(?:site|dist)-packages\//;
/** Reads one python_function name into the frame it stands for (see the header for the rule). */
function classifyFrame(name) {
    const module = MODULE.exec(name);
    if (module)
        return WRAPPER_MODULES.has(module[1]) ? { kind: 'skip' } : { kind: 'module', module: module[1] };
    const frame = FRAME.exec(name);
    if (!frame)
        return { kind: 'skip' }; // <built-in …> and anything else that names no source line
    const file = frame[1].replace(/\\/g, '/').replace(PACKAGES_DIR, '').replace(/^\.\//, '');
    if (!isUserFile(file))
        return { kind: 'skip' };
    return { kind: 'user', function: frame[3], file, line: Number(frame[2]) };
}
function isUserFile(file) {
    if (file.startsWith('<'))
        return USER_PSEUDO_FILE.test(file);
    if (GENERATED_FILE.test(file) || STDLIB_PATH.test(file))
        return false;
    const top = file.startsWith('/') ? undefined : file.split('/')[0].replace(/\.py$/, '');
    return top === undefined || !(RUNTIME_PACKAGES.has(top) || STDLIB_MODULES.has(top));
}
/** Kineto writes µs with three decimals: a child's end may pass its parent's by a rounding ns. */
const python_frames_NEST_SLACK_NS = 2;
const NO_FRAME = -1;
/** Site code = site * 4 + these flags: the launch was a graph replay; its line is its capture's launch. */
const GRAPH_REPLAY = 1;
const FROM_CAPTURE = 2;
/** One CPU thread's user frames, in start order, and the stack of frames open while reading. */
class ThreadFrames {
    starts = new Float64Array(256);
    ends = new Float64Array(256);
    /** Index of the enclosing user frame, -1 at the root. */
    parents = new Int32Array(256);
    sites = new Int32Array(256);
    count = 0;
    lastStart = -Infinity;
    openEnd = [];
    openUser = [];
    openModule = [];
    add(start, end, parent, site) {
        if (this.count === this.starts.length) {
            const size = this.count * 2;
            this.starts = grow(this.starts, new Float64Array(size));
            this.ends = grow(this.ends, new Float64Array(size));
            this.parents = grow(this.parents, new Int32Array(size));
            this.sites = grow(this.sites, new Int32Array(size));
        }
        const at = this.count++;
        this.starts[at] = start;
        this.ends[at] = end;
        this.parents[at] = parent;
        this.sites[at] = site;
        return at;
    }
    /** Site of the innermost user frame open at `ts`, or NO_FRAME. */
    siteAt(ts) {
        let lo = 0;
        let hi = this.count - 1;
        let at = -1;
        while (lo <= hi) {
            const mid = (lo + hi) >> 1;
            if (this.starts[mid] <= ts + python_frames_NEST_SLACK_NS) {
                at = mid;
                lo = mid + 1;
            }
            else
                hi = mid - 1;
        }
        // The last frame to start before ts, or the nearest of its ancestors still open at ts.
        while (at >= 0 && this.ends[at] < ts - python_frames_NEST_SLACK_NS)
            at = this.parents[at];
        return at < 0 ? NO_FRAME : this.sites[at];
    }
}
function grow(from, to) {
    to.set(from);
    return to;
}
class PythonFrames {
    threads = new Map();
    siteFrames = [];
    siteModules = [];
    /** (frame, module) → site; frames are the interned objects of their names, numbered on first use. */
    siteIds = new Map();
    frameIds = new Map();
    moduleNames = [];
    moduleIds = new Map();
    /** Correlation id → launch site code + 1 (0: the launch was read, outside any user frame). */
    launchSites = new IdTable();
    /** Kernels read before their launch: correlation id → (their site times, ns) pairs. */
    waiting = new Map();
    /** python_function events read. */
    frames = 0;
    /** Launch calls read before the first Python event: not attributed. */
    launchesBeforeFrames = 0;
    /** Kernel launches given a user frame; the others (no launch read, or a launch outside user code). */
    attributed = 0;
    unattributed = 0;
    /** True once the trace has shown Python events: only then are launches and kernels kept. */
    get active() {
        return this.frames > 0;
    }
    /**
     * One python_function event: [start, end] ns on thread (pid, tid). `frame` is the one object its
     * name was read into (interned by name), so that sites are told apart by identity. Returns false
     * for an event that starts before the previous one on its thread: its nesting is unknown, and it is dropped.
     */
    frame(pid, tid, start, end, frame) {
        this.frames++;
        const thread = this.thread(pid, tid);
        if (start < thread.lastStart)
            return false;
        thread.lastStart = start;
        if (frame.kind === 'skip')
            return true; // changes neither the user frame nor the module in effect
        const { openEnd, openUser, openModule } = thread;
        while (openEnd.length) {
            const last = openEnd.length - 1;
            if (openEnd[last] > start + python_frames_NEST_SLACK_NS && end <= openEnd[last] + python_frames_NEST_SLACK_NS)
                break;
            openEnd.pop();
            openUser.pop();
            openModule.pop();
        }
        const user = openUser.length ? openUser[openUser.length - 1] : -1;
        const module = openModule.length ? openModule[openModule.length - 1] : -1;
        openEnd.push(end);
        if (frame.kind === 'module') {
            openUser.push(user);
            openModule.push(this.moduleId(frame.module));
        }
        else {
            openUser.push(thread.add(start, end, user, this.siteOf(frame, module)));
            openModule.push(module);
        }
        return true;
    }
    /**
     * One kernel launch call at `ts` ns on thread (pid, tid). Returns its site code (-1: outside any
     * user frame, or no Python events yet), which a graph capture keeps for the kernels of its replays.
     */
    launch(pid, tid, ts, correlation, graph) {
        if (!this.active) {
            this.launchesBeforeFrames++;
            return -1;
        }
        const site = this.threads.get(pid)?.get(tid)?.siteAt(ts) ?? NO_FRAME;
        const code = site === NO_FRAME ? -1 : site * 4 + (graph ? GRAPH_REPLAY : 0);
        if (!Number.isInteger(correlation) || correlation < 0)
            return code;
        this.launchSites.set(correlation, code + 1);
        const kernels = this.waiting.get(correlation);
        if (!kernels)
            return code;
        this.waiting.delete(correlation);
        for (let k = 0; k < kernels.length; k += 2)
            this.add(kernels[k], code, kernels[k + 1]);
        return code;
    }
    /**
     * A graph replay's kernel, tied to the launch its graph's capture made (`code`, as launch()
     * returned it then): the capture's line, marked as replayed from a capture.
     */
    replayed(times, code, durNs) {
        this.add(times, code < 0 ? -1 : (code & ~GRAPH_REPLAY) | GRAPH_REPLAY | FROM_CAPTURE, durNs);
    }
    /** One kernel of `durNs` with its launch's correlation id; `times` are its (name, device) sums'. */
    kernel(times, correlation, durNs) {
        if (!Number.isInteger(correlation) || correlation < 0) {
            this.unattributed++;
            return;
        }
        const known = this.launchSites.get(correlation);
        if (known >= 0)
            return this.add(times, known - 1, durNs);
        const list = this.waiting.get(correlation);
        if (list)
            list.push(times, durNs);
        else
            this.waiting.set(correlation, [times, durNs]);
    }
    /** At the end of the trace: kernels whose launch never came are unattributed. */
    finish() {
        for (const list of this.waiting.values())
            this.unattributed += list.length / 2;
        this.waiting.clear();
    }
    /** The sites of one kernel's time, most first: at most `limit`, each at least `minShare` of it. */
    sites(times, totalNs, limit = 3, minShare = 0.01) {
        if (!times || times.size === 0 || !(totalNs > 0))
            return [];
        const ranked = [...times].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
        const out = [];
        for (const [code, ns] of ranked.slice(0, limit)) {
            const share = Math.min(1, ns / totalNs);
            if (share < minShare)
                break;
            const site = code >> 2;
            const frame = this.siteFrames[site];
            const module = this.siteModules[site];
            const out1 = { function: frame.function, file: frame.file, line: frame.line, share: Math.round(share * 1e4) / 1e4 };
            if (module >= 0)
                out1.module = this.moduleNames[module];
            if (code & GRAPH_REPLAY)
                out1.graphReplay = true;
            if (code & FROM_CAPTURE)
                out1.graphCapture = true;
            out.push(out1);
        }
        return out;
    }
    add(times, code, durNs) {
        if (code < 0) {
            this.unattributed++;
            return;
        }
        this.attributed++;
        times.set(code, (times.get(code) ?? 0) + durNs);
    }
    thread(pid, tid) {
        let byTid = this.threads.get(pid);
        if (!byTid)
            this.threads.set(pid, (byTid = new Map()));
        let thread = byTid.get(tid);
        if (!thread)
            byTid.set(tid, (thread = new ThreadFrames()));
        return thread;
    }
    moduleId(name) {
        let id = this.moduleIds.get(name);
        if (id === undefined) {
            id = this.moduleNames.push(name) - 1;
            this.moduleIds.set(name, id);
        }
        return id;
    }
    siteOf(frame, module) {
        let frameId = this.frameIds.get(frame);
        if (frameId === undefined)
            this.frameIds.set(frame, (frameId = this.frameIds.size));
        const key = frameId * 2 ** 21 + module + 1;
        let id = this.siteIds.get(key);
        if (id === undefined) {
            id = this.siteFrames.push(frame) - 1;
            this.siteModules.push(module);
            this.siteIds.set(key, id);
        }
        return id;
    }
}

;// CONCATENATED MODULE: ./src/ingest/formats/kineto/trace-summary.ts









const PH_COMPLETE = 88; // 'X'
/** HTA drops longer events: CUPTI timestamp overflow, not real work. */
const MAX_DURATION_NS = 7 * 24 * 3600 * 1e9;
const PROFILER_STEP = Buffer.from('ProfilerStep#', 'latin1');
const trace_summary_BUILT_IN = Buffer.from('<built-in ', 'latin1');
const SKIPPED_FRAME = { kind: 'skip' };
const LAUNCH_CALL = /^(?:cuda|cu|hip)[A-Za-z]*Launch[A-Za-z]*Kernel/;
const GRAPH_LAUNCH_CALL = /^(?:cuda|cu|hip)GraphLaunch/;
/** Calls that a stream capture turns into a memcpy or memset node of the graph. */
const MEM_NODE_CALL = /^(?:cuda|cu|hip)Mem(?:cpy|set)[A-Za-z0-9_]*Async/;
const CAPTURE_BEGIN_CALL = /^(?:cuda|cu|hip)StreamBeginCapture/;
const CAPTURE_END_CALL = /^(?:cuda|cu|hip)StreamEndCapture/;
/** What a call is to a stream capture (graph-captures.ts). */
const CAPTURE_NONE = 0;
const CAPTURE_BEGIN = 1;
const CAPTURE_END = 2;
const CAPTURE_NODE = 3;
function captureRole(name) {
    if (LAUNCH_CALL.test(name) || MEM_NODE_CALL.test(name))
        return CAPTURE_NODE;
    if (CAPTURE_BEGIN_CALL.test(name))
        return CAPTURE_BEGIN;
    if (CAPTURE_END_CALL.test(name))
        return CAPTURE_END;
    return CAPTURE_NONE;
}
const CATEGORY_LABEL = {
    [CAT_KERNEL]: 'kernel',
    [CAT_MEMCPY]: 'gpu_memcpy',
    [CAT_MEMSET]: 'gpu_memset',
    [CAT_RUNTIME]: 'cuda_runtime',
    [CAT_DRIVER]: 'cuda_driver',
    [CAT_CPU_ANNOTATION]: 'user_annotation',
    [CAT_GPU_ANNOTATION]: 'gpu_user_annotation',
};
const decodeName = (bytes) => decodeJsonString(bytes, 0, bytes.length) ?? bytes.toString('utf8');
const NO_NAME = Buffer.from('(unnamed)');
function memcpyKind(name) {
    if (/HtoD/.test(name))
        return 'memcpy-htod';
    if (/DtoH/.test(name))
        return 'memcpy-dtoh';
    if (/DtoD/.test(name))
        return 'memcpy-dtod';
    return 'memcpy-other';
}
/** Shapes scanned in a list before a kernel's shapes get an index. */
const SHAPE_SCAN = 8;
/** Equal, or both absent (NaN: a trace without grid or block): as the index's key sees them. */
const sameDim = (a, b) => a === b || (a !== a && b !== b);
const shapeKey = (d) => `${d[0]},${d[1]},${d[2]},${d[3]},${d[4]},${d[5]}`;
function addShape(sum, shape, ns) {
    if (sum.shapeIndex) {
        const key = shapeKey(shape);
        const known = sum.shapeIndex.get(key);
        if (known)
            known.ns += ns;
        else {
            const added = { ns, dims: Float64Array.from(shape) };
            sum.shapes.push(added);
            sum.shapeIndex.set(key, added);
        }
        return;
    }
    for (const known of sum.shapes) {
        const dims = known.dims;
        if (sameDim(dims[0], shape[0]) && sameDim(dims[1], shape[1]) && sameDim(dims[2], shape[2]) && sameDim(dims[3], shape[3]) && sameDim(dims[4], shape[4]) && sameDim(dims[5], shape[5])) {
            known.ns += ns;
            return;
        }
    }
    sum.shapes.push({ ns, dims: Float64Array.from(shape) });
    if (sum.shapes.length > SHAPE_SCAN)
        sum.shapeIndex = new Map(sum.shapes.map((known) => [shapeKey(known.dims), known]));
}
class TraceSummary {
    ctx;
    fields = new EventFields();
    baseUs;
    /** kernel name → its timeline kind, and device → sums */
    kernels = new NameCache(decodeName, (name) => ({
        kind: this.ctx.isCollective?.(name) ? OP_COLLECTIVE : OP_KERNEL,
        byDevice: new Map(),
    }));
    memcpys = new NameCache(decodeName, (name) => ({ kind: memcpyKind(name), name, totalNs: 0, count: 0 }));
    memsets = new NameCache(decodeName, (name) => ({ kind: 'memset', name, totalNs: 0, count: 0 }));
    api = new NameCache(decodeName, (name) => ({
        totalNs: 0,
        calls: 0,
        launch: LAUNCH_CALL.test(name),
        graphLaunch: GRAPH_LAUNCH_CALL.test(name),
        capture: captureRole(name),
    }));
    ops = new OpLog();
    launchSites = new LaunchSites();
    cpuOpNames = new NameCache(decodeName, (name) => name);
    cpuOpBaseUs;
    python = new PythonFrames();
    pythonNames = new NameCache(decodeName, classifyFrame);
    /** Python frames and launch calls share this origin (both are CPU-side times). */
    hostBaseUs;
    graphCorrelations = new Set();
    /** Graph captures in the trace, and the GPU events without an op kept to match their replays. */
    graphs = new GraphCaptures();
    /** Begin-capture time per CPU thread while a capture is open, then each capture's window. */
    capturesOpen = new Map();
    captures = [];
    /** How replays were tied to captures; set by finish(). */
    replays;
    categories = new Set();
    members = new Map();
    cpuSteps = new Map();
    gpuSteps = new Map();
    constructor(ctx) {
        this.ctx = ctx;
    }
    member(key, bytes, start, end, offset) {
        try {
            this.members.set(key, JSON.parse(bytes.toString('utf8', start, end)));
        }
        catch {
            throw new ScanError(`expected valid JSON for the top-level "${key}"`, offset);
        }
    }
    event(bytes, start, limit, category, offset) {
        const f = this.fields;
        let end;
        try {
            // A Python event's args (its ids) are not needed: nesting is read from the times.
            end = f.read(bytes, start, limit, category === CAT_UNKNOWN, category !== CAT_PYTHON);
        }
        catch (error) {
            if (error === INCOMPLETE)
                return -1;
            if (error instanceof EventSyntaxError)
                throw new ScanError(error.message, offset + error.at - start);
            throw error;
        }
        this.use(category, f);
        return end;
    }
    use(category, f) {
        if (category === CAT_UNKNOWN) {
            category = f.cat === undefined ? CAT_SKIP : categoryOfString(f.cat);
            if (category === CAT_SKIP)
                return;
        }
        if (f.ph !== PH_COMPLETE)
            return;
        if (category === CAT_CPU_OP)
            return this.cpuOp();
        if (category === CAT_PYTHON)
            return this.pythonFrame();
        if (category === CAT_CPU_ANNOTATION || category === CAT_GPU_ANNOTATION) {
            if (!f.nameStartsWith(PROFILER_STEP))
                return;
        }
        if (!f.hasTs || !f.hasDur) {
            this.ctx.count('event-without-time', 'data-loss', 'complete (ph X) events without a numeric ts or dur were dropped');
            return;
        }
        if (f.durNs < 0 || f.durNs > MAX_DURATION_NS) {
            this.ctx.count('bad-duration', 'data-loss', 'events with a negative duration or one over 7 days (CUPTI overflow) were dropped');
            return;
        }
        this.baseUs ??= f.tsUs;
        const startNs = (f.tsUs - this.baseUs) * 1000 + f.tsFracNs;
        this.categories.add(CATEGORY_LABEL[category]);
        switch (category) {
            case CAT_KERNEL:
                return this.kernel(startNs);
            case CAT_MEMCPY:
            case CAT_MEMSET:
                return this.memop(startNs, category === CAT_MEMSET);
            case CAT_RUNTIME:
            case CAT_DRIVER:
                return this.apiCall(startNs);
            default:
                return this.step(startNs, category === CAT_GPU_ANNOTATION);
        }
    }
    /** The stream of a GPU event (args.stream, else its tid), on its device. */
    streamOf(device) {
        const f = this.fields;
        const stream = Number.isInteger(f.stream) ? f.stream : Number.isInteger(f.tid) ? f.tid : -1;
        return device * 2 ** 21 + stream;
    }
    deviceOf() {
        const f = this.fields;
        if (Number.isInteger(f.device))
            return f.device;
        if (Number.isInteger(f.pid))
            return f.pid;
        return -1;
    }
    /** The interned entry for the event's name. */
    named(cache) {
        const f = this.fields;
        return f.nameStart < 0 ? cache.get(NO_NAME, 0, NO_NAME.length).value : cache.get(f.buffer, f.nameStart, f.nameEnd).value;
    }
    kernel(startNs) {
        const f = this.fields;
        const device = this.deviceOf();
        const { kind, byDevice } = this.named(this.kernels);
        let sum = byDevice.get(device);
        if (!sum)
            byDevice.set(device, (sum = { totalNs: 0, instances: 0, minNs: Infinity, maxNs: 0, shapes: [] }));
        const dur = f.durNs;
        sum.totalNs += dur;
        sum.instances++;
        if (dur < sum.minNs)
            sum.minNs = dur;
        if (dur > sum.maxNs)
            sum.maxNs = dur;
        if (!Number.isNaN(f.shape[0]) || !Number.isNaN(f.shape[3]))
            addShape(sum, f.shape, dur);
        const linked = this.launchSites.kernel((sum.sites ??= new Map()), f.externalId, f.correlation, dur);
        // A kernel without an op may be a graph replay's: kept until its capture can be matched.
        const kept = !linked && this.graphs.active && this.graphs.defer(sum, f.correlation, this.streamOf(device), startNs, dur);
        if (!kept && this.python.active)
            this.python.kernel((sum.python ??= new Map()), f.correlation, dur);
        if (this.graphs.active)
            this.graphs.gpuEvent(f.correlation);
        this.ops.push(startNs, startNs + dur, device, f.correlation, kind);
    }
    /** A PyTorch op on the CPU: only its place in the op tree (and a matmul's shapes) is kept. */
    cpuOp() {
        const f = this.fields;
        if (!f.hasTs || !f.hasDur || f.nameStart < 0)
            return;
        this.cpuOpBaseUs ??= f.tsUs;
        const start = (f.tsUs - this.cpuOpBaseUs) * 1000 + f.tsFracNs;
        const name = this.cpuOpNames.get(f.buffer, f.nameStart, f.nameEnd).value;
        this.launchSites.op(name, f.externalId, f.tid, start, start + f.durNs, isMatmulOp(name) ? f.inputDims() : undefined);
    }
    /** A Python call (with_stack): kept only when it is the workload's own frame or an nn.Module. */
    pythonFrame() {
        const f = this.fields;
        if (!f.hasTs || !f.hasDur || f.nameStart < 0 || f.durNs < 0)
            return;
        const start = this.hostNs();
        // Built-ins are most Python events and never the user's frame: told by their bytes, not interned.
        const frame = f.nameStartsWith(trace_summary_BUILT_IN) ? SKIPPED_FRAME : this.pythonNames.get(f.buffer, f.nameStart, f.nameEnd).value;
        if (!this.python.frame(f.pid, f.tid, start, start + f.durNs, frame)) {
            this.ctx.count('python-frame-out-of-order', 'data-loss', 'python_function events that start before the previous one on their thread were dropped (their nesting is unknown)');
        }
    }
    hostNs() {
        const f = this.fields;
        this.hostBaseUs ??= f.tsUs;
        return (f.tsUs - this.hostBaseUs) * 1000 + f.tsFracNs;
    }
    memop(startNs, memset) {
        const f = this.fields;
        const sum = this.named(memset ? this.memsets : this.memcpys);
        sum.totalNs += f.durNs;
        sum.count++;
        if (Number.isFinite(f.bytes))
            sum.bytes = (sum.bytes ?? 0) + f.bytes;
        const hostCopy = sum.kind === 'memcpy-htod' || sum.kind === 'memcpy-dtoh';
        const device = this.deviceOf();
        if (this.graphs.active) {
            // A memcpy or memset node of a graph replay counts for the replay's positions.
            if (this.launchSites.siteOfEvent(f.externalId, f.correlation) < 0)
                this.graphs.defer(sum, f.correlation, this.streamOf(device), startNs, f.durNs);
            this.graphs.gpuEvent(f.correlation);
        }
        this.ops.push(startNs, startNs + f.durNs, device, f.correlation, hostCopy ? OP_HOST_COPY : OP_MEMOP);
    }
    apiCall(startNs) {
        const f = this.fields;
        const sum = this.named(this.api);
        sum.totalNs += f.durNs;
        sum.calls++;
        if (sum.graphLaunch && Number.isFinite(f.correlation)) {
            this.graphCorrelations.add(f.correlation);
            this.graphs.graphLaunch(f.pid, f.tid, f.correlation);
        }
        const code = sum.launch || sum.graphLaunch ? this.python.launch(f.pid, f.tid, this.hostNs(), f.correlation, sum.graphLaunch) : -1;
        if (sum.capture === CAPTURE_NONE)
            return;
        const ns = this.hostNs();
        if (sum.capture === CAPTURE_NODE)
            this.graphs.launch(f.pid, f.tid, ns, f.correlation, this.launchSites.siteOfEvent(f.externalId, f.correlation), code);
        else if (sum.capture === CAPTURE_BEGIN) {
            this.graphs.begin(f.pid, f.tid, ns);
            this.capturesOpen.set(`${f.pid}/${f.tid}`, startNs);
        }
        else {
            this.graphs.end(f.pid, f.tid, ns);
            const began = this.capturesOpen.get(`${f.pid}/${f.tid}`);
            this.capturesOpen.delete(`${f.pid}/${f.tid}`);
            if (began !== undefined)
                this.captures.push({ start: began, end: startNs + f.durNs });
        }
    }
    step(startNs, gpu) {
        const f = this.fields;
        const name = f.name();
        const steps = gpu ? this.gpuSteps : this.cpuSteps;
        const end = startNs + f.durNs;
        const known = steps.get(name);
        if (!known)
            steps.set(name, { name, start: startNs, end });
        else {
            known.start = Math.min(known.start, startNs);
            known.end = Math.max(known.end, end);
        }
    }
    /** Call after the last event: settles what was waiting for events that never came. */
    finish() {
        this.replays = this.graphs.finish((correlation) => this.graphCorrelations.has(correlation), (sum, opSite, pythonCode, durNs) => {
            if (!('instances' in sum))
                return; // a memcpy or memset node: no sites
            this.launchSites.replayed((sum.sites ??= new Map()), opSite, durNs);
            if (this.python.active)
                this.python.replayed((sum.python ??= new Map()), pythonCode, durNs);
        }, (sum, correlation, durNs) => {
            if ('instances' in sum && this.python.active)
                this.python.kernel((sum.python ??= new Map()), correlation, durNs);
        });
        this.python.finish();
    }
    /** The CPU-side windows of the CUDA-graph captures in the trace, on the GPU events' clock. */
    captureWindows() {
        return this.captures;
    }
    /** Step windows: the GPU projection of a step where the trace has one, else the CPU range. */
    stepWindows() {
        const windows = new Map(this.cpuSteps);
        for (const [name, window] of this.gpuSteps)
            windows.set(name, window);
        return [...windows.values()];
    }
    kernelStats() {
        const out = [];
        for (const { name, value: { byDevice } } of this.kernels.entries()) {
            for (const [device, sum] of byDevice) {
                const stat = { name, totalNs: sum.totalNs, instances: sum.instances, minNs: sum.minNs, maxNs: sum.maxNs };
                if (device >= 0)
                    stat.device = device;
                let best;
                for (const shape of sum.shapes)
                    if (!best || shape.ns > best.ns)
                        best = shape;
                if (best) {
                    const [gx, gy, gz, bx, by, bz] = Array.from(best.dims);
                    if ([gx, gy, gz].every(Number.isFinite))
                        stat.grid = [gx, gy, gz];
                    if ([bx, by, bz].every(Number.isFinite))
                        stat.block = [bx, by, bz];
                }
                const site = this.launchSites.attribution(sum.sites, sum.totalNs);
                if (site) {
                    stat.launchedBy = site.launchedBy;
                    stat.launchedByShare = Math.round(site.launchedByShare * 1e4) / 1e4;
                    if (site.tokens !== undefined)
                        stat.tokens = site.tokens;
                }
                const python = this.python.sites(sum.python, sum.totalNs);
                if (python.length)
                    stat.pythonSites = python;
                out.push(stat);
            }
        }
        return out.sort((a, b) => b.totalNs - a.totalNs || a.name.localeCompare(b.name));
    }
    memopStats() {
        const all = [...this.memcpys.entries(), ...this.memsets.entries()].map((entry) => entry.value);
        return all.sort((a, b) => b.totalNs - a.totalNs || a.name.localeCompare(b.name));
    }
    apiNames() {
        return [...this.api.entries()].map((entry) => entry.name);
    }
    apiStats() {
        return [...this.api.entries()]
            .map(({ name, value }) => ({ name, totalNs: value.totalNs, calls: value.calls }))
            .sort((a, b) => b.totalNs - a.totalNs || a.name.localeCompare(b.name));
    }
    launchCounts() {
        let kernelLaunches = 0;
        let graphLaunches = 0;
        for (const { value } of this.api.entries()) {
            if (value.launch)
                kernelLaunches += value.calls;
            if (value.graphLaunch)
                graphLaunches += value.calls;
        }
        return { kernelLaunches, graphLaunches };
    }
}

;// CONCATENATED MODULE: ./src/ingest/common/text-tables.ts
/**
 * Small helpers shared by the importers of profiler text output (nsys, rocprof, MAX console):
 * line splitting, time units, numbers as tools print them, and CSV lines.
 */
function splitLines(text) {
    const lines = text.split(/\r?\n/);
    if (lines.length > 0 && lines[lines.length - 1] === '')
        lines.pop();
    return lines;
}
const NS_PER_UNIT = {
    ns: 1,
    nsec: 1,
    us: 1e3,
    usec: 1e3,
    'µs': 1e3,
    ms: 1e6,
    msec: 1e6,
    s: 1e9,
    sec: 1e9,
};
/** Nanoseconds in one `unit` (ns/us/ms/s and nsys's nsec/usec/msec/sec), or undefined. */
function nsPerUnit(unit) {
    return NS_PER_UNIT[unit.trim().toLowerCase()];
}
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
/**
 * A number as a profiler prints it: plain, with an exponent (`2.920e-03`), or with thousands
 * separators when `thousands` is set (`1,976,843,072`). Undefined when the text is not a number.
 */
function parseNumber(text, thousands = false) {
    let value = text.trim();
    if (thousands && /^[-+]?\d{1,3}(,\d{3})+(\.\d*)?$/.test(value))
        value = value.replace(/,/g, '');
    if (!NUMBER.test(value))
        return undefined;
    // `1e309` matches the pattern but is Infinity: not a number a profiler printed.
    const number = Number(value);
    return Number.isFinite(number) ? number : undefined;
}
/**
 * A copy of `text` that keeps no larger string alive. A cell cut from a line is a view of the whole
 * line in V8; a kernel name kept for the report should not hold its row's numbers too (about 20 %
 * more memory for 100,000 templated names).
 */
function ownString(text) {
    const copy = Buffer.from(text, 'utf8').toString('utf8');
    // Text with a lone surrogate does not survive UTF-8; it stays as it is.
    return copy === text ? copy : text;
}
/** Strip a CSV cell of the quotes and padding some writers leave around header labels. */
function cleanLabel(label) {
    return label.trim().replace(/^"(.*)"$/, '$1').trim();
}
/**
 * Split one CSV record that holds no line break (RFC 4180 quoting, `""` for a quote). Undefined when
 * the quoting is malformed. Per-dispatch traces run to millions of rows, where this is ~10× faster
 * than csv-parse (measured: csv-parse reads an 80 MB rocprofv3 trace at ~4 MB/s).
 */
function splitCsvLine(line) {
    const fields = [];
    const n = line.length;
    let i = 0;
    for (;;) {
        if (line.charCodeAt(i) === 34) {
            let value = '';
            let from = i + 1;
            for (;;) {
                const quote = line.indexOf('"', from);
                if (quote < 0)
                    return undefined;
                if (line.charCodeAt(quote + 1) === 34) {
                    value += line.slice(from, quote + 1);
                    from = quote + 2;
                    continue;
                }
                value += line.slice(from, quote);
                i = quote + 1;
                break;
            }
            fields.push(value);
            if (i === n)
                return fields;
            if (line.charCodeAt(i) !== 44)
                return undefined;
            i++;
        }
        else {
            const comma = line.indexOf(',', i);
            const end = comma < 0 ? n : comma;
            const value = line.slice(i, end);
            if (value.includes('"'))
                return undefined;
            fields.push(value);
            if (comma < 0)
                return fields;
            i = comma + 1;
        }
    }
}

;// CONCATENATED MODULE: ./src/ingest/formats/rocprof/trace.ts
/**
 * Per-dispatch ROCm traces (rocprofv3 `*_kernel_trace.csv`, legacy rocprof `results.csv`), read line by
 * line because they run to millions of rows: per-kernel sums (by agent and name, with the launch shape
 * that took the most time) and a timeline (span, busy union per agent, idle gaps, launches, busy time
 * per tenth of the span). Timestamps are kept exact as offsets from the first dispatch, even above 2^53.
 */



/** Display name: rocprof appends ` [clone .kd]` or `.kd` to kernel symbols. */
function cleanKernelName(name) {
    return name.trim().replace(/ \[clone \.kd\]$/, '').replace(/\.kd$/, '');
}
const V3 = { name: 'Kernel_Name', agent: 'Agent_Id', start: 'Start_Timestamp', end: 'End_Timestamp', grid: ['Grid_Size_X', 'Grid_Size_Y', 'Grid_Size_Z'], block: ['Workgroup_Size_X', 'Workgroup_Size_Y', 'Workgroup_Size_Z'] };
const V1 = { name: 'KernelName', agent: 'gpu-id', start: 'BeginNs', end: 'EndNs', grid: ['grd'], block: ['wgr'] };
/** Exact ns offsets from the first timestamp; BigInt only where a value passes 15 digits. */
class Clock {
    baseBig;
    baseNum;
    offset(text) {
        if (!/^\d+$/.test(text))
            return undefined;
        if (this.baseBig === undefined) {
            this.baseBig = BigInt(text);
            this.baseNum = text.length <= 15 ? Number(text) : undefined;
        }
        if (this.baseNum !== undefined && text.length <= 15)
            return Number(text) - this.baseNum;
        return Number(BigInt(text) - this.baseBig);
    }
}
/**
 * A kernel trace read line by line: `push` each line after the header (the first line), then
 * `finish` for the per-kernel sums and the timeline.
 */
class KernelTraceReader {
    path;
    ctx;
    dispatches = [];
    header;
    labels;
    at;
    hasShape;
    clock = new Clock();
    names = new Map();
    /** How errors name a field: a CSV `column`, or a trace event's `field`. */
    fieldWord = 'column';
    constructor(path, headerLine, headerLineNo, v3, ctx) {
        this.path = path;
        this.ctx = ctx;
        const header = (this.header = (splitCsvLine(headerLine) ?? []).map(cleanLabel));
        const labels = (this.labels = v3 ? V3 : V1);
        const index = (label) => header.indexOf(label);
        const missing = [labels.name, labels.start, labels.end].filter((label) => index(label) < 0);
        if (missing.length)
            throw new errors/* InputError */.dz(path, `expected columns ${missing.join(', ')} in the header`, String(headerLineNo));
        this.at = { name: index(labels.name), agent: index(labels.agent), start: index(labels.start), end: index(labels.end), kind: index('Kind'), grid: labels.grid.map(index), block: labels.block.map(index) };
        this.hasShape = [...this.at.grid, ...this.at.block].every((i) => i >= 0);
    }
    push(line, lineNo) {
        if (line.trim() === '')
            return;
        const { path, header, at } = this;
        const where = String(lineNo);
        const fields = splitCsvLine(line);
        if (!fields)
            throw new errors/* InputError */.dz(path, 'expected well-formed CSV quoting (a truncated or garbled row)', where);
        if (fields.length !== header.length) {
            throw new errors/* InputError */.dz(path, `expected ${header.length} fields as in the header, got ${fields.length} (a truncated or garbled row)`, where);
        }
        if (at.kind >= 0 && fields[at.kind] !== 'KERNEL_DISPATCH') {
            this.ctx.count('non-kernel-row', 'info', `rows of kind ${fields[at.kind]} are left out`);
            return;
        }
        const sizes = this.hasShape ? [...at.grid, ...at.block].map((i) => (fields[i].trim() === '' ? NaN : Number(fields[i]))) : undefined;
        this.addDispatch({
            name: fields[at.name],
            agent: at.agent >= 0 ? fields[at.agent].trim() : '0',
            start: fields[at.start].trim(),
            end: fields[at.end].trim(),
            ...(sizes ? { grid: sizes.slice(0, at.grid.length), block: sizes.slice(at.grid.length) } : {}),
        }, where);
    }
    /**
     * One dispatch from any layout (a CSV row, a Chrome-trace event, a database row): integer ns
     * timestamps as text, the grid in work-items (in blocks with `gridInBlocks`, as CUDA counts it)
     * and the workgroup size, where the capture records them.
     */
    addDispatch(raw, where) {
        const { path, labels } = this;
        const start = this.clock.offset(raw.start);
        const end = this.clock.offset(raw.end);
        if (start === undefined || end === undefined) {
            const [label, value] = start === undefined ? [labels.start, raw.start] : [labels.end, raw.end];
            throw new errors/* InputError */.dz(path, `expected an integer timestamp in ${this.fieldWord} ${label}, got ${JSON.stringify(value)}`, where);
        }
        if (end < start)
            throw new errors/* InputError */.dz(path, `expected ${labels.end} at or after ${labels.start}`, where);
        let name = this.names.get(raw.name);
        if (name === undefined) {
            const own = ownString(raw.name);
            this.names.set(own, (name = cleanKernelName(own)));
        }
        const dispatch = { name, agent: raw.agent, start, end };
        if (raw.grid && raw.block) {
            const sizes = [...raw.grid, ...raw.block];
            if (sizes.some((n) => !Number.isFinite(n) || n < 0))
                throw new errors/* InputError */.dz(path, 'expected whole-number grid and workgroup sizes', where);
            const grid = raw.grid;
            const block = raw.block;
            if (block.every((b) => b > 0)) {
                // rocprof counts the grid in work-items; report workgroups, as CUDA counts blocks.
                const dim3 = (v) => [v[0] ?? 1, v[1] ?? 1, v[2] ?? 1].join(',');
                dispatch.shape = `${dim3(raw.gridInBlocks ? grid : grid.map((n, d) => Math.ceil(n / block[d])))},${dim3(block)}`;
            }
        }
        this.dispatches.push(dispatch);
    }
    finish() {
        const dispatches = this.dispatches;
        if (dispatches.length === 0)
            return { kernels: [] };
        return { kernels: kernelsFrom(dispatches), ...timelineFrom(dispatches, (name) => this.ctx.isCollective?.(name) ?? false) };
    }
}
function sortedAgents(dispatches) {
    return [...new Set(dispatches.map((d) => d.agent))].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
}
function kernelsFrom(dispatches) {
    const agents = sortedAgents(dispatches);
    const multi = agents.length > 1;
    const byKey = new Map();
    const shapeNs = new Map();
    for (const d of dispatches) {
        const key = `${d.agent}\u0000${d.name}`;
        const ns = d.end - d.start;
        const existing = byKey.get(key);
        if (existing) {
            existing.totalNs += ns;
            existing.instances += 1;
            existing.minNs = Math.min(existing.minNs, ns);
            existing.maxNs = Math.max(existing.maxNs, ns);
        }
        else {
            byKey.set(key, { name: d.name, totalNs: ns, instances: 1, minNs: ns, maxNs: ns, ...(multi ? { device: agents.indexOf(d.agent) } : {}) });
        }
        if (d.shape) {
            let shapes = shapeNs.get(key);
            if (!shapes)
                shapeNs.set(key, (shapes = new Map()));
            shapes.set(d.shape, (shapes.get(d.shape) ?? 0) + ns);
        }
    }
    for (const [key, shapes] of shapeNs) {
        const heaviest = [...shapes.entries()].sort((a, b) => b[1] - a[1])[0][0].split(',').map(Number);
        Object.assign(byKey.get(key), { grid: heaviest.slice(0, 3), block: heaviest.slice(3, 6) });
    }
    return [...byKey.values()];
}
/** The dispatches as GPU ops (one device per agent), so the timeline is built as for a Kineto trace. */
function timelineFrom(dispatches, isCollective) {
    // Device numbers as kernelsFrom gives them: the agents' index in numeric order.
    const agents = new Map(sortedAgents(dispatches).map((agent, index) => [agent, index]));
    const kinds = new Map();
    const ops = new OpLog();
    for (const d of dispatches) {
        const device = agents.get(d.agent);
        let kind = kinds.get(d.name);
        if (kind === undefined)
            kinds.set(d.name, (kind = isCollective(d.name) ? OP_COLLECTIVE : OP_KERNEL));
        ops.push(d.start, d.end, device, NaN, kind);
    }
    const counts = { kernelLaunches: dispatches.length, graphLaunches: 0, graphCorrelations: new Set() };
    return { timeline: buildTimeline(ops, [], counts), deviceTimelines: deviceTimelines(ops, [], counts) };
}

;// CONCATENATED MODULE: ./src/ingest/formats/rocprof-json.ts
/**
 * Legacy rocprof (v1) `results.json`: a Chrome trace that rocprof writes beside `results.csv`. It is
 * not a PyTorch trace: its `ph:"X"` events carry no `cat`, `ts`/`dur` are strings in µs, and each
 * kernel event's `args` repeat the per-dispatch row of `results.csv` (`KernelName`, `gpu-id`,
 * `BeginNs`, `EndNs`, `DurationNs`, `grd`, `wgr`). Kernels are read from those args, so times are
 * the exact ns rocprof measured, not the rounded µs of `ts`/`dur`; the timeline is built as for
 * `results.csv`. `otherData` (rocminfo) gives the GPU's marketing name.
 * Limits: events without `KernelName` args (HIP/HSA API and copy rows of `--hip-trace`) are counted
 * and left out; the whole file is parsed at once (rocprof v1 traces stay well under the text limit).
 */



const V1_HEADER = 'Index,KernelName,gpu-id,BeginNs,EndNs,grd,wgr';
function isRecord(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function rocprof_json_text(value) {
    if (typeof value === 'string')
        return value.trim();
    if (typeof value === 'number' && Number.isInteger(value))
        return String(value);
    return undefined;
}
/** A JSON.parse error as a byte offset, where the engine says one. */
function parseError(path, error) {
    const at = /position (\d+)/.exec(error.message)?.[1];
    return new errors/* InputError */.dz(path, `expected a complete rocprof results.json (${error.message.split('\n')[0]})`, at ? `byte ${at}` : undefined);
}
/** rocminfo's GPU agents, as rocprof copies them into otherData (`Agent2.MarketingName`, `Agent2.VendorName`). */
function environmentOf(other) {
    const env = { vendor: 'amd' };
    if (!isRecord(other))
        return env;
    const names = [];
    let count = 0;
    for (const [key, value] of Object.entries(other)) {
        const agent = /^(Agent\d+)\.MarketingName$/.exec(key)?.[1];
        if (!agent || typeof value !== 'string')
            continue;
        if (other[`${agent}.VendorName`] !== 'AMD' || other[`${agent}.DeviceType`] === 'CPU')
            continue;
        count += 1;
        if (!names.includes(value))
            names.push(value);
    }
    if (names.length)
        env.gpuName = names.join(', ');
    if (count)
        env.gpuCount = count;
    return env;
}
/** True when a Chrome-trace head is rocprof's: per-dispatch ns args on events that have no `cat`. */
function isRocprofTraceHead(head) {
    const text = head.replace(/^\uFEFF/, '').trimStart();
    return text.startsWith('{') && text.includes('"traceEvents"') && /"BeginNs"\s*:\s*"\d+"/.test(text) && /"KernelName"\s*:/.test(text) && !/"cat"\s*:/.test(text);
}
/* harmony default export */ const rocprof_json = (defineImporter({
    id: 'rocprof-json',
    label: 'ROCm rocprof (v1) results.json trace',
    sniff: isRocprofTraceHead,
    async read(file, ctx) {
        let doc;
        try {
            doc = JSON.parse((await file.text()).replace(/^\uFEFF/, ''));
        }
        catch (error) {
            if (error instanceof errors/* InputError */.dz)
                throw error;
            throw parseError(file.path, error);
        }
        if (!isRecord(doc) || !Array.isArray(doc['traceEvents'])) {
            throw new errors/* InputError */.dz(file.path, 'expected a rocprof results.json: an object with a "traceEvents" array', 'byte 0');
        }
        const trace = new KernelTraceReader(file.path, V1_HEADER, 1, false, ctx);
        trace.fieldWord = 'field';
        const events = doc['traceEvents'];
        for (let i = 0; i < events.length; i++) {
            const event = events[i];
            if (!isRecord(event) || event['ph'] !== 'X')
                continue;
            const args = event['args'];
            const name = isRecord(args) ? rocprof_json_text(args['KernelName']) : undefined;
            if (!isRecord(args) || !name) {
                ctx.count('non-kernel-event', 'info', 'trace events without KernelName args (API calls, copies) are left out');
                continue;
            }
            const where = `traceEvents[${i}]`;
            const begin = rocprof_json_text(args['BeginNs']) ?? '';
            const end = rocprof_json_text(args['EndNs']) ?? '';
            const duration = rocprof_json_text(args['DurationNs']);
            if (duration !== undefined && /^\d+$/.test(begin) && /^\d+$/.test(end) && /^\d+$/.test(duration) && BigInt(end) - BigInt(begin) !== BigInt(duration)) {
                ctx.count('duration-mismatch', 'info', 'DurationNs differs from EndNs − BeginNs; the timestamps are used');
            }
            const grid = Number(rocprof_json_text(args['grd']) ?? NaN);
            const block = Number(rocprof_json_text(args['wgr']) ?? NaN);
            const shape = Number.isFinite(grid) && Number.isFinite(block) ? { grid: [grid], block: [block] } : {};
            trace.addDispatch({ name, agent: rocprof_json_text(args['gpu-id']) ?? '0', start: begin, end, ...shape }, where);
        }
        const read = trace.finish();
        if (read.kernels.length === 0) {
            throw new errors/* InputError */.dz(file.path, 'expected kernel events (ph "X" with KernelName, BeginNs and EndNs args) in the rocprof trace, found none', 'byte 0');
        }
        return {
            source: { path: file.path, format: 'rocprof-json', tool: 'rocprof', parts: ['results.json'] },
            kernels: read.kernels,
            ...(read.timeline ? { timeline: read.timeline } : {}),
            environment: environmentOf(doc['otherData']),
        };
    },
}));

;// CONCATENATED MODULE: ./src/ingest/formats/kineto-json.ts
/**
 * PyTorch profiler / Kineto Chrome trace (`*.pt.trace.json[.gz]`, CUDA/CUPTI and ROCm/roctracer).
 * Mapping: `kernel` (legacy `Kernel`) events → kernels summed by (name, device: args.device or pid),
 * with the grid/block of the shape that took most time; `gpu_memcpy`/`gpu_memset` (legacy
 * `Memcpy`/`Memset`) → memops (kind from the name, bytes from args); `cuda_runtime`/`cuda_driver`
 * → apiCalls; GPU op intervals → timeline (busy = union per device, idle gaps, `ProfilerStep#N`
 * windows, kernel time per tenth of the span; kernels whose correlation id is a cudaGraphLaunch's
 * are graph kernels; collective and host↔device copy time no kernel overlaps; idle gaps that are
 * not the workload; one timeline per device when there are several). `distributedInfo` → the
 * capture's rank, world size and backend. `deviceProperties` → environment; warpSize 64 or hip*
 * calls → AMD.
 * ts/dur are µs (integer or float) and become integer ns; step start times are ns from the first
 * GPU op. Events with dur < 0 or > 7 days (CUPTI overflow) are dropped and counted.
 * `cpu_op` → the op chain that launched each kernel (kernel External id → op, launch-sites.ts);
 * `python_function` (`with_stack=True`) → the line of the workload's Python each kernel was launched
 * from (launch call on a CPU thread, by correlation id → the innermost user frame around it in time,
 * python-frames.ts), per kernel its top sites with their share of its time. CUDA graph replays,
 * which carry no op, take the op and Python line of their graph's capture when the capture is in
 * the trace and the match is sound (graph-captures.ts); otherwise a notice says why not.
 * The file is streamed (traces can exceed memory and V8's string limit): only events of the
 * categories above are decoded; flow and other events are skipped by their bytes.
 * Limits: step windows come from the GPU projection of the annotation where present, else the CPU
 * range (GPU work lagging the CPU is then counted in the next step); the PyTorch version is not
 * in the trace; skipped events are checked for balanced brackets only.
 */







const KNOWN_PARTS = ['deviceProperties', 'distributedInfo'];
function kineto_json_isRecord(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
/** CUDA encodes versions as 1000 * major + 10 * minor (12040 → 12.4). */
function cudaVersion(value) {
    if (typeof value === 'string' && value)
        return value;
    if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0)
        return undefined;
    return `${Math.floor(value / 1000)}.${Math.floor((value % 1000) / 10)}`;
}
function kineto_json_environmentOf(summary) {
    const props = summary.members.get('deviceProperties');
    const devices = Array.isArray(props) ? props.filter(kineto_json_isRecord) : [];
    const env = {};
    const name = devices[0]?.name;
    if (typeof name === 'string' && name)
        env.gpuName = name;
    if (devices.length)
        env.gpuCount = devices.length;
    const apiNames = summary.apiNames();
    if (devices.some((d) => d.warpSize === 64) || apiNames.some((n) => n.startsWith('hip')))
        env.vendor = 'amd';
    else if (devices.some((d) => d.warpSize === 32) || apiNames.some((n) => n.startsWith('cu')))
        env.vendor = 'nvidia';
    if (env.vendor !== 'amd') {
        const cuda = cudaVersion(summary.members.get('cuda_runtime_version'));
        if (cuda)
            env.cuda = cuda;
    }
    return env;
}
/** `distributedInfo` → the capture's rank; absent or without a whole rank, undefined. */
function distributedOf(summary) {
    const info = summary.members.get('distributedInfo');
    if (!kineto_json_isRecord(info) || !Number.isInteger(info.rank) || info.rank < 0)
        return undefined;
    const out = { rank: info.rank };
    if (Number.isInteger(info.world_size) && info.world_size > 0)
        out.worldSize = info.world_size;
    if (typeof info.backend === 'string' && info.backend)
        out.backend = info.backend;
    return out;
}
const REFUSAL_TEXT = {
    'no-capture': 'replayed before any capture in the trace ended (captured before the trace began)',
    count: 'ran a different number of kernels and copies than any capture before them (a graph captured before the trace began, or a replay cut by the trace)',
    ambiguous: 'match several captures of the same launch count',
    streams: 'ran on several streams (their start order need not follow the capture\'s)',
    'capture-order': 'match a capture whose calls are out of time order, overlap another capture on the thread, or launch a graph',
    'replays-disagree': 'disagree with other replays of their capture on the kernel at some position',
};
/** Why some CUDA graph replays were not tied to a capture in the trace, as the tail of a notice. */
function replayReason(reading) {
    if (!reading || reading.captures === 0)
        return 'the graph capture is not in the trace';
    const refused = [...reading.refused].filter(([, count]) => count.replays > 0);
    const parts = refused.map(([reason, count]) => `${count.replays} ${REFUSAL_TEXT[reason]}`);
    const notTied = reading.replays - reading.attributedReplays;
    const unexplained = notTied - refused.reduce((sum, [, count]) => sum + count.replays, 0);
    if (reading.overflow)
        parts.push(`${unexplained} came after the first ${MAX_DEFERRED} GPU events without an op, which are all that is kept for matching`);
    else if (unexplained > 0)
        parts.push(`${unexplained} left no GPU event in the trace`);
    if (notTied <= 0)
        return undefined;
    const captures = `${reading.captures} graph capture${reading.captures === 1 ? '' : 's'}`;
    return `the trace holds ${captures}, but ${notTied} of ${reading.replays} replays are not tied to one: ${parts.join('; ')}`;
}
/** Where kernels could not be tied to the op that launched them, say so rather than guess. */
function attributionNotices(summary) {
    const sites = summary.launchSites;
    const total = sites.attributed + sites.unlinked;
    // A stray launch or two (a profiler warm-up kernel) is not worth a line.
    if (sites.ops === 0 || sites.unlinked < Math.max(1, 0.01 * total))
        return [];
    const reason = summary.launchCounts().graphLaunches > 0 ? replayReason(summary.replays) : undefined;
    return [
        {
            code: 'kineto-launch-op-unavailable',
            severity: 'info',
            message: `${sites.unlinked} of ${total} kernel launches could not be tied to the CPU op that launched them` +
                (reason ? ` (CUDA graph replays: ${reason})` : '') +
                '; their launching op is not available.',
        },
    ];
}
/** Replays whose op and Python line come from their graph's capture: an inference, so it is said. */
function replayNotices(summary) {
    const reading = summary.replays;
    if (!reading || reading.attributedReplays === 0)
        return [];
    return [
        {
            code: 'kineto-graph-replays-from-capture',
            severity: 'info',
            message: `${reading.attributedNodes} GPU events of ${reading.attributedReplays} CUDA graph replays were tied to the launches of their graph's capture in this trace ` +
                '(the i-th kernel or copy of a replay, by start time on its one stream, to the i-th launch of the capture): their launching op and Python line are the capture\'s.',
        },
    ];
}
/** Where Python stacks are in the trace but could not name the line of some or all launches. */
function pythonNotices(summary) {
    const python = summary.python;
    if (!python.active)
        return [];
    if (python.launchesBeforeFrames > 0) {
        return [
            {
                code: 'kineto-python-stacks-late',
                severity: 'info',
                message: `${python.launchesBeforeFrames} kernel launches came before the trace's Python stack events (python_function) in the file; they are not tied to a line of Python.`,
            },
        ];
    }
    if (python.attributed === 0 && python.unattributed > 0) {
        return [
            {
                code: 'kineto-python-no-user-frame',
                severity: 'info',
                message: `The trace holds ${python.frames} Python stack events, but none of its ${python.unattributed} kernel launches ran inside the workload's own Python (only inside torch, the standard library or built-ins, or on a thread without stacks); no Python line is given.`,
            },
        ];
    }
    return [];
}
/* harmony default export */ const kineto_json = (defineImporter({
    id: 'kineto-json',
    label: 'PyTorch profiler / Kineto trace (JSON)',
    sniff(head) {
        const text = head.replace(/^\uFEFF/, '').trimStart();
        if (!text.startsWith('{') || isRocprofTraceHead(head))
            return false; // rocprof v1 writes a Chrome trace too
        return text.includes('"traceEvents"') || (text.includes('"schemaVersion"') && text.includes('"deviceProperties"'));
    },
    async read(file, ctx) {
        const summary = new TraceSummary(ctx);
        const scanner = new TraceScanner(summary);
        // Errors of reading or inflating the file are told apart from errors of its JSON: only the
        // former are a damaged gzip stream, and anything else is not passed off as one.
        const chunks = file.stream()[Symbol.asyncIterator]();
        try {
            for (;;) {
                let next;
                try {
                    next = await chunks.next();
                }
                catch (error) {
                    if (error instanceof errors/* InputError */.dz)
                        throw error;
                    const reason = error.message;
                    const expected = file.gzip ? `expected a complete gzip stream, got "gunzip: ${reason}"` : `expected a readable file, got "${reason}"`;
                    throw new errors/* InputError */.dz(file.path, `${expected} after ${scanner.bytesSeen} bytes of JSON`, `byte ${scanner.bytesSeen}`);
                }
                if (next.done)
                    break;
                scanner.push(next.value);
            }
            scanner.finish();
            summary.finish();
        }
        catch (error) {
            await chunks.return?.();
            if (error instanceof ScanError)
                throw new errors/* InputError */.dz(file.path, error.expected, `byte ${error.offset}`);
            throw error;
        }
        if (!scanner.sawTraceEvents) {
            throw new errors/* InputError */.dz(file.path, 'expected a Kineto trace with a top-level "traceEvents" array, found none', `byte ${scanner.bytesSeen}`);
        }
        const counts = { ...summary.launchCounts(), graphCorrelations: summary.graphCorrelations, captureWindows: summary.captureWindows() };
        const notices = [...attributionNotices(summary), ...replayNotices(summary), ...pythonNotices(summary)];
        const windows = summary.stepWindows();
        const hasTimeline = summary.ops.count > 0 || windows.length > 0 || counts.kernelLaunches > 0;
        const distributed = distributedOf(summary);
        return {
            source: {
                path: file.path,
                format: 'kineto-json',
                tool: 'pytorch-profiler',
                parts: [...KNOWN_PARTS.filter((key) => summary.members.has(key)), ...summary.categories],
            },
            ...(distributed ? { distributed } : {}),
            kernels: summary.kernelStats(),
            memops: summary.memopStats(),
            apiCalls: summary.apiStats(),
            ...(hasTimeline ? { timeline: buildTimeline(summary.ops, windows, counts), deviceTimelines: deviceTimelines(summary.ops, windows, counts) } : {}),
            environment: kineto_json_environmentOf(summary),
            ...(notices.length ? { notices } : {}),
        };
    },
}));

;// CONCATENATED MODULE: ./src/ingest/formats/max/console.ts
/**
 * Pieces of MAX console output shared by `max generate --profile` and `max benchmark --profile`:
 * the ranked GPU kernel and Python/CPU tables (`=== Top N ... ===`) and the notes and errors the
 * profiler prints. Times in those tables are rounded to 2 decimals of s/ms/us (whole ns), so sums
 * are compared with a tolerance of half a last digit per value.
 */


/** Name of the row that stands for the kernels a top-N table leaves out. */
const UNLISTED_KERNELS = '[other kernels not listed]';
const GPU_TITLE = /^=== Top (\d+) GPU kernels \((\d+(?:\.\d+)?)% of GPU time, (\d+(?:\.\d+)?) (s|ms|us|ns) total\) ===\s*$/;
const CPU_TITLE = /^=== Top (\d+) Python\/CPU functions \((\d+(?:\.\d+)?)% of CPU time, (\d+(?:\.\d+)?) (s|ms|us|ns) total\) ===\s*$/;
const CPU_EMPTY = /^=== Python\/CPU functions: no samples captured ===\s*$/;
const HEADER = /^\s*%\s+total\s+calls\s+(kernel|function)\s*$/;
const ROW = /^\s*(\d+(?:\.\d+)?)%\s+(\d+(?:\.\d+)?) (s|ms|us|ns)\s+(\d+(?:\/\d+)?)  (\S.*?)\s*$/;
const LOOKS_LIKE_ROW = /^\s*\d+(?:\.\d+)?%/;
function timed(value, unit) {
    const scale = nsPerUnit(unit);
    const slack = unit === 'ns' ? 0.5 : 0.005 * scale;
    return { ns: Number(value) * scale, slackNs: slack };
}
/** Read the header and rows that follow a `=== Top N ... ===` title at `lines[titleIndex]`. */
function readRankedTable(path, lines, titleIndex, limit, what) {
    let i = titleIndex + 1;
    while (i < lines.length && lines[i].trim() === '')
        i++;
    if (i >= lines.length || !HEADER.test(lines[i])) {
        const got = i < lines.length ? JSON.stringify(lines[i].trim().slice(0, 60)) : 'end of file';
        throw new errors/* InputError */.dz(path, `expected the "%  total  calls  ${what}" header after the table title, got ${got}`, String(i + 1));
    }
    i++;
    const rows = [];
    for (; i < lines.length; i++) {
        const line = lines[i];
        const match = ROW.exec(line);
        if (match) {
            rows.push({ index: i, percent: Number(match[1]), time: timed(match[2], match[3]), calls: match[4], name: match[5] });
            continue;
        }
        if (LOOKS_LIKE_ROW.test(line)) {
            throw new errors/* InputError */.dz(path, `expected a table row "pct%  time unit  calls  ${what}", got ${JSON.stringify(line.trim().slice(0, 60))}`, String(i + 1));
        }
        break;
    }
    if (rows.length > limit) {
        throw new errors/* InputError */.dz(path, `expected at most ${limit} rows as the title says, got ${rows.length}`, String(titleIndex + 1));
    }
    return { rows, next: i };
}
/**
 * The GPU kernel table. Its title gives the total over all kernels while the rows show only the top
 * N, so the remainder becomes one `[other kernels not listed]` row (instances 0) and shares stay right.
 */
function readGpuKernelTable(path, lines, titleIndex, ctx) {
    const title = GPU_TITLE.exec(lines[titleIndex]);
    const total = timed(title[3], title[4]);
    const { rows, next } = readRankedTable(path, lines, titleIndex, Number(title[1]), 'kernel');
    if (rows.length === 0 && total.ns > 0) {
        throw new errors/* InputError */.dz(path, 'expected kernel rows under the GPU kernel table header', String(next + 1));
    }
    const kernels = rows.map((row) => {
        if (row.calls.includes('/')) {
            throw new errors/* InputError */.dz(path, `expected a whole number of kernel calls, got ${row.calls}`, String(row.index + 1));
        }
        return { name: row.name, totalNs: Math.round(row.time.ns), instances: Number(row.calls) };
    });
    const listedNs = rows.reduce((sum, row) => sum + row.time.ns, 0);
    const slackNs = rows.reduce((sum, row) => sum + row.time.slackNs, total.slackNs);
    const remainderNs = total.ns - listedNs;
    if (remainderNs < -slackNs) {
        throw new errors/* InputError */.dz(path, `expected the kernel rows to add up to at most the title's ${title[3]} ${title[4]} total, got ${(listedNs / nsPerUnit(title[4])).toFixed(2)} ${title[4]}`, String(titleIndex + 1));
    }
    if (remainderNs > slackNs) {
        kernels.push({ name: UNLISTED_KERNELS, totalNs: Math.round(remainderNs), instances: 0 });
        ctx.count('unlisted-kernels', 'info', `the GPU table lists the top ${rows.length} kernels; ${Math.round(remainderNs)} ns of other kernels are kept as "${UNLISTED_KERNELS}"`);
    }
    return { kernels, next };
}
function readCpuTable(path, lines, titleIndex) {
    const title = CPU_TITLE.exec(lines[titleIndex]);
    const { rows, next } = readRankedTable(path, lines, titleIndex, Number(title[1]), 'function');
    const functions = rows.map((row) => ({ name: row.name, totalNs: Math.round(row.time.ns), calls: row.calls, percent: row.percent }));
    return { functions, next };
}
const CPU_ONLY_NOTES = [
    [/Nsight Systems.*not found/i, 'max-no-nsys'],
    [/no NVIDIA GPU detected/i, 'max-no-gpu'],
    [/libcudart could not be loaded/i, 'max-no-cudart'],
];
/** A profiler note or error line, as a Notice; undefined for any other line. */
function profilerNotice(line) {
    const text = line.trim();
    if (/^Note: .*only Python\/CPU profile will be captured/.test(text)) {
        const code = CPU_ONLY_NOTES.find(([pattern]) => pattern.test(text))?.[1] ?? 'max-cpu-only';
        return { code, severity: 'warning', message: text.replace(/^Note: /, '') };
    }
    if (text.startsWith('No GPU kernel data found in profile (')) {
        return { code: 'max-no-kernel-data', severity: 'error', message: text };
    }
    if (/^--profile: nsys exited with rc=/.test(text)) {
        return { code: 'max-nsys-failed', severity: 'error', message: text };
    }
    if (/^--profile: no \.nsys-rep found at /.test(text)) {
        return { code: 'max-no-nsys-rep', severity: 'error', message: text };
    }
    const saved = /^Full profile saved to: (.+)$/.exec(text);
    if (saved)
        return { code: 'max-profile-saved', severity: 'info', message: `Full profile saved to ${saved[1]}` };
    return undefined;
}
/** `MAX 26.4.0` as `max --version` prints it. */
function maxVersion(line) {
    return /^MAX (\d+\.\d+[\w.+-]*)\s*$/.exec(line.trim())?.[1];
}

;// CONCATENATED MODULE: ./src/ingest/formats/max-benchmark.ts
/**
 * `max benchmark` console output (also the vLLM-style summary older MAX builds printed). Each
 * `Serving Benchmark Result` block gives: decode_tok_s = Total generated tokens / Benchmark duration
 * (aggregate; the printed `Output token throughput (tok/s)` when the totals are missing),
 * ttft_ms / tpot_ms / itl_ms / latency_ms from the `Median` or `P50` lines (per-request medians),
 * request_throughput and failed_requests; `GPU N utilization (%)` becomes one utilization sample.
 * With `--profile`, the GPU kernel table is read as for `max generate`.
 * Limits: per-request throughput distributions (`Mean output token throughput`) are not gated;
 * several result blocks (a sweep) are pooled as samples and flagged with a notice.
 */




const TITLE = /^=+ Serving Benchmark Result =+\s*$/;
const CLOSING = /^={20,}\s*$/;
/** `label:` padded to 40 columns, the value, and sometimes a unit (`%`). */
const LABELLED = /^(\S.*?):\s+(\S+)(?:\s+%)?\s*$/;
function fieldFor(label) {
    const key = label.toLowerCase().replace(/\s+/g, ' ');
    if (key === 'failed requests')
        return { kind: 'metric', name: 'failed_requests' };
    if (key === 'request throughput (req/s)')
        return { kind: 'metric', name: 'request_throughput' };
    if (key === 'benchmark duration (s)')
        return { kind: 'duration' };
    if (key === 'total generated tokens')
        return { kind: 'generated' };
    if (key === 'output token throughput (tok/s)')
        return { kind: 'printed-decode' };
    const median = /^(?:median|p50) (ttft|tpot|itl|request latency|e2e latency|e2el) \(ms\)$/.exec(key);
    if (median) {
        const names = { ttft: 'ttft_ms', tpot: 'tpot_ms', itl: 'itl_ms' };
        return { kind: 'metric', name: names[median[1]] ?? 'latency_ms' };
    }
    const gpu = /^gpu (\d+) utilization \(%\)$/.exec(key);
    if (gpu)
        return { kind: 'gpu-util', device: Number(gpu[1]) };
    return undefined;
}
function finishBlock(block, ctx) {
    const metrics = [...block.metrics];
    if (block.generated !== undefined && block.durationS !== undefined && block.durationS > 0) {
        metrics.push({ name: 'decode_tok_s', value: block.generated / block.durationS });
    }
    else if (block.printedDecode !== undefined) {
        metrics.push({ name: 'decode_tok_s', value: block.printedDecode });
    }
    else {
        ctx.count('no-decode-throughput', 'info', 'a result block has neither total generated tokens with a duration nor an output token throughput');
    }
    return metrics;
}
/* harmony default export */ const max_benchmark = (defineImporter({
    id: 'max-benchmark',
    label: 'MAX benchmark console output',
    sniff(head) {
        if (/^=+ Serving Benchmark Result =+\s*$/m.test(head))
            return true;
        return /^Successful requests:\s+\d/m.test(head) && /^Benchmark duration \(s\):\s+\d/m.test(head);
    },
    async read(file, ctx) {
        const lines = splitLines(await file.text());
        const metrics = [];
        const utilization = [];
        const kernels = [];
        const notices = [];
        const parts = new Set();
        const titled = lines.some((line) => TITLE.test(line));
        let block = titled ? undefined : { metrics: [] };
        let blockStart = 0;
        let blocks = 0;
        let toolVersion;
        for (let i = 0; i < lines.length; i++) {
            const line = lines[i];
            if (TITLE.test(line)) {
                if (block)
                    throw new errors/* InputError */.dz(file.path, 'expected the result block to close with a "=====" line before the next one', String(i + 1));
                block = { metrics: [] };
                blockStart = i;
                continue;
            }
            if (block && titled && CLOSING.test(line)) {
                metrics.push(...finishBlock(block, ctx));
                blocks++;
                block = undefined;
                continue;
            }
            if (GPU_TITLE.test(line)) {
                const table = readGpuKernelTable(file.path, lines, i, ctx);
                kernels.push(...table.kernels);
                parts.add('gpu-kernel-table');
                i = table.next - 1;
                continue;
            }
            const failure = /(Benchmark result validation failed|Benchmark failed): (.*)$/.exec(line);
            if (failure) {
                const code = failure[1] === 'Benchmark failed' ? 'max-benchmark-failed' : 'max-benchmark-invalid';
                notices.push({ code, severity: 'error', message: `${failure[1]}: ${failure[2].trim()}` });
                continue;
            }
            const notice = profilerNotice(line);
            if (notice)
                notices.push(notice);
            toolVersion ??= maxVersion(line);
            if (!block)
                continue;
            const labelled = LABELLED.exec(line);
            const field = labelled ? fieldFor(labelled[1]) : undefined;
            if (!labelled || !field)
                continue;
            const text = labelled[2];
            if (/^(nan|-?inf|n\/a|none)$/i.test(text)) {
                ctx.count('value-not-available', 'info', `"${labelled[1]}:" was printed as ${text} and is left out`);
                continue;
            }
            const value = parseNumber(text);
            if (value === undefined) {
                throw new errors/* InputError */.dz(file.path, `expected a number after "${labelled[1]}:", got ${JSON.stringify(text)}`, String(i + 1));
            }
            if (field.kind === 'metric')
                block.metrics.push({ name: field.name, value });
            else if (field.kind === 'duration')
                block.durationS = value;
            else if (field.kind === 'generated')
                block.generated = value;
            else if (field.kind === 'printed-decode')
                block.printedDecode = value;
            else if (value >= 0 && value <= 100)
                utilization.push({ device: field.device, gpuPercent: value, reasons: [] });
            else
                ctx.count('utilization-out-of-range', 'data-loss', `GPU ${field.device} utilization ${value}% is outside 0..100`);
        }
        if (block && titled) {
            throw new errors/* InputError */.dz(file.path, 'expected the result block to close with a "=====" line; the file ends inside it', String(blockStart + 1));
        }
        if (block) {
            metrics.push(...finishBlock(block, ctx));
            blocks++;
        }
        if (metrics.length === 0)
            throw new errors/* InputError */.dz(file.path, 'expected a "Serving Benchmark Result" block with benchmark metrics', '1');
        parts.add('benchmark-result');
        if (blocks > 1) {
            notices.push({
                code: 'max-benchmark-several-results',
                severity: 'warning',
                message: `${blocks} benchmark result blocks (a sweep?) are pooled as samples of one run; split the file to gate each load separately`,
            });
        }
        const capture = {
            source: { path: file.path, format: 'max-benchmark', parts: [...parts], tool: 'max', ...(toolVersion ? { toolVersion } : {}) },
            kernels,
            metrics,
            utilization,
            notices,
        };
        return capture;
    },
}));

;// CONCATENATED MODULE: ./src/ingest/formats/max-benchmark-json.ts
/**
 * The JSON `max benchmark --result-filename` writes (vLLM's `--save-result` JSON has the same keys).
 * decode_tok_s = total_output_tokens / duration (aggregate; `output_throughput` when those are
 * missing); ttft_ms / tpot_ms / itl_ms / latency_ms from the `median_*` keys (per-request medians);
 * request_throughput; failed_requests from `failures`. `gpu_utilization[]` (mean per GPU over the run)
 * becomes one utilization sample per GPU; model_id and backend fill the environment.
 * Python writes NaN/Infinity for empty statistics; those values are dropped and counted.
 */


/** Replace the bare NaN / Infinity tokens Python's json module writes (outside strings) with null. */
function nullNonFinite(text, ctx) {
    return text.replace(/"(?:[^"\\]|\\.)*"|-?Infinity|NaN/g, (token) => {
        if (token.startsWith('"'))
            return token;
        ctx.count('non-finite-values', 'info', 'NaN or Infinity values in the JSON are treated as missing');
        return 'null';
    });
}
function parseJsonObject(path, text, ctx) {
    let value;
    try {
        value = JSON.parse(nullNonFinite(text, ctx));
    }
    catch (error) {
        const position = /position (\d+)/.exec(error.message)?.[1];
        throw new errors/* InputError */.dz(path, `expected valid JSON (${error.message})`, position ? `byte ${position}` : undefined);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw new errors/* InputError */.dz(path, 'expected a JSON object with benchmark results', 'byte 0');
    }
    return value;
}
function finite(value) {
    return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
const MEDIAN_KEYS = [
    ['median_ttft_ms', 'ttft_ms'],
    ['median_tpot_ms', 'tpot_ms'],
    ['median_itl_ms', 'itl_ms'],
    ['median_latency_ms', 'latency_ms'],
];
/* harmony default export */ const max_benchmark_json = (defineImporter({
    id: 'max-benchmark-json',
    label: 'MAX benchmark result JSON',
    sniff(head) {
        if (!/^\s*\{/.test(head) || head.includes('"traceEvents"'))
            return false;
        return /"(request_throughput|median_ttft_ms|total_output_tokens)"\s*:/.test(head);
    },
    async read(file, ctx) {
        const result = parseJsonObject(file.path, await file.text(), ctx);
        const metrics = [];
        const push = (name, key, value) => {
            const number = finite(value);
            if (number !== undefined)
                metrics.push({ name, value: number });
            else if (key in result)
                ctx.count('value-not-available', 'info', `"${key}" is ${JSON.stringify(value)} and is left out`);
        };
        const outputTokens = finite(result.total_output_tokens);
        const duration = finite(result.duration);
        if (outputTokens !== undefined && duration !== undefined && duration > 0) {
            metrics.push({ name: 'decode_tok_s', value: outputTokens / duration });
        }
        else {
            push('decode_tok_s', 'output_throughput', result.output_throughput);
        }
        for (const [key, name] of MEDIAN_KEYS)
            push(name, key, result[key]);
        push('request_throughput', 'request_throughput', result.request_throughput);
        push('failed_requests', 'failures', result.failures);
        if (metrics.length === 0) {
            throw new errors/* InputError */.dz(file.path, 'expected benchmark result keys (total_output_tokens and duration, median_ttft_ms, request_throughput …)', 'byte 0');
        }
        const utilization = [];
        const perGpu = result.gpu_utilization;
        if (Array.isArray(perGpu)) {
            perGpu.forEach((value, device) => {
                const percent = finite(value);
                if (percent !== undefined && percent >= 0 && percent <= 100)
                    utilization.push({ device, gpuPercent: percent, reasons: [] });
                else
                    ctx.count('utilization-dropped', 'data-loss', `gpu_utilization[${device}] is ${JSON.stringify(value)}, not a percentage`);
            });
        }
        const model = typeof result.model_id === 'string' ? result.model_id : undefined;
        const engine = typeof result.backend === 'string' ? result.backend : undefined;
        const capture = {
            source: { path: file.path, format: 'max-benchmark-json', parts: ['benchmark-result'], tool: 'max' },
            metrics,
            utilization,
            environment: { ...(model ? { model } : {}), ...(engine ? { engine } : {}) },
        };
        return capture;
    },
}));

;// CONCATENATED MODULE: ./src/ingest/formats/max-generate.ts
/**
 * `max generate [--profile]` console output. The metrics report (`Prompt size: …` to
 * `Total Throughput: … req/s`) becomes metric samples; with `--profile`, the ranked GPU kernel table
 * becomes kernels (plus one `[other kernels not listed]` row for what the top N leaves out), the
 * Python/CPU table becomes cpuFunctions, and the profiler's notes and errors become notices.
 * Several profiled runs in one log add their tables together (with a notice) and pool their metrics.
 * A report cut off (a paste that stops before `Total Throughput`, or mid-line) keeps the metrics
 * printed in full; a warning names the ones missing.
 * Limits: the GPU table holds totals and call counts only (no min/max, no launch shapes), rounded to
 * 2 decimals; `n/a` metrics are skipped and counted. Generated text and logs are ignored.
 */




const METRIC_LINES = {
    'Prompt size': { name: 'prompt_tokens', unit: 'none' },
    'Output size': { name: 'output_tokens', unit: 'none' },
    'Startup time': { name: 'startup_ms', unit: 'time' },
    'Time to first token': { name: 'ttft_ms', unit: 'time' },
    'Prompt eval throughput (context-encoding)': { name: 'prefill_tok_s', unit: 'tokens per second' },
    'Time per Output Token': { name: 'tpot_ms', unit: 'time' },
    'Eval throughput (token-generation)': { name: 'decode_tok_s', unit: 'tokens per second' },
    'Total Latency': { name: 'latency_ms', unit: 'time' },
    'Total Throughput': { name: 'request_throughput', unit: 'req/s' },
};
const METRIC_LINE = new RegExp(`^(${Object.keys(METRIC_LINES).map((label) => label.replace(/[()]/g, '\\$&')).join('|')}): (\\S+)(?: (.*?))?\\s*$`);
const LAST_METRIC = 'Total Throughput';
/** One metric line as a sample; undefined (and counted) for `n/a`, `nan` and `inf`. */
function readMetric(path, match, lineNo, ctx) {
    const label = match[1];
    const spec = METRIC_LINES[label];
    const text = match[2];
    const unit = (match[3] ?? '').trim();
    if (/^(n\/a|nan|-?inf)$/i.test(text)) {
        ctx.count('metric-not-available', 'info', `"${label}" was printed as ${text} and is left out`);
        return undefined;
    }
    const value = parseNumber(text);
    if (value === undefined)
        throw new errors/* InputError */.dz(path, `expected a number after "${label}:", got ${JSON.stringify(text)}`, String(lineNo));
    if (spec.unit === 'time') {
        const scale = nsPerUnit(unit);
        if (scale === undefined)
            throw new errors/* InputError */.dz(path, `expected a time unit (ms) after "${label}: ${text}", got ${JSON.stringify(unit)}`, String(lineNo));
        return { name: spec.name, value: (value * scale) / 1e6 };
    }
    if (spec.unit !== 'none' && unit !== spec.unit) {
        throw new errors/* InputError */.dz(path, `expected "${spec.unit}" after "${label}: ${text}", got ${JSON.stringify(unit)}`, String(lineNo));
    }
    return { name: spec.name, value };
}
/** The index of the last line when the text stops inside it (no final newline) and it starts like a metric line. */
function unterminatedMetricLine(text, lines) {
    if (/\n\s*$/.test(text))
        return undefined;
    let last = lines.length - 1;
    while (last >= 0 && lines[last].trim() === '')
        last--;
    if (last < 0)
        return undefined;
    const line = lines[last];
    const partialLabel = Object.keys(METRIC_LINES).some((label) => `${label}: `.startsWith(line) || line.startsWith(`${label}:`));
    return partialLabel && line.length > 0 ? last : undefined;
}
/* harmony default export */ const max_generate = (defineImporter({
    id: 'max-generate',
    label: 'MAX generate console output',
    sniff(head) {
        if (/^=+ Serving Benchmark Result =+/m.test(head) || /^Successful requests:/m.test(head))
            return false;
        if (/^=== Top \d+ GPU kernels \(/m.test(head) || /^=== Top \d+ Python\/CPU functions \(/m.test(head))
            return true;
        if (/^=== Python\/CPU functions: no samples captured ===/m.test(head))
            return true;
        if (/^Note: .*only Python\/CPU profile will be captured/m.test(head))
            return true;
        return /^Prompt size: \d/m.test(head) && /^(Total Latency|Time to first token|Startup time): /m.test(head);
    },
    async read(file, ctx) {
        const text = await file.text();
        const lines = splitLines(text);
        const lastLine = unterminatedMetricLine(text, lines);
        let cutLine;
        const kernels = [];
        const cpuFunctions = [];
        const metrics = [];
        const notices = [];
        const parts = new Set();
        let toolVersion;
        let lastMetricLabel;
        let lastContentLine = '';
        for (let i = 0; i < lines.length;) {
            const line = lines[i];
            if (line.trim() !== '')
                lastContentLine = line;
            if (GPU_TITLE.test(line)) {
                if (parts.has('gpu-kernel-table')) {
                    notices.push({ code: 'max-several-profiles', severity: 'info', message: `a second GPU kernel table (line ${i + 1}) is added to the first: several profiled runs in one log` });
                }
                const table = readGpuKernelTable(file.path, lines, i, ctx);
                kernels.push(...table.kernels);
                parts.add('gpu-kernel-table');
                i = table.next;
                continue;
            }
            if (CPU_TITLE.test(line)) {
                const table = readCpuTable(file.path, lines, i);
                cpuFunctions.push(...table.functions);
                parts.add('cpu-table');
                i = table.next;
                continue;
            }
            if (CPU_EMPTY.test(line)) {
                parts.add('cpu-table');
                notices.push({ code: 'max-no-cpu-samples', severity: 'info', message: 'Python/CPU functions: no samples captured' });
            }
            let metric = METRIC_LINE.exec(line);
            if (i === lastLine) {
                // The file stops inside this line: read it if it is whole, else it is where the paste was cut.
                try {
                    if (!metric)
                        throw new Error('a partial label');
                    readMetric(file.path, metric, i + 1, createImportContext(file.path));
                }
                catch {
                    cutLine = i;
                    metric = null;
                }
            }
            if (metric) {
                const sample = readMetric(file.path, metric, i + 1, ctx);
                if (sample)
                    metrics.push(sample);
                lastMetricLabel = metric[1];
                parts.add('metrics');
            }
            const notice = profilerNotice(line);
            if (notice)
                notices.push(notice);
            toolVersion ??= maxVersion(line);
            i++;
        }
        // A report cut short at the end of the file: what was printed in full is read, the rest named.
        const endsInReport = METRIC_LINE.test(lastContentLine) || cutLine !== undefined;
        if (lastMetricLabel && endsInReport && lastMetricLabel !== LAST_METRIC) {
            const labels = Object.keys(METRIC_LINES);
            const missing = labels.slice(labels.indexOf(lastMetricLabel) + 1);
            const where = cutLine !== undefined ? `line ${cutLine + 1} is cut off mid-line` : `the file ends after "${lastMetricLabel}"`;
            const message = `the metrics report is cut off (${where}): ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing; the ${metrics.length} metrics printed in full are read`;
            ctx.count('metrics-cut-off', 'data-loss', message);
            notices.push({ code: 'max-metrics-cut-off', severity: 'warning', message });
        }
        if (parts.size === 0 && notices.length === 0) {
            throw new errors/* InputError */.dz(file.path, 'expected MAX generate output: a metrics report or a "=== Top N GPU kernels" table', '1');
        }
        const capture = {
            source: { path: file.path, format: 'max-generate', parts: [...parts], tool: 'max', ...(toolVersion ? { toolVersion } : {}) },
            kernels,
            metrics,
            cpuFunctions,
            notices,
        };
        return capture;
    },
}));

;// CONCATENATED MODULE: ./src/ingest/common/json-values.ts
/**
 * Top-level JSON values in a text that may hold one document, JSON lines, or several documents
 * written back to back (a shell loop around a `--json` tool). Each value comes with its first line,
 * so a bad one can be named. Text between values (a tool's `WARNING:` lines) is reported apart.
 */

function splitJsonValues(path, text) {
    const values = [];
    const strayLines = [];
    let line = 1;
    let i = 0;
    const n = text.length;
    while (i < n) {
        const ch = text[i];
        if (ch === '\n') {
            line += 1;
            i += 1;
            continue;
        }
        if (ch === ' ' || ch === '\t' || ch === '\r') {
            i += 1;
            continue;
        }
        if (ch !== '{' && ch !== '[') {
            const end = text.indexOf('\n', i);
            const stop = end < 0 ? n : end;
            strayLines.push({ line, text: text.slice(i, stop).trimEnd() });
            i = stop;
            continue;
        }
        const startLine = line;
        const start = i;
        let depth = 0;
        let inString = false;
        for (; i < n; i += 1) {
            const c = text[i];
            if (c === '\n')
                line += 1;
            if (inString) {
                if (c === '\\')
                    i += 1;
                else if (c === '"')
                    inString = false;
                continue;
            }
            if (c === '"')
                inString = true;
            else if (c === '{' || c === '[')
                depth += 1;
            else if (c === '}' || c === ']') {
                depth -= 1;
                if (depth === 0)
                    break;
            }
        }
        if (i >= n)
            return { values, strayLines, truncatedAt: startLine };
        i += 1;
        try {
            values.push({ value: JSON.parse(text.slice(start, i)), line: startLine });
        }
        catch (error) {
            throw new errors/* InputError */.dz(path, `expected valid JSON (${error.message})`, String(startLine));
        }
    }
    return { values, strayLines };
}
function json_values_isRecord(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
/** A finite number from a JSON number or a numeric string; undefined otherwise. */
function numberFrom(value) {
    if (typeof value === 'number')
        return Number.isFinite(value) ? value : undefined;
    if (typeof value === 'string' && value.trim() !== '') {
        const parsed = Number(value.trim());
        return Number.isFinite(parsed) ? parsed : undefined;
    }
    return undefined;
}
/** A 0..100 percentage, or undefined when missing or outside that range (a sensor glitch, never clipped). */
function percentFrom(value) {
    const number = numberFrom(value);
    return number !== undefined && number >= 0 && number <= 100 ? number : undefined;
}

;// CONCATENATED MODULE: ./src/ingest/formats/max-gpu-stats-json.ts
/**
 * `max.profiler.gpu` records (`BackgroundRecorder.stats`, or `GPUDiagContext.get_stats()` per tick),
 * serialized as a JSON array of sample dicts, JSON lines, or documents back to back. A sample dict is
 * `{"nv0": {"memory": {...}, "utilization": {...}, "clocks": {...} | null}, "amd0": …}`.
 * Mapping: the key suffix → device, `utilization.gpu_usage_percent` → gpuPercent,
 * `memory_activity_percent` → memoryPercent, `clocks.core_mhz` → smClockMhz, `memory.used_bytes` →
 * memoryUsedBytes, `clocks.throttle_reasons` → reasons as given (gpu_idle included; the model keeps
 * only the hardware ones as throttling). A numeric `t`/`timestamp` key beside the GPUs, where a
 * script added one, becomes the sample time.
 * Limits: the records carry no power draw and, unless a script added it, no time. When NVIDIA and
 * AMD GPUs are both present, AMD devices are numbered after the NVIDIA ones.
 */



const GPU_KEY = /^(nv|amd)(\d+)$/;
function sampleDicts(path, text) {
    const { values, strayLines, truncatedAt } = splitJsonValues(path, text);
    if (strayLines.length) {
        const stray = strayLines[0];
        throw new errors/* InputError */.dz(path, `expected max.profiler.gpu JSON records, got ${JSON.stringify(stray.text.slice(0, 60))}`, String(stray.line));
    }
    if (truncatedAt !== undefined) {
        throw new errors/* InputError */.dz(path, 'expected complete JSON, the text ends inside a value', String(truncatedAt));
    }
    const dicts = [];
    for (const { value, line } of values) {
        for (const item of Array.isArray(value) ? value : [value]) {
            if (!json_values_isRecord(item))
                throw new errors/* InputError */.dz(path, 'expected each sample to be an object keyed by nv0, amd0, …', String(line));
            dicts.push({ dict: item, line });
        }
    }
    return dicts;
}
/* harmony default export */ const max_gpu_stats_json = (defineImporter({
    id: 'max-gpu-stats-json',
    label: 'max.profiler.gpu stats (JSON)',
    sniff(head) {
        if (!/^\s*[[{]/.test(head))
            return false;
        return /^\s*\[?\s*\{[^{]{0,200}?"(?:nv|amd)\d+"\s*:\s*\{\s*"(?:memory|utilization|clocks)"\s*:/.test(head);
    },
    async read(file, ctx) {
        const dicts = sampleDicts(file.path, await file.text());
        const nvDevices = new Set();
        const amdDevices = new Set();
        for (const { dict } of dicts) {
            for (const key of Object.keys(dict)) {
                const match = GPU_KEY.exec(key);
                if (match)
                    (match[1] === 'nv' ? nvDevices : amdDevices).add(Number(match[2]));
            }
        }
        const amdOffset = nvDevices.size ? Math.max(...nvDevices) + 1 : 0;
        if (nvDevices.size && amdDevices.size)
            ctx.count('mixed-vendors', 'info', `AMD devices are numbered from ${amdOffset}, after the NVIDIA ones`);
        const samples = [];
        for (const { dict, line } of dicts) {
            const t = numberFrom(dict['t'] ?? dict['timestamp']);
            let gpus = 0;
            for (const [key, stats] of Object.entries(dict)) {
                const match = GPU_KEY.exec(key);
                if (!match)
                    continue;
                gpus += 1;
                if (!json_values_isRecord(stats))
                    throw new errors/* InputError */.dz(file.path, `expected "${key}" to be a GPUStats object`, String(line));
                const utilization = json_values_isRecord(stats['utilization']) ? stats['utilization'] : {};
                const gpuPercent = percentFrom(utilization['gpu_usage_percent']);
                if (gpuPercent === undefined) {
                    ctx.count('gpu-without-utilization', 'data-loss', `utilization.gpu_usage_percent missing or not 0..100 (first: ${key} at line ${line})`);
                    continue;
                }
                const device = Number(match[2]) + (match[1] === 'amd' ? amdOffset : 0);
                const sample = { device, gpuPercent, reasons: [] };
                if (t !== undefined)
                    sample.t = t;
                const memoryPercent = percentFrom(utilization['memory_activity_percent']);
                if (memoryPercent !== undefined)
                    sample.memoryPercent = memoryPercent;
                const memory = json_values_isRecord(stats['memory']) ? stats['memory'] : {};
                const used = numberFrom(memory['used_bytes']);
                if (used !== undefined)
                    sample.memoryUsedBytes = used;
                const clocks = json_values_isRecord(stats['clocks']) ? stats['clocks'] : {};
                const core = numberFrom(clocks['core_mhz']);
                if (core !== undefined)
                    sample.smClockMhz = core;
                const reasons = clocks['throttle_reasons'];
                if (Array.isArray(reasons))
                    sample.reasons = reasons.filter((r) => typeof r === 'string');
                samples.push(sample);
            }
            if (gpus === 0)
                throw new errors/* InputError */.dz(file.path, 'expected a sample keyed by nv0, amd0, …, found no GPU key', String(line));
        }
        if (samples.length === 0)
            throw new errors/* InputError */.dz(file.path, 'expected at least one GPU sample with gpu_usage_percent, found none', '1');
        const vendor = nvDevices.size && !amdDevices.size ? 'nvidia' : amdDevices.size && !nvDevices.size ? 'amd' : undefined;
        return {
            source: { path: file.path, format: 'max-gpu-stats-json', parts: ['gpu-stats'], tool: 'max.profiler.gpu' },
            utilization: samples,
            environment: { gpuCount: nvDevices.size + amdDevices.size, ...(vendor ? { vendor } : {}) },
        };
    },
}));

;// CONCATENATED MODULE: ./src/ingest/formats/gpu-snapshot-jsonl.ts
/**
 * JSON lines of GPU samples, in two shapes:
 * 1. `python/gpu_snapshot.py` (version 1): a header `{"kind":"gpu-snapshot","version":1,"backend":…,
 *    "interval_s":…,"command":[…]|null,"devices":[{"index":0,"name":…}],"driver":…,"vendor":…}`, then
 *    `{"kind":"sample","t":…,"device":0,"gpu_util":…,"mem_util":…,"sm_clock_mhz":…,"power_w":…,
 *    "mem_used_bytes":…,"reasons":[…],"hw_throttle":[…]}` records, `{"kind":"warning","message":…}`,
 *    and a last `{"kind":"end","exit_code":…,"samples":N}`.
 * 2. A plain NVML sampler's lines `{"t":…,"gpu":<util %>,"mem_util":…,"mem_used":<bytes>,
 *    "sm_clock":<MHz>,"power_mw":…,"temp":…,"reasons":<NVML clocks-event bitmask>}` (`device` optional).
 * Both map onto utilization samples; reasons keep gpu_idle (the model filters hardware ones).
 * Limits: a recording without its end record (the recorder was killed) is read and counted as such;
 * a cut-off last line is dropped and counted.
 */




function shapeOf(record) {
    if (!json_values_isRecord(record))
        return null;
    if (record['kind'] === 'gpu-snapshot')
        return 'snapshot';
    const nvml = typeof record['t'] === 'number' && typeof record['gpu'] === 'number';
    return nvml && ['sm_clock', 'power_mw', 'reasons', 'mem_util'].some((key) => key in record) ? 'nvml' : null;
}
function readLines(path, text, ctx) {
    const raw = text.split(/\r?\n/);
    let last = raw.length - 1;
    while (last >= 0 && raw[last].trim() === '')
        last -= 1;
    const lines = [];
    for (let i = 0; i <= last; i += 1) {
        const body = raw[i].trim();
        if (body === '')
            continue;
        let record;
        try {
            record = JSON.parse(body);
        }
        catch (error) {
            if (i === last && i > 0) {
                ctx.count('truncated-last-line', 'data-loss', `line ${i + 1} is cut off (the writer stopped mid-line)`);
                break;
            }
            throw new errors/* InputError */.dz(path, `expected one JSON object per line (${error.message})`, String(i + 1));
        }
        if (!json_values_isRecord(record))
            throw new errors/* InputError */.dz(path, 'expected one JSON object per line', String(i + 1));
        lines.push({ record, line: i + 1 });
    }
    return lines;
}
function optional(sample, key, value) {
    if (value !== undefined)
        sample[key] = value;
}
function nvmlSample({ record }, ctx) {
    const gpuPercent = percentFrom(record['gpu']);
    if (gpuPercent === undefined) {
        ctx.count('sample-without-utilization', 'data-loss', '"gpu" missing or not 0..100');
        return null;
    }
    const sample = { device: numberFrom(record['device'] ?? record['index']) ?? 0, gpuPercent, reasons: [] };
    optional(sample, 't', numberFrom(record['t']));
    optional(sample, 'memoryPercent', percentFrom(record['mem_util']));
    optional(sample, 'smClockMhz', numberFrom(record['sm_clock']));
    const powerMw = numberFrom(record['power_mw']);
    if (powerMw !== undefined)
        sample.powerW = powerMw / 1000;
    optional(sample, 'memoryUsedBytes', numberFrom(record['mem_used']));
    const mask = record['reasons'];
    if (typeof mask === 'number' && Number.isInteger(mask) && mask >= 0)
        sample.reasons = reasonsFromMask(mask);
    else if (mask !== undefined && mask !== null)
        ctx.count('unreadable-reasons', 'data-loss', '"reasons" is not an NVML bitmask integer');
    return sample;
}
function snapshotSample({ record, line }, ctx) {
    const gpuPercent = percentFrom(record['gpu_util']);
    if (gpuPercent === undefined) {
        ctx.count('sample-without-utilization', 'data-loss', `"gpu_util" missing or not 0..100 (first at line ${line})`);
        return null;
    }
    const device = numberFrom(record['device']);
    const sample = { device: device !== undefined && Number.isInteger(device) ? device : 0, gpuPercent, reasons: [] };
    optional(sample, 't', numberFrom(record['t']));
    optional(sample, 'memoryPercent', percentFrom(record['mem_util']));
    optional(sample, 'smClockMhz', numberFrom(record['sm_clock_mhz']));
    optional(sample, 'powerW', numberFrom(record['power_w']));
    optional(sample, 'memoryUsedBytes', numberFrom(record['mem_used_bytes']));
    const names = (value) => (Array.isArray(value) ? value.filter((r) => typeof r === 'string') : []);
    sample.reasons = [...new Set([...names(record['reasons']), ...names(record['hw_throttle'])])];
    return sample;
}
function readSnapshot(path, lines, ctx) {
    const header = lines[0].record;
    if (header['version'] !== 1) {
        throw new errors/* InputError */.dz(path, `expected gpu-snapshot version 1, got ${JSON.stringify(header['version'])}`, String(lines[0].line));
    }
    const samples = [];
    const notices = [];
    let end;
    for (const entry of lines.slice(1)) {
        const kind = entry.record['kind'];
        if (end)
            throw new errors/* InputError */.dz(path, 'expected nothing after the "end" record', String(entry.line));
        if (kind === 'sample') {
            const sample = snapshotSample(entry, ctx);
            if (sample)
                samples.push(sample);
        }
        else if (kind === 'end') {
            end = entry;
        }
        else if (kind === 'warning') {
            notices.push({ code: 'gpu-snapshot-warning', severity: 'warning', message: String(entry.record['message'] ?? '') });
        }
        else {
            ctx.count('unknown-record', 'info', `records of kind ${JSON.stringify(kind)} are skipped`);
        }
    }
    if (!end) {
        ctx.count('no-end-record', 'data-loss', 'the recording has no end record: the recorder stopped before it finished');
    }
    else {
        const written = numberFrom(end.record['samples']);
        const sampleLines = lines.filter((l) => l.record['kind'] === 'sample').length;
        if (written !== undefined && written !== sampleLines) {
            ctx.count('missing-samples', 'data-loss', `the end record counts ${written} samples, the file holds ${sampleLines}`);
        }
        const exitCode = end.record['exit_code'];
        if (typeof exitCode === 'number' && exitCode !== 0) {
            notices.push({ code: 'command-failed', severity: 'warning', message: `the recorded command exited with code ${exitCode}` });
        }
    }
    if (samples.length === 0) {
        notices.push({ code: 'no-gpu-samples', severity: 'warning', message: 'the recording holds no GPU samples (was the run shorter than the interval?)' });
    }
    const devices = Array.isArray(header['devices']) ? header['devices'].filter(json_values_isRecord) : [];
    const names = [...new Set(devices.map((d) => d['name']).filter((n) => typeof n === 'string'))];
    const backend = typeof header['backend'] === 'string' ? header['backend'] : undefined;
    const vendor = header['vendor'] === 'amd' || backend === 'rocm-smi' ? 'amd' : header['vendor'] === 'nvidia' || backend === 'nvml' || backend === 'nvidia-smi' ? 'nvidia' : undefined;
    const driver = typeof header['driver'] === 'string' ? header['driver'] : undefined;
    return {
        source: { path, format: 'gpu-snapshot-jsonl', parts: ['gpu-snapshot', ...(backend ? [backend] : [])], tool: 'gpu_snapshot.py' },
        utilization: samples,
        notices,
        environment: {
            ...(vendor ? { vendor } : {}),
            ...(names.length ? { gpuName: names.join(', ') } : {}),
            ...(driver ? { driver } : {}),
            gpuCount: devices.length || new Set(samples.map((s) => s.device)).size,
        },
    };
}
/* harmony default export */ const gpu_snapshot_jsonl = (defineImporter({
    id: 'gpu-snapshot-jsonl',
    label: 'GPU samples as JSON lines (gpu_snapshot.py, NVML)',
    sniff(head) {
        const first = head.trimStart().split(/\r?\n/, 1)[0] ?? '';
        if (!first.startsWith('{') || !first.endsWith('}'))
            return false;
        try {
            return shapeOf(JSON.parse(first)) !== null;
        }
        catch {
            return false;
        }
    },
    async read(file, ctx) {
        const lines = readLines(file.path, await file.text(), ctx);
        if (lines.length === 0)
            throw new errors/* InputError */.dz(file.path, 'expected JSON lines of GPU samples, the file is blank', '1');
        const shape = shapeOf(lines[0].record);
        if (!shape) {
            throw new errors/* InputError */.dz(file.path, 'expected a {"kind":"gpu-snapshot",…} header or an NVML sample {"t":…,"gpu":…} first', String(lines[0].line));
        }
        if (shape === 'snapshot')
            return readSnapshot(file.path, lines, ctx);
        const samples = lines.map((line) => nvmlSample(line, ctx)).filter((s) => s !== null);
        if (samples.length === 0)
            throw new errors/* InputError */.dz(file.path, 'expected at least one sample with a "gpu" utilization, found none', '1');
        return {
            source: { path: file.path, format: 'gpu-snapshot-jsonl', parts: ['nvml'], tool: 'NVML' },
            utilization: samples,
            environment: { vendor: 'nvidia', gpuCount: new Set(samples.map((s) => s.device)).size },
        };
    },
}));

// EXTERNAL MODULE: ./node_modules/csv-parse/lib/sync.js + 9 modules
var sync = __webpack_require__(25175);
;// CONCATENATED MODULE: ./src/ingest/formats/ncu/units.ts
/**
 * Nsight Compute prints each value in a unit it picks per row and per version (`us` or `ns`, `Ghz` or
 * `hz`, `Kbyte`, `Gbyte/s`, older `usecond`, `cycle/nsecond`). These are brought to base units:
 * ns, byte, byte/s, hz, %. Other units (cycle, warp, block, register/thread, …) are kept as printed.
 * ncu byte prefixes are decimal (65.54 Kbyte = 65,536 bytes).
 */
const BASE = {};
function add(unit, names, scale) {
    for (const name of names)
        BASE[name] = [unit, scale];
}
add('ns', ['ns', 'nsecond', 'nsec'], 1);
add('ns', ['us', 'usecond', 'usec'], 1e3);
add('ns', ['ms', 'msecond', 'msec'], 1e6);
add('ns', ['s', 'second', 'sec'], 1e9);
const BYTE_PREFIXES = [
    ['', 1],
    ['k', 1e3],
    ['m', 1e6],
    ['g', 1e9],
    ['t', 1e12],
    ['ki', 1024],
    ['mi', 1024 ** 2],
    ['gi', 1024 ** 3],
    ['ti', 1024 ** 4],
];
for (const [prefix, scale] of BYTE_PREFIXES) {
    add('byte', [`${prefix}byte`], scale);
    add('byte/s', [`${prefix}byte/s`, `${prefix}byte/second`], scale);
}
add('byte/s', ['byte/ns', 'byte/nsecond'], 1e9);
add('byte/s', ['byte/us', 'byte/usecond'], 1e6);
add('hz', ['hz', 'cycle/s', 'cycle/second'], 1);
add('hz', ['khz', 'cycle/ms', 'cycle/msecond'], 1e3);
add('hz', ['mhz', 'cycle/us', 'cycle/usecond'], 1e6);
add('hz', ['ghz', 'cycle/ns', 'cycle/nsecond'], 1e9);
add('%', ['%', 'pct'], 1);
const PLAIN_NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;
const THOUSANDS = /^[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;
/** A printed ncu value as a number (`"1,215,000,000.00"` → 1215000000), or undefined when it is text. */
function ncuNumber(text) {
    const value = text.trim();
    if (PLAIN_NUMBER.test(value))
        return Number(value);
    if (THOUSANDS.test(value))
        return Number(value.replaceAll(',', ''));
    return undefined;
}
/** The value in its base unit; text values (`n/a`, `PolicySpread`) stay text with the unit as printed. */
function normalizeNcuValue(unit, text) {
    const number = ncuNumber(text);
    if (number === undefined)
        return { unit, value: text.trim() };
    const base = BASE[unit.trim().toLowerCase()];
    if (!base)
        return { unit, value: number };
    const [baseUnit, scale] = base;
    // Round away the float noise of the scaling (4.96 us → 4960 ns, not 4959.999…).
    return { unit: baseUnit, value: scale === 1 ? number : Number((number * scale).toPrecision(12)) };
}

;// CONCATENATED MODULE: ./src/ingest/formats/ncu-csv.ts
/**
 * Nsight Compute `ncu --csv` output, `--page details` (default) or `--page raw`, → one NcuResult per
 * profiled launch (ID) and per-kernel sums.
 * details: one row per (result, section, metric) and one per fired rule; metric rows are short
 * (trailing comma) so the reader tolerates ragged rows. Metrics are kept per (section, name) with
 * values in base units (see ncu-units.ts); rule rows carry type, description and estimated speedup.
 * raw: row 1 names the metrics, row 2 their units, then one row per result (section "raw").
 * kernels: per kernel name, instances = results, totalNs = sum of Duration (`gpu__time_duration.sum`).
 * `==PROF==`/`==WARNING==` lines and application output around the CSV are skipped.
 * Limits: ncu durations come from replayed launches (clocks locked to base by default), so they
 * describe one launch's shape, not production time; values printed under a non-English locale
 * (`27.595.520`) stay text.
 */




const HEADER_START = '"ID","Process ID","Process Name","Host Name","Kernel Name"';
const IDENTITY_COLUMNS = new Set(['ID', 'Process ID', 'Process Name', 'Host Name', 'Kernel Name', 'Kernel Time', 'Context', 'Stream', 'Block Size', 'Grid Size', 'Device', 'CC']);
const DURATION_NAMES = ['gpu__time_duration.sum', 'gpu__time_duration.avg', 'Duration'];
/** The CSV records after the header, each with its first line; other lines are counted and skipped. */
function csvRows(path, lines, headerIndex, ctx) {
    const chunks = [];
    const starts = [];
    const lineOf = [];
    let open = false;
    for (let i = headerIndex; i < lines.length; i += 1) {
        const line = lines[i];
        if (!open) {
            if (line.trim() === '')
                continue;
            if (!line.startsWith('"')) {
                if (/^==[A-Z]+==/.test(line))
                    ctx.count('profiler-message', 'info', line.slice(0, 120));
                else
                    ctx.count('non-csv-line', 'info', 'application output between CSV rows is skipped');
                continue;
            }
            starts.push(i + 1);
        }
        chunks.push(line);
        lineOf.push(i + 1);
        // An odd number of quotes leaves a field open: the record continues on the next line.
        if ((line.split('"').length - 1) % 2 === 1)
            open = !open;
    }
    let records;
    try {
        // The delimiter is named: discovering it costs ~1 µs a byte until the first record ends.
        records = (0,sync/* parse */.qg)(chunks.join('\n'), { relax_column_count: true, record_delimiter: '\n' });
    }
    catch (error) {
        const at = error.lines;
        const line = at !== undefined ? lineOf[Math.min(at, lineOf.length) - 1] : undefined;
        throw new errors/* InputError */.dz(path, `expected a well-formed ncu CSV (${error.message.split('\n')[0]})`, line ? String(line) : undefined);
    }
    const [header, ...rest] = records;
    return { header: header, rows: rest.map((cells, k) => ({ cells, line: starts[k + 1] })) };
}
function dim3(text) {
    const match = /^\(\s*(\d+),\s*(\d+),\s*(\d+)\s*\)$/.exec(text?.trim() ?? '');
    return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}
function resultFor(results, cells, col) {
    const cell = (name) => {
        const index = col.get(name);
        const value = index === undefined ? undefined : cells[index]?.trim();
        return value === '' ? undefined : value;
    };
    const idText = cell('ID');
    if (idText === undefined || !/^\d+$/.test(idText))
        return null;
    const id = Number(idText);
    let result = results.get(id);
    if (!result) {
        result = { id, kernel: cell('Kernel Name') ?? '', metrics: [], rules: [] };
        for (const [key, column] of [['device', 'Device'], ['cc', 'CC'], ['grid', 'Grid Size'], ['block', 'Block Size']]) {
            const value = cell(column);
            if (value !== undefined)
                result[key] = value;
        }
        results.set(id, result);
    }
    return result;
}
function readDetails(path, header, rows, ctx) {
    const col = new Map(header.map((name, i) => [name, i]));
    for (const name of ['Section Name', 'Metric Name', 'Metric Unit', 'Metric Value']) {
        if (!col.has(name))
            throw new errors/* InputError */.dz(path, `expected a "${name}" column in the ncu details header`);
    }
    const at = (cells, name) => cells[col.get(name) ?? -1]?.trim() ?? '';
    const results = new Map();
    for (const { cells, line } of rows) {
        const result = resultFor(results, cells, col);
        if (!result)
            throw new errors/* InputError */.dz(path, `expected a result ID in the first column, got ${JSON.stringify(cells[0] ?? '')}`, String(line));
        const section = at(cells, 'Section Name');
        const ruleName = at(cells, 'Rule Name');
        if (ruleName) {
            const speedup = ncuNumber(at(cells, 'Estimated Speedup'));
            const speedupType = at(cells, 'Estimated Speedup Type');
            result.rules.push({
                section,
                name: ruleName,
                type: at(cells, 'Rule Type'),
                description: at(cells, 'Rule Description'),
                ...(speedupType ? { speedupType } : {}),
                ...(speedup !== undefined ? { estimatedSpeedupPercent: speedup } : {}),
            });
            continue;
        }
        const name = at(cells, 'Metric Name');
        if (!name) {
            ctx.count('empty-row', 'info', 'rows with neither a metric nor a rule are skipped');
            continue;
        }
        result.metrics.push({ section, name, ...normalizeNcuValue(at(cells, 'Metric Unit'), at(cells, 'Metric Value')) });
    }
    return results;
}
function readRaw(path, header, rows, ctx) {
    const [units, ...data] = rows;
    if (!units || units.cells[0]?.trim() !== '') {
        throw new errors/* InputError */.dz(path, 'expected the ncu --page raw units row (empty ID cell) right after the header', String(units?.line ?? 2));
    }
    const col = new Map(header.map((name, i) => [name, i]));
    const metricColumns = header.map((name, i) => ({ name, i })).filter(({ name }) => !IDENTITY_COLUMNS.has(name));
    const results = new Map();
    for (const { cells, line } of data) {
        const result = resultFor(results, cells, col);
        if (!result)
            throw new errors/* InputError */.dz(path, `expected a result ID in the first column, got ${JSON.stringify(cells[0] ?? '')}`, String(line));
        if (cells.length !== header.length)
            ctx.count('ragged-raw-row', 'data-loss', `a raw row has ${cells.length} fields, the header ${header.length}`);
        for (const { name, i } of metricColumns) {
            const text = cells[i]?.trim() ?? '';
            if (text === '')
                continue;
            result.metrics.push({ section: 'raw', name, ...normalizeNcuValue(units.cells[i] ?? '', text) });
        }
    }
    return results;
}
function durationNs(result) {
    for (const name of DURATION_NAMES) {
        const metric = result.metrics.find((m) => m.name === name && m.unit === 'ns' && typeof m.value === 'number');
        if (metric)
            return metric.value;
    }
    return undefined;
}
function kernelStats(results, ctx) {
    const byName = new Map();
    for (const result of results) {
        let ns = durationNs(result);
        if (ns !== undefined && ns < 0) {
            ctx.count('negative-duration', 'data-loss', `result ${result.id} has a negative Duration (${ns} ns); it is left out of its kernel's total`);
            ns = undefined;
        }
        else if (ns === undefined)
            ctx.count('result-without-duration', 'data-loss', `result ${result.id} has no Duration; its kernel's total is short by it`);
        let stat = byName.get(result.kernel);
        if (!stat) {
            stat = { name: result.kernel, totalNs: 0, instances: 0, heaviest: -1 };
            byName.set(result.kernel, stat);
        }
        stat.instances += 1;
        if (ns === undefined)
            continue;
        stat.totalNs += ns;
        stat.minNs = Math.min(stat.minNs ?? Infinity, ns);
        stat.maxNs = Math.max(stat.maxNs ?? 0, ns);
        if (ns > stat.heaviest) {
            stat.heaviest = ns;
            const grid = dim3(result.grid);
            const block = dim3(result.block);
            if (grid)
                stat.grid = grid;
            if (block)
                stat.block = block;
            if (result.device && /^\d+$/.test(result.device))
                stat.device = Number(result.device);
        }
    }
    return [...byName.values()].map(({ heaviest: _heaviest, ...stat }) => stat).sort((a, b) => b.totalNs - a.totalNs);
}
/**
 * Why an ncu log holds no results, in ncu's own words: its first `==ERROR==` line (ncu failed), else
 * its "No kernels were profiled" warning, else the missing CSV header.
 */
function noResults(path, lines) {
    const errorAt = lines.findIndex((line) => line.startsWith('==ERROR=='));
    if (errorAt >= 0) {
        const more = lines.slice(errorAt + 1).filter((line) => line.startsWith('==ERROR==')).length;
        const rest = more ? ` (and ${more} more ==ERROR== line${more > 1 ? 's' : ''})` : '';
        return new errors/* InputError */.dz(path, `ncu failed and wrote no results; it said: ${lines[errorAt].trim().slice(0, 240)}${rest}`, String(errorAt + 1));
    }
    const noKernelsAt = lines.findIndex((line) => /^==WARNING== No kernels were profiled/.test(line));
    if (noKernelsAt >= 0) {
        return new errors/* InputError */.dz(path, 'ncu profiled no kernels (==WARNING== No kernels were profiled): check --kernel-name, --launch-skip and --launch-count, and that the program ran on the GPU', String(noKernelsAt + 1));
    }
    return new errors/* InputError */.dz(path, `expected an ncu CSV header starting ${HEADER_START} (was ncu run with --csv?)`, '1');
}
/* harmony default export */ const ncu_csv = (defineImporter({
    id: 'ncu-csv',
    label: 'Nsight Compute CSV (details or raw page)',
    sniff(head) {
        // Also an ncu log that failed or matched no kernel, read to say so (a good run's log written
        // beside an -o report is not claimed).
        return head.startsWith(HEADER_START) || head.includes(`\n${HEADER_START}`) || /^==ERROR== |^==WARNING== No kernels were profiled/m.test(head);
    },
    async read(file, ctx) {
        const lines = (await file.text()).split(/\r?\n/);
        const headerIndex = lines.findIndex((line) => line.startsWith(HEADER_START));
        if (headerIndex < 0)
            throw noResults(file.path, lines);
        for (const line of lines.slice(0, headerIndex)) {
            if (/^==[A-Z]+==/.test(line))
                ctx.count('profiler-message', 'info', line.slice(0, 120));
        }
        const { header, rows } = csvRows(file.path, lines, headerIndex, ctx);
        const page = header.includes('Metric Name') && header.includes('Metric Value') ? 'details' : 'raw';
        const byId = page === 'details' ? readDetails(file.path, header, rows, ctx) : readRaw(file.path, header, rows, ctx);
        const results = [...byId.values()].sort((a, b) => a.id - b.id);
        if (results.length === 0)
            throw new errors/* InputError */.dz(file.path, 'expected at least one profiled result after the ncu header, found none', String(headerIndex + 2));
        return {
            source: { path: file.path, format: 'ncu-csv', parts: [page], tool: 'Nsight Compute' },
            ncu: results,
            kernels: kernelStats(results, ctx),
            environment: { vendor: 'nvidia' },
        };
    },
}));

;// CONCATENATED MODULE: ./src/ingest/common/csv-records.ts
/**
 * CSV records from lines that arrive one at a time, read as csv-parse reads them (RFC 4180 quoting,
 * `""` for a quote): a quoted field may hold a line break, so a record whose quote is still open
 * continues on the next line; a line of whitespace only is no record; malformed quoting is an
 * InputError naming csv-parse's reason and the line. Most lines take splitCsvLine's fast path.
 */


/** How one line of a record ends, given whether it starts inside a quoted field. */
function lineEnd(line, inQuotes) {
    const n = line.length;
    let i = 0;
    for (;;) {
        if (inQuotes) {
            const quote = line.indexOf('"', i);
            if (quote < 0)
                return 'open';
            if (line.charCodeAt(quote + 1) === 34) {
                i = quote + 2;
                continue;
            }
            if (quote + 1 === n)
                return 'complete';
            if (line.charCodeAt(quote + 1) !== 44)
                return 'Invalid Closing Quote';
            inQuotes = false;
            i = quote + 2;
        }
        else if (line.charCodeAt(i) === 34) {
            inQuotes = true;
            i += 1;
        }
        else {
            const comma = line.indexOf(',', i);
            const end = comma < 0 ? n : comma;
            if (line.slice(i, end).includes('"'))
                return 'Invalid Opening Quote';
            if (comma < 0)
                return 'complete';
            i = comma + 1;
        }
    }
}
class CsvRecordReader {
    path;
    /** Lines of a record whose quoted field runs on past its first line. */
    pending;
    lastLine = 0;
    constructor(path) {
        this.path = path;
    }
    /** The record `line` completes; undefined while a quoted field stays open, or for a blank record. */
    add(line, lineNo) {
        this.lastLine = lineNo;
        let fields;
        if (!this.pending) {
            fields = splitCsvLine(line);
            if (!fields) {
                const end = lineEnd(line, false);
                if (end !== 'open')
                    this.malformed(end, lineNo);
                this.pending = [line];
                return undefined;
            }
        }
        else {
            this.pending.push(line);
            const end = lineEnd(line, true);
            if (end === 'open')
                return undefined;
            if (end !== 'complete')
                this.malformed(end, lineNo);
            fields = splitCsvLine(this.pending.join('\n'));
            this.pending = undefined;
            if (!fields)
                this.malformed('Invalid Closing Quote', lineNo);
        }
        // csv-parse reads a line of only spaces (or `""`) as one blank field: not a row.
        if (fields.length === 1 && fields[0].trim() === '')
            return undefined;
        return { fields, line: lineNo };
    }
    /** The CSV text ends (a blank line or the end of the file): a quote still open is an error. */
    end() {
        if (this.pending) {
            this.pending = undefined;
            this.malformed('Quote Not Closed', this.lastLine);
        }
    }
    malformed(reason, lineNo) {
        throw new errors/* InputError */.dz(this.path, `expected well-formed CSV (${reason})`, String(lineNo));
    }
}

;// CONCATENATED MODULE: ./src/ingest/formats/nsys/columns.ts
/** Where the fields an nsys table needs sit, found by their labels, with the unit each is printed in. */

/** `Total Time (ns)` → { base: 'Total Time', unit: 'ns' }; `Instances` → { base: 'Instances' }. */
function splitLabel(label) {
    const match = /^(.*?)\s*\(([^()]*)\)$/.exec(label.trim());
    return match ? { base: match[1], unit: match[2] } : { base: label.trim() };
}
const BYTES_PER_UNIT = { B: 1, KB: 1e3, MB: 1e6, GB: 1e9, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 };
function findColumns(header) {
    const columns = {};
    let totalUnit = 1;
    header.forEach((label, index) => {
        const { base, unit } = splitLabel(label);
        const timeScale = unit === undefined ? undefined : nsPerUnit(unit);
        if ((base === 'Total Time' || base === 'Sum') && (unit === undefined || timeScale !== undefined)) {
            totalUnit = timeScale ?? 1;
            columns.total = { index, scale: totalUnit };
        }
        else if (base === 'Total' && unit !== undefined && BYTES_PER_UNIT[unit] !== undefined) {
            columns.size = { index, scale: BYTES_PER_UNIT[unit] };
        }
        else if (['Instances', 'Num Calls', 'Calls', 'Count', 'Operations'].includes(base) && unit === undefined) {
            columns.count = index;
            columns.countLabel = base;
        }
        else if (base === 'Min' || base === 'Minimum') {
            columns.min = { index, scale: timeScale ?? Number.NaN };
        }
        else if (base === 'Max' || base === 'Maximum') {
            columns.max = { index, scale: timeScale ?? Number.NaN };
        }
        else if (['Name', 'Kernel Name', 'Operation', 'Range'].includes(base)) {
            columns.name = index;
            columns.nameLabel = base;
        }
        else if (base === 'Category')
            columns.category = index;
        else if (base === 'GridXYZ')
            columns.grid = index;
        else if (base === 'BlockXYZ')
            columns.block = index;
        else if (base === 'Style')
            columns.style = index;
    });
    // Old headers print `Minimum`/`Maximum` without a unit: they share the total's unit.
    for (const key of ['min', 'max']) {
        const column = columns[key];
        if (column && Number.isNaN(column.scale))
            column.scale = totalUnit;
    }
    return columns;
}

;// CONCATENATED MODULE: ./src/ingest/formats/nsys/tables.ts
/**
 * Splits Nsight Systems console output (`nsys stats`, `nsys profile --stats=true`, `nsys analyze`)
 * into its tables. nsys mixes tables with progress and status lines (`Generating SQLite…`,
 * `Processing [x.sqlite] with [.../cuda_gpu_kern_sum.py]...`, `[6/8] Executing '…' stats report`,
 * `SKIPPED: …`, `NOTICE: …`, ` ** Title (report):`), and prints each table either as CSV
 * (`--format csv`) or as fixed-width columns under a dashed underline (the default), with
 * thousands separators. Tables are found by content, never by line number.
 * Lines are pushed one at a time (NsysScanner), each table's rows going to a sink as they are read,
 * so a large table is never held; scanNsysOutput keeps every row, for small outputs.
 */




const PROCESSING = /^(?:Processing|Running) \[(.*?)\] with \[(.*?)\]/;
const RUNNING_OLD = /^Running \[(\S+?\.py)\b/;
const EXECUTING = /^\[\d+\/\d+\] Executing '([^']+)'/;
const REPORT_TITLE = /^\s*\*\* .*\(([\w:.-]+)\):\s*$/;
const SKIPPED = /^SKIPPED: (.*)$/;
const NOTICE = /^NOTICE: (.*)$/;
const DASHES = /^\s*-+(\s+-+)*\s*$/;
const VERSION = /nsight-systems[/\\](\d{4}\.\d+(?:\.\d+)*)/i;
const MAX_HEADER_CHARS = 4096;
const KNOWN_HEADER = /^\s*"?(Time ?\(%\)|Total \((?:[KMG]i?)?B\)|Row#)"?\s*,/;
function reportName(script) {
    const base = script.split(/[/\\]/).pop() ?? script;
    return base.replace(/\.py$/, '').replace(/:.*$/, '');
}
function isMarker(line) {
    return (PROCESSING.test(line) ||
        RUNNING_OLD.test(line) ||
        EXECUTING.test(line) ||
        REPORT_TITLE.test(line) ||
        SKIPPED.test(line) ||
        NOTICE.test(line) ||
        /^Generat(ing|ed)\b/.test(line));
}
/** The end of a table body: a blank line or a status line. */
function endsBody(line) {
    return line.trim() === '' || isMarker(line);
}
/** A line's CSV fields as csv-parse reads one line (a blank record has none); undefined when malformed. */
function csvFields(line) {
    const fields = splitCsvLine(line);
    return fields && fields.length === 1 && fields[0].trim() === '' ? [] : fields;
}
/** A CSV header: a known nsys header, or ≥3 text labels followed by a row of as many fields with a number. */
function isCsvHeader(line, next) {
    // A few hundred characters at most; parsing a megabyte of commas as a candidate takes seconds.
    if (!line.includes(',') || line.length > MAX_HEADER_CHARS)
        return false;
    if (KNOWN_HEADER.test(line))
        return true;
    const fields = csvFields(line);
    if (!fields || fields.length < 3 || fields.some((f) => f.trim() === '' || parseNumber(f, true) !== undefined))
        return false;
    if (next === undefined || endsBody(next))
        return false;
    const row = csvFields(next);
    return row !== undefined && row.length === fields.length && row.some((f) => parseNumber(f, true) !== undefined);
}
/**
 * Reads nsys output pushed one line at a time, deciding what a line is with one line of lookahead,
 * as tables are recognized by the line under their header. `onTable` says where a table's rows go
 * (undefined: checked, then dropped).
 */
class NsysScanner {
    path;
    onTable;
    output = { tables: [], skipped: [], notices: [], prose: [], processed: [] };
    report;
    lineNo = 0;
    /** The line waiting for the next one to decide what it is. */
    pending;
    body;
    constructor(path, onTable) {
        this.path = path;
        this.onTable = onTable;
    }
    push(line) {
        this.lineNo += 1;
        this.take(line, this.lineNo);
    }
    finish() {
        if (this.body)
            this.endBody();
        if (this.pending !== undefined) {
            const current = this.pending;
            this.pending = undefined;
            this.decide(current, this.lineNo, undefined);
            // A CSV header on the last line: a table without rows.
            if (this.body)
                this.endBody();
        }
        return this.output;
    }
    take(line, lineNo) {
        if (this.body) {
            if (!endsBody(line)) {
                this.body.row(line, lineNo);
                return;
            }
            this.endBody();
        }
        if (this.pending === undefined) {
            this.pending = line;
            return;
        }
        const current = this.pending;
        this.pending = undefined;
        this.decide(current, lineNo - 1, line);
    }
    /** What line `lineNo` is, knowing the line after it (`next`, undefined at the end). */
    decide(line, lineNo, next) {
        const output = this.output;
        const processing = PROCESSING.exec(line) ?? RUNNING_OLD.exec(line);
        const executing = processing ? null : (EXECUTING.exec(line) ?? REPORT_TITLE.exec(line));
        const skipped = SKIPPED.exec(line);
        const notice = NOTICE.exec(line);
        if (processing) {
            const script = processing[2] ?? processing[1];
            this.report = reportName(script);
            output.processed.push({ report: this.report, message: line.slice(processing[0].length).replace(/\.{3}\s*$/, '').trim(), line: lineNo });
            output.toolVersion ??= VERSION.exec(script)?.[1];
        }
        else if (executing) {
            this.report = reportName(executing[1]);
        }
        else if (skipped || notice) {
            (skipped ? output.skipped : output.notices).push({ report: this.report, message: (skipped ?? notice)[1].trim(), line: lineNo });
        }
        else if (line.trim() !== '' && next !== undefined && DASHES.test(next) && !DASHES.test(line)) {
            this.body = this.columnBody(line, lineNo, next);
            return;
        }
        else if (isCsvHeader(line, next)) {
            this.body = this.csvBody(line, lineNo);
            if (next !== undefined)
                this.take(next, lineNo + 1);
            return;
        }
        else if (this.report && line.trim() !== '' && !/^Generat(ing|ed)\b/.test(line)) {
            output.prose.push({ report: this.report, message: line.trim(), line: lineNo });
        }
        if (next !== undefined)
            this.pending = next;
    }
    endBody() {
        const body = this.body;
        this.body = undefined;
        body.end();
    }
    open(table) {
        this.output.tables.push(table);
        return this.onTable(table);
    }
    csvBody(headerLine, headerLineNo) {
        const path = this.path;
        const records = new CsvRecordReader(path);
        const scanner = this;
        const pendingHeader = records.add(headerLine, headerLineNo);
        const start = (header) => {
            const table = { report: this.report, header: header.map(cleanLabel), headerLine: headerLineNo, layout: 'csv' };
            const sink = scanner.open(table);
            // A row of the wrong width is named after any malformed quoting in the same table, as csv-parse reads a table whole.
            let shortRow;
            return {
                row(line, lineNo) {
                    const record = records.add(line, lineNo);
                    if (!record || shortRow)
                        return;
                    if (record.fields.length !== table.header.length) {
                        shortRow = new errors/* InputError */.dz(path, `expected ${table.header.length} fields as in the header on line ${headerLineNo}, got ${record.fields.length} (a truncated or garbled row)`, String(record.line));
                        return;
                    }
                    sink?.row({ cells: record.fields, line: record.line });
                },
                end() {
                    records.end();
                    if (shortRow)
                        throw shortRow;
                    sink?.end?.();
                },
            };
        };
        if (pendingHeader)
            return start(pendingHeader.fields);
        // A header whose quoted label runs over several lines: the table opens once it is complete.
        return {
            row(line, lineNo) {
                const record = records.add(line, lineNo);
                if (record)
                    scanner.body = start(record.fields);
            },
            end() {
                records.end();
            },
        };
    }
    /** Fixed-width table: the dashed underline gives each column's extent; the last column runs to the end. */
    columnBody(headerLine, headerLineNo, dashes) {
        const path = this.path;
        const spans = [...dashes.matchAll(/-+/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
        const cut = (line, lineNo, strict) => spans.map((span, i) => {
            const last = i === spans.length - 1;
            if (strict && i > 0 && (line[span.start - 1] ?? ' ') !== ' ') {
                throw new errors/* InputError */.dz(path, `expected the columns to line up with the dashed underline on line ${headerLineNo + 1}`, String(lineNo));
            }
            return line.slice(span.start, last ? undefined : span.end).trim();
        });
        const table = { report: this.report, header: cut(headerLine, headerLineNo, false), headerLine: headerLineNo, layout: 'column' };
        const sink = this.open(table);
        return {
            row(line, lineNo) {
                const cells = cut(line, lineNo, true);
                if (line.length <= spans[spans.length - 1].start || cells[cells.length - 1] === '') {
                    throw new errors/* InputError */.dz(path, `expected ${spans.length} columns as in the header on line ${headerLineNo} (a truncated row)`, String(lineNo));
                }
                sink?.row({ cells, line: lineNo });
            },
            end() {
                sink?.end?.();
            },
        };
    }
}
/** Every table of a whole text with its rows (for small outputs such as `nsys analyze` rules). */
function scanNsysOutput(path, text) {
    const tables = [];
    const scanner = new NsysScanner(path, (head) => {
        const table = { ...head, rows: [] };
        tables.push(table);
        return { row: (row) => table.rows.push(row) };
    });
    for (const line of splitLines(text))
        scanner.push(line);
    return { ...scanner.finish(), tables };
}

;// CONCATENATED MODULE: ./src/ingest/formats/nsys-gpu-time-util.ts
/**
 * `nsys analyze -r gpu_time_util` output (CSV or column layout, alone or among other rules).
 * The rule splits each device's first-to-last GPU-op range into chunks and lists the chunks whose
 * in-use percentage is below its threshold (default 50%), coalescing neighbours into one row with a
 * duration-weighted percentage: `Row#, In-Use (%), Duration (ns), Start (ns), PID, Device ID, Context ID`.
 * gpuTimeUtilPercent = the duration-weighted mean of In-Use over all rows. When every chunk is below
 * the threshold (a host-bound run) the rows cover the whole range and this is the overall figure;
 * when rows leave gaps (busier regions left out), it is a lower bound and a notice says so.
 * "No problems detected" (nothing below the threshold) gives a notice and no percentage. With
 * `--format csv` nsys prints no such line: the rule's `Processing [...]` line with nothing after it
 * is the CSV spelling of the same answer, and is read as such (threshold from `(threshold=N)`, else
 * the rule's default of 50%).
 */




const RULE = 'gpu_time_util';
/** The rule's threshold when the command gives none (`nsys analyze --help-rules gpu_time_util`). */
const DEFAULT_THRESHOLD_PERCENT = 50;
function isUtilTable(table) {
    return table.report === RULE || table.header.some((label) => /^In[- ]Use \(%\)$/i.test(label));
}
function readRegions(path, table) {
    const find = (pattern) => table.header.findIndex((label) => pattern.test(splitLabel(label).base));
    const inUse = find(/^In[- ]Use$/i);
    const duration = find(/^Duration$/i);
    const start = find(/^Start$/i);
    const keyColumns = [find(/^PID$/i), find(/^Device ID$/i), find(/^Context ID$/i)].filter((i) => i >= 0);
    if (inUse < 0 || duration < 0) {
        throw new errors/* InputError */.dz(path, `expected gpu_time_util columns "In-Use (%)" and "Duration (ns)", got ${JSON.stringify(table.header.join(','))}`, String(table.headerLine));
    }
    const scaleOf = (index) => {
        const unit = splitLabel(table.header[index]).unit;
        return unit === undefined ? 1 : nsPerUnit(unit);
    };
    const durationScale = scaleOf(duration);
    const startScale = start >= 0 ? scaleOf(start) : 1;
    if (durationScale === undefined || startScale === undefined) {
        throw new errors/* InputError */.dz(path, `expected a time unit in ${JSON.stringify(table.header[duration])}`, String(table.headerLine));
    }
    if (table.rows.length === 0)
        throw new errors/* InputError */.dz(path, 'expected gpu_time_util rows under the header (a truncated table)', String(table.headerLine));
    return table.rows.map((row) => {
        const number = (index) => {
            const value = parseNumber(row.cells[index], true);
            if (value === undefined || value < 0) {
                throw new errors/* InputError */.dz(path, `expected a number in column "${table.header[index]}", got ${JSON.stringify(row.cells[index].trim())}`, String(row.line));
            }
            return value;
        };
        return {
            percent: number(inUse),
            durationNs: number(duration) * durationScale,
            ...(start >= 0 ? { startNs: number(start) * startScale } : {}),
            key: keyColumns.map((i) => row.cells[i].trim()).join('/'),
        };
    });
}
/** Time between listed regions of one device: regions the rule left out because they were busier. */
function unlistedNs(regions) {
    const byKey = new Map();
    for (const region of regions) {
        if (region.startNs === undefined)
            continue;
        const list = byKey.get(region.key);
        if (list)
            list.push(region);
        else
            byKey.set(region.key, [region]);
    }
    let gaps = 0;
    for (const list of byKey.values()) {
        list.sort((a, b) => a.startNs - b.startNs);
        for (let i = 1; i < list.length; i++) {
            const gap = list[i].startNs - (list[i - 1].startNs + list[i - 1].durationNs);
            // Chunk edges are rounded to whole ns; allow that much slack.
            if (gap > Math.max(1000, 1e-3 * list[i - 1].durationNs))
                gaps += gap;
        }
    }
    return gaps;
}
/** The rule ran, and nothing at all followed its Processing line: no table, no prose, no error. */
function ranSilently(output) {
    return output.processed.some((p) => p.report === RULE) && output.tables.length === 0 && output.skipped.length === 0 && !output.prose.some((p) => p.report === RULE);
}
/* harmony default export */ const nsys_gpu_time_util = (defineImporter({
    id: 'nsys-gpu-time-util',
    label: 'Nsight Systems gpu_time_util analysis (nsys analyze)',
    sniff(head) {
        return (/^\s*"?Row#"?\s*(,|\s{2,})\s*"?In[- ]Use \(%\)"?/m.test(head) ||
            /^\s*\*\* .*\(gpu_time_util\):\s*$/m.test(head) ||
            /^Processing \[.*\] with \[.*[/\\]gpu_time_util\.py\]/m.test(head));
    },
    async read(file, ctx) {
        const output = scanNsysOutput(file.path, await file.text());
        const parts = [...new Set(output.tables.map((table) => table.report ?? (isUtilTable(table) ? RULE : 'unknown-table')))];
        const notices = [];
        const tables = output.tables.filter(isUtilTable);
        for (const skip of output.skipped.filter((s) => s.report === RULE || s.report === undefined)) {
            notices.push({ code: 'nsys-gpu-util-skipped', severity: 'warning', message: `gpu_time_util: ${skip.message}` });
        }
        const threshold = output.prose.find((p) => p.report === RULE && /below (\d+(?:\.\d+)?)%/.test(p.message));
        const thresholdText = threshold ? /below (\d+(?:\.\d+)?)%/.exec(threshold.message)[1] + '%' : 'its threshold';
        const noProblems = output.prose.find((p) => p.report === RULE && /no problems detected/i.test(p.message));
        let gpuTimeUtilPercent;
        if (tables.length > 0) {
            if (tables.length > 1)
                ctx.count('several-util-tables', 'info', `${tables.length} gpu_time_util tables (several reports?) are averaged together`);
            const regions = tables.flatMap((table) => readRegions(file.path, table));
            const totalNs = regions.reduce((sum, r) => sum + r.durationNs, 0);
            const weighted = totalNs > 0 ? regions.reduce((sum, r) => sum + r.percent * r.durationNs, 0) / totalNs : regions.reduce((sum, r) => sum + r.percent, 0) / regions.length;
            if (weighted > 100)
                ctx.count('util-above-100', 'info', 'concurrent GPU operations add up past 100%; clipped to 100');
            gpuTimeUtilPercent = Math.min(100, weighted);
            const gapNs = unlistedNs(regions);
            if (gapNs > 0) {
                notices.push({
                    code: 'nsys-gpu-util-partial',
                    severity: 'info',
                    message: `gpu_time_util lists only regions below ${thresholdText}; ${Math.round(gapNs)} ns between listed regions were busier, so ${gpuTimeUtilPercent.toFixed(1)}% is a lower bound for the capture`,
                });
            }
        }
        else if (noProblems) {
            notices.push({ code: 'nsys-gpu-util-ok', severity: 'info', message: `gpu_time_util: ${noProblems.message}` });
        }
        else if (notices.length === 0 && ranSilently(output)) {
            const threshold = /threshold=(\d+(?:\.\d+)?)/.exec(output.processed.find((p) => p.report === RULE).message)?.[1] ?? String(DEFAULT_THRESHOLD_PERCENT);
            notices.push({ code: 'nsys-gpu-util-ok', severity: 'info', message: `gpu_time_util: no region below ${threshold}% in use (the rule ran and listed none)` });
        }
        else if (notices.length === 0) {
            throw new errors/* InputError */.dz(file.path, 'expected gpu_time_util output: a "Row#,In-Use (%),Duration (ns),…" table, a "no problems" line or a SKIPPED line', '1');
        }
        const capture = {
            source: { path: file.path, format: 'nsys-gpu-time-util', parts: parts.length ? parts : [RULE], tool: 'nsys', ...(output.toolVersion ? { toolVersion: output.toolVersion } : {}) },
            notices,
            ...(gpuTimeUtilPercent !== undefined ? { gpuTimeUtilPercent } : {}),
        };
        return capture;
    },
}));

;// CONCATENATED MODULE: ./src/ingest/formats/nsys/collect.ts
/**
 * The rows of the nsys tables the importer reads, collected as the scanner streams them: kernels
 * aggregated by name (with the launch shape of the heaviest row), API calls, memory operations by
 * time and by size. Times and sizes are scaled from the header's unit.
 */


const CANONICAL = {
    kernels: 'cuda_gpu_kern_sum',
    gpu: 'cuda_gpu_sum',
    api: 'cuda_api_sum',
    'mem-time': 'cuda_gpu_mem_time_sum',
    'mem-size': 'cuda_gpu_mem_size_sum',
};
const REQUIRED = {
    kernels: ['total', 'count', 'name'],
    gpu: ['total', 'count', 'name', 'category'],
    api: ['total', 'count', 'name'],
    'mem-time': ['total', 'count', 'name'],
    'mem-size': ['size', 'count', 'name'],
};
class TableReader {
    path;
    table;
    constructor(path, table) {
        this.path = path;
        this.table = table;
    }
    number(row, index, what) {
        const text = row.cells[index];
        const value = parseNumber(text, true);
        if (value === undefined || value < 0) {
            throw new errors/* InputError */.dz(this.path, `expected a number in column "${this.table.header[index]}" (${what}), got ${JSON.stringify(text.trim())}`, String(row.line));
        }
        return value;
    }
    count(row, index) {
        const value = this.number(row, index, 'a count');
        if (!Number.isInteger(value)) {
            throw new errors/* InputError */.dz(this.path, `expected a whole number in column "${this.table.header[index]}", got ${row.cells[index].trim()}`, String(row.line));
        }
        return value;
    }
    ns(row, column) {
        return this.number(row, column.index, 'a time') * column.scale;
    }
}
function collect_dim3(text) {
    const parts = (text ?? '').trim().split(/\s+/).map(Number);
    return parts.length === 3 && parts.every((n) => Number.isInteger(n) && n > 0) ? parts : undefined;
}
/** Kernel rows aggregated by name as they come (2022.x splits one kernel's rows by launch shape). */
class KernelRows {
    reader;
    c;
    byName = new Map();
    // Launch shape of the row that took the most time, per kernel (only kept with GridXYZ/BlockXYZ columns).
    heaviestNs = new Map();
    shaped;
    constructor(reader, c) {
        this.reader = reader;
        this.c = c;
        this.shaped = c.grid !== undefined || c.block !== undefined;
    }
    add(row) {
        const { reader, c } = this;
        const name = row.cells[c.name].trim();
        const totalNs = reader.ns(row, c.total);
        const instances = reader.count(row, c.count);
        const minNs = c.min ? reader.ns(row, c.min) : undefined;
        const maxNs = c.max ? reader.ns(row, c.max) : undefined;
        if (minNs !== undefined && maxNs !== undefined && minNs > maxNs) {
            throw new errors/* InputError */.dz(reader.path, `expected the minimum at most the maximum, got ${minNs} ns > ${maxNs} ns (a garbled row)`, String(row.line));
        }
        const grid = c.grid !== undefined ? collect_dim3(row.cells[c.grid]) : undefined;
        const block = c.block !== undefined ? collect_dim3(row.cells[c.block]) : undefined;
        const existing = this.byName.get(name);
        if (!existing) {
            const own = ownString(name);
            this.byName.set(own, {
                name: own,
                totalNs,
                instances,
                ...(minNs !== undefined ? { minNs } : {}),
                ...(maxNs !== undefined ? { maxNs } : {}),
                ...(grid ? { grid } : {}),
                ...(block ? { block } : {}),
            });
            if (this.shaped)
                this.heaviestNs.set(own, totalNs);
            return;
        }
        existing.totalNs += totalNs;
        existing.instances += instances;
        if (minNs !== undefined)
            existing.minNs = Math.min(existing.minNs ?? Infinity, minNs);
        if (maxNs !== undefined)
            existing.maxNs = Math.max(existing.maxNs ?? 0, maxNs);
        if (this.shaped && totalNs > this.heaviestNs.get(name)) {
            this.heaviestNs.set(name, totalNs);
            if (grid)
                existing.grid = grid;
            if (block)
                existing.block = block;
        }
    }
    kernels() {
        return [...this.byName.values()];
    }
}
function memopKind(name) {
    const n = name.toLowerCase();
    if (n.includes('memset'))
        return 'memset';
    if (/host-to-device|htod/.test(n))
        return 'memcpy-htod';
    if (/device-to-host|dtoh/.test(n))
        return 'memcpy-dtoh';
    if (/device-to-device|dtod/.test(n))
        return 'memcpy-dtod';
    return 'memcpy-other';
}
/**
 * Where the rows of a table of `kind` go; undefined when a table of that kind was already read (the
 * caller adds a notice). The collected values are filled in as the rows come.
 */
function collectTable(path, table, kind, c, into, ctx) {
    const reader = new TableReader(path, table);
    const missing = REQUIRED[kind].filter((key) => c[key] === undefined);
    if (missing.length) {
        throw new errors/* InputError */.dz(path, `expected ${CANONICAL[kind]} columns (${missing.join(', ')} missing) in header ${JSON.stringify(table.header.join(','))}`, String(table.headerLine));
    }
    const name = (row) => row.cells[c.name].trim();
    if (kind === 'kernels') {
        if (into.kernels)
            return undefined;
        const kernels = new KernelRows(reader, c);
        into.kernels = [];
        return { row: (row) => kernels.add(row), end: () => void (into.kernels = kernels.kernels()) };
    }
    if (kind === 'gpu') {
        if (into.gpuKernels)
            return undefined;
        const kernels = new KernelRows(reader, c);
        const gpuMem = (into.gpuMem = new Map());
        into.gpuKernels = [];
        // A bad memory-operation row is named before a bad kernel row, wherever they sit.
        let kernelError;
        return {
            row(row) {
                const category = row.cells[c.category].trim();
                if (category === 'CUDA_KERNEL') {
                    if (kernelError)
                        return;
                    try {
                        kernels.add(row);
                    }
                    catch (error) {
                        kernelError = { error };
                    }
                }
                else if (category === 'MEMORY_OPER')
                    gpuMem.set(name(row), { totalNs: reader.ns(row, c.total), count: reader.count(row, c.count) });
                else
                    ctx.count('unknown-category', 'data-loss', `rows of category ${JSON.stringify(category)} in cuda_gpu_sum are left out`);
            },
            end() {
                if (kernelError)
                    throw kernelError.error;
                into.gpuKernels = kernels.kernels();
            },
        };
    }
    if (kind === 'api') {
        if (into.apiCalls)
            return undefined;
        const apiCalls = (into.apiCalls = []);
        return { row: (row) => void apiCalls.push({ name: name(row), totalNs: reader.ns(row, c.total), calls: reader.count(row, c.count) }) };
    }
    if (kind === 'mem-time') {
        if (into.memTime)
            return undefined;
        const memTime = (into.memTime = new Map());
        return { row: (row) => void memTime.set(name(row), { totalNs: reader.ns(row, c.total), count: reader.count(row, c.count) }) };
    }
    if (into.memSize)
        return undefined;
    const memSize = (into.memSize = new Map());
    return { row: (row) => void memSize.set(name(row), { bytes: reader.number(row, c.size.index, 'a size') * c.size.scale, count: reader.count(row, c.count) }) };
}
function buildMemops(collected) {
    const timed = collected.memTime ?? collected.gpuMem ?? new Map();
    const sized = collected.memSize ?? new Map();
    const names = [...new Set([...timed.keys(), ...sized.keys()])];
    return names.map((name) => {
        const time = timed.get(name);
        const size = sized.get(name);
        return {
            kind: memopKind(name),
            name,
            count: time?.count ?? size.count,
            ...(time ? { totalNs: time.totalNs } : {}),
            ...(size ? { bytes: size.bytes } : {}),
        };
    });
}

;// CONCATENATED MODULE: ./src/ingest/common/text-lines.ts
/**
 * A text capture read line by line from its byte stream (gzip, UTF-16 and BOMs already undone by
 * input-file.ts), so that a table of 100,000 rows is never held whole, nor split into an array of
 * every line: one batch of lines per chunk read. Lines end at `\n` or `\r\n`, as splitLines splits
 * them, and each line is decoded on its own, so a cell kept from it keeps only its line alive.
 */


const LF = 0x0a;
const CR = 0x0d;
function decodeLine(bytes, start, end, terminated) {
    const stop = terminated && end > start && bytes[end - 1] === CR ? end - 1 : end;
    return bytes.toString('utf8', start, stop);
}
/**
 * The file's lines, in batches; the same lines `splitLines(await file.text())` gives, under the same
 * size limit. A broken gzip stream is an InputError.
 */
async function* lineBatches(file) {
    if (!file.gzip && file.sizeBytes > input_file/* MAX_TEXT_BYTES */.$D) {
        throw new errors/* InputError */.dz(file.path, `file is ${file.sizeBytes} bytes; text formats are read up to ${input_file/* MAX_TEXT_BYTES */.$D} bytes`);
    }
    // The start of a line that runs past the end of its chunk.
    let partial = [];
    let bytesRead = 0;
    const source = file.stream();
    const iterator = source[Symbol.asyncIterator]();
    try {
        for (;;) {
            let step;
            try {
                step = await iterator.next();
            }
            catch (error) {
                const reason = error.message;
                throw new errors/* InputError */.dz(file.path, file.gzip ? `expected a complete gzip stream (${reason})` : `cannot read the file (${reason})`);
            }
            if (step.done)
                break;
            const chunk = step.value;
            bytesRead += chunk.length;
            if (bytesRead > input_file/* MAX_TEXT_BYTES */.$D) {
                throw new errors/* InputError */.dz(file.path, `expected at most ${input_file/* MAX_TEXT_BYTES */.$D} bytes of text once decompressed; text formats are read up to ${input_file/* MAX_TEXT_BYTES */.$D} bytes`);
            }
            const lines = [];
            let start = 0;
            let newline = chunk.indexOf(LF);
            if (newline >= 0 && partial.length > 0) {
                partial.push(chunk.subarray(0, newline));
                const joined = Buffer.concat(partial);
                lines.push(decodeLine(joined, 0, joined.length, true));
                partial = [];
                start = newline + 1;
                newline = chunk.indexOf(LF, start);
            }
            for (; newline >= 0; newline = chunk.indexOf(LF, start)) {
                lines.push(decodeLine(chunk, start, newline, true));
                start = newline + 1;
            }
            if (start < chunk.length)
                partial.push(chunk.subarray(start));
            if (lines.length > 0)
                yield lines;
        }
        if (partial.length > 0) {
            const joined = Buffer.concat(partial);
            if (joined.length > 0)
                yield [decodeLine(joined, 0, joined.length, false)];
        }
    }
    finally {
        // Closes the file when the reader stops early (a bad row); a stream that failed may refuse.
        await iterator.return?.().catch(() => undefined);
    }
}

;// CONCATENATED MODULE: ./src/ingest/formats/nsys-stats.ts
/**
 * `nsys stats` output, CSV or column layout, one table or a whole stdout stream. Tables map as:
 * cuda_gpu_kern_sum / gpukernsum / cuda_gpu_kern_gb_sum → kernels (rows aggregated by name, so the
 * 2022.x GridXYZ/BlockXYZ split rows become one kernel); cuda_gpu_sum / gpusum → kernels
 * (CUDA_KERNEL) and memops (MEMORY_OPER) when no kernel or memop table is present;
 * cuda_api_sum / cudaapisum → apiCalls; cuda_gpu_mem_time_sum / cuda_gpu_mem_size_sum → memops.
 * Other reports (osrt_sum, nvtx_sum, …) are listed in source.parts only. `SKIPPED:` lines become
 * notices. Times are converted from the header's unit (`--timeunit`) to ns; the Time (%) column is
 * never read (shares are recomputed downstream from totals).
 * The output is read line by line from the file's stream: only the aggregated rows are held (and a
 * table of calls named by neither report nor columns, until its rows say whether it is cuda_api_sum).
 * A file holding two tables of one kind holds two runs (outputs appended): it is refused at the
 * second table's header.
 */






const REPORT_KINDS = {
    cuda_gpu_kern_sum: 'kernels',
    cuda_gpu_kern_gb_sum: 'kernels',
    gpukernsum: 'kernels',
    cuda_gpu_sum: 'gpu',
    gpusum: 'gpu',
    cuda_api_sum: 'api',
    cudaapisum: 'api',
    cuda_gpu_mem_time_sum: 'mem-time',
    gpumemtimesum: 'mem-time',
    cuda_gpu_mem_size_sum: 'mem-size',
    gpumemsizesum: 'mem-size',
};
const CUDA_API = /^cu(da)?[A-Z]/;
/**
 * What a table is: from the report nsys named, else from its columns. Undefined = not read.
 * `byRows`: a table of calls named by neither, which is cuda_api_sum when most names are CUDA calls.
 */
function classify(table, columns) {
    const report = table.report;
    if (report && REPORT_KINDS[report])
        return { kind: REPORT_KINDS[report], part: report };
    if (report)
        return { part: report };
    const { total, size, count, countLabel, name, nameLabel, category, style } = columns;
    if (style !== undefined || nameLabel === 'Range')
        return { part: 'nvtx_sum' };
    if (total && category !== undefined && name !== undefined)
        return { kind: 'gpu', part: CANONICAL.gpu };
    if (size && nameLabel === 'Operation')
        return { kind: 'mem-size', part: CANONICAL['mem-size'] };
    if (total && count !== undefined && nameLabel === 'Operation')
        return { kind: 'mem-time', part: CANONICAL['mem-time'] };
    if (total && countLabel === 'Instances' && nameLabel === 'Name')
        return { kind: 'kernels', part: CANONICAL.kernels };
    if (total && (countLabel === 'Num Calls' || countLabel === 'Calls') && name !== undefined)
        return { part: 'osrt_sum', byRows: true };
    return { part: 'unknown-table' };
}
function apiOrOsrt(rows, name) {
    const apiLike = rows.filter((row) => CUDA_API.test(row.cells[name].trim())).length;
    return apiLike * 2 > rows.length ? { kind: 'api', part: CANONICAL.api } : { part: 'osrt_sum' };
}
const READ_REPORTS = new Set(Object.keys(REPORT_KINDS));
/* harmony default export */ const nsys_stats = (defineImporter({
    id: 'nsys-stats',
    label: 'Nsight Systems stats (nsys stats)',
    sniff(head) {
        return head.split(/\r?\n/, 2000).some((line) => /^\s*"?Time ?\(%\)"?\s*(,|\s{2,})\s*"?Total Time/.test(line) ||
            /^\s*"?Total \((?:[KMG]i?)?B\)"?\s*,\s*"?Count"?\s*,/.test(line) ||
            /^Processing \[.*\] with \[.*[/\\]reports[/\\]\w+\.py\]/.test(line) ||
            /^\[\d+\/\d+\] Executing '\w+(:\w+)?' stats report/.test(line) ||
            /^\s*\*\* .*\((\w+_sum|\w+_trace|gpukernsum|gpusum|cudaapisum|gpumemtimesum|gpumemsizesum)(:[\w-]+)?\):\s*$/.test(line));
    },
    async read(file, ctx) {
        const collected = {};
        const parts = [];
        const notices = [];
        const openTable = (table, columns, kind, part) => {
            if (!parts.includes(part))
                parts.push(part);
            if (!kind)
                return undefined;
            const sink = collectTable(file.path, table, kind, columns, collected, ctx);
            if (!sink) {
                // One report appears once per run: a second one means two runs' outputs in one file.
                // Summing them would double the run; keeping one would drop the other unseen.
                throw new errors/* InputError */.dz(file.path, `a second ${part} table starts here, so the file holds two runs; expected one run per file: split it before this table (or write each run with nsys stats --output PREFIX)`, String(table.headerLine));
            }
            return sink;
        };
        const tableSink = (table) => {
            const columns = findColumns(table.header);
            const { kind, part, byRows } = classify(table, columns);
            if (!byRows)
                return openTable(table, columns, kind, part);
            // Only a table of calls named by neither report nor columns is held until its end.
            const rows = [];
            return {
                row: (row) => void rows.push(row),
                end() {
                    const which = apiOrOsrt(rows, columns.name);
                    const sink = openTable(table, columns, which.kind, which.part);
                    if (sink)
                        for (const row of rows)
                            sink.row(row);
                    sink?.end?.();
                },
            };
        };
        // A bad value is raised once the whole output is scanned: a malformed row anywhere names itself first.
        let failed;
        const guard = (step) => {
            if (failed)
                return;
            try {
                step();
            }
            catch (error) {
                failed = { error };
            }
        };
        const scanner = new NsysScanner(file.path, (table) => {
            let sink;
            guard(() => void (sink = tableSink(table)));
            if (!sink)
                return undefined;
            const into = sink;
            return { row: (row) => guard(() => into.row(row)), end: () => guard(() => into.end?.()) };
        });
        for await (const lines of lineBatches(file))
            for (const line of lines)
                scanner.push(line);
        const output = scanner.finish();
        if (failed)
            throw failed.error;
        for (const skip of output.skipped) {
            const read = skip.report ? READ_REPORTS.has(skip.report) : /CUDA|GPU/.test(skip.message);
            if (!read) {
                ctx.count('report-skipped', 'info', `nsys skipped reports this importer does not read (first: ${skip.message})`);
                continue;
            }
            const kernels = skip.report ? REPORT_KINDS[skip.report] === 'kernels' : /kernel/i.test(skip.message);
            notices.push({
                code: 'nsys-report-skipped',
                severity: kernels ? 'warning' : 'info',
                message: `${skip.report ? `${skip.report}: ` : ''}${skip.message}`,
            });
        }
        for (const notice of output.notices) {
            if (/Existing SQLite export found/i.test(notice.message)) {
                notices.push({
                    code: 'nsys-existing-export',
                    severity: 'warning',
                    message: `${notice.message} (the tables may come from an older export; rerun nsys stats with --force-export=true)`,
                });
            }
        }
        if (output.skipped.length === 0 && parts.every((part) => part === 'unknown-table')) {
            const where = output.tables[0] ? String(output.tables[0].headerLine) : '1';
            throw new errors/* InputError */.dz(file.path, 'expected nsys stats output: a report table such as "Time (%),Total Time (ns),Instances,…" or SKIPPED lines', where);
        }
        const kernels = collected.kernels ?? collected.gpuKernels ?? [];
        const capture = {
            source: { path: file.path, format: 'nsys-stats', parts, tool: 'nsys', ...(output.toolVersion ? { toolVersion: output.toolVersion } : {}) },
            kernels,
            memops: buildMemops(collected),
            apiCalls: collected.apiCalls ?? [],
            notices,
        };
        return capture;
    },
}));

;// CONCATENATED MODULE: ./src/ingest/formats/nvidia-smi-csv.ts
/**
 * `nvidia-smi --query-gpu=… --format=csv[,nounits] [-l S | -lms MS]` logs → utilization samples.
 * One row per GPU per sample: `utilization.gpu` → gpuPercent, `utilization.memory` → memoryPercent,
 * `clocks.current.sm` → smClockMhz, `power.draw` → powerW, `memory.used` → bytes, `timestamp` → t,
 * `index` (else the order of `pci.bus_id`) → device; `clocks_event_reasons.active` (or the older
 * `clocks_throttle_reasons.active`) mask and the per-reason `Active` fields → reasons.
 * Units come from the value (`79.56 W`) or the header (`power.draw [W]`).
 * A `--format=csv,noheader` log names no columns: the user gives the `--query-gpu` list
 * (`smiColumns`); `nounits` values then take the unit nvidia-smi uses for the field (MiB, MHz, W, %).
 * Without `index` or `pci.bus_id`, several GPUs are told apart by position: nvidia-smi prints one
 * row per GPU, in index order, at each sample, so rows fall in groups of equal size and spacing.
 * Limits: `timestamp` is local time without a zone, read as if UTC (only differences matter); rows
 * without a utilization value (MIG mode, `[N/A]`) cannot become samples and are counted.
 */



const FIELD_TOKEN = /^[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*(?: \[[^\]]+\])?$/;
const QUERY_GROUP = /^(?:utilization|memory|clocks|clocks_event_reasons|clocks_throttle_reasons|power|temperature|pci|enforced|fan)\./;
const SMI_TIMESTAMP = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?$/;
const REASON_PREFIX = /^clocks_(?:event|throttle)_reasons\./;
const REASON_NAMES = new Set(NVML_REASON_BITS.map(([, name]) => name));
function parseHeader(line) {
    const tokens = line.split(',').map((token) => token.trim());
    if (tokens.length > 1 && !line.includes(', '))
        return null;
    if (!tokens.every((token) => FIELD_TOKEN.test(token)))
        return null;
    if (!tokens.some((token) => QUERY_GROUP.test(token)))
        return null;
    return tokens.map((token) => {
        const match = /^(\S+)(?: \[([^\]]+)\])?$/.exec(token);
        return match[2] ? { field: match[1], unit: match[2] } : { field: match[1] };
    });
}
/** The unit nvidia-smi prints in the header of each field group (kept when `nounits` drops it from values). */
function defaultUnit(field) {
    if (/^utilization\./.test(field))
        return '%';
    if (/^memory\.(used|total|free|reserved)$/.test(field))
        return 'MiB';
    if (/^clocks\.(current\.|max\.|applications\.|default_applications\.)?(sm|gr|graphics|mem|memory|video)$/.test(field))
        return 'MHz';
    if (/^(power\.|enforced\.power)/.test(field))
        return 'W';
    return undefined;
}
/**
 * The `--query-gpu` list a noheader log was written with: `timestamp,utilization.gpu,memory.used`,
 * also as typed on the nvidia-smi command line (`--query-gpu=…`).
 */
function parseSmiColumns(value) {
    const fields = value
        .trim()
        .replace(/^--query-gpu[= ]/, '')
        .split(',')
        .map((field) => field.trim().replace(/ \[[^\]]*\]$/, ''))
        .filter(Boolean);
    const bad = fields.find((field) => !FIELD_TOKEN.test(field));
    if (fields.length === 0 || bad !== undefined) {
        throw new errors/* UsageError */.eb(`--smi-columns ${JSON.stringify(value)}: expected the nvidia-smi --query-gpu list, e.g. timestamp,utilization.gpu,memory.used`);
    }
    if (!fields.includes('utilization.gpu'))
        throw new errors/* UsageError */.eb(`--smi-columns ${JSON.stringify(value)}: expected utilization.gpu among the fields`);
    return fields;
}
function columnsFromQuery(fields) {
    return fields.map((field) => {
        const unit = defaultUnit(field);
        return unit ? { field, unit } : { field };
    });
}
/** Rows in one group per sample: positions within a group are GPUs. */
const MAX_GPUS_BY_POSITION = 16;
/**
 * How many GPUs a log without `index` holds: the smallest group size for which groups start at an
 * even pace (90 % of the starts within half an interval of the median) and each group is
 * printed well within one interval. Undefined when no size fits.
 */
function gpusByPosition(times) {
    if (times.some((t) => t === undefined))
        return undefined;
    const t = times;
    for (let n = 1; n <= MAX_GPUS_BY_POSITION && n * 3 <= t.length; n++) {
        const starts = [];
        let spread = 0;
        for (let i = 0; i + n <= t.length; i += n) {
            starts.push(t[i]);
            const group = t.slice(i, i + n);
            spread = Math.max(spread, Math.max(...group) - Math.min(...group));
        }
        const steps = starts.slice(1).map((start, i) => start - starts[i]);
        const sorted = [...steps].sort((a, b) => a - b);
        const median = sorted[Math.floor(sorted.length / 2)];
        if (!(median > 0))
            continue;
        const even = steps.filter((step) => step >= median * 0.5 && step <= median * 1.5).length;
        if (even >= 0.9 * steps.length && spread < median * 0.5)
            return n;
    }
    return undefined;
}
function firstLine(text) {
    const lines = text.split(/\r?\n/);
    const index = lines.findIndex((line) => line.trim() !== '');
    return index < 0 ? null : { line: lines[index].trim(), number: index + 1 };
}
/** Values nvidia-smi prints instead of a number: `[N/A]`, `[Not Supported]`, `[Unknown Error]`, … */
function isMissing(cell) {
    return cell === '' || /^\[.*\]$/.test(cell) || /^n\/?a$/i.test(cell);
}
const SCALE = {
    '%': 1,
    b: 1,
    kib: 1024,
    mib: 1024 ** 2,
    gib: 1024 ** 3,
    mhz: 1,
    ghz: 1000,
    khz: 0.001,
    w: 1,
    mw: 0.001,
    kw: 1000,
};
/** A number in the column's base unit (%, bytes, MHz, W), or undefined when the unit is unknown. */
function quantity(cell, headerUnit) {
    const match = /^(-?\d+(?:\.\d+)?)\s*(\S+)?$/.exec(cell);
    if (!match)
        return undefined;
    const unit = (match[2] ?? headerUnit ?? '').toLowerCase();
    const scale = unit === '' ? 1 : SCALE[unit];
    return scale === undefined ? undefined : Number(match[1]) * scale;
}
function parseTimestamp(cell) {
    const m = SMI_TIMESTAMP.exec(cell);
    if (!m)
        return undefined;
    const ms = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
    return ms / 1000 + (m[7] ? Number(`0.${m[7]}`) : 0);
}
/** Orders reason names like the NVML bit table, so masks and per-reason fields merge predictably. */
function orderReasons(reasons) {
    const known = NVML_REASON_BITS.map(([, name]) => name).filter((name) => reasons.has(name));
    return [...known, ...[...reasons].filter((name) => !REASON_NAMES.has(name)).sort()];
}
function readRow(columns, cells, devices, ctx) {
    const byField = new Map();
    columns.forEach((column, i) => {
        if (!byField.has(column.field))
            byField.set(column.field, { cell: cells[i], unit: column.unit });
    });
    const present = (field) => {
        const entry = byField.get(field);
        if (!entry)
            return undefined;
        if (isMissing(entry.cell)) {
            ctx.count('value-not-available', 'info', `${field} printed as ${entry.cell || 'an empty cell'}; the field is left out`);
            return undefined;
        }
        return entry;
    };
    const number = (...fields) => {
        for (const field of fields) {
            const entry = present(field);
            if (!entry)
                continue;
            const value = quantity(entry.cell, entry.unit);
            if (value === undefined)
                ctx.count('unreadable-value', 'data-loss', `${field}: ${JSON.stringify(entry.cell)} is not a number in a known unit`);
            return value;
        }
        return undefined;
    };
    const result = {};
    result.name = present('name')?.cell;
    result.driver = present('driver_version')?.cell;
    const gpuPercent = number('utilization.gpu');
    if (gpuPercent === undefined || gpuPercent < 0 || gpuPercent > 100) {
        ctx.count('row-without-utilization', 'data-loss', 'rows without a 0..100 utilization.gpu value are not samples');
        return result;
    }
    const sample = { device: 0, gpuPercent, reasons: [] };
    const stamp = present('timestamp');
    if (stamp) {
        const t = parseTimestamp(stamp.cell);
        if (t === undefined)
            ctx.count('unreadable-value', 'data-loss', `timestamp: ${JSON.stringify(stamp.cell)}`);
        else
            sample.t = t;
    }
    const index = present('index');
    const busId = present('pci.bus_id');
    if (index && /^\d+$/.test(index.cell))
        sample.device = Number(index.cell);
    else if (busId) {
        if (!devices.has(busId.cell))
            devices.set(busId.cell, devices.size);
        sample.device = devices.get(busId.cell);
    }
    const memoryPercent = number('utilization.memory');
    if (memoryPercent !== undefined && memoryPercent >= 0 && memoryPercent <= 100)
        sample.memoryPercent = memoryPercent;
    const smClock = number('clocks.current.sm', 'clocks.sm');
    if (smClock !== undefined)
        sample.smClockMhz = smClock;
    const power = number('power.draw', 'power.draw.instant', 'power.draw.average');
    if (power !== undefined)
        sample.powerW = power;
    const memoryUsed = number('memory.used');
    if (memoryUsed !== undefined)
        sample.memoryUsedBytes = memoryUsed;
    const reasons = new Set();
    for (const prefix of ['clocks_event_reasons', 'clocks_throttle_reasons']) {
        const mask = present(`${prefix}.active`);
        if (!mask)
            continue;
        if (/^0x[0-9a-f]+$/i.test(mask.cell))
            reasonsFromMask(BigInt(mask.cell)).forEach((r) => reasons.add(r));
        else
            ctx.count('unreadable-value', 'data-loss', `${prefix}.active: ${JSON.stringify(mask.cell)} is not a hex mask`);
    }
    for (const column of columns) {
        if (!REASON_PREFIX.test(column.field))
            continue;
        const reason = column.field.replace(REASON_PREFIX, '');
        if (reason === 'active' || reason === 'supported')
            continue;
        const entry = present(column.field);
        if (entry?.cell === 'Active')
            reasons.add(reason);
    }
    sample.reasons = orderReasons(reasons);
    result.sample = sample;
    return result;
}
/* harmony default export */ const nvidia_smi_csv = (defineImporter({
    id: 'nvidia-smi-csv',
    label: 'nvidia-smi --query-gpu CSV',
    sniff(head) {
        const first = firstLine(head);
        if (!first)
            return false;
        // A `noheader` log is claimed too, so that reading it can say what is missing.
        return parseHeader(first.line) !== null || /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}\.\d{3}, /.test(first.line);
    },
    async read(file, ctx) {
        const text = await file.text();
        const first = firstLine(text);
        if (!first)
            throw new errors/* InputError */.dz(file.path, 'expected an nvidia-smi --query-gpu CSV, the file is blank', '1');
        let columns = parseHeader(first.line);
        const fromQuery = !columns && ctx.options.smiColumns?.length ? columnsFromQuery(ctx.options.smiColumns) : undefined;
        if (!columns && !fromQuery) {
            throw new errors/* InputError */.dz(file.path, `expected an nvidia-smi --query-gpu header line such as "timestamp, index, utilization.gpu [%]", got ${JSON.stringify(first.line.slice(0, 60))}; a log written with --format=csv,noheader does not name its columns: pass the --query-gpu list it was written with as --smi-columns (e.g. --smi-columns timestamp,utilization.gpu,memory.used; action input smi-columns)`, String(first.number));
        }
        columns ??= fromQuery;
        // A noheader log's first line is already a row.
        const firstRow = fromQuery ? first.number - 1 : first.number;
        let headerLine = fromQuery ? '' : first.line;
        if (!columns.some((c) => c.field === 'utilization.gpu')) {
            throw new errors/* InputError */.dz(file.path, 'expected a utilization.gpu column in the nvidia-smi query', String(first.number));
        }
        const samples = [];
        const names = [];
        let driver;
        const devices = new Map();
        const lines = text.split(/\r?\n/);
        for (let i = firstRow; i < lines.length; i += 1) {
            const line = lines[i].trim();
            if (line === '')
                continue;
            if (line === headerLine) {
                ctx.count('repeated-header', 'info', 'header lines repeated between samples are skipped');
                continue;
            }
            const header = parseHeader(line);
            if (header) {
                if (!header.some((c) => c.field === 'utilization.gpu')) {
                    throw new errors/* InputError */.dz(file.path, 'expected a utilization.gpu column in the nvidia-smi query', String(i + 1));
                }
                ctx.count('changed-header', 'info', 'a new header line changes the columns of the rows after it');
                columns = header;
                headerLine = line;
                continue;
            }
            const cells = line.split(',').map((cell) => cell.trim());
            if (fromQuery && cells.length !== columns.length && samples.length === 0) {
                throw new errors/* InputError */.dz(file.path, `expected ${columns.length} fields as in --smi-columns (${columns.map((c) => c.field).join(',')}), got ${cells.length}`, String(i + 1));
            }
            if (cells.length !== columns.length) {
                ctx.count('malformed-row', 'data-loss', `a row has a different number of fields than its header (first at line ${i + 1})`);
                continue;
            }
            const row = readRow(columns, cells, devices, ctx);
            if (row.name && !names.includes(row.name))
                names.push(row.name);
            driver ??= row.driver;
            if (row.sample)
                samples.push(row.sample);
        }
        if (samples.length === 0) {
            throw new errors/* InputError */.dz(file.path, 'expected at least one row with a utilization.gpu value, found none', String(first.number + 1));
        }
        let deviceKnown = columns.some((c) => c.field === 'index' || c.field === 'pci.bus_id');
        if (!deviceKnown) {
            const gpus = gpusByPosition(samples.map((s) => s.t));
            if (gpus !== undefined && gpus > 1) {
                samples.forEach((sample, i) => (sample.device = i % gpus));
                ctx.count('devices-by-position', 'info', `no index column: ${gpus} GPUs told apart by their position in each sample`);
            }
            deviceKnown = gpus !== undefined;
        }
        return {
            source: { path: file.path, format: 'nvidia-smi-csv', parts: [fromQuery ? 'query-gpu-noheader' : 'query-gpu'], tool: 'nvidia-smi', ...(driver ? { toolVersion: driver } : {}) },
            utilization: samples,
            environment: {
                vendor: 'nvidia',
                ...(names.length ? { gpuName: names.join(', ') } : {}),
                ...(driver ? { driver } : {}),
                ...(deviceKnown ? { gpuCount: new Set(samples.map((s) => s.device)).size } : {}),
            },
        };
    },
}));

;// CONCATENATED MODULE: ./src/ingest/formats/rocm-smi-json.ts
/**
 * `rocm-smi --json` output (`{"card0": {"GPU use (%)": "12", …}, "system": {…}}`) → one utilization
 * sample per card per document. A loop around rocm-smi writes several documents back to back or one
 * per line; each becomes one sampling instant. Keys are the text labels of rocm-smi and drift
 * across releases, so they are matched case-insensitively by prefix; values are strings.
 * Mapping: `GPU use (%)` → gpuPercent, `GPU Memory Read/Write Activity (%)` (older `GPU memory use (%)`)
 * → memoryPercent, `sclk clock speed:` `(1500Mhz)` → smClockMhz, `Average Graphics Package Power (W)`
 * (MI300: `Current Socket Graphics Package Power (W)`) → powerW, `VRAM Total Used Memory (B)` → bytes.
 * rocm-smi prints no time; a loop that prints one before each document (`date`, `date +%s`) gives
 * that document's samples their time. Other text between documents is counted and skipped.
 * Limits: without such lines samples carry no time; AMD reports no clock-event reasons.
 */



const CARD_KEY = /^card(\d+)$/;
/** The value of the first key that starts with one of the prefixes, in prefix order. */
function field(card, ...prefixes) {
    const keys = Object.keys(card);
    for (const prefix of prefixes) {
        const key = keys.find((k) => k.toLowerCase().startsWith(prefix));
        if (key !== undefined && typeof card[key] === 'string')
            return card[key];
    }
    return undefined;
}
/** Epoch seconds from a line a shell loop printed: `date +%s`, `date`, or an ISO time. */
function timeFromLine(text) {
    const line = text.trim();
    if (/^\d{9,11}(?:\.\d+)?$/.test(line))
        return Number(line);
    if (!/\d{1,2}:\d{2}/.test(line))
        return undefined;
    const ms = Date.parse(line);
    return Number.isFinite(ms) ? ms / 1000 : undefined;
}
/** `(1500Mhz)` or `1500` → 1500 (MHz). */
function clockMhz(value) {
    if (value === undefined)
        return undefined;
    const match = /^\(?\s*(\d+(?:\.\d+)?)\s*(mhz|ghz)?\s*\)?$/i.exec(value.trim());
    if (!match)
        return undefined;
    return Number(match[1]) * (match[2]?.toLowerCase() === 'ghz' ? 1000 : 1);
}
/** One card's labels (as `--json` keys or `--csv` columns) as a utilization sample; undefined without `GPU use (%)`. */
function sampleFromCard(card, device) {
    const gpuPercent = percentFrom(field(card, 'gpu use'));
    if (gpuPercent === undefined)
        return undefined;
    const sample = { device, gpuPercent, reasons: [] };
    const memoryPercent = percentFrom(field(card, 'gpu memory read/write activity', 'gpu memory use'));
    if (memoryPercent !== undefined)
        sample.memoryPercent = memoryPercent;
    const clock = clockMhz(field(card, 'sclk clock speed'));
    if (clock !== undefined)
        sample.smClockMhz = clock;
    const power = numberFrom(field(card, 'average graphics package power', 'current socket graphics package power'));
    if (power !== undefined)
        sample.powerW = power;
    const used = numberFrom(field(card, 'vram total used memory'));
    if (used !== undefined)
        sample.memoryUsedBytes = used;
    return sample;
}
/** The card's product name: `Card series` (`Card Series` in --csv), older `Device Name`. */
function cardName(card) {
    return field(card, 'card series', 'device name');
}
/* harmony default export */ const rocm_smi_json = (defineImporter({
    id: 'rocm-smi-json',
    label: 'rocm-smi --json',
    sniff(head) {
        const start = head.indexOf('{');
        if (start < 0)
            return false;
        // Before the JSON only rocm-smi's `WARNING:` lines or a loop's time line may come.
        const before = head.slice(0, start).split(/\r?\n/);
        const allowed = (line) => line.trim() === '' || /^\s*(?:WARNING|NOTICE)\b/i.test(line) || timeFromLine(line) !== undefined;
        if (!before.every(allowed))
            return false;
        return /^\{\s*"card\d+"\s*:\s*\{/.test(head.slice(start));
    },
    async read(file, ctx) {
        const { values, strayLines, truncatedAt } = splitJsonValues(file.path, await file.text());
        // The time printed last before each document, by the document's first line.
        const timeBefore = new Map();
        let pending;
        let strayIndex = 0;
        for (const { line } of values) {
            while (strayIndex < strayLines.length && strayLines[strayIndex].line < line) {
                const stray = strayLines[strayIndex++].text;
                const t = timeFromLine(stray);
                if (t !== undefined)
                    pending = t;
                else if (/^\s*(?:WARNING|NOTICE)\b/i.test(stray))
                    ctx.count('tool-warning', 'info', stray.slice(0, 120));
                else
                    ctx.count('non-json-line', 'info', 'text between JSON documents is skipped');
            }
            if (pending !== undefined)
                timeBefore.set(line, pending);
            pending = undefined;
        }
        if (truncatedAt !== undefined)
            ctx.count('truncated-document', 'data-loss', `the last JSON document (line ${truncatedAt}) is cut off`);
        const samples = [];
        const names = new Set();
        let driver;
        const cards = new Set();
        for (const { value, line } of values) {
            if (!json_values_isRecord(value))
                throw new errors/* InputError */.dz(file.path, 'expected a rocm-smi JSON object keyed by card0, card1, …', String(line));
            const cardKeys = Object.keys(value).filter((key) => CARD_KEY.test(key));
            if (cardKeys.length === 0)
                throw new errors/* InputError */.dz(file.path, 'expected rocm-smi JSON with "cardN" keys, found none', String(line));
            const system = value['system'];
            if (json_values_isRecord(system))
                driver ??= field(system, 'driver version');
            for (const key of cardKeys) {
                const card = value[key];
                if (!json_values_isRecord(card))
                    throw new errors/* InputError */.dz(file.path, `expected "${key}" to be an object of strings`, String(line));
                const device = Number(CARD_KEY.exec(key)[1]);
                cards.add(device);
                const name = cardName(card);
                if (name)
                    names.add(name);
                const sample = sampleFromCard(card, device);
                if (!sample) {
                    ctx.count('card-without-utilization', 'data-loss', `"GPU use (%)" missing or not a 0..100 number (first: ${key} at line ${line})`);
                    continue;
                }
                const t = timeBefore.get(line);
                if (t !== undefined)
                    sample.t = t;
                samples.push(sample);
            }
        }
        if (samples.length === 0)
            throw new errors/* InputError */.dz(file.path, 'expected at least one card with a "GPU use (%)" value, found none', '1');
        return {
            source: { path: file.path, format: 'rocm-smi-json', parts: ['json'], tool: 'rocm-smi' },
            utilization: samples,
            environment: {
                vendor: 'amd',
                gpuCount: cards.size,
                ...(names.size ? { gpuName: [...names].join(', ') } : {}),
                ...(driver ? { driver } : {}),
            },
        };
    },
}));

;// CONCATENATED MODULE: ./src/ingest/formats/rocm-smi-csv.ts
/**
 * `rocm-smi --csv` output: a `device` column then the union of the cards' labels, one row per card
 * (`card0,…`); commas are stripped from values by rocm-smi, missing keys print `N/A`. The labels are
 * those of `rocm-smi --json`, so each row maps to a sample exactly as a JSON card does. A loop
 * around rocm-smi repeats the header before each snapshot; each snapshot is one sampling instant.
 * Limits: rocm-smi prints no time, so samples carry none; `WARNING:` lines are counted and skipped.
 */




const CARD_ROW = /^card(\d+)\s*,/;
const rocm_smi_csv_HEADER = /^"?device"?\s*,/;
const TOOL_LINE = /^\s*(?:WARNING|NOTICE)\b|^=+|^\s*$/i;
/* harmony default export */ const rocm_smi_csv = (defineImporter({
    id: 'rocm-smi-csv',
    label: 'rocm-smi --csv',
    sniff(head) {
        const lines = head.replace(/^\uFEFF/, '').split(/\r?\n/);
        const at = lines.findIndex((line) => !TOOL_LINE.test(line));
        return at >= 0 && rocm_smi_csv_HEADER.test(lines[at]) && CARD_ROW.test(lines[at + 1] ?? '');
    },
    async read(file, ctx) {
        const lines = (await file.text()).replace(/^\uFEFF/, '').split(/\r?\n/);
        let header;
        const samples = [];
        const names = new Set();
        const cards = new Set();
        for (let i = 0; i < lines.length; i++) {
            const line = lines[i];
            if (TOOL_LINE.test(line)) {
                if (line.trim())
                    ctx.count('tool-line', 'info', 'rocm-smi WARNING and banner lines are skipped');
                continue;
            }
            const fields = splitCsvLine(line);
            if (!fields)
                throw new errors/* InputError */.dz(file.path, 'expected well-formed CSV quoting (a truncated or garbled row)', String(i + 1));
            if (rocm_smi_csv_HEADER.test(line)) {
                header = fields.map(cleanLabel);
                continue;
            }
            const card = CARD_ROW.exec(line);
            if (!header || !card)
                throw new errors/* InputError */.dz(file.path, `expected a "device,…" header then "cardN,…" rows, got ${JSON.stringify(line.slice(0, 60))}`, String(i + 1));
            if (fields.length !== header.length) {
                throw new errors/* InputError */.dz(file.path, `expected ${header.length} fields as in the header, got ${fields.length} (a truncated or garbled row)`, String(i + 1));
            }
            const record = Object.fromEntries(header.map((label, k) => [label, fields[k].trim()]));
            const device = Number(card[1]);
            cards.add(device);
            const name = cardName(record);
            if (name && name !== 'N/A')
                names.add(name);
            const sample = sampleFromCard(record, device);
            if (sample)
                samples.push(sample);
            else
                ctx.count('card-without-utilization', 'data-loss', `"GPU use (%)" missing or not a 0..100 number (first: card${device} at line ${i + 1})`);
        }
        if (samples.length === 0)
            throw new errors/* InputError */.dz(file.path, 'expected at least one card row with a "GPU use (%)" value, found none', '1');
        return {
            source: { path: file.path, format: 'rocm-smi-csv', parts: ['csv'], tool: 'rocm-smi' },
            utilization: samples,
            environment: { vendor: 'amd', gpuCount: cards.size, ...(names.size ? { gpuName: [...names].join(', ') } : {}) },
        };
    },
}));

;// CONCATENATED MODULE: ./src/ingest/formats/amd-smi.ts
/**
 * `amd-smi metric` output, the successor of rocm-smi on ROCm 6+ and MI300-class GPUs, in both of its
 * machine-readable forms:
 * - `--csv`: one row per GPU per sample, flat snake_case columns (`timestamp`, `gpu`,
 *   `gfx_activity`, `umc_activity`, `socket_power`, `gfx_0_clk` … `gfx_7_clk` per XCD, `used_vram`);
 *   list-valued cells are Python lists (`"[0, 0, …]"`) and missing values `N/A`.
 * - `--json`: a list of GPUs (or `{"gpu_data": [...]}`), each `{"gpu": 0, "usage": {...},
 *   "power": {...}, "clock": {"gfx_0": {"clk": ...}}, "mem_usage": {...}}`, every value a number,
 *   `{"value": …, "unit": …}` or `"N/A"`; a `--watch` loop writes one document per sample.
 * Mapping: gfx_activity → gpuPercent, umc_activity → memoryPercent, socket_power (W) → powerW, the
 * mean of the gfx_N clocks (MHz) → smClockMhz, used_vram (MB, amd-smi's 2^20 bytes) → bytes,
 * timestamp (epoch s) → t, gpu → device.
 * Limits: amd-smi prints no product name in `metric`, so the GPU is not named; throttle and
 * violation fields are not read.
 */




const MIB = 1024 * 1024;
/** A JSON value as a number: plain, `{"value": 12, "unit": "%"}`, or a numeric string. */
function amd_smi_valueOf(value) {
    if (json_values_isRecord(value))
        return numberFrom(value['value']);
    return numberFrom(value);
}
function sampleFrom(flat, device) {
    const gpuPercent = percentFrom(amd_smi_valueOf(flat.get('gfx_activity')));
    if (gpuPercent === undefined)
        return undefined;
    const sample = { device, gpuPercent, reasons: [] };
    const t = amd_smi_valueOf(flat.get('timestamp'));
    if (t !== undefined && t > 0)
        sample.t = t > 1e11 ? t / 1000 : t;
    const memoryPercent = percentFrom(amd_smi_valueOf(flat.get('umc_activity')));
    if (memoryPercent !== undefined)
        sample.memoryPercent = memoryPercent;
    const power = amd_smi_valueOf(flat.get('socket_power')) ?? amd_smi_valueOf(flat.get('current_socket_power')) ?? amd_smi_valueOf(flat.get('average_socket_power'));
    if (power !== undefined)
        sample.powerW = power;
    const clocks = [...flat.keys()].filter((key) => /^gfx_\d+_clk$/.test(key)).map((key) => amd_smi_valueOf(flat.get(key))).filter((v) => v !== undefined);
    const clock = clocks.length ? clocks.reduce((a, b) => a + b, 0) / clocks.length : amd_smi_valueOf(flat.get('gfx_clk'));
    if (clock !== undefined)
        sample.smClockMhz = clock;
    const used = amd_smi_valueOf(flat.get('used_vram'));
    if (used !== undefined)
        sample.memoryUsedBytes = used * MIB;
    return sample;
}
function capture(path, format, samples, ctx, where) {
    if (samples.length === 0)
        throw new errors/* InputError */.dz(path, 'expected at least one GPU with a gfx_activity value, found none', where);
    void ctx;
    return {
        source: { path, format, parts: ['metric'], tool: 'amd-smi' },
        utilization: samples,
        environment: { vendor: 'amd', gpuCount: new Set(samples.map((s) => s.device)).size },
    };
}
const CSV_HEADER = /^(?:timestamp,)?gpu,.*\bgfx_activity\b/;
const amdSmiCsv = defineImporter({
    id: 'amd-smi-csv',
    label: 'amd-smi metric --csv',
    sniff(head) {
        const first = head.replace(/^\uFEFF/, '').trimStart().split(/\r?\n/, 1)[0] ?? '';
        return CSV_HEADER.test(first);
    },
    async read(file, ctx) {
        const lines = (await file.text()).replace(/^\uFEFF/, '').split(/\r?\n/);
        let header;
        let headerLine = '';
        const samples = [];
        for (let i = 0; i < lines.length; i++) {
            const line = lines[i];
            if (line.trim() === '')
                continue;
            if (line === headerLine) {
                ctx.count('repeated-header', 'info', 'header lines repeated between samples are skipped');
                continue;
            }
            const fields = splitCsvLine(line);
            if (!fields)
                throw new errors/* InputError */.dz(file.path, 'expected well-formed CSV quoting (a truncated or garbled row)', String(i + 1));
            if (!header) {
                if (!CSV_HEADER.test(line))
                    throw new errors/* InputError */.dz(file.path, 'expected an amd-smi metric --csv header with gpu and gfx_activity columns', String(i + 1));
                header = fields.map(cleanLabel);
                headerLine = line;
                continue;
            }
            if (fields.length !== header.length) {
                throw new errors/* InputError */.dz(file.path, `expected ${header.length} fields as in the header, got ${fields.length} (a truncated or garbled row)`, String(i + 1));
            }
            const flat = new Map(header.map((label, k) => [label, fields[k].trim()]));
            const device = numberFrom(flat.get('gpu'));
            if (device === undefined || !Number.isInteger(device) || device < 0) {
                throw new errors/* InputError */.dz(file.path, `expected a GPU index in column gpu, got ${JSON.stringify(flat.get('gpu'))}`, String(i + 1));
            }
            const sample = sampleFrom(flat, device);
            if (sample)
                samples.push(sample);
            else
                ctx.count('row-without-utilization', 'data-loss', 'rows whose gfx_activity is N/A or outside 0..100 are not samples');
        }
        return capture(file.path, 'amd-smi-csv', samples, ctx, '2');
    },
});
/** One GPU entry of `amd-smi metric --json`, its nested groups flattened to amd-smi's CSV names. */
function flatten(entry) {
    const flat = new Map();
    for (const [key, value] of Object.entries(entry)) {
        if (!json_values_isRecord(value) || 'value' in value) {
            flat.set(key, value);
            continue;
        }
        for (const [inner, innerValue] of Object.entries(value)) {
            // clock: {"gfx_0": {"clk": …, "min_clk": …}} → gfx_0_clk, gfx_0_min_clk
            if (json_values_isRecord(innerValue) && !('value' in innerValue)) {
                for (const [leaf, leafValue] of Object.entries(innerValue))
                    flat.set(`${inner}_${leaf}`, leafValue);
            }
            else {
                flat.set(inner, innerValue);
            }
        }
    }
    return flat;
}
function gpuEntries(value) {
    if (Array.isArray(value))
        return value;
    if (json_values_isRecord(value) && Array.isArray(value['gpu_data']))
        return value['gpu_data'];
    return undefined;
}
const amdSmiJson = defineImporter({
    id: 'amd-smi-json',
    label: 'amd-smi metric --json',
    sniff(head) {
        const text = head.replace(/^\uFEFF/, '').trimStart();
        return /^(\[\s*\{|\{\s*"gpu_data"\s*:\s*\[\s*\{)\s*"gpu"\s*:\s*\d+/.test(text) && /"(usage|gfx_activity)"\s*:/.test(text);
    },
    async read(file, ctx) {
        const { values, truncatedAt } = splitJsonValues(file.path, await file.text());
        if (truncatedAt !== undefined)
            ctx.count('truncated-document', 'data-loss', `the last JSON document (line ${truncatedAt}) is cut off`);
        const samples = [];
        for (const { value, line } of values) {
            const entries = gpuEntries(value);
            if (!entries)
                throw new errors/* InputError */.dz(file.path, 'expected amd-smi metric JSON: a list of GPUs (or {"gpu_data": [...]})', String(line));
            for (const entry of entries) {
                if (!json_values_isRecord(entry))
                    throw new errors/* InputError */.dz(file.path, 'expected each GPU to be an object with a "gpu" index', String(line));
                const device = numberFrom(entry['gpu']);
                if (device === undefined || !Number.isInteger(device) || device < 0)
                    throw new errors/* InputError */.dz(file.path, `expected a GPU index in "gpu", got ${JSON.stringify(entry['gpu'])}`, String(line));
                const flat = flatten(entry);
                const sample = sampleFrom(flat, device);
                if (sample)
                    samples.push(sample);
                else
                    ctx.count('gpu-without-utilization', 'data-loss', 'GPUs whose gfx_activity is N/A or outside 0..100 are not samples');
            }
        }
        return capture(file.path, 'amd-smi-json', samples, ctx, '1');
    },
});

// EXTERNAL MODULE: external "node:module"
var external_node_module_ = __webpack_require__(98995);
;// CONCATENATED MODULE: ./src/ingest/common/sqlite-db.ts
/**
 * SQLite capture files (nsys `.sqlite` exports, rocprofv3 rocpd `*_results.db`) opened with sql.js:
 * SQLite compiled to WebAssembly, so nothing is built natively on the runner. Its build with the
 * wasm inlined is loaded at run time, only when a SQLite file is read: from node_modules when
 * running from source, else from the copy the build puts beside each bundle (the bundler cannot
 * take it in: sql.js clears `module` on purpose and checks it with `typeof`, which the bundler
 * folds to a constant). The database is read whole into memory.
 */


/** The 16 bytes every SQLite 3 database starts with. */
const SQLITE_MAGIC = 'SQLite format 3\u0000';
/** Larger databases are not loaded into memory: the export command's CSV is read instead. */
const MAX_SQLITE_BYTES = 512 * 1024 * 1024;
function isSqliteHead(head) {
    return head.startsWith(SQLITE_MAGIC);
}
let engine;
/**
 * The one copy of sql.js in dist/ (scripts/finish-dist.mjs): beside the action's bundle, and one
 * folder up from the CLI's (dist/cli/); then the package, when run from source.
 */
const SQL_JS_FILES = ['./sql-wasm-inline.cjs', '../sql-wasm-inline.cjs', 'sql.js/dist/sql-wasm-inline.js'];
async function sqlJs() {
    engine ??= (async () => {
        // String(): the bundler would treat `createRequire(import.meta.url)` as its own require.
        const load = (0,external_node_module_.createRequire)(String(import.meta.url));
        for (const id of SQL_JS_FILES) {
            try {
                return await load(id)();
            }
            catch (error) {
                if (error.code !== 'MODULE_NOT_FOUND')
                    throw error;
            }
        }
        throw new Error(`the SQLite reader (sql.js) is missing: none of ${SQL_JS_FILES.join(', ')} could be loaded`);
    })();
    return engine;
}
/** Opens the file as a database, or says in one line why it cannot be read (and what to run instead). */
async function openSqlite(file, exportHint) {
    if (file.sizeBytes > MAX_SQLITE_BYTES) {
        throw new errors/* InputError */.dz(file.path, `the database is ${file.sizeBytes} bytes; SQLite captures are read up to ${MAX_SQLITE_BYTES} bytes: ${exportHint}`);
    }
    const bytes = file.bytes ? await file.bytes() : Buffer.from(await file.text(), 'latin1');
    if (!Buffer.from(bytes.subarray(0, 16)).toString('latin1').startsWith(SQLITE_MAGIC)) {
        throw new errors/* InputError */.dz(file.path, `expected an SQLite 3 database (the file does not start with "SQLite format 3"): ${exportHint}`, 'byte 0');
    }
    const { Database } = await sqlJs();
    let db;
    try {
        db = new Database(bytes);
        db.exec('SELECT count(*) FROM sqlite_master');
    }
    catch (error) {
        throw new errors/* InputError */.dz(file.path, `expected a readable SQLite database (${error.message}): ${exportHint}`);
    }
    return db;
}
/**
 * Runs `read` on the opened database and closes it. SQLite finds most damage only when a query
 * reaches it: such errors become one InputError line with the export command to use instead.
 */
async function withDatabase(file, exportHint, read) {
    const db = await openSqlite(file, exportHint);
    try {
        return read(db);
    }
    catch (error) {
        if (error instanceof errors/* InputError */.dz)
            throw error;
        throw new errors/* InputError */.dz(file.path, `expected a readable SQLite database (${error.message}): ${exportHint}`);
    }
    finally {
        db.close();
    }
}
/** Names of the tables and views in the database. */
function schemaNames(db) {
    return queryRows(db, "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')").map((row) => String(row[0]));
}
function columnNames(db, table) {
    return queryRows(db, `PRAGMA table_info(${quoteName(table)})`).map((row) => String(row[1]));
}
function quoteName(name) {
    return `"${name.replace(/"/g, '""')}"`;
}
/** Every row of a query; integers come as BigInt when they pass 2^53 (nanosecond timestamps do). */
function queryRows(db, sql) {
    const statement = db.prepare(sql);
    const rows = [];
    try {
        const get = statement.get.bind(statement);
        while (statement.step())
            rows.push(get(null, { useBigInt: true }).map(narrow));
    }
    finally {
        statement.free();
    }
    return rows;
}
/** A BigInt that fits a double exactly becomes a number; larger ones stay BigInt. */
function narrow(value) {
    if (typeof value !== 'bigint')
        return value;
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}
/** An integer cell as decimal text (timestamps), or undefined. */
function integerText(value) {
    if (typeof value === 'bigint')
        return value.toString();
    if (typeof value === 'number' && Number.isInteger(value))
        return String(value);
    return undefined;
}

;// CONCATENATED MODULE: ./src/ingest/formats/nsys-sqlite.ts




const EXPORT_HINT = 'or read its tables with: nsys stats --report cuda_gpu_kern_sum,cuda_gpu_trace --format csv --output PREFIX x.sqlite';
/** CUpti_ActivityMemcpyKind: 1 HtoD, 2 DtoH, 8 DtoD (the arrays and peer kinds are "other"). */
function copyKind(kind) {
    if (kind === 1)
        return 'memcpy-htod';
    if (kind === 2)
        return 'memcpy-dtoh';
    if (kind === 8)
        return 'memcpy-dtod';
    return 'memcpy-other';
}
function memops(db, tables) {
    const byKind = new Map();
    const add = (kind, name, ns, bytes) => {
        const stat = byKind.get(kind) ?? { kind, name, totalNs: 0, count: 0, bytes: 0 };
        stat.totalNs += ns;
        stat.count += 1;
        stat.bytes += bytes;
        byKind.set(kind, stat);
    };
    const NAMES = { 'memcpy-htod': '[CUDA memcpy Host-to-Device]', 'memcpy-dtoh': '[CUDA memcpy Device-to-Host]', 'memcpy-dtod': '[CUDA memcpy Device-to-Device]', 'memcpy-other': '[CUDA memcpy other]', memset: '[CUDA memset]' };
    if (tables.has('CUPTI_ACTIVITY_KIND_MEMCPY')) {
        for (const [kind, start, end, bytes] of queryRows(db, 'SELECT copyKind, start, "end", bytes FROM CUPTI_ACTIVITY_KIND_MEMCPY')) {
            const k = copyKind(kind);
            add(k, NAMES[k], Number(end) - Number(start), Number(bytes) || 0);
        }
    }
    if (tables.has('CUPTI_ACTIVITY_KIND_MEMSET')) {
        for (const [start, end, bytes] of queryRows(db, 'SELECT start, "end", bytes FROM CUPTI_ACTIVITY_KIND_MEMSET'))
            add('memset', NAMES['memset'], Number(end) - Number(start), Number(bytes) || 0);
    }
    return [...byKind.values()];
}
/* harmony default export */ const nsys_sqlite = (defineImporter({
    id: 'nsys-sqlite',
    label: 'Nsight Systems SQLite export',
    sniff(head) {
        return isSqliteHead(head) && /CUPTI_ACTIVITY_KIND_|StringIds|META_DATA_EXPORT|TARGET_INFO_/.test(head);
    },
    async read(file, ctx) {
        return withDatabase(file, EXPORT_HINT, (db) => {
            const tables = new Set(schemaNames(db));
            if (!tables.has('StringIds') && !tables.has('META_DATA_EXPORT')) {
                throw new errors/* InputError */.dz(file.path, `expected an nsys SQLite export (StringIds and META_DATA_EXPORT tables), found none: ${EXPORT_HINT}`);
            }
            if (!tables.has('CUPTI_ACTIVITY_KIND_KERNEL')) {
                throw new errors/* InputError */.dz(file.path, 'the nsys export holds no CUDA kernel data (no CUPTI_ACTIVITY_KIND_KERNEL table): was the capture made with -t cuda?');
            }
            const columns = new Set(columnNames(db, 'CUPTI_ACTIVITY_KIND_KERNEL'));
            const nameColumn = columns.has('demangledName') ? 'demangledName' : 'shortName';
            const shape = ['gridX', 'gridY', 'gridZ', 'blockX', 'blockY', 'blockZ'].every((c) => columns.has(c)) ? ', k.gridX, k.gridY, k.gridZ, k.blockX, k.blockY, k.blockZ' : '';
            const trace = new KernelTraceReader(file.path, 'Index,KernelName,gpu-id,BeginNs,EndNs', 1, false, ctx);
            trace.fieldWord = 'column';
            const rows = queryRows(db, `SELECT coalesce(s.value, ''), k.deviceId, k.start, k."end"${shape} FROM CUPTI_ACTIVITY_KIND_KERNEL k LEFT JOIN StringIds s ON s.id = k.${nameColumn} ORDER BY k.start`);
            rows.forEach((row, i) => {
                const [name, device, start, end, ...dims] = row;
                if (!name)
                    ctx.count('kernel-without-name', 'data-loss', `kernel rows whose ${nameColumn} is not in StringIds are named ""`);
                const sizes = dims.map(Number);
                trace.addDispatch({
                    name: String(name ?? ''),
                    agent: String(device ?? 0),
                    start: integerText(start) ?? String(start),
                    end: integerText(end) ?? String(end),
                    ...(sizes.length === 6 ? { grid: sizes.slice(0, 3), block: sizes.slice(3), gridInBlocks: true } : {}),
                }, `CUPTI_ACTIVITY_KIND_KERNEL row ${i + 1}`);
            });
            const read = trace.finish();
            const gpuNames = tables.has('TARGET_INFO_GPU') ? [...new Set(queryRows(db, 'SELECT name FROM TARGET_INFO_GPU').map((r) => String(r[0] ?? '')).filter(Boolean))] : [];
            const version = tables.has('META_DATA_EXPORT') ? queryRows(db, "SELECT value FROM META_DATA_EXPORT WHERE name = 'EXPORT_PRODUCT_VERSION'")[0]?.[0] : undefined;
            return {
                source: { path: file.path, format: 'nsys-sqlite', tool: 'nsys', parts: ['CUPTI_ACTIVITY_KIND_KERNEL'], ...(version ? { toolVersion: String(version) } : {}) },
                kernels: read.kernels,
                memops: memops(db, tables),
                ...(read.timeline ? { timeline: read.timeline } : {}),
                environment: { vendor: 'nvidia', ...(gpuNames.length ? { gpuName: gpuNames.join(', '), gpuCount: gpuNames.length } : {}) },
            };
        });
    },
}));

;// CONCATENATED MODULE: ./src/ingest/formats/rocpd-sqlite.ts




const rocpd_sqlite_EXPORT_HINT = 'or convert it with: rocpd convert -i NAME_results.db --output-format csv (then read NAME_kernel_trace.csv)';
/** The view named `base`, else the one table `base_<suffix>`; undefined when absent. */
function relation(path, names, base) {
    if (names.includes(base))
        return base;
    const suffixed = names.filter((name) => name.startsWith(`${base}_`) && /^[0-9a-f_]+$/i.test(name.slice(base.length + 1)));
    if (suffixed.length > 1) {
        throw new errors/* InputError */.dz(path, `the database holds ${suffixed.length} profiling sessions (${suffixed.slice(0, 2).join(', ')}…); expected one: convert each with rocpd convert and analyze them one at a time`);
    }
    return suffixed[0];
}
function gpuName(db, agents) {
    if (!agents)
        return [];
    const columns = new Set(columnNames(db, agents));
    const pick = ['product_name', 'model_name', 'name'].filter((c) => columns.has(c)).map((c) => `nullif(${quoteName(c)}, '')`);
    if (pick.length === 0 || !columns.has('type'))
        return [];
    return [...new Set(queryRows(db, `SELECT coalesce(${pick.join(', ')}) FROM ${quoteName(agents)} WHERE type = 'GPU'`).map((r) => String(r[0] ?? '')).filter(Boolean))];
}
/* harmony default export */ const rocpd_sqlite = (defineImporter({
    id: 'rocpd-sqlite',
    label: 'rocprofv3 rocpd SQLite database',
    sniff(head) {
        return isSqliteHead(head) && /rocpd_/.test(head);
    },
    async read(file, ctx) {
        return withDatabase(file, rocpd_sqlite_EXPORT_HINT, (db) => {
            const names = schemaNames(db);
            const dispatches = relation(file.path, names, 'rocpd_kernel_dispatch');
            const symbols = relation(file.path, names, 'rocpd_info_kernel_symbol');
            if (!dispatches || !symbols) {
                throw new errors/* InputError */.dz(file.path, `expected rocpd kernel tables (rocpd_kernel_dispatch, rocpd_info_kernel_symbol), found none: was rocprofv3 run with --kernel-trace? ${rocpd_sqlite_EXPORT_HINT}`);
            }
            const symbolColumns = new Set(columnNames(db, symbols));
            const name = symbolColumns.has('display_name') ? "coalesce(nullif(s.display_name, ''), s.kernel_name)" : 's.kernel_name';
            const trace = new KernelTraceReader(file.path, 'Kind,Agent_Id,Kernel_Name,Start_Timestamp,End_Timestamp', 1, true, ctx);
            const rows = queryRows(db, `SELECT ${name}, d.agent_id, d.start, d."end", d.grid_size_x, d.grid_size_y, d.grid_size_z, d.workgroup_size_x, d.workgroup_size_y, d.workgroup_size_z
         FROM ${quoteName(dispatches)} d LEFT JOIN ${quoteName(symbols)} s ON s.id = d.kernel_id ORDER BY d.start`);
            rows.forEach((row, i) => {
                const [kernel, agent, start, end, ...dims] = row;
                if (kernel === null || kernel === undefined)
                    ctx.count('kernel-without-symbol', 'data-loss', 'dispatches whose kernel_id has no kernel symbol are named ""');
                trace.addDispatch({
                    name: String(kernel ?? ''),
                    agent: String(agent ?? 0),
                    start: integerText(start) ?? String(start),
                    end: integerText(end) ?? String(end),
                    grid: dims.slice(0, 3).map(Number),
                    block: dims.slice(3).map(Number),
                }, `${dispatches} row ${i + 1}`);
            });
            const read = trace.finish();
            if (read.kernels.length === 0)
                throw new errors/* InputError */.dz(file.path, `the rocpd database holds no kernel dispatches (${dispatches} is empty)`);
            const gpus = gpuName(db, relation(file.path, names, 'rocpd_info_agent'));
            return {
                source: { path: file.path, format: 'rocpd-sqlite', tool: 'rocprofv3', parts: ['rocpd_kernel_dispatch'] },
                kernels: read.kernels,
                ...(read.timeline ? { timeline: read.timeline } : {}),
                environment: { vendor: 'amd', ...(gpus.length ? { gpuName: gpus.join(', ') } : {}) },
            };
        });
    },
}));

;// CONCATENATED MODULE: ./src/ingest/formats/rocprof-csv.ts
/**
 * ROCm profiler CSV: rocprofv3 `*_kernel_stats.csv` / `*_hip_api_stats.csv` (8 columns), legacy
 * rocprof `results.stats.csv` (5 columns), rocprofv3 `*_kernel_trace.csv` and legacy `results.csv`
 * (one row per dispatch). Columns are found by name. Stats files whose names are all HIP/HSA API
 * calls (hipLaunchKernel, __hipPushCallConfiguration, hsa_*) become apiCalls; copy stats become
 * memops; domain stats are listed in parts only; anything else is kernels. Traces give per-kernel
 * sums and a timeline (span, busy union per agent, idle gaps between busy intervals, launches,
 * kernel time per tenth of the span). Names lose the ` [clone .kd]` / `.kd` suffix. The file is read
 * line by line from its stream, never whole.
 * Limits: memory-copy traces are not read; a trace's `device` is the agent's rank among the agents
 * seen (only set with more than one); grid is reported in workgroups (Grid_Size / Workgroup_Size);
 * a line break inside a quoted name reads as `\n`, also in a CRLF file.
 */






function headerLabels(head) {
    const first = head.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
    return first.split(',').map(cleanLabel);
}
function layoutOf(labels) {
    const has = (label) => labels.includes(label);
    if (labels[0] === 'Name' && has('Calls') && has('TotalDurationNs'))
        return 'stats';
    if (has('Kernel_Name') && has('Start_Timestamp') && has('End_Timestamp'))
        return 'trace-v3';
    if (has('KernelName') && (has('BeginNs') || has('DurationNs')) && has('Index'))
        return 'trace-v1';
    return undefined;
}
const API_NAME = /^(_*hip[A-Z]|hsa_)/;
const rocprof_csv_COPY_NAME = /^(MEMORY_COPY_|Copy(HostToDevice|DeviceToHost|DeviceToDevice|HostToHost))/;
const DOMAIN_NAME = /^[A-Z][A-Z_]*_(API|DISPATCH|COPY|ALLOCATION|MEMORY)$|^KERNEL_DISPATCH$/;
function rocprof_csv_copyKind(name) {
    if (/HOST_TO_DEVICE|HostToDevice/.test(name))
        return 'memcpy-htod';
    if (/DEVICE_TO_HOST|DeviceToHost/.test(name))
        return 'memcpy-dtoh';
    if (/DEVICE_TO_DEVICE|DeviceToDevice/.test(name))
        return 'memcpy-dtod';
    return 'memcpy-other';
}
class Columns {
    path;
    header;
    index = new Map();
    constructor(path, header, headerLine, required) {
        this.path = path;
        this.header = header;
        header.forEach((label, i) => this.index.set(label, i));
        const missing = required.filter((label) => !this.index.has(label));
        if (missing.length)
            throw new errors/* InputError */.dz(path, `expected columns ${missing.join(', ')} in the header`, String(headerLine));
    }
    has(label) {
        return this.index.has(label);
    }
    text(record, label) {
        return record.fields[this.index.get(label)] ?? '';
    }
    number(record, label) {
        const text = this.text(record, label);
        const value = parseNumber(text);
        if (value === undefined || value < 0)
            throw new errors/* InputError */.dz(this.path, `expected a number in column ${label}, got ${JSON.stringify(text)}`, String(record.line));
        return value;
    }
}
/**
 * A stats file read record by record. Problems are named in the order a whole-file read finds them:
 * malformed CSV anywhere first, then rows of the wrong width, missing columns, unreadable numbers,
 * and impossible ones (fractional calls, min above max).
 */
class StatsReader {
    path;
    records;
    header;
    columns;
    rows = [];
    /** The first problem of each kind above but malformed CSV (which is raised at once). */
    failed = [undefined, undefined, undefined, undefined];
    constructor(path) {
        this.path = path;
        this.records = new CsvRecordReader(path);
    }
    push(line, lineNo) {
        const record = this.records.add(line, lineNo);
        if (!record)
            return;
        if (!this.header) {
            this.header = record.fields.map(cleanLabel);
            this.attempt(1, () => (this.columns = new Columns(this.path, this.header, record.line, ['Name', 'Calls', 'TotalDurationNs'])));
            return;
        }
        if (record.fields.length !== this.header.length) {
            this.attempt(0, () => {
                throw new errors/* InputError */.dz(this.path, `expected ${this.header.length} fields as in the header, got ${record.fields.length} (a truncated or garbled row)`, String(record.line));
            });
            return;
        }
        const columns = this.columns;
        // Past a short row or an unreadable number only the CSV itself can still fail first.
        if (!columns || this.failed[0] || this.failed[2])
            return;
        let row;
        this.attempt(2, () => {
            row = {
                name: ownString(columns.text(record, 'Name').trim()),
                calls: columns.number(record, 'Calls'),
                totalNs: columns.number(record, 'TotalDurationNs'),
                minNs: columns.has('MinNs') ? columns.number(record, 'MinNs') : undefined,
                maxNs: columns.has('MaxNs') ? columns.number(record, 'MaxNs') : undefined,
            };
        });
        if (!row)
            return;
        const { calls, minNs, maxNs } = row;
        this.rows.push(row);
        this.attempt(3, () => {
            if (!Number.isInteger(calls))
                throw new errors/* InputError */.dz(this.path, `expected a whole number of calls, got ${calls}`, String(record.line));
            if (minNs !== undefined && maxNs !== undefined && minNs > maxNs) {
                throw new errors/* InputError */.dz(this.path, `expected MinNs at most MaxNs, got ${minNs} > ${maxNs} (a garbled row)`, String(record.line));
            }
        });
    }
    finish() {
        this.records.end();
        const first = this.failed.find(Boolean);
        if (first)
            throw first.error;
        return statsFrom(this.rows, this.columns);
    }
    /** Runs `step`; its error is kept (the first of each rank) and raised at the end. */
    attempt(rank, step) {
        try {
            step();
        }
        catch (error) {
            this.failed[rank] ??= { error };
        }
    }
}
function statsFrom(rows, columns) {
    const all = (pattern) => rows.length > 0 && rows.every((row) => pattern.test(row.name));
    if (all(API_NAME)) {
        return { kernels: [], memops: [], apiCalls: rows.map(({ name, totalNs, calls }) => ({ name, totalNs, calls })), part: 'hip_api_stats' };
    }
    if (all(rocprof_csv_COPY_NAME)) {
        return { kernels: [], apiCalls: [], memops: rows.map(({ name, totalNs, calls }) => ({ kind: rocprof_csv_copyKind(name), name, totalNs, count: calls })), part: 'memory_copy_stats' };
    }
    if (all(DOMAIN_NAME))
        return { kernels: [], apiCalls: [], memops: [], part: 'domain_stats' };
    const byName = new Map();
    for (const row of rows) {
        const name = cleanKernelName(row.name);
        const existing = byName.get(name);
        if (!existing) {
            byName.set(name, {
                name,
                totalNs: row.totalNs,
                instances: row.calls,
                ...(row.minNs !== undefined ? { minNs: row.minNs } : {}),
                ...(row.maxNs !== undefined ? { maxNs: row.maxNs } : {}),
            });
            continue;
        }
        existing.totalNs += row.totalNs;
        existing.instances += row.calls;
        if (row.minNs !== undefined)
            existing.minNs = Math.min(existing.minNs ?? Infinity, row.minNs);
        if (row.maxNs !== undefined)
            existing.maxNs = Math.max(existing.maxNs ?? 0, row.maxNs);
    }
    return { kernels: [...byName.values()], apiCalls: [], memops: [], part: columns.has('MinNs') ? 'kernel_stats' : 'stats' };
}
/* harmony default export */ const rocprof_csv = (defineImporter({
    id: 'rocprof-csv',
    label: 'ROCm rocprof / rocprofv3 CSV',
    sniff(head) {
        return layoutOf(headerLabels(head)) !== undefined;
    },
    async read(file, ctx) {
        let lineNo = 0;
        let reader;
        let finish;
        /** The first line decides the layout; the reader of that layout takes every line after it. */
        const start = (firstLine) => {
            const layout = layoutOf(headerLabels(firstLine));
            if (!layout) {
                throw new errors/* InputError */.dz(file.path, `expected a rocprof header (Name,Calls,TotalDurationNs… or Kernel_Name…Start_Timestamp…), got ${JSON.stringify(firstLine.slice(0, 60))}`, '1');
            }
            const tool = layout === 'trace-v1' || (layout === 'stats' && !headerLabels(firstLine).includes('MinNs')) ? 'rocprof' : 'rocprofv3';
            if (layout !== 'stats') {
                const trace = new KernelTraceReader(file.path, firstLine, 1, layout === 'trace-v3', ctx);
                reader = trace;
                finish = () => {
                    const read = trace.finish();
                    return {
                        source: { path: file.path, format: 'rocprof-csv', tool, parts: [layout === 'trace-v3' ? 'kernel_trace' : 'results'] },
                        kernels: read.kernels,
                        ...(read.timeline ? { timeline: read.timeline } : {}),
                        environment: { vendor: 'amd' },
                        ...(read.deviceTimelines?.length ? { deviceTimelines: read.deviceTimelines } : {}),
                    };
                };
                return;
            }
            const stats = new StatsReader(file.path);
            stats.push(firstLine, 1);
            reader = stats;
            finish = () => {
                const read = stats.finish();
                return {
                    source: { path: file.path, format: 'rocprof-csv', tool, parts: [read.part] },
                    kernels: read.kernels,
                    apiCalls: read.apiCalls,
                    memops: read.memops,
                    environment: { vendor: 'amd' },
                };
            };
        };
        for await (const lines of lineBatches(file)) {
            for (const line of lines) {
                lineNo += 1;
                if (reader)
                    reader.push(line, lineNo);
                else
                    start(line.replace(/^\uFEFF/, ''));
            }
        }
        if (!reader)
            start('');
        return finish();
    },
}));

;// CONCATENATED MODULE: ./src/ingest/formats/workload-metrics-jsonl.ts
/**
 * Metrics printed by a `command` workload, one JSON object per line, mixed with any other output.
 * Two record shapes are read:
 * - `{"metric": "decode_tok_s", "value": 378.5}`: one sample of a canonical metric (src/model/metrics.ts);
 * - `{"kind": "run", "tok_s": 378.5, "ttft_ms": …}`: one timed run; `tok_s` is a decode_tok_s sample and
 *   any other key that names a canonical metric is a sample of it (python/workloads/llama_decode.py prints these);
 *   its `t_start` / `t_end` (seconds since the epoch), when given, mark a timed window, over which GPU
 *   utilization is then read instead of over the whole process (start-up and prefill left out).
 * Each record is one sample, so a file with N timed runs gives N samples. Lines that are not JSON objects are
 * the workload's own output (a `{"kind": "summary"}` line repeats the runs) and are counted, not read.
 * Limits: metric names outside the catalog are counted and dropped (a gate needs a known direction).
 */



const CATALOG = new Set(Object.keys(METRIC_CATALOG));
function asMetricRecord(line) {
    const body = line.trim();
    if (!body.startsWith('{') || !body.endsWith('}'))
        return null;
    let value;
    try {
        value = JSON.parse(body);
    }
    catch {
        return null;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value))
        return null;
    const record = value;
    if (typeof record['metric'] === 'string' && 'value' in record)
        return { type: 'metric', metric: record['metric'], value: record['value'] };
    if (record['kind'] === 'run' && 'tok_s' in record)
        return { type: 'run', fields: record };
    return null;
}
function finiteNumber(value) {
    return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
/* harmony default export */ const workload_metrics_jsonl = (defineImporter({
    id: 'workload-metrics-jsonl',
    label: 'workload metrics (JSON lines)',
    sniff(head) {
        for (const line of head.split(/\r?\n/, 200)) {
            if (asMetricRecord(line))
                return true;
        }
        return false;
    },
    async read(file, ctx) {
        const lines = (await file.text()).split(/\r?\n/);
        const metrics = [];
        const timedWindows = [];
        lines.forEach((line, index) => {
            if (line.trim() === '')
                return;
            const record = asMetricRecord(line);
            if (!record) {
                ctx.count('non-metric-line', 'info', 'workload output that is not a metric record');
                return;
            }
            if (record.type === 'metric') {
                const value = finiteNumber(record.value);
                if (!CATALOG.has(record.metric)) {
                    ctx.count('unknown-metric', 'data-loss', `${record.metric} (line ${index + 1}) is not a known metric name`);
                    return;
                }
                if (value === null)
                    throw new errors/* InputError */.dz(file.path, `expected a finite number as "value" of ${record.metric}`, String(index + 1));
                metrics.push({ name: record.metric, value });
                return;
            }
            const tokS = finiteNumber(record.fields['tok_s']);
            if (tokS === null)
                throw new errors/* InputError */.dz(file.path, 'expected a finite number as "tok_s" of a run record', String(index + 1));
            metrics.push({ name: 'decode_tok_s', value: tokS });
            const startS = finiteNumber(record.fields['t_start']);
            const endS = finiteNumber(record.fields['t_end']);
            if (startS !== null && endS !== null && endS > startS)
                timedWindows.push({ startS, endS });
            for (const [key, value] of Object.entries(record.fields)) {
                if (key !== 'decode_tok_s' && CATALOG.has(key) && finiteNumber(value) !== null)
                    metrics.push({ name: key, value: value });
            }
        });
        if (metrics.length === 0)
            throw new errors/* InputError */.dz(file.path, 'expected at least one metric record ({"metric": NAME, "value": N} or {"kind": "run", "tok_s": N})');
        const capture = {
            source: { path: file.path, format: 'workload-metrics-jsonl', parts: ['metrics'], tool: 'workload' },
            metrics,
            timedWindows,
        };
        return capture;
    },
}));

;// CONCATENATED MODULE: ./src/ingest/registry.ts
/**
 * The importer registry and format detection. Order matters only where two formats could both
 * claim a head; the more specific sniff comes first.
 */
























const IMPORTERS = [
    nsys_sqlite,
    rocpd_sqlite,
    // Before Kineto: rocprof's results.json is a Chrome trace too.
    rocprof_json,
    kineto_json,
    max_benchmark_json,
    max_gpu_stats_json,
    rocm_smi_json,
    amdSmiJson,
    gpu_snapshot_jsonl,
    workload_metrics_jsonl,
    ncu_csv,
    nsys_gpu_time_util,
    nsys_stats,
    rocprof_csv,
    nvidia_smi_csv,
    rocm_smi_csv,
    amdSmiCsv,
    max_generate,
    max_benchmark,
];
function importerFor(format) {
    const importer = IMPORTERS.find((candidate) => candidate.id === format);
    if (!importer)
        throw new errors/* UsageError */.eb(`--format ${format}: expected one of ${FORMAT_IDS.join(', ')}`);
    return importer;
}
function detectFormat(file, options = {}) {
    const importer = IMPORTERS.find((candidate) => candidate.sniff(file.head));
    if (importer)
        return importer;
    // A noheader nvidia-smi log that does not start with a timestamp: its rows match the columns given.
    const cells = file.head.trimStart().split(/\r?\n/, 1)[0].split(', ');
    if (options.smiColumns?.length && cells.length === options.smiColumns.length && cells.length > 1)
        return nvidia_smi_csv;
    if (isSqliteHead(file.head)) {
        throw new errors/* InputError */.dz(file.path, 'an SQLite database with neither nsys (CUPTI_ACTIVITY_KIND_KERNEL, StringIds) nor rocprofv3 rocpd tables near its start; pass --format nsys-sqlite or --format rocpd-sqlite, or export it as CSV (nsys stats --format csv --output PREFIX x.sqlite; rocpd convert -i x.db --output-format csv)', 'byte 0');
    }
    const firstLine = file.head.split(/\r?\n/, 1)[0]?.slice(0, 60) ?? '';
    throw new errors/* InputError */.dz(file.path, `unrecognized capture format (starts with ${JSON.stringify(firstLine)}); expected one of ${FORMAT_IDS.join(', ')}, or pass --format NAME`, '1');
}
/**
 * The file as the importer sees it, stopped when `signal` aborts: its stream throws the signal's
 * reason at the next chunk, and text() before it reads or parses anything.
 */
function abortable(file, signal) {
    const check = () => {
        if (signal.aborted)
            throw signal.reason;
    };
    return {
        ...file,
        async text() {
            check();
            const text = await file.text();
            check();
            return text;
        },
        stream() {
            const source = file.stream();
            return external_node_stream_.Readable.from((async function* () {
                try {
                    for await (const chunk of source) {
                        check();
                        yield chunk;
                    }
                }
                finally {
                    source.destroy();
                }
            })());
        },
    };
}
/** Read one capture file: detect its format from its content (or take `format`), then import it. */
async function ingestFile(path, format, options = {}) {
    options.signal?.throwIfAborted();
    const opened = await (0,input_file/* openInput */.lt)(path);
    const file = options.signal ? abortable(opened, options.signal) : opened;
    if (file.sizeBytes === 0)
        throw new errors/* InputError */.dz(path, 'the file is empty; expected a capture');
    const importer = format ? importerFor(format) : detectFormat(file, options);
    return importer_runImporter(importer, file, options);
}
async function ingestText(path, text, format, options = {}) {
    const { inputFromText } = await Promise.resolve(/* import() */).then(__webpack_require__.bind(__webpack_require__, 73311));
    const file = inputFromText(path, text);
    const importer = format ? importerFor(format) : detectFormat(file);
    return runImporter(importer, file, options);
}

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
    const timed = captures.filter((c) => c.kernels.length > 0 && c.source.format !== 'ncu-csv');
    const setAside = new Set();
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
        notices.push({
            code: 'same-run-counted-once',
            severity: 'info',
            message: `${dropped.map((c) => c.source.path).join(', ')} ${dropped.length === 1 ? 'records' : 'record'} the same kernel launches as ${kept.source.path} (one run written twice); ${dropped.length === 1 ? 'it was' : 'they were'} set aside so the run counts once`,
        });
    }
    // Keep what was set aside out of the kernels only: its other contents (API calls, notices) are the run's too.
    return { captures: captures.map((c) => (setAside.has(c) ? { ...c, kernels: [], timeline: undefined } : c)), notices };
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
    if (capture.source.format === 'ncu-csv')
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

;// CONCATENATED MODULE: ./src/model/profile.ts
/**
 * The normalized profile: every capture of one run merged and classified. The Report (report.ts)
 * is this plus the diagnosis and the gate's decision.
 */



/** A kernel family as stored: a built-in id, or a user family's id (family-ids.ts). */
const KernelFamilySchema = schemas/* string */.YjP().transform(kernelFamily);
const KernelSchema = KernelStatSchema.extend({
    family: KernelFamilySchema,
    /** Share of all GPU kernel time in the profile, 0..1. */
    share: schemas/* number */.aig().min(0).max(1),
});
const FamilyShareSchema = schemas/* object */.Ikc({
    family: KernelFamilySchema,
    totalNs: schemas/* number */.aig().nonnegative(),
    share: schemas/* number */.aig().min(0).max(1),
    kernels: schemas/* number */.aig().int().nonnegative(),
    instances: schemas/* number */.aig().int().nonnegative(),
});
const MetricSchema = schemas/* object */.Ikc({
    name: schemas/* string */.YjP(),
    unit: schemas/* string */.YjP(),
    direction: schemas/* enum */.k5n(['higher', 'lower']),
    samples: schemas/* array */.YOg(schemas/* number */.aig()),
    /** The median of the samples. */
    value: schemas/* number */.aig(),
});
const UtilizationSchema = schemas/* object */.Ikc({
    /**
     * Which samples the mean and the throttle share are over: `timed`, the workload's own timed runs
     * (the samples inside the windows it reported); `active`, each recording less its idle start and end.
     */
    window: schemas/* enum */.k5n(['timed', 'active']).default('active'),
    /** Mean over the window. */
    meanPercent: schemas/* number */.aig().min(0).max(100),
    peakPercent: schemas/* number */.aig().min(0).max(100),
    /** Samples in the window. */
    sampleCount: schemas/* number */.aig().int().nonnegative(),
    /** Mean and count over every sample, start-up and tear-down included. */
    overallMeanPercent: schemas/* number */.aig().min(0).max(100),
    totalSampleCount: schemas/* number */.aig().int().nonnegative(),
    devices: schemas/* number */.aig().int().nonnegative(),
    /** Hardware clock-event reasons seen in any sample (gpu_idle and settings excluded). */
    throttleReasons: schemas/* array */.YOg(schemas/* string */.YjP()),
    /** Share of samples with at least one hardware throttle reason, 0..1. */
    throttledFraction: schemas/* number */.aig().min(0).max(1),
    meanSmClockMhz: schemas/* number */.aig().optional(),
    peakPowerW: schemas/* number */.aig().optional(),
});
/**
 * One rank of a distributed job (or one device of a capture that holds several): its own kernel
 * breakdown and timeline, so that ranks are compared rather than summed.
 */
const RankSchema = schemas/* object */.Ikc({
    /** The rank from the trace's `distributedInfo`; absent for a device split of one capture. */
    rank: schemas/* number */.aig().int().nonnegative().optional(),
    device: schemas/* number */.aig().int().optional(),
    host: schemas/* string */.YjP().optional(),
    worldSize: schemas/* number */.aig().int().positive().optional(),
    backend: schemas/* string */.YjP().optional(),
    /** The input files this rank's numbers come from. */
    sources: schemas/* array */.YOg(schemas/* string */.YjP()).default([]),
    totalKernelNs: schemas/* number */.aig().nonnegative(),
    families: schemas/* array */.YOg(FamilyShareSchema),
    timeline: TimelineSchema.nullable(),
});
const ProfileSchema = schemas/* object */.Ikc({
    sources: schemas/* array */.YOg(SourceSchema),
    environment: EnvironmentSchema,
    totalKernelNs: schemas/* number */.aig().nonnegative(),
    kernels: schemas/* array */.YOg(KernelSchema),
    families: schemas/* array */.YOg(FamilyShareSchema),
    memops: schemas/* array */.YOg(MemopStatSchema),
    apiCalls: schemas/* array */.YOg(ApiStatSchema),
    metrics: schemas/* array */.YOg(MetricSchema),
    utilization: UtilizationSchema.nullable(),
    timeline: TimelineSchema.nullable(),
    cpuFunctions: schemas/* array */.YOg(CpuFunctionSchema),
    notices: schemas/* array */.YOg(NoticeSchema),
    ncu: schemas/* array */.YOg(NcuResultSchema),
    gpuTimeUtilPercent: schemas/* number */.aig().min(0).max(100).nullable(),
    /** Per rank (or per device), in rank order; empty when the inputs are one undivided capture. */
    ranks: schemas/* array */.YOg(RankSchema).default([]),
    /**
     * Where the kernel rows come from: a breakdown of the run (nsys, Kineto, rocprof, MAX), or only the
     * few launches an Nsight Compute deep dive replayed, which say nothing about the run's mix.
     */
    kernelOrigin: schemas/* enum */.k5n(['breakdown', 'deep-dive']).optional(),
});

;// CONCATENATED MODULE: ./src/model/report.ts
/**
 * The report: the public, versioned contract that the gate, the dashboard and users' scripts read.
 * Bump REPORT_SCHEMA_VERSION on any change that an old reader would misread, and migrate forward.
 */



const REPORT_SCHEMA_VERSION = 1;
/** The file name of a report wherever one is written or looked for (folders, artifacts). */
const REPORT_FILE = 'report.json';
const SeveritySchema = schemas/* enum */.k5n(['info', 'warning', 'error']);
/** A finding's request for an Nsight Compute deep dive on one kernel; `command` is its rendering. */
const DeepDiveRequestSchema = schemas/* object */.Ikc({
    /** The kernel as the breakdown names it. */
    kernel: schemas/* string */.YjP(),
    /** Its normalized key, the same for every tool's spelling of the kernel. */
    kernelKey: schemas/* string */.YjP(),
    /** ncu's `--kernel-name regex:` filter, and whether it needs `--kernel-name-base demangled`. */
    nameRegex: schemas/* string */.YjP(),
    demangled: schemas/* boolean */.zMY(),
    launchSkip: schemas/* number */.aig().int().nonnegative(),
    launchCount: schemas/* number */.aig().int().positive(),
    sections: schemas/* array */.YOg(schemas/* string */.YjP()),
});
const FindingSchema = schemas/* object */.Ikc({
    id: schemas/* string */.YjP(),
    severity: SeveritySchema,
    title: schemas/* string */.YjP(),
    /** One or two sentences with the numbers filled in. */
    message: schemas/* string */.YjP(),
    /** The numbers that triggered the rule, named. */
    evidence: schemas/* record */.g1P(schemas/* string */.YjP(), schemas/* union */.KCZ([schemas/* number */.aig(), schemas/* string */.YjP(), schemas/* boolean */.zMY()])),
    advice: schemas/* string */.YjP(),
    /** The exact next command to run, where there is one. */
    command: schemas/* string */.YjP().optional(),
    docs: schemas/* string */.YjP(),
    /** Reported below a primary finding that explains the run better (e.g. kernel findings on a host-bound run). */
    secondary: schemas/* boolean */.zMY().default(false),
    /** The kernel the finding is about, where it is about one. */
    kernel: schemas/* string */.YjP().optional(),
    /** The deep dive the finding asks for, as data (`profile-gate run` runs it; `command` shows it). */
    deepDive: DeepDiveRequestSchema.optional(),
    /** The evidence the finding rests on, each with its coverage ("kernel breakdown: 1,963 launches …"). */
    basis: schemas/* array */.YOg(schemas/* string */.YjP()).default([]),
});
const VerdictSchema = schemas/* enum */.k5n(['pass', 'warn', 'fail', 'insufficient-data', 'invalid']);
const RowStatusSchema = schemas/* enum */.k5n(['pass', 'improved', 'warn', 'fail', 'insufficient-data', 'info']);
const ComparisonRowSchema = schemas/* object */.Ikc({
    /** `decode_tok_s`, `family:gemv`, `kernel:<name>`, `finding:re-prefill` … */
    metric: schemas/* string */.YjP(),
    kind: schemas/* enum */.k5n(['metric', 'family-share', 'kernel-share', 'finding']),
    unit: schemas/* string */.YjP(),
    direction: schemas/* enum */.k5n(['higher', 'lower']).optional(),
    baseline: schemas/* number */.aig().nullable(),
    current: schemas/* number */.aig().nullable(),
    /** Relative change for metrics (0.05 = +5%), percentage points for shares. */
    delta: schemas/* number */.aig().nullable(),
    /** Confidence interval of the delta, same unit as delta. */
    ci: schemas/* tuple */.PVZ([schemas/* number */.aig(), schemas/* number */.aig()]).nullable(),
    threshold: schemas/* number */.aig().nullable(),
    pValue: schemas/* number */.aig().nullable().optional(),
    samples: schemas/* tuple */.PVZ([schemas/* number */.aig().int(), schemas/* number */.aig().int()]).optional(),
    status: RowStatusSchema,
    note: schemas/* string */.YjP().optional(),
});
const KernelChangeSchema = schemas/* object */.Ikc({
    name: schemas/* string */.YjP(),
    family: KernelFamilySchema,
    change: schemas/* enum */.k5n(['added', 'removed', 'increased', 'decreased']),
    baselineNs: schemas/* number */.aig(),
    currentNs: schemas/* number */.aig(),
    deltaNs: schemas/* number */.aig(),
});
const ComparisonSchema = schemas/* object */.Ikc({
    baseline: schemas/* object */.Ikc({
        origin: schemas/* string */.YjP(),
        path: schemas/* string */.YjP().optional(),
        generatedAt: schemas/* string */.YjP().optional(),
        reason: schemas/* string */.YjP(),
    }),
    environmentMismatch: schemas/* array */.YOg(schemas/* string */.YjP()).default([]),
    rows: schemas/* array */.YOg(ComparisonRowSchema),
    kernelChanges: schemas/* array */.YOg(KernelChangeSchema).default([]),
    newFindings: schemas/* array */.YOg(schemas/* string */.YjP()).default([]),
    resolvedFindings: schemas/* array */.YOg(schemas/* string */.YjP()).default([]),
    reasons: schemas/* array */.YOg(schemas/* string */.YjP()).default([]),
    /** Gated metrics that more runs could decide (the sides overlap, or too few or not significant samples). */
    undecided: schemas/* array */.YOg(schemas/* string */.YjP()).default([]),
    /** An adaptive A/B run: which look this comparison is and the alpha it tested at. */
    look: schemas/* object */.Ikc({ index: schemas/* number */.aig().int().positive(), of: schemas/* number */.aig().int().positive(), alpha: schemas/* number */.aig() }).optional(),
    /** The noise between jobs estimated from the default branch's recent reports (artifact baselines). */
    betweenJobs: schemas/* object */.Ikc({
        reports: schemas/* number */.aig().int().nonnegative(),
        /** Per metric: the robust sd of the per-job medians, as a fraction (0.018 = ±1.8%), and the floor used. */
        metrics: schemas/* array */.YOg(schemas/* object */.Ikc({ metric: schemas/* string */.YjP(), spread: schemas/* number */.aig().nonnegative(), floor: schemas/* number */.aig().nonnegative() })),
    })
        .optional(),
    /** The baseline's samples of each compared metric, in run order (the current's are in metrics). */
    baselineSamples: schemas/* record */.g1P(schemas/* string */.YjP(), schemas/* array */.YOg(schemas/* number */.aig())).optional(),
});
const RunInfoSchema = schemas/* object */.Ikc({
    /** A stable name for the workload (model × GPU × config); the dashboard groups by it. */
    workload: schemas/* string */.YjP().optional(),
    commit: schemas/* string */.YjP().optional(),
    ref: schemas/* string */.YjP().optional(),
    repository: schemas/* string */.YjP().optional(),
    runId: schemas/* string */.YjP().optional(),
    runUrl: schemas/* string */.YjP().optional(),
    timestamp: schemas/* string */.YjP().optional(),
});
const ReportSchema = schemas/* object */.Ikc({
    schemaVersion: schemas/* literal */.euz(REPORT_SCHEMA_VERSION),
    tool: schemas/* object */.Ikc({ name: schemas/* literal */.euz('profile-gate'), version: schemas/* string */.YjP() }),
    generatedAt: schemas/* string */.YjP(),
    run: RunInfoSchema.default({}),
    environment: EnvironmentSchema,
    sources: schemas/* array */.YOg(SourceSchema),
    totalKernelNs: schemas/* number */.aig().nonnegative(),
    kernels: schemas/* array */.YOg(KernelSchema),
    families: schemas/* array */.YOg(FamilyShareSchema),
    metrics: schemas/* array */.YOg(MetricSchema),
    utilization: UtilizationSchema.nullable(),
    timeline: TimelineSchema.nullable(),
    gpuTimeUtilPercent: schemas/* number */.aig().nullable(),
    memops: schemas/* array */.YOg(MemopStatSchema),
    apiCalls: schemas/* array */.YOg(ApiStatSchema),
    cpuFunctions: schemas/* array */.YOg(CpuFunctionSchema),
    notices: schemas/* array */.YOg(NoticeSchema),
    deepDive: schemas/* array */.YOg(NcuResultSchema),
    findings: schemas/* array */.YOg(FindingSchema),
    verdict: VerdictSchema,
    comparison: ComparisonSchema.nullable(),
    ranks: schemas/* array */.YOg(RankSchema).default([]),
});

;// CONCATENATED MODULE: ./src/version.ts
/** The product version written into every report; kept in step with package.json by a test. */
const TOOL_VERSION = '0.1.0';

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
    let firstError;
    for (const input of inputs) {
        reading?.(input);
        try {
            captures.push(await ingestFile(input, format, options));
        }
        catch (error) {
            if (!(error instanceof errors/* InputError */.dz) || !skippable.has(input) || options.signal?.aborted)
                throw error;
            firstError ??= error;
            notices.push({ code: 'unreadable-input', severity: 'warning', message: `skipped ${error.message} (pass --strict to fail instead)` });
        }
    }
    if (captures.length === 0 && firstError)
        throw firstError;
    return { captures, notices };
}
/** The error of an analysis past its time budget: names the file it was reading. */
function pastBudget(seconds, reading, inputs) {
    const budget = `expected the analysis to finish within ${seconds} s (the analyze time budget)`;
    if (reading)
        return new errors/* InputError */.dz(reading, `${budget}; it was stopped while reading this file`);
    return new errors/* UsageError */.eb(`${budget}; it was stopped after reading all ${inputs} input(s)`);
}
async function withTimeBudget(timeoutMs, inputs, work) {
    const controller = new AbortController();
    let current;
    let timer;
    const expired = new Promise((_, reject) => {
        timer = setTimeout(() => {
            const error = pastBudget(Math.round(timeoutMs) / 1000, current, inputs);
            controller.abort(error);
            reject(error);
        }, timeoutMs);
    });
    const running = work(controller.signal, (path) => (current = path));
    running.catch(() => undefined);
    try {
        return await Promise.race([running, expired]);
    }
    finally {
        clearTimeout(timer);
    }
}
function reportFromProfile(profile, options) {
    const findings = runRules(profile, options.diagnose);
    const environment = { ...profile.environment, ...(options.environment ?? {}) };
    const current = { ...profile, findings, environment };
    const baseline = options.baseline
        ? {
            ...options.baseline.report,
            origin: { origin: options.baseline.origin, reason: options.baseline.reason, ...(options.baseline.path ? { path: options.baseline.path } : {}) },
        }
        : null;
    const look = options.baseline?.look;
    const gate = compare(current, baseline, { ...(options.gate ?? {}), ...(options.failOn ? { failOn: [...options.failOn] } : {}), ...(look && look.of > 1 ? { look } : {}) }, options.baseline?.history ? { history: options.baseline.history } : {});
    const report = {
        schemaVersion: REPORT_SCHEMA_VERSION,
        tool: { name: 'profile-gate', version: TOOL_VERSION },
        generatedAt: (options.now ?? (() => new Date()))().toISOString(),
        run: options.run ?? {},
        environment,
        sources: profile.sources,
        totalKernelNs: profile.totalKernelNs,
        kernels: profile.kernels,
        families: profile.families,
        metrics: profile.metrics,
        utilization: profile.utilization,
        timeline: profile.timeline,
        gpuTimeUtilPercent: profile.gpuTimeUtilPercent,
        memops: profile.memops,
        apiCalls: profile.apiCalls,
        cpuFunctions: profile.cpuFunctions,
        notices: profile.notices,
        deepDive: profile.ncu,
        findings,
        verdict: gate.verdict,
        comparison: gate.comparison && baseline ? { ...gate.comparison, baselineSamples: comparedSamples(gate.comparison, baseline.metrics) } : gate.comparison,
        ranks: profile.ranks,
    };
    return ReportSchema.parse(report);
}
/** The baseline's samples of the metrics the comparison has a row for: what its charts draw. */
function comparedSamples(comparison, metrics) {
    const compared = new Set(comparison.rows.filter((r) => r.kind === 'metric').map((r) => r.metric));
    return Object.fromEntries(metrics.filter((m) => compared.has(m.name)).map((m) => [m.name, [...m.samples]]));
}
async function analyze(options) {
    const build = async (signal, reading) => {
        const classify = createClassifier(options.families);
        const isCollective = (name) => classify({ name }) === 'collective';
        const ingest = { ...(options.ingest ?? {}), isCollective, ...(signal ? { signal } : {}) };
        const read = await ingestReadable(options.inputs, options.format, options.skippable, ingest, reading);
        reading?.(undefined);
        signal?.throwIfAborted();
        const once = countEachRunOnce(read.captures);
        const mixed = checkMergeable(once.captures, options.allowMixed ?? false);
        const profile = buildProfile(once.captures, classify, [...read.notices, ...once.notices, ...mixed]);
        return reportFromProfile(profile, options);
    };
    if (options.timeoutMs === undefined)
        return build();
    return withTimeBudget(options.timeoutMs, options.inputs.length, build);
}

// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(48161);
;// CONCATENATED MODULE: ./src/report/markdown/annotations.ts


const ANNOTATION_LIMITS = { perLevel: 10, messageChars: 4096, titleChars: 200 };
function annotationFor(finding, label) {
    const lines = [finding.message, `Next: ${finding.advice}`];
    if (finding.command)
        lines.push(`Run: ${finding.command}`);
    const where = label ? ` [${label}]` : '';
    return {
        level: finding.severity === 'error' ? 'error' : 'warning',
        title: plainText(`profile-gate${where}: ${finding.title} (${finding.id})`, ANNOTATION_LIMITS.titleChars).replace(/\n/g, ' '),
        message: plainText(lines.join('\n'), ANNOTATION_LIMITS.messageChars),
    };
}
function buildAnnotations(entries, options = {}) {
    const perLevel = Math.max(1, Math.min(options.perLevel ?? 5, ANNOTATION_LIMITS.perLevel - 1));
    const labelled = entries.length > 1;
    const out = [];
    for (const level of ['error', 'warning']) {
        const found = entries.flatMap((entry) => orderFindings(entry.report.findings)
            .filter((f) => f.severity === level)
            .map((finding) => ({ finding, label: labelled ? entry.label : undefined })));
        // Primary findings of every report before any secondary one.
        found.sort((a, b) => Number(a.finding.secondary) - Number(b.finding.secondary));
        for (const { finding, label } of found.slice(0, perLevel))
            out.push(annotationFor(finding, label));
        if (found.length > perLevel) {
            out.push({
                level,
                title: `profile-gate: ${found.length - perLevel} more ${level} findings`,
                message: plainText(`Not annotated: ${found.slice(perLevel).map((f) => f.finding.id).join(', ')}. See the job summary.`, ANNOTATION_LIMITS.messageChars),
            });
        }
    }
    return out;
}

;// CONCATENATED MODULE: ./src/report/json.ts
/** report.json: validated against the schema before it is written, so a broken report never ships. */

const EMPTY_KERNELS = '\n  "kernels": []';
/** Characters JSON.stringify escapes in a string: quote, backslash, controls, lone surrogates. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
/** Strings at least this long are referenced in place rather than copied into the text around them. */
const SHARED_MIN = 64;
const KERNEL_INDENT = '\n      ';
/**
 * The kernels, each validated, as JSON.stringify(…, null, 2) writes them two levels down; false when
 * one is invalid. A long string value (a kernel name) goes into `parts` as the report's own string
 * and the text between such values is joined per kernel, so the pieces cost the formatting, not a
 * second copy of every name.
 */
function pushKernels(parts, kernels) {
    const schema = ReportSchema.shape.kernels.element;
    // `{\n      "name": ` and `,\n      "totalNs": `, made once per key.
    const keyText = new Map();
    const keyed = (key, first) => {
        const id = first ? `{${key}` : key;
        let text = keyText.get(id);
        if (text === undefined)
            keyText.set(id, (text = `${first ? '{' : ','}${KERNEL_INDENT}${JSON.stringify(key)}: `));
        return text;
    };
    let pending = [];
    const flush = () => {
        parts.push(pending.join(''));
        pending = [];
    };
    for (let i = 0; i < kernels.length; i++) {
        const parsed = schema.safeParse(kernels[i]);
        if (!parsed.success)
            return false;
        const kernel = parsed.data;
        pending.push(i === 0 ? '[\n    ' : ',\n    ');
        let first = true;
        for (const key of Object.keys(kernel)) {
            const value = kernel[key];
            if (value === undefined || typeof value === 'function' || typeof value === 'symbol')
                continue;
            pending.push(keyed(key, first));
            first = false;
            if (typeof value === 'string' && value.length >= SHARED_MIN && !NEEDS_ESCAPE.test(value)) {
                pending.push('"');
                flush();
                parts.push(value);
                pending.push('"');
            }
            else if (typeof value === 'object' && value !== null) {
                pending.push(JSON.stringify(value, null, 2).replaceAll('\n', KERNEL_INDENT));
            }
            else {
                pending.push(JSON.stringify(value));
            }
        }
        pending.push(first ? '{}' : '\n    }');
        flush();
    }
    parts.push(kernels.length > 0 ? '\n  ]' : '[]');
    return true;
}
/**
 * The text of `JSON.stringify(ReportSchema.parse(report), null, 2)` plus a newline, built so that a
 * report of 100,000 kernels costs little more than its text: each kernel is validated on its own
 * (a parsed copy of the list would sit next to the text), the pieces point at the report's own
 * names, and one join makes a flat string (not a rope that its first reader copies once more).
 */
function serializeReport(report) {
    const whole = () => `${JSON.stringify(ReportSchema.parse(report), null, 2)}\n`;
    const rest = ReportSchema.safeParse({ ...report, kernels: [] });
    // A broken report is refused with the error a whole-report parse gives.
    if (!rest.success || !Array.isArray(report.kernels))
        return whole();
    const text = JSON.stringify(rest.data, null, 2);
    // Strings in JSON hold no raw line break, so this line is the top-level key.
    const open = text.indexOf(EMPTY_KERNELS) + EMPTY_KERNELS.length - 2;
    const parts = [text.slice(0, open)];
    if (!pushKernels(parts, report.kernels))
        return whole();
    parts.push(text.slice(open + 2), '\n');
    return parts.join('');
}

;// CONCATENATED MODULE: ./src/report/markdown/summary.ts





/** GitHub's per-step summary limit. */
const SUMMARY_LIMIT_BYTES = 1024 * 1024;
/** What we allow ourselves, leaving room for anything else the step appends. */
const SUMMARY_BUDGET_BYTES = SUMMARY_LIMIT_BYTES - 64 * 1024;
function title(entry) {
    return `profile-gate: ${reportVerdictLine(entry.report)} · ${safeText(entry.label, 100)}`;
}
function renderSummary(report, options = {}) {
    const entry = {
        label: options.label ?? merge_reports_labelFor(report, 'profile'),
        report,
        ...(options.artifact ? { artifact: options.artifact } : {}),
        ...(options.baselineNote ? { baselineNote: options.baselineNote } : {}),
    };
    return renderMergedSummary(merge_reports_mergeReports([entry]), options);
}
function decodeCell(entry) {
    const metric = entry.report.metrics.find((m) => m.name === 'decode_tok_s');
    if (!metric)
        return '—';
    const row = entry.report.comparison?.rows.find((r) => r.metric === 'decode_tok_s' && r.delta !== null);
    return `${formatNumber(metric.value)}${row ? ` (${formatSigned(row.delta * 100, '%')})` : ''}`;
}
/** One row per report: verdict, findings, alerts and decode throughput. */
function legsTable(merged, budget, measure) {
    const rows = merged.entries.map((entry) => {
        const errors = entry.report.findings.filter((f) => f.severity === 'error').length;
        const warnings = entry.report.findings.filter((f) => f.severity === 'warning').length;
        const alerts = entry.report.comparison?.rows.filter(isAlert).length ?? 0;
        return `| ${safeText(entry.label, 80)} | ${verdictLine(entry.report.verdict)} | ${errors} errors, ${warnings} warnings | ${entry.report.comparison ? alerts : 'no baseline'} | ${decodeCell(entry)} |`;
    });
    const header = ['| report | verdict | findings | alerts | decode tok/s (Δ) |', '|---|---|---|---:|---:|'];
    return [...header, ...fitRows(rows, budget, measure, 'reports in the artifacts')].join('\n');
}
function countsText(merged) {
    return Object.entries(merged.counts)
        .filter(([, n]) => n > 0)
        .map(([verdict, n]) => `${n} ${verdict}`)
        .join(', ');
}
function renderMergedSummary(merged, options = {}) {
    const budget = options.budgetBytes ?? SUMMARY_BUDGET_BYTES;
    const links = options.links ?? {};
    if (merged.entries.length === 0) {
        return `## profile-gate: ${verdictLine(merged.verdict)}\n\nNo report was found to summarize.\n`;
    }
    if (merged.entries.length === 1) {
        const entry = merged.entries[0];
        const reasons = reasonsBlock(entry.report);
        const head = [`## ${title(entry)}`, noBaselineBanner(entry), reasons].filter(Boolean).join('\n\n');
        const tail = artifactsSection([entry], links, '###');
        const block = {
            render: (d) => entrySections(entry, d, '###', { charts: true }),
            minimal: () => 'Details omitted to stay within the job summary size limit; see report.md in the artifact.',
        };
        return `${fitBlocks(head, [block], tail, budget, utf8Bytes)}\n`;
    }
    const head = [
        `## profile-gate: ${verdictLine(merged.verdict)} · ${merged.entries.length} reports (${countsText(merged)})`,
        legsTable(merged, budget * 0.25, utf8Bytes),
    ].join('\n\n');
    const blocks = merged.entries.map((entry) => ({
        render: (d) => {
            const artifact = artifactLine(entry);
            return [`### ${verdictLine(entry.report.verdict)} · ${safeText(entry.label, 100)}`, reasonsBlock(entry.report), entrySections(entry, d, '####', { charts: true }), artifact ? `Artifact: ${artifact}` : '']
                .filter(Boolean)
                .join('\n\n');
        },
        minimal: () => `### ${verdictLine(entry.report.verdict)} · ${safeText(entry.label, 100)}\n\nDetails omitted to stay within the size limit; see its artifact.`,
    }));
    const tail = links.runUrl ? `${safeLink('Workflow run', links.runUrl)}: every report artifact of the run.` : '';
    return `${fitBlocks(head, blocks, tail, budget, utf8Bytes)}\n`;
}

;// CONCATENATED MODULE: ./src/model/migrate.ts
/**
 * Reading a report.json of any schema version as the current Report. Reports outlive the tool that
 * wrote them (a baseline artifact from last month, a dashboard's history), so older versions are
 * migrated forward one step at a time, and a newer version is refused with what to do about it,
 * never misread. A bump of REPORT_SCHEMA_VERSION comes with an entry in MIGRATIONS.
 *
 * Version 0 (the pre-release shape, documented here as the migration pattern; no release wrote it):
 *   { schemaVersion: 0, tool: "profile-gate 0.0.9", generatedAt, environment, sources,
 *     totalKernelTimeNs, kernels: [{ name, family, totalTimeNs, instances, share }], families,
 *     metrics, utilization?, timeline?, findings, verdict, comparison? }
 * Differences from version 1: the tool is one string; kernel and total times are `…TimeNs`; there
 * are no run info, memops, API calls, CPU functions, notices or Nsight Compute results; optional
 * sections are absent instead of null. Migrating adds the empty sections and renames the fields.
 */


function migrate_isRecord(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function v0ToV1(data) {
    const { tool, totalKernelTimeNs, kernels, ...rest } = data;
    const toolText = typeof tool === 'string' ? tool : '';
    const version = /(\d+\.\d+\.\d+\S*)/.exec(toolText)?.[1] ?? '0.0.0';
    return {
        run: {},
        memops: [],
        apiCalls: [],
        cpuFunctions: [],
        notices: [],
        deepDive: [],
        ...rest,
        schemaVersion: 1,
        tool: { name: 'profile-gate', version },
        totalKernelNs: totalKernelTimeNs,
        kernels: Array.isArray(kernels)
            ? kernels.map((kernel) => {
                if (!migrate_isRecord(kernel))
                    return kernel;
                const { totalTimeNs, ...others } = kernel;
                return { ...others, totalNs: totalTimeNs };
            })
            : kernels,
        utilization: rest['utilization'] ?? null,
        timeline: rest['timeline'] ?? null,
        gpuTimeUtilPercent: rest['gpuTimeUtilPercent'] ?? null,
        comparison: rest['comparison'] ?? null,
    };
}
/** MIGRATIONS[n] turns a version-n report into a version-(n+1) one. */
const MIGRATIONS = {
    0: v0ToV1,
};
/** The writer's version for a message: the tool version it recorded, else its schema version. */
function writer(data, version) {
    const tool = data['tool'];
    const named = migrate_isRecord(tool) ? tool['version'] : typeof tool === 'string' ? tool : undefined;
    return typeof named === 'string' && named.length <= 40 ? named : `schemaVersion ${version}`;
}
/**
 * A parsed report.json (of any version) as the current Report; `path` names it in errors. Throws an
 * InputError for something that is not a report, a report from a newer profile-gate, or one that
 * does not hold up against the schema after migration.
 */
function migrateReport(data, path) {
    if (!migrate_isRecord(data)) {
        throw new errors/* InputError */.dz(path, `expected a profile-gate report.json (a JSON object), got ${Array.isArray(data) ? 'an array' : data === null ? 'null' : typeof data}`);
    }
    const version = data['schemaVersion'];
    if (typeof version !== 'number' || !Number.isInteger(version) || version < 0) {
        throw new errors/* InputError */.dz(path, `expected a profile-gate report.json with a whole-number schemaVersion, got ${version === undefined ? 'none' : JSON.stringify(version)?.slice(0, 40)}`);
    }
    if (version > REPORT_SCHEMA_VERSION) {
        throw new errors/* InputError */.dz(path, `expected schemaVersion ≤ ${REPORT_SCHEMA_VERSION}; this report was written by a newer profile-gate (${writer(data, version)}); upgrade`);
    }
    let current = data;
    for (let from = version; from < REPORT_SCHEMA_VERSION; from++) {
        const step = MIGRATIONS[from];
        if (!step)
            throw new errors/* InputError */.dz(path, `expected schemaVersion ${REPORT_SCHEMA_VERSION} or a version that can be migrated, got ${version}`);
        current = step(current);
    }
    const parsed = ReportSchema.safeParse(current);
    if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue.path.length ? issue.path.join('.') : 'the top level';
        const migrated = version < REPORT_SCHEMA_VERSION ? ` (migrated from schemaVersion ${version})` : '';
        throw new errors/* InputError */.dz(path, `expected a profile-gate report.json (schemaVersion ${REPORT_SCHEMA_VERSION})${migrated}; at ${where}: ${issue.message}`);
    }
    return parsed.data;
}

// EXTERNAL MODULE: external "node:zlib"
var external_node_zlib_ = __webpack_require__(38522);
;// CONCATENATED MODULE: ./src/github/zip-reader.ts
/**
 * Reading chosen files out of a zip archive (a downloaded workflow artifact) through its central
 * directory: stored and deflated entries, sizes capped before and while inflating, CRC-32 checked.
 * The archive is untrusted: every offset is bounds-checked, and ZIP64 and encryption are refused.
 * Inflating is node:zlib's; only the directory walk is ours, because the caps must hold per entry,
 * in total and in entry count before any byte is inflated, and the zip libraries on npm either
 * extract to disk (unzip-stream, extract-zip) or trust the declared sizes for their buffers.
 */

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_ENTRY = 0x02014b50;
const LOCAL_ENTRY = 0x04034b50;
const CRC_TABLE = (() => {
    const table = new Uint32Array(256);
    for (let n = 0; n < 256; n += 1) {
        let c = n;
        for (let k = 0; k < 8; k += 1)
            c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
        table[n] = c >>> 0;
    }
    return table;
})();
function crc32(data) {
    let c = 0xffffffff;
    for (let i = 0; i < data.length; i += 1)
        c = CRC_TABLE[(c ^ data[i]) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
}
class ZipError extends Error {
    name = 'ZipError';
}
function need(zip, at, length, what) {
    if (at < 0 || at + length > zip.length)
        throw new ZipError(`${what} at byte ${at} runs past the end of the archive (${zip.length} bytes)`);
}
/** The end-of-central-directory record: within the last 64 KiB + 22 bytes (its comment is at most 64 KiB). */
function findEnd(zip) {
    for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at -= 1) {
        if (zip.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY)
            return at;
    }
    throw new ZipError('not a zip archive: no end-of-central-directory record');
}
/**
 * The entries whose name passes `wanted`, inflated one at a time as the caller asks for the next,
 * so at most one entry's data is held here. Every cap is checked before inflating and while
 * inflating: a small archive cannot inflate into gigabytes, and entries that share one stored
 * body (a directory of 65,000 names pointing at the same data) are refused at the second name.
 */
function* zipEntries(zip, wanted, caps) {
    if (zip.length < 22)
        throw new ZipError(`not a zip archive: ${zip.length} bytes`);
    const end = findEnd(zip);
    const count = zip.readUInt16LE(end + 10);
    let at = zip.readUInt32LE(end + 16);
    if (count === 0xffff || at === 0xffffffff)
        throw new ZipError('ZIP64 archives are not supported');
    if (count > caps.maxEntries)
        throw new ZipError(`${count} entries; expected at most ${caps.maxEntries}`);
    const bodies = new Set();
    let total = 0;
    for (let i = 0; i < count; i += 1) {
        need(zip, at, 46, 'a central directory entry');
        if (zip.readUInt32LE(at) !== CENTRAL_ENTRY)
            throw new ZipError(`bad central directory entry at byte ${at}`);
        const flags = zip.readUInt16LE(at + 8);
        const method = zip.readUInt16LE(at + 10);
        const crc = zip.readUInt32LE(at + 16);
        const compressedSize = zip.readUInt32LE(at + 20);
        const size = zip.readUInt32LE(at + 24);
        const nameLength = zip.readUInt16LE(at + 28);
        const extraLength = zip.readUInt16LE(at + 30);
        const commentLength = zip.readUInt16LE(at + 32);
        const localAt = zip.readUInt32LE(at + 42);
        need(zip, at + 46, nameLength, 'an entry name');
        const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
        at += 46 + nameLength + extraLength + commentLength;
        if (name.endsWith('/') || !wanted(name))
            continue;
        if (flags & 1)
            throw new ZipError(`${name}: encrypted entries are not supported`);
        if (compressedSize === 0xffffffff || size === 0xffffffff)
            throw new ZipError(`${name}: ZIP64 entries are not supported`);
        if (size > caps.maxEntryBytes)
            throw new ZipError(`${name}: ${size} bytes uncompressed; expected at most ${caps.maxEntryBytes}`);
        if (total + size > caps.maxTotalBytes)
            throw new ZipError(`${name}: the entries read add up to more than ${caps.maxTotalBytes} bytes uncompressed; stopped reading`);
        if (bodies.has(localAt))
            throw new ZipError(`${name}: shares its data at byte ${localAt} with another entry; a well-formed archive stores each file once`);
        bodies.add(localAt);
        need(zip, localAt, 30, `the local header of ${name}`);
        if (zip.readUInt32LE(localAt) !== LOCAL_ENTRY)
            throw new ZipError(`${name}: bad local header at byte ${localAt}`);
        const dataAt = localAt + 30 + zip.readUInt16LE(localAt + 26) + zip.readUInt16LE(localAt + 28);
        need(zip, dataAt, compressedSize, `the data of ${name}`);
        const raw = zip.subarray(dataAt, dataAt + compressedSize);
        let data;
        if (method === 0)
            data = Buffer.from(raw);
        else if (method === 8) {
            try {
                data = (0,external_node_zlib_.inflateRawSync)(raw, { maxOutputLength: Math.max(1, Math.min(caps.maxEntryBytes, caps.maxTotalBytes - total)) });
            }
            catch (error) {
                throw new ZipError(`${name}: cannot inflate it within ${Math.min(caps.maxEntryBytes, caps.maxTotalBytes - total)} bytes (${error.message})`);
            }
        }
        else
            throw new ZipError(`${name}: compression method ${method}; expected stored (0) or deflate (8)`);
        if (data.length !== size)
            throw new ZipError(`${name}: ${data.length} bytes inflated; the directory says ${size}`);
        if (crc32(data) !== crc)
            throw new ZipError(`${name}: CRC-32 mismatch; the archive is corrupt`);
        total += data.length;
        yield { name, data };
    }
}
/** Every wanted entry at once, for small archives; `maxEntryBytes` bounds each and their sum. */
function readZipEntries(zip, wanted, maxEntryBytes, caps = {}) {
    return [...zipEntries(zip, wanted, { maxEntries: 100_000, maxEntryBytes, maxTotalBytes: maxEntryBytes * 4, ...caps })];
}

;// CONCATENATED MODULE: ./src/github/report-artifacts.ts
/**
 * Reports out of downloaded artifact zips: untrusted bytes (a fork's workflow may have written them)
 * read within the limits, one report at a time. Each report.json is size-capped, JSON-parsed and
 * migrated or refused (a newer schema says so); the caller reduces it before asking for the next.
 */




/** What lets a later workflow find the PR a report belongs to (written beside report.json). */
const CONTEXT_FILE = 'context.json';
const MAX_CONTEXT_BYTES = 64 * 1024;
const named = (file) => (name) => name === file || name.endsWith(`/${file}`);
function parseReport(data, source) {
    let json;
    try {
        json = JSON.parse(data.toString('utf8'));
    }
    catch (error) {
        throw new errors/* InputError */.dz(source, `expected JSON, got ${error.message}`);
    }
    return migrateReport(json, source);
}
function folderOf(path) {
    const at = path.lastIndexOf('/');
    return at < 0 ? '' : path.slice(0, at + 1);
}
/**
 * The reports in one artifact zip, one at a time. A broken archive or a broken cap throws a
 * ZipError (the artifact as a whole is unreadable); a report that does not parse is yielded as an error.
 */
function* reportsInZip(zip, source, limits) {
    const caps = { maxEntries: limits.maxEntries, maxEntryBytes: limits.maxReportBytes, maxTotalBytes: limits.maxUnzippedBytes };
    const contexts = new Map();
    for (const entry of zipEntries(zip, named(CONTEXT_FILE), { ...caps, maxEntryBytes: MAX_CONTEXT_BYTES, maxTotalBytes: MAX_CONTEXT_BYTES * 16 })) {
        try {
            contexts.set(folderOf(entry.name), JSON.parse(entry.data.toString('utf8')));
        }
        catch {
            // An unreadable context.json only costs the PR lookup; the report is still read.
        }
    }
    for (const entry of zipEntries(zip, named(REPORT_FILE), caps)) {
        const path = `${source}/${entry.name}`;
        try {
            const report = parseReport(entry.data, path);
            const context = contexts.get(folderOf(entry.name));
            yield { path, report, ...(context !== undefined ? { context } : {}) };
        }
        catch (error) {
            if (!(error instanceof errors/* InputError */.dz))
                throw error;
            yield { path, error: error.expected };
        }
    }
}
/** One line for an artifact that could not be read at all. */
function unreadableReason(error) {
    if (error instanceof ZipError)
        return `not a readable zip: ${error.message}`;
    if (error instanceof errors/* InputError */.dz)
        return error.expected;
    return error.message;
}

;// CONCATENATED MODULE: ./src/github/sticky-comment.ts
function isOurs(login, author) {
    if (!login)
        return false;
    const a = author.toLowerCase();
    const l = login.toLowerCase();
    return l === a || l === `${a}[bot]`;
}
async function upsertStickyComment(client, target, body, options) {
    if (!body.startsWith(options.marker))
        throw new Error('internal error: the comment body does not open with its marker');
    const repo = `${target.owner}/${target.repo}`;
    const comments = await client.comments(repo, target.issueNumber);
    // The marker must be followed by the end of its line: one key's marker never prefixes another's.
    const existing = comments.find((c) => isOurs(c.user?.login, options.author) && sticky_comment_firstLine(c.body ?? '') === options.marker);
    if (existing) {
        if (existing.body === body)
            return { action: 'unchanged', id: existing.id, url: existing.html_url };
        const data = await client.updateComment(repo, existing.id, body);
        return { action: 'updated', id: data.id, url: data.html_url };
    }
    if (!options.create)
        return { action: 'none' };
    const data = await client.createComment(repo, target.issueNumber, body);
    return { action: 'created', id: data.id, url: data.html_url };
}
function sticky_comment_firstLine(text) {
    return text.trimStart().split(/\r?\n/, 1)[0].trim();
}

// EXTERNAL MODULE: ./node_modules/@actions/artifact/lib/artifact.js + 326 modules
var artifact = __webpack_require__(20584);
;// CONCATENATED MODULE: ./src/action/github/artifacts.ts
/**
 * Uploading this job's report artifact: the one use of @actions/artifact (the runtime-token upload
 * protocol). Files are checked before success is claimed. Reading artifacts back, of this run or of
 * any other, goes through the REST client in src/github within its limits.
 */



/** Files a reader needs, and the least each must hold to be more than an empty shell. */
const MIN_BYTES = { 'report.json': 64, 'report.md': 16 };
/** Throws unless every file exists, is a regular file, and is non-trivial. */
async function verifyFiles(files) {
    for (const file of files) {
        let info;
        try {
            info = await (0,promises_.stat)(file);
        }
        catch {
            throw new Error(`${file}: missing; expected it in the report artifact`);
        }
        const least = MIN_BYTES[(0,external_node_path_.basename)(file)] ?? 1;
        if (!info.isFile())
            throw new Error(`${file}: not a regular file`);
        if (info.size < least)
            throw new Error(`${file}: ${info.size} bytes; expected at least ${least}`);
    }
}
async function uploadArtifact(name, files, rootDirectory, options) {
    await verifyFiles(files);
    const client = new artifact/* DefaultArtifactClient */.t9();
    const upload = () => client.uploadArtifact(name, [...files], rootDirectory, options.retentionDays ? { retentionDays: options.retentionDays } : {});
    let result;
    try {
        result = await upload();
    }
    catch (error) {
        const conflict = /\(409\)|already exists/i.test(error.message);
        if (!conflict)
            throw error;
        if (options.runAttempt <= 1) {
            throw new Error(`an artifact named '${name}' already exists in this run: in a matrix, give each leg its own 'key' (or 'artifact-name')`);
        }
        await client.deleteArtifact(name);
        result = await upload();
    }
    if (typeof result.id !== 'number' || !result.size)
        throw new Error(`the artifact service did not confirm '${name}' (id ${String(result.id)}, ${String(result.size)} bytes)`);
    return { name, id: result.id, size: result.size };
}

;// CONCATENATED MODULE: ./src/github/artifact-names.ts
/**
 * Names the artifact service accepts. It refuses " : < > | * ? \r \n \ in artifact names and in the
 * paths of the files inside, so a capture named decode-12:00:00.jsonl would sink the whole upload.
 * Captures travel in an artifact of their own beside the report's, under mapped paths, with the
 * mapping kept in the artifact.
 */
/** What a file path inside an artifact may not hold (besides `/`, its separator). */
const REFUSED_IN_PATH = /[%":<>|*?\r\n\\]/g;
/** The captures of the report artifact NAME are in NAME + this. */
const CAPTURES_SUFFIX = '-captures';
/** The file in the captures artifact that maps each stored path back to the capture's own. */
const CAPTURE_NAMES_FILE = 'capture-names.json';
function capturesArtifactName(reportArtifact) {
    return `${reportArtifact}${CAPTURES_SUFFIX}`;
}
function isCapturesArtifact(name) {
    return name.endsWith(CAPTURES_SUFFIX);
}
/**
 * A path the service accepts: each refused character (and `%`, so the mapping can be undone)
 * becomes %XX. Paths that need no change stay as they are.
 */
function storablePath(relativePath) {
    return relativePath
        .split('/')
        .map((part) => part.replace(REFUSED_IN_PATH, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`))
        .join('/');
}

;// CONCATENATED MODULE: ./src/action/github/job-summary.ts
/** The job summary file (GITHUB_STEP_SUMMARY), written once per step. */

async function writeJobSummary(markdown) {
    await core/* summary */.z.addRaw(markdown, true).write();
}

;// CONCATENATED MODULE: ./src/action/publish.ts
/**
 * Showing reports on GitHub: the job summary, annotations, the sticky PR comment and the outputs,
 * and, for a report made in this job, its files and artifact. Each step fails alone: a comment
 * refused (a fork's read-only token) or an upload that broke never loses the summary or the files.
 */




















/** What lets a later workflow (workflow_run) find the PR a report belongs to (CONTEXT_FILE). Untrusted when read back. */

/** One line for the log: profile text must never start a workflow command (`::…`) on a new line. */
function oneLine(text) {
    return text.replace(/[\r\n]+/g, ' ');
}
function errorText(error) {
    return oneLine(error instanceof Error ? error.message : String(error));
}
/** The key of the comment marker and of the default artifact name: the input, else the job id. */
function commentKey(ctx) {
    return ctx.inputs.key || (ctx.inputs.mode === 'report' ? 'report' : ctx.run.job || 'default');
}
function defaultArtifactName(ctx) {
    if (ctx.inputs.artifactName)
        return ctx.inputs.artifactName;
    const key = commentKey(ctx).replace(/[":<>|*?\s/\\]+/g, '-');
    return `${ctx.inputs.artifactPrefix}${key}`;
}
async function comment(ctx, publication) {
    const decision = decideComment(ctx.inputs.comment, (0,run_context/* isPullRequestEvent */.T5)(ctx.run), publication.merged);
    if (decision.action === 'skip') {
        core/* info */.pq(`No PR comment: ${decision.reason}.`);
        return undefined;
    }
    const pr = publication.prNumber;
    if (pr === undefined) {
        (ctx.inputs.comment === 'always' ? core/* notice */.lm : core/* info */.pq)('No PR comment: this run concerns no pull request (set the pr-number input to name one).');
        return undefined;
    }
    const key = commentKey(ctx);
    const body = renderComment(publication.merged, { key, links: { runUrl: publication.runUrl } });
    try {
        const result = await upsertStickyComment(ctx.github(), { owner: ctx.run.owner, repo: ctx.run.repo, issueNumber: pr }, body, { marker: commentMarker(key), author: ctx.inputs.commentAuthor, create: decision.action === 'post' });
        if (result.action === 'none')
            core/* info */.pq(`No PR comment: ${decision.reason}.`);
        else
            core/* info */.pq(`PR #${pr}: comment ${result.action}${result.url ? ` (${result.url})` : ''}.`);
        return result.url;
    }
    catch (error) {
        const message = `Could not comment on PR #${pr}: ${errorText(error)}. The job summary and the report artifact hold the full report.`;
        if (error instanceof GitHubApiError && error.status === 403)
            core/* notice */.lm(message);
        else
            core/* warning */.$e(message);
        return undefined;
    }
}
/** Summary, annotations, comment and the shared outputs for one or several reports. */
async function publish(ctx, publication) {
    const { merged } = publication;
    try {
        await writeJobSummary(renderMergedSummary(merged, { links: { runUrl: publication.runUrl } }));
    }
    catch (error) {
        core/* warning */.$e(`The job summary was not written: ${errorText(error)}`);
    }
    for (const annotation of buildAnnotations(merged.entries)) {
        (annotation.level === 'error' ? core/* error */.z3 : core/* warning */.$e)(annotation.message, { title: annotation.title });
    }
    const commentUrl = await comment(ctx, publication);
    core/* setOutput */.uH(OUTPUTS.commentUrl, commentUrl ?? '');
    core/* setOutput */.uH(OUTPUTS.verdict, merged.verdict);
    const ids = new Set(merged.entries.flatMap((e) => e.report.findings.map((f) => f.id)));
    core/* setOutput */.uH(OUTPUTS.findings, [...ids].join(','));
}
/** The deepest directory holding every file: the artifact keeps their layout below it. */
function commonRoot(files) {
    const split = files.map((f) => (0,external_node_path_.dirname)((0,external_node_path_.resolve)(f)).split(external_node_path_.sep));
    const first = split[0] ?? [(0,external_node_path_.resolve)('.')];
    let n = first.length;
    for (const parts of split) {
        let i = 0;
        while (i < n && i < parts.length && parts[i] === first[i])
            i++;
        n = i;
    }
    return first.slice(0, n).join(external_node_path_.sep) || external_node_path_.sep;
}
async function upload(ctx, name, files, root) {
    return uploadArtifact(name, files, root, {
        runAttempt: ctx.run.runAttempt,
        ...(ctx.inputs.retentionDays ? { retentionDays: ctx.inputs.retentionDays } : {}),
    });
}
/** The report's own artifact: report.json, report.md and context.json only, so nothing else can sink it. */
async function uploadReport(ctx, files, root) {
    const name = defaultArtifactName(ctx);
    try {
        const uploaded = await upload(ctx, name, files, root);
        core/* info */.pq(`Uploaded artifact '${name}' (id ${uploaded.id}, ${uploaded.size} bytes, ${files.length} files).`);
        return { name, id: uploaded.id, url: (0,run_context/* artifactUrl */.Wk)(ctx.run, ctx.run.runId, uploaded.id) };
    }
    catch (error) {
        core/* warning */.$e(`The report artifact '${name}' was not uploaded: ${errorText(error)}. report.json and report.md are in ${ctx.inputs.reportDir}.`);
        return undefined;
    }
}
/** Links `file` at `target` (a copy across file systems). */
async function stage(file, target) {
    await (0,promises_.mkdir)((0,external_node_path_.dirname)(target), { recursive: true });
    try {
        await (0,promises_.link)(file, target);
    }
    catch {
        await (0,promises_.copyFile)(file, target);
    }
}
/**
 * Captures and logs, in an artifact of their own after the report's. Paths the artifact service
 * refuses (decode-12:00:00.jsonl) are stored under mapped names, and capture-names.json maps them back.
 */
async function uploadCaptures(ctx, reportArtifact, files, root) {
    const name = capturesArtifactName(reportArtifact);
    const paths = files.map((file) => ({ file, path: (0,external_node_path_.relative)(root, file).split(external_node_path_.sep).join('/') }));
    const mapped = paths.map((p) => ({ ...p, stored: storablePath(p.path) })).filter((p) => p.stored !== p.path);
    let uploadFiles = [...files];
    let uploadRoot = root;
    try {
        if (mapped.length) {
            uploadRoot = await (0,promises_.mkdtemp)((0,external_node_path_.join)(process.env['RUNNER_TEMP'] || (0,external_node_os_.tmpdir)(), 'profile-gate-captures-'));
            uploadFiles = [];
            for (const { file, path } of paths) {
                const target = (0,external_node_path_.join)(uploadRoot, ...storablePath(path).split('/'));
                await stage(file, target);
                uploadFiles.push(target);
            }
            const names = (0,external_node_path_.join)(uploadRoot, CAPTURE_NAMES_FILE);
            await (0,promises_.writeFile)(names, `${JSON.stringify({ note: 'stored path -> the capture file name it stands for', names: Object.fromEntries(mapped.map((p) => [p.stored, p.path])) }, null, 2)}\n`);
            uploadFiles.push(names);
            core/* info */.pq(`${mapped.length} capture path(s) hold characters the artifact service refuses; stored under mapped names (${CAPTURE_NAMES_FILE}), e.g. ${mapped[0].path} as ${mapped[0].stored}.`);
        }
        const uploaded = await upload(ctx, name, uploadFiles, uploadRoot);
        core/* info */.pq(`Uploaded artifact '${name}' (id ${uploaded.id}, ${uploaded.size} bytes, ${uploadFiles.length} files).`);
    }
    catch (error) {
        core/* warning */.$e(`The captures artifact '${name}' was not uploaded: ${errorText(error)}. The report artifact '${reportArtifact}' holds the report; the captures are in the workspace.`);
    }
}
/** Why the verdict is fail, in one short line: the failing findings and the comparison alerts. */
function failureReasons(report, failOn) {
    const findings = [...new Set(report.findings.filter((f) => f.severity !== 'info' && (f.severity === 'error' || failOn.includes(f.id))).map((f) => f.id))];
    const alerts = report.comparison?.rows.filter((r) => r.status === 'fail').length ?? 0;
    const parts = [...(findings.length ? [`findings: ${findings.slice(0, 8).join(', ')}`] : []), ...(alerts ? [`${alerts} comparison alert${alerts === 1 ? '' : 's'}`] : [])];
    return oneLine(parts.join('; ') || 'failed');
}
/** A report made in this job (modes analyze and run): files, artifact, then everything `publish` does. */
async function publishReport(ctx, produced) {
    const { report } = produced;
    const dir = ctx.inputs.reportDir;
    const jsonPath = (0,external_node_path_.join)(dir, REPORT_FILE);
    const context = {
        event: ctx.run.eventName,
        repository: `${ctx.run.owner}/${ctx.run.repo}`,
        ...(ctx.run.pullRequest !== undefined ? { pullRequest: ctx.run.pullRequest } : {}),
        ...(ctx.run.pullRequestHeadSha ? { headSha: ctx.run.pullRequestHeadSha } : {}),
    };
    // A full disk must not cost the summary and the comment: they are published, then the job fails.
    let notWritten;
    try {
        await writeOutput(jsonPath, serializeReport(report));
        await writeOutput((0,external_node_path_.join)(dir, 'report.md'), renderSummary(report));
        await writeOutput((0,external_node_path_.join)(dir, CONTEXT_FILE), `${JSON.stringify(context, null, 2)}\n`);
    }
    catch (error) {
        notWritten = errorText(error);
    }
    core/* setOutput */.uH(OUTPUTS.reportJson, notWritten ? '' : jsonPath);
    const decode = report.metrics.find((m) => m.name === 'decode_tok_s');
    core/* setOutput */.uH(OUTPUTS.decodeTokS, decode ? String(decode.value) : '');
    const reportFiles = [jsonPath, (0,external_node_path_.join)(dir, 'report.md'), (0,external_node_path_.join)(dir, CONTEXT_FILE)].map((f) => (0,external_node_path_.resolve)(f));
    const captures = ctx.inputs.uploadCaptures ? [...new Set((produced.extraFiles ?? []).map((f) => (0,external_node_path_.resolve)(f)))].filter((f) => !reportFiles.includes(f)) : [];
    // One root for both artifacts, so the captures keep the layout they had beside the report.
    const root = commonRoot([...reportFiles, ...captures]);
    if (notWritten && ctx.inputs.uploadArtifact)
        core/* warning */.$e(`The report artifact was not uploaded: the report files could not be written (${notWritten}).`);
    const artifact = ctx.inputs.uploadArtifact && !notWritten ? await uploadReport(ctx, reportFiles, root) : undefined;
    if (artifact && captures.length)
        await uploadCaptures(ctx, artifact.name, captures, root);
    core/* setOutput */.uH(OUTPUTS.artifactId, artifact?.id !== undefined ? String(artifact.id) : '');
    const entry = {
        label: ctx.inputs.key || merge_reports_labelFor(report, ctx.run.job || 'profile'),
        report,
        ...(artifact ? { artifact } : {}),
        ...(produced.baselineNote ? { baselineNote: produced.baselineNote } : {}),
    };
    await publish(ctx, { merged: merge_reports_mergeReports([entry]), runUrl: ctx.run.runUrl, prNumber: ctx.inputs.prNumber ?? ctx.run.pullRequest });
    if (notWritten)
        core/* setFailed */.C1(`profile-gate could not write its report files: ${notWritten}; the job summary holds the report`);
    if (report.verdict === 'fail')
        core/* setFailed */.C1(`profile-gate verdict: fail (${failureReasons(report, ctx.inputs.failOn)}; see the job summary)`);
}

;// CONCATENATED MODULE: ./src/io/reports.ts
/**
 * Reading report.json files back (matrix legs, downloaded artifacts) for the merged report.
 * They may come from a fork's workflow: size-capped, JSON-parsed and schema-validated, or refused
 * with an InputError naming the file.
 */






/** A report of 10,000 kernels is a few MiB; anything far larger is not ours. */
const MAX_REPORT_BYTES = DEFAULT_ARTIFACT_LIMITS.maxReportBytes;
const MAX_DEPTH = 6;
async function walk(directory, depth, found) {
    if (depth > MAX_DEPTH)
        return;
    const entries = (await (0,promises_.readdir)(directory, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
        const path = (0,external_node_path_.join)(directory, entry.name);
        if (entry.isDirectory())
            await walk(path, depth + 1, found);
        else if (entry.isFile() && entry.name === REPORT_FILE)
            found.push(path);
    }
}
/** Files are taken as given; directories give every report.json inside them (links are not followed). */
async function findReportFiles(paths) {
    const found = [];
    for (const path of paths) {
        let info;
        try {
            info = await (0,promises_.stat)(path);
        }
        catch (error) {
            throw new errors/* InputError */.dz(path, `cannot read it (${error.code ?? 'error'}); expected a report.json or a directory holding some`);
        }
        if (!info.isDirectory()) {
            found.push({ path });
            continue;
        }
        const inside = [];
        await walk(path, 0, inside);
        for (const file of inside) {
            const parts = (0,external_node_path_.relative)(path, file).split(external_node_path_.sep);
            found.push(parts.length > 1 ? { path: file, folder: parts[0] } : { path: file });
        }
    }
    return found;
}
async function loadReport(path) {
    let info;
    try {
        info = await (0,promises_.stat)(path);
    }
    catch (error) {
        throw new errors/* InputError */.dz(path, `cannot read it (${error.code ?? 'error'}); expected a profile-gate report.json`);
    }
    if (info.size > MAX_REPORT_BYTES)
        throw new errors/* InputError */.dz(path, `${info.size} bytes; expected a report.json under ${MAX_REPORT_BYTES} bytes`);
    let data;
    try {
        data = JSON.parse(await (0,promises_.readFile)(path, 'utf8'));
    }
    catch (error) {
        throw new errors/* InputError */.dz(path, `expected JSON, got ${error.message}`);
    }
    return migrateReport(data, path);
}
/** A label for a found report: its folder less `prefix`, else what the report says, else the file's folder. */
function reports_labelFor(found, report, prefix = '') {
    if (found.folder)
        return found.folder.startsWith(prefix) && found.folder.length > prefix.length ? found.folder.slice(prefix.length) : found.folder;
    const parts = found.path.split(/[\\/]/).filter(Boolean);
    return report.run.workload ?? report.environment.model ?? (parts.length >= 2 ? parts[parts.length - 2] : (0,external_node_path_.basename)(found.path));
}

;// CONCATENATED MODULE: ./src/action/baseline.ts
/**
 * Where the action's baseline comes from (input `baseline`):
 * - empty or `none`: no baseline, the findings alone decide;
 * - `artifact`: the newest unexpired artifact of that name in the repository, made on the default branch
 *   by this repository's own code (never a fork's), from any workflow (or input `baseline-workflow`'s),
 *   found by name through the REST API; an unreadable one (newer schema, corrupt, over a cap) is
 *   skipped, with why, for the next;
 * - `ab`: the base build run beside the head in this job (mode run with base-workdir or base-run);
 *   the engine makes that baseline, so here it only needs checking;
 * - any other value: a report.json path in the workspace.
 * A baseline that cannot be had is a warning and a note in the summary, never a crash.
 */







/** Workflow runs read to narrow the search to input baseline-workflow. */
const WORKFLOW_RUNS_READ = 300;
function fixFor(ctx, name, branch) {
    const key = ctx.inputs.key ? ` with key '${ctx.inputs.key}'` : '';
    return `to fix: let a workflow on pushes to ${branch} run the same workload${key}, so it uploads '${name}' (examples/baseline-main.yml), or set '${INPUTS.baselineArtifactName}' to the name ${branch}'s run uploads`;
}
function plural(n, one, many = `${one}s`) {
    return `${n} ${n === 1 ? one : many}`;
}
async function fromArtifact(ctx) {
    const name = ctx.inputs.baselineArtifactName || defaultArtifactName(ctx);
    const client = ctx.github();
    const repoName = `${ctx.run.owner}/${ctx.run.repo}`;
    const repository = await client.repository(repoName);
    const branch = repository.default_branch;
    const workflow = ctx.inputs.baselineWorkflow;
    const runIds = workflow ? new Set((await client.workflowRuns(repoName, { workflow, branch, limit: WORKFLOW_RUNS_READ })).map((run) => run.id)) : undefined;
    const listed = await client.artifactsNamed(repoName, name);
    const left = { expired: 0, branch: 0, fork: 0, workflow: 0 };
    const candidates = listed
        .filter((artifact) => {
        const run = artifact.workflow_run;
        if (!run || run.id === ctx.run.runId)
            return false;
        if (artifact.expired)
            return void left.expired++, false;
        if (run.head_branch !== branch)
            return void left.branch++, false;
        // Made by a fork's code (its head repository is another one): never a baseline.
        if (run.head_repository_id !== repository.id || (run.repository_id !== undefined && run.repository_id !== repository.id))
            return void left.fork++, false;
        if (runIds && !runIds.has(run.id))
            return void left.workflow++, false;
        return true;
    })
        .sort((a, b) => (Date.parse(b.created_at ?? '') || 0) - (Date.parse(a.created_at ?? '') || 0) || b.id - a.id);
    const limits = ctx.limits.artifacts;
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
                const first = reportsInZip(zip, `${name} of ${source}`, limits).next();
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
                reason = oneLine(unreadableReason(error));
            }
        }
        skipped.push(`${source}: ${reason}`);
        core/* warning */.$e(`Skipped baseline candidate '${name}' of ${source}: ${reason}`);
    }
    const fix = fixFor(ctx, name, branch);
    if (skipped.length)
        return { baseline: null, note: `no baseline: ${plural(skipped.length, "artifact")} '${name}' on ${branch} could not be read (${skipped.join('; ')}); ${fix}` };
    const others = [
        left.expired ? `${left.expired} expired` : '',
        left.branch ? `${left.branch} from other branches` : '',
        left.fork ? `${left.fork} made by forks` : '',
        left.workflow ? `${left.workflow} from workflows other than ${workflow}` : '',
    ].filter(Boolean);
    const where = workflow ? ` from workflow ${workflow}` : '';
    const why = others.length ? `none usable of ${plural(listed.length, 'artifact')} with that name (${others.join(', ')})` : 'none in this repository';
    return { baseline: null, note: `no baseline: no artifact '${name}' on ${branch}${where}: ${why}; ${fix}` };
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
            const first = reportsInZip(await client.artifactZip(repoName, artifact.id, limits.maxZipBytes), `${name} of run ${artifact.workflow_run?.id}`, limits).next();
            if (!first.done && !('error' in first.value))
                out.push(historyOf(first.value.report));
        }
        catch (error) {
            core/* debug */.Yz(`history: left out run ${artifact.workflow_run?.id}: ${oneLine(unreadableReason(error))}`);
        }
    }
    return out;
}
async function resolveBaseline(ctx, abRun = false) {
    const input = ctx.inputs.baseline;
    if (abRun) {
        if (input !== '' && input !== 'ab')
            throw new errors/* UsageError */.eb(`input '${INPUTS.baseline}' is ${JSON.stringify(input)}, but base-workdir/base-run make this an A/B run whose baseline is the base build; leave '${INPUTS.baseline}' empty or set it to ab`);
        return { baseline: null };
    }
    if (input === 'ab')
        throw new errors/* UsageError */.eb(`input '${INPUTS.baseline}': ab runs the base build in this job; it needs mode run and input 'base-workdir' (a checkout of the base commit) or 'base-run'`);
    if (input === '' || input === 'none')
        return { baseline: null, note: `no baseline configured (input '${INPUTS.baseline}' is empty); to compare, set it to artifact (the default branch's report artifact of the same key) or to a report.json path` };
    if (input === 'artifact') {
        try {
            return await fromArtifact(ctx);
        }
        catch (error) {
            const message = oneLine(error instanceof Error ? error.message : String(error));
            core/* warning */.$e(`Baseline artifact not available: ${message}`);
            return { baseline: null, note: `no baseline: the baseline artifact could not be looked up (${message}); to fix: give the job 'actions: read' and check the github-token input` };
        }
    }
    return { baseline: { report: await loadReport(input), origin: 'file', path: input, reason: `input '${INPUTS.baseline}'` } };
}
/** The gate's options from the inputs, through the reader the CLI uses; a bad value names the input. */
function gateOptions(ctx) {
    // Each gate flag's action input, by its name in action.yml (INPUTS maps keys to those names).
    const keyOf = (flag) => Object.keys(INPUTS).find((key) => INPUTS[key] === GATE_FLAG_SPECS[flag].input);
    return {
        thresholds: {},
        ...parseGateFlags((flag) => {
            const key = keyOf(flag);
            return key && key in ctx.inputs ? ctx.inputs[key] : undefined;
        }, actionGateLabel),
    };
}

;// CONCATENATED MODULE: ./src/action/modes/run-info.ts
function runInfo(ctx) {
    const sha = process.env['GITHUB_SHA'];
    const ref = process.env['GITHUB_REF'];
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

;// CONCATENATED MODULE: ./src/action/modes/analyze-mode.ts
/** Mode `analyze`: capture files that an earlier step produced → one report, published. */








async function analyzeMode(ctx) {
    const { files: captures, fromDirectories } = await gatherCaptures(ctx.inputs.captures, { policy: ctx.inputs.ifNoCaptures, option: `input '${INPUTS.ifNoCaptures}'`, warn: (line) => core/* warning */.$e(line) });
    const gate = gateOptions(ctx);
    const { baseline, note } = await resolveBaseline(ctx);
    const budget = ctx.inputs.analyzeTimeoutSeconds;
    const report = await analyze({
        inputs: captures,
        failOn: ctx.inputs.failOn,
        run: runInfo(ctx),
        baseline,
        gate,
        allowMixed: ctx.inputs.allowMixed,
        ...(ctx.inputs.strict ? {} : { skippable: fromDirectories }),
        ...(ctx.inputs.smiColumns.length ? { ingest: { smiColumns: parseSmiColumns(ctx.inputs.smiColumns.join(',')) } } : {}),
        ...(budget ? { timeoutMs: budget * 1000 } : {}),
    });
    await publishReport(ctx, { report, extraFiles: captures, ...(note ? { baselineNote: note } : {}) });
}

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
        deepDive: keep('Nsight Compute results', report.deepDive, BOUNDED_REPORT.listRows),
        findings: keep('findings', report.findings, BOUNDED_REPORT.listRows),
        timeline: report.timeline ? { ...report.timeline, steps: bounded_report_top(report.timeline.steps, BOUNDED_REPORT.samples) } : null,
        comparison: report.comparison
            ? { ...report.comparison, rows: keep('comparison rows', report.comparison.rows, BOUNDED_REPORT.kernels), kernelChanges: keep('kernel changes', report.comparison.kernelChanges, BOUNDED_REPORT.kernels) }
            : null,
    };
    if (cut.length)
        bounded.notices = [...bounded.notices, { code: 'read-back-in-part', severity: 'info', message: `read back in part: ${cut.join(', ')} kept (the artifact holds the whole report)` }];
    return bounded;
}

;// CONCATENATED MODULE: ./src/action/modes/report-mode.ts
/**
 * Mode `report`: every report artifact of a run (matrix legs) merged into one summary and one
 * comment. The run is this one, the `run-id` input, or the run that triggered a `workflow_run`
 * workflow: the fork-safe pattern, where nothing from the PR is executed and the artifacts are
 * read as untrusted data (schema-validated, within the limits of src/github/limits.ts, PR number
 * checked against the head commit).
 */















const ClaimedContextSchema = schemas/* object */.Ikc({ pullRequest: schemas/* number */.aig().int().positive().optional(), headSha: schemas/* string */.YjP().regex(/^[0-9a-f]{7,64}$/).optional() });
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
        return claimOf(JSON.parse(await (0,promises_.readFile)((0,external_node_path_.join)((0,external_node_path_.dirname)(reportPath), CONTEXT_FILE), 'utf8')));
    }
    catch {
        return undefined;
    }
}
async function collect(paths, label, into) {
    for (const found of await findReportFiles(paths)) {
        try {
            const report = boundReport(await loadReport(found.path));
            into.entries.push({ label: label(found, report), report });
            const claim = await readClaim(found.path);
            if (claim)
                into.claims.push(claim);
        }
        catch (error) {
            core/* warning */.$e(`Skipped a report: ${oneLine(error.message)}`);
        }
    }
}
/**
 * Every report artifact of the run, through the REST API, one zip and one report at a time: each
 * report is cut down to what the merged summary shows before the next is read, and each bad
 * artifact or report is left out with one line saying why.
 */
async function fromArtifacts(ctx, runId) {
    const collected = { entries: [], claims: [] };
    const prefix = ctx.inputs.artifactPrefix;
    const client = ctx.github();
    const repo = `${ctx.run.owner}/${ctx.run.repo}`;
    const limits = ctx.limits.artifacts;
    let artifacts;
    try {
        artifacts = (await client.runArtifacts(repo, runId)).filter((a) => a.name.startsWith(prefix) && !isCapturesArtifact(a.name)).sort((a, b) => a.name.localeCompare(b.name));
    }
    catch (error) {
        // Reading artifacts needs `actions: read`; without it the API answers 403 "Resource not accessible".
        throw new errors/* UsageError */.eb(`cannot list the report artifacts of run ${runId}: ${oneLine(error.message)} (reading artifacts needs the permission actions: read)`);
    }
    core/* info */.pq(`Found ${artifacts.length} report artifact(s) named '${prefix}*' in run ${runId}.`);
    if (artifacts.length > limits.maxArtifacts)
        core/* warning */.$e(`Only the first ${limits.maxArtifacts} of ${artifacts.length} report artifacts are read.`);
    for (const artifact of artifacts.slice(0, limits.maxArtifacts)) {
        if (artifact.expired) {
            core/* warning */.$e(`Skipped artifact '${artifact.name}': expired.`);
            continue;
        }
        if ((artifact.size_in_bytes ?? 0) > limits.maxZipBytes) {
            core/* warning */.$e(`Skipped artifact '${artifact.name}': ${artifact.size_in_bytes} bytes is more than a report artifact holds (${limits.maxZipBytes}).`);
            continue;
        }
        const link = { name: artifact.name, id: artifact.id, url: (0,run_context/* artifactUrl */.Wk)(ctx.run, runId, artifact.id) };
        const leg = artifact.name.slice(prefix.length) || artifact.name;
        let n = 0;
        try {
            const zip = await client.artifactZip(repo, artifact.id, limits.maxZipBytes);
            for (const entry of reportsInZip(zip, `artifact '${artifact.name}'`, limits)) {
                if ('error' in entry) {
                    core/* warning */.$e(`Skipped a report: ${oneLine(entry.path)}: ${oneLine(entry.error)}`);
                    continue;
                }
                collected.entries.push({ label: n++ === 0 ? leg : `${leg}-${n}`, report: boundReport(entry.report), artifact: link });
                const claim = claimOf(entry.context);
                if (claim)
                    collected.claims.push(claim);
            }
        }
        catch (error) {
            core/* warning */.$e(`Skipped artifact '${artifact.name}': ${oneLine(unreadableReason(error))}`);
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
            core/* warning */.$e(`The report artifacts name ${numbers.length} different pull requests; not commenting.`);
        return undefined;
    }
    const claimed = numbers[0];
    try {
        const data = await ctx.github().pull(`${ctx.run.owner}/${ctx.run.repo}`, claimed);
        if (data.head.sha === trigger.headSha)
            return claimed;
        core/* warning */.$e(`PR #${claimed} named by the artifacts has head ${data.head.sha.slice(0, 12)}, not the commit ${trigger.headSha.slice(0, 12)} the run built; not commenting.`);
    }
    catch (error) {
        core/* warning */.$e(`Could not check PR #${claimed} named by the artifacts: ${oneLine(error.message)}`);
    }
    return undefined;
}
async function reportMode(ctx) {
    const runId = sourceRun(ctx);
    let collected;
    if (ctx.inputs.reports.length) {
        collected = { entries: [], claims: [] };
        await collect(ctx.inputs.reports, (found, report) => reports_labelFor(found, report, ctx.inputs.artifactPrefix), collected);
    }
    else {
        try {
            collected = await fromArtifacts(ctx, runId);
        }
        catch (error) {
            // Nothing to merge: the summary still says why, then the job fails with the same line.
            await writeJobSummary(`## profile-gate: no report\n\n${safeText(oneLine(error.message), 1000)}\n`).catch(() => undefined);
            throw error;
        }
    }
    if (collected.entries.length === 0)
        core/* warning */.$e('No report was found to merge; the summary says so.');
    const merged = merge_reports_mergeReports(collected.entries);
    const runUrl = runId !== ctx.run.runId ? `${ctx.run.serverUrl}/${ctx.run.owner}/${ctx.run.repo}/actions/runs/${runId}` : ctx.run.runUrl;
    core/* setOutput */.uH(OUTPUTS.reportJson, '');
    core/* setOutput */.uH(OUTPUTS.artifactId, '');
    core/* setOutput */.uH(OUTPUTS.decodeTokS, '');
    await publish(ctx, { merged, runUrl, prNumber: await resolvePullRequest(ctx, collected.claims) });
}

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(73024);
// EXTERNAL MODULE: external "node:net"
var external_node_net_ = __webpack_require__(77030);
// EXTERNAL MODULE: external "node:url"
var external_node_url_ = __webpack_require__(73136);
;// CONCATENATED MODULE: ./src/runner/deep-dive.ts
/**
 * The deep dive: Nsight Compute on the one kernel the analysis points at. A finding asks for it
 * with a structured request (kernel key and filter, launch skip, sections); here it becomes argv:
 * only ncu is ever run, the card's clocks are left alone (`--clock-control none`), the output is
 * CSV of the details page, and the workload follows ncu's own arguments.
 */

/** The ncu command line of a request: ncu, its arguments, then the workload. */
function ncuArgv(ncu, request, workload) {
    return [ncu, ...ncuArgs(request), ...workload];
}
/**
 * Send ncu's own output (the CSV) to `file` with --log-file, so the workload's stdout stays out of
 * it; a --log-file the command already had is replaced.
 */
function withNcuLogFile(argv, file) {
    const rest = [];
    for (let i = 1; i < argv.length; i += 1) {
        if (argv[i] === '--log-file')
            i += 1;
        else if (!argv[i].startsWith('--log-file='))
            rest.push(argv[i]);
    }
    return [argv[0], '--log-file', file, ...rest];
}
/** The first finding that asks for a deep dive (findings come in the escalation's order), else the top kernel when asked always. */
function chooseDeepDive(mode, target, ncu, workload) {
    if (mode === 'off')
        return { run: false, why: 'deep-dive: off' };
    const finding = target.findings.find((f) => f.deepDive);
    if (finding?.deepDive) {
        return { run: true, argv: ncuArgv(ncu, finding.deepDive, workload), why: `the ${finding.id} finding (${finding.deepDive.kernel})`, request: finding.deepDive };
    }
    if (mode === 'always' && target.topKernel) {
        const request = deepDiveRequest(target.topKernel.name, target.topKernel.instances);
        return { run: true, argv: ncuArgv(ncu, request, workload), why: `deep-dive: always, on the top kernel ${target.topKernel.name}`, request };
    }
    return { run: false, why: mode === 'always' ? 'deep-dive: always, but the analysis has no kernels' : 'no finding asks for a deep dive' };
}

// EXTERNAL MODULE: external "node:child_process"
var external_node_child_process_ = __webpack_require__(31421);
;// CONCATENATED MODULE: ./src/runner/detect.ts
/**
 * What the box has: GPU vendor, name, driver, CUDA/ROCm, the MAX version and which profilers exist.
 * All probing goes through `Probe` (short commands, small outputs), so tests can inject a box; the
 * parsers are pure. Nothing here fails: what is missing is recorded and the plan decides.
 */




/** Where Nsight tools live when they are installed but not on PATH (newest version wins). */
const KNOWN_NSYS_PATHS = [
    '/opt/nvidia/nsight-systems/*/bin/nsys',
    '/opt/nvidia/nsight-compute/*/host/target-linux-x64/nsys',
    '/usr/local/cuda/bin/nsys',
];
const KNOWN_NCU_PATHS = ['/usr/local/cuda/bin/ncu', '/opt/nvidia/nsight-compute/*/ncu'];
const KNOWN_ROCPROFV3_PATHS = ['/opt/rocm/bin/rocprofv3'];
/** `nvidia-smi --query-gpu=name,driver_version --format=csv,noheader`: one `name, driver` line per GPU. */
function parseNvidiaSmiQuery(text) {
    const gpus = [];
    let driver;
    for (const line of text.split(/\r?\n/)) {
        const cells = line.split(',').map((cell) => cell.trim());
        if (cells.length < 2 || !cells[0])
            continue;
        gpus.push(cells[0]);
        driver ??= cells[1];
    }
    return { gpus, ...(driver ? { driver } : {}) };
}
/** The banner of plain `nvidia-smi` says `CUDA Version: 13.0`. */
function parseCudaVersion(text) {
    return /CUDA Version:\s*([\d.]+)/.exec(text)?.[1];
}
/** `rocm-smi --showproductname --showdriverversion --json`: cards plus a `system` entry. */
function parseRocmSmi(text) {
    let data;
    try {
        data = JSON.parse(text.slice(text.indexOf('{')));
    }
    catch {
        return { gpus: [] };
    }
    if (!data || typeof data !== 'object')
        return { gpus: [] };
    const gpus = [];
    let driver;
    for (const [key, value] of Object.entries(data)) {
        if (!value || typeof value !== 'object')
            continue;
        const field = (prefix) => Object.entries(value).find(([name]) => name.toLowerCase().startsWith(prefix))?.[1];
        if (/^card\d+$/i.test(key))
            gpus.push(field('card series') ?? field('card model') ?? field('device name') ?? key);
        driver ??= field('driver version');
    }
    return { gpus, ...(driver ? { driver } : {}) };
}
/** `max --version` prints `MAX <version>`. */
function parseMaxVersion(text) {
    return /\bMAX\s+v?(\d+\.\d+[\w.+-]*)/i.exec(text)?.[1];
}
/** True when this MAX has `max generate --profile` (first shipped in 26.4). */
function maxHasProfileFlag(version) {
    const match = /^(\d+)\.(\d+)/.exec(version ?? '');
    if (!match)
        return false;
    const [major, minor] = [Number(match[1]), Number(match[2])];
    return major > 26 || (major === 26 && minor >= 4);
}
/** The interpreter named on a script's #! line (`/usr/bin/env python3` gives python3). */
function interpreterFromShebang(firstLine) {
    const match = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(firstLine);
    if (!match)
        return undefined;
    const [, program, argument] = match;
    const interpreter = program.endsWith('/env') ? argument : program;
    return interpreter && /python/.test(interpreter) ? interpreter : undefined;
}
async function firstExisting(probe, name, patterns) {
    const onPath = await probe.which(name);
    if (onPath)
        return onPath;
    for (const pattern of patterns) {
        const found = (await probe.glob(pattern)).sort(compareVersionedPaths);
        if (found.length)
            return found[found.length - 1];
    }
    return undefined;
}
/** Order paths so that `2025.10.1` sorts after `2025.3.1`. */
function compareVersionedPaths(a, b) {
    return a.localeCompare(b, 'en', { numeric: true });
}
async function detectEnvironment(probe, options) {
    const notes = [];
    const detected = { vendor: null, gpus: [], tools: { python: 'python3' }, notes };
    const smi = await probe.run('nvidia-smi', ['--query-gpu=name,driver_version', '--format=csv,noheader']);
    if (smi && smi.code === 0) {
        const parsed = parseNvidiaSmiQuery(smi.stdout);
        if (parsed.gpus.length) {
            detected.vendor = 'nvidia';
            detected.gpus = parsed.gpus;
            if (parsed.driver)
                detected.driver = parsed.driver;
            const banner = await probe.run('nvidia-smi', []);
            const cuda = banner ? parseCudaVersion(banner.stdout) : undefined;
            if (cuda)
                detected.cuda = cuda;
        }
    }
    else if (smi) {
        notes.push(`nvidia-smi exited ${smi.code}: ${(smi.stderr || smi.stdout).trim().split('\n')[0] ?? ''}`);
    }
    if (!detected.vendor) {
        const rocm = await probe.run('rocm-smi', ['--showproductname', '--showdriverversion', '--json']);
        if (rocm && rocm.code === 0) {
            const parsed = parseRocmSmi(rocm.stdout);
            if (parsed.gpus.length) {
                detected.vendor = 'amd';
                detected.gpus = parsed.gpus;
                if (parsed.driver)
                    detected.driver = parsed.driver;
                const version = (await probe.readText('/opt/rocm/.info/version'))?.trim();
                if (version)
                    detected.rocm = version;
            }
        }
    }
    if (!detected.vendor)
        notes.push('no GPU found (neither nvidia-smi nor rocm-smi listed one)');
    if (detected.vendor === 'nvidia') {
        const nsys = await firstExisting(probe, 'nsys', KNOWN_NSYS_PATHS);
        if (nsys)
            detected.tools.nsys = nsys;
        const ncu = await firstExisting(probe, 'ncu', KNOWN_NCU_PATHS);
        if (ncu)
            detected.tools.ncu = ncu;
    }
    if (detected.vendor === 'amd') {
        const rocprofv3 = await firstExisting(probe, 'rocprofv3', KNOWN_ROCPROFV3_PATHS);
        if (rocprofv3)
            detected.tools.rocprofv3 = rocprofv3;
    }
    if (options.needMax) {
        const max = await probe.which('max');
        if (max) {
            detected.tools.max = max;
            const version = await probe.run(max, ['--version'], 60_000);
            const parsed = version ? parseMaxVersion(`${version.stdout}\n${version.stderr}`) : undefined;
            if (parsed)
                detected.maxVersion = parsed;
            else
                notes.push(`max --version printed no "MAX <version>" line`);
            const firstLine = (await probe.readText(max))?.split('\n', 1)[0] ?? '';
            const python = interpreterFromShebang(firstLine);
            if (python)
                detected.tools.python = python;
        }
    }
    return detected;
}
/** The fingerprint recorded in the report. */
function environmentFingerprint(detected, engine, model) {
    return {
        ...(detected.gpus.length ? { gpuName: detected.gpus[0], gpuCount: detected.gpus.length } : {}),
        ...(detected.vendor ? { vendor: detected.vendor } : {}),
        ...(detected.driver ? { driver: detected.driver } : {}),
        ...(detected.cuda ? { cuda: detected.cuda } : {}),
        ...(detected.rocm ? { rocm: detected.rocm } : {}),
        engine,
        ...(engine === 'max' && detected.maxVersion ? { engineVersion: detected.maxVersion } : {}),
        ...(model ? { model } : {}),
    };
}
async function isExecutable(path) {
    try {
        await (0,promises_.access)(path, external_node_fs_.constants.X_OK);
        return true;
    }
    catch {
        return false;
    }
}
async function globSegments(base, segments) {
    if (segments.length === 0)
        return [base];
    const [head, ...rest] = segments;
    if (!head.includes('*'))
        return globSegments((0,external_node_path_.join)(base, head), rest);
    const pattern = new RegExp(`^${head.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')}$`);
    let entries;
    try {
        entries = await (0,promises_.readdir)(base);
    }
    catch {
        return [];
    }
    const results = [];
    for (const entry of entries.filter((name) => pattern.test(name)))
        results.push(...(await globSegments((0,external_node_path_.join)(base, entry), rest)));
    return results;
}
/** The real box: short commands with a time limit and a capped output. */
function createSystemProbe() {
    return {
        run: (command, args, timeoutMs = 20_000) => new Promise((resolve) => {
            (0,external_node_child_process_.execFile)(command, [...args], { timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
                const code = error?.code;
                if (code === 'ENOENT' || code === 'EACCES')
                    return resolve(null);
                const exitCode = error ? (typeof error.code === 'number' ? (error.code) : null) : 0;
                resolve({ code: exitCode, stdout, stderr });
            });
        }),
        async which(name) {
            for (const dir of (process.env.PATH ?? '').split(external_node_path_.delimiter)) {
                if (!dir)
                    continue;
                const candidate = (0,external_node_path_.join)(dir, name);
                if (await isExecutable(candidate))
                    return candidate;
            }
            return null;
        },
        async glob(pattern) {
            const found = await globSegments('/', pattern.split('/').filter(Boolean));
            const executable = [];
            for (const path of found)
                if (await isExecutable(path))
                    executable.push(path);
            return executable;
        },
        async readText(path) {
            try {
                const file = await (0,promises_.open)(path, 'r');
                try {
                    const buffer = Buffer.alloc(64 * 1024);
                    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
                    return buffer.subarray(0, bytesRead).toString('utf8');
                }
                finally {
                    await file.close();
                }
            }
            catch {
                return null;
            }
        },
    };
}

// EXTERNAL MODULE: external "node:readline"
var external_node_readline_ = __webpack_require__(80481);
;// CONCATENATED MODULE: ./src/runner/process.ts
/**
 * Starting and stopping the workload's processes. Each child leads its own process group
 * (spawn detached = setsid), so it and everything it starts can be stopped together with a signal to
 * -pgid: SIGTERM, then SIGKILL after a grace period. Only groups started here are ever signalled,
 * never a process found by name. Output is streamed line by line to a file and a callback.
 * Depends on node built-ins only (the process tests load this file on its own).
 */





const TAIL_LINES = 20;
/** Longest output line kept (log file, callback); the rest of a longer line is dropped and counted. */
const MAX_LINE_BYTES = 1 << 20;
/**
 * The environment variable every process a run starts carries, with the run's own id as value (the
 * Actions runner tags job processes with RUNNER_TRACKING_ID the same way). A daemon that left the
 * process group and session is still found by it at the end.
 */
const TRACKING_VARIABLE = 'PROFILE_GATE_TRACKING_ID';
/**
 * The runner's file commands. A workload that appends to them could set the action's outputs
 * (`verdict=pass`), rewrite the job summary, or change later steps' environment; it gets empty
 * throwaway files instead, removed when it exits.
 */
const FILE_COMMANDS = ['GITHUB_OUTPUT', 'GITHUB_STEP_SUMMARY', 'GITHUB_ENV', 'GITHUB_PATH', 'GITHUB_STATE'];
/**
 * Splits a byte stream into lines (\n, \r\n or a lone \r, as readline does) with a bounded buffer:
 * a line longer than `maxBytes` is kept to its first `maxBytes` and the rest dropped and counted.
 */
class LineSplitter {
    onLine;
    maxBytes;
    parts = [];
    held = 0;
    dropped = 0;
    lastWasCR = false;
    cutLines = 0;
    cutBytes = 0;
    constructor(onLine, maxBytes = MAX_LINE_BYTES) {
        this.onLine = onLine;
        this.maxBytes = maxBytes;
    }
    push(chunk) {
        let start = 0;
        // The next \n and \r, found natively (a 1 GB line must not be walked byte by byte in JS).
        let lf = chunk.indexOf(0x0a);
        let cr = chunk.indexOf(0x0d);
        while (lf >= 0 || cr >= 0) {
            const at = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
            const isCR = at === cr;
            if (!isCR && this.lastWasCR && at === start && this.held === 0 && this.dropped === 0) {
                // the \n of a \r\n whose \r ended the previous line
                this.lastWasCR = false;
            }
            else {
                this.keep(chunk.subarray(start, at));
                this.emit();
                this.lastWasCR = isCR;
            }
            start = at + 1;
            if (at === lf)
                lf = chunk.indexOf(0x0a, start);
            if (at === cr)
                cr = chunk.indexOf(0x0d, start);
        }
        if (start < chunk.length) {
            this.lastWasCR = false;
            this.keep(chunk.subarray(start));
        }
    }
    /** The last line, when the stream ended without a newline. */
    end() {
        if (this.held > 0 || this.dropped > 0)
            this.emit();
    }
    keep(bytes) {
        const room = this.maxBytes - this.held;
        if (bytes.length <= room) {
            if (bytes.length)
                this.parts.push(Buffer.from(bytes));
            this.held += bytes.length;
            return;
        }
        if (room > 0)
            this.parts.push(Buffer.from(bytes.subarray(0, room)));
        this.held += Math.max(room, 0);
        this.dropped += bytes.length - Math.max(room, 0);
    }
    emit() {
        const line = Buffer.concat(this.parts, this.held).toString('utf8');
        const dropped = this.dropped;
        if (dropped > 0) {
            this.cutLines += 1;
            this.cutBytes += dropped;
        }
        this.parts = [];
        this.held = 0;
        this.dropped = 0;
        this.onLine(line, dropped);
    }
}
/** Empty stand-ins for the file commands this process was given, in a folder of their own. */
function throwawayFileCommands(env) {
    const present = FILE_COMMANDS.filter((name) => env[name]);
    if (present.length === 0)
        return { env: {}, remove: () => undefined };
    const dir = (0,external_node_fs_.mkdtempSync)((0,external_node_path_.join)((0,external_node_os_.tmpdir)(), 'profile-gate-workload-'));
    const replaced = {};
    for (const name of present) {
        replaced[name] = (0,external_node_path_.join)(dir, name.toLowerCase());
        (0,external_node_fs_.writeFileSync)(replaced[name], '');
    }
    return { env: replaced, remove: () => (0,external_node_fs_.rmSync)(dir, { recursive: true, force: true }) };
}
/**
 * Our environment less what is ours alone: the action's inputs (the token among them) and the
 * runner's tokens for the artifact service and OIDC. A workload that prints its environment into a
 * log must not put them into the uploaded artifact, and it has no business with them.
 */
const WITHHELD_ENV = /^(INPUT_.*|ACTIONS_RUNTIME_TOKEN|ACTIONS_ID_TOKEN_REQUEST_TOKEN|ACTIONS_ID_TOKEN_REQUEST_URL)$/i;
function childEnvironment(env) {
    return Object.fromEntries(Object.entries(env).filter(([name]) => !WITHHELD_ENV.test(name)));
}
const SIGNAL_NUMBERS = { SIGINT: 2, SIGTERM: 15 };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Live (not zombie) processes from /proc; empty where there is no /proc. */
function processTable() {
    const table = [];
    let entries;
    try {
        entries = (0,external_node_fs_.readdirSync)('/proc');
    }
    catch {
        return table;
    }
    for (const entry of entries) {
        if (!/^\d+$/.test(entry))
            continue;
        let stat;
        try {
            stat = (0,external_node_fs_.readFileSync)(`/proc/${entry}/stat`, 'utf8');
        }
        catch {
            continue;
        }
        // Fields after the command name, which may hold spaces and parentheses: state ppid pgrp …
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (fields[0] === 'Z' || fields[0] === 'X')
            continue;
        table.push({ pid: Number(entry), ppid: Number(fields[1]), pgid: Number(fields[2]), start: fields[19] ?? '' });
    }
    return table;
}
/** Live (not zombie) members of a process group. Linux reads /proc; elsewhere kill(-pgid, 0). */
function groupMembers(pgid) {
    if (process.platform !== 'linux') {
        try {
            process.kill(-pgid, 0);
            return [pgid];
        }
        catch {
            return [];
        }
    }
    return processTable()
        .filter((entry) => entry.pgid === pgid)
        .map((entry) => entry.pid);
}
/**
 * Processes descended from a member of the group that moved to a group of their own (setsid, or a
 * wrapper such as gpu_snapshot.py that runs its command in a new group). Still ours to stop.
 */
function escapedDescendants(pgid) {
    const table = processTable();
    const children = new Map();
    for (const entry of table)
        children.set(entry.ppid, [...(children.get(entry.ppid) ?? []), entry]);
    const found = [];
    const queue = table.filter((entry) => entry.pgid === pgid);
    const seen = new Set(queue.map((entry) => entry.pid));
    while (queue.length) {
        for (const child of children.get(queue.shift().pid) ?? []) {
            if (seen.has(child.pid))
                continue;
            seen.add(child.pid);
            if (child.pgid !== pgid)
                found.push(child);
            queue.push(child);
        }
    }
    return found;
}
/** The command line of a process, arguments joined by spaces (empty when it cannot be read). */
function commandLine(pid) {
    try {
        return (0,external_node_fs_.readFileSync)(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '').split('\0').join(' ');
    }
    catch {
        return '';
    }
}
/**
 * Live processes of this user whose environment carries `marker` (NAME=value). Reads
 * /proc/<pid>/environ, which holds the environment a process was started with.
 */
function processesWithMarker(marker) {
    const uid = process.getuid?.();
    const needle = Buffer.from(`\0${marker}\0`);
    const first = Buffer.from(`${marker}\0`);
    return processTable().filter((entry) => {
        if (entry.pid === process.pid)
            return false;
        try {
            if (uid !== undefined && (0,external_node_fs_.statSync)(`/proc/${entry.pid}`).uid !== uid)
                return false;
            const environ = (0,external_node_fs_.readFileSync)(`/proc/${entry.pid}/environ`);
            return environ.subarray(0, first.length).equals(first) || environ.includes(needle);
        }
        catch {
            return false;
        }
    });
}
function stillAlive(entry) {
    try {
        const stat = (0,external_node_fs_.readFileSync)(`/proc/${entry.pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return fields[0] !== 'Z' && fields[0] !== 'X' && (fields[19] ?? '') === entry.start;
    }
    catch {
        return false;
    }
}
function openStream(path) {
    (0,external_node_fs_.mkdirSync)((0,external_node_path_.dirname)(path), { recursive: true });
    return (0,external_node_fs_.createWriteStream)(path, { flags: 'w' });
}
function closeStream(stream) {
    return new Promise((resolve) => stream.end(() => resolve()));
}
class ProcessGroups {
    graceMs;
    /** The value of TRACKING_VARIABLE in every process started here. */
    trackingId;
    groups = new Set();
    cancelled = false;
    constructor(options = {}) {
        this.graceMs = options.graceMs ?? 3000;
        this.trackingId = (0,external_node_crypto_.randomUUID)();
    }
    /**
     * Stop every process that carries this run's tracking marker, wherever it went (a daemon that
     * double-forked into a session of its own): SIGTERM, SIGKILL after the grace period. Returns
     * them by pid and command. Linux only (elsewhere there is no /proc to read: none are found).
     */
    async sweepTracked() {
        if (process.platform !== 'linux')
            return [];
        const found = processesWithMarker(`${TRACKING_VARIABLE}=${this.trackingId}`);
        const tracked = found.map((entry) => ({ pid: entry.pid, command: commandLine(entry.pid) }));
        const signal = (entry, name) => {
            if (!stillAlive(entry))
                return;
            try {
                process.kill(entry.pid, name);
            }
            catch {
                // gone
            }
        };
        for (const entry of found)
            signal(entry, 'SIGTERM');
        const deadline = Date.now() + this.graceMs;
        while (Date.now() < deadline && found.some(stillAlive))
            await sleep(50);
        for (const entry of found)
            signal(entry, 'SIGKILL');
        for (let i = 0; i < 20 && found.some(stillAlive); i += 1)
            await sleep(25);
        return tracked;
    }
    /** Process-group ids started here and not yet seen gone. */
    active() {
        return [...this.groups];
    }
    isCancelled() {
        return this.cancelled;
    }
    /**
     * Signal one of our groups, wait up to the grace period, then SIGKILL what is left of it and of
     * the processes it started in groups of their own.
     */
    async stopGroup(pgid, first = 'SIGTERM') {
        if (!this.groups.has(pgid) || pgid <= 1)
            return;
        const escaped = escapedDescendants(pgid);
        try {
            process.kill(-pgid, first);
        }
        catch {
            // the group is gone; escaped descendants may remain
        }
        const remaining = () => groupMembers(pgid).length + escaped.filter(stillAlive).length;
        const deadline = Date.now() + this.graceMs;
        while (Date.now() < deadline && remaining() > 0)
            await sleep(50);
        if (remaining() > 0) {
            escaped.push(...escapedDescendants(pgid).filter((entry) => !escaped.some((known) => known.pid === entry.pid)));
            try {
                process.kill(-pgid, 'SIGKILL');
            }
            catch {
                // already gone
            }
            for (const entry of escaped.filter(stillAlive)) {
                try {
                    process.kill(entry.pid, 'SIGKILL');
                }
                catch {
                    // already gone
                }
            }
            for (let i = 0; i < 20 && remaining() > 0; i += 1)
                await sleep(25);
        }
        this.groups.delete(pgid);
    }
    /** Stop every group started here (cancellation). */
    async stopAll(first = 'SIGTERM') {
        this.cancelled = true;
        await Promise.all(this.active().map((pgid) => this.stopGroup(pgid, first)));
    }
    start(spec) {
        const started = Date.now();
        const tail = [];
        const log = openStream(spec.logFile);
        const stdoutFile = spec.stdoutFile ? openStream(spec.stdoutFile) : undefined;
        let exited = false;
        let timedOut = false;
        let cancelledHere = false;
        let fileCommands = { env: {}, remove: () => undefined };
        try {
            fileCommands = throwawayFileCommands(process.env);
        }
        catch {
            // no temporary folder: the workload gets no file commands at all (see below)
        }
        const env = { ...childEnvironment(process.env), ...(spec.env ?? {}), ...fileCommands.env, [TRACKING_VARIABLE]: this.trackingId };
        for (const name of FILE_COMMANDS)
            if (!(name in fileCommands.env))
                delete env[name];
        const child = (0,external_node_child_process_.spawn)(spec.argv[0], spec.argv.slice(1), {
            cwd: spec.cwd,
            env,
            detached: true,
            stdio: ['ignore', 'pipe', 'pipe'],
        });
        const pgid = child.pid;
        if (pgid !== undefined)
            this.groups.add(pgid);
        const stop = async () => {
            if (pgid !== undefined)
                await this.stopGroup(pgid);
        };
        const splitters = [];
        const streamClosed = (stream, name, target) => new Promise((resolve) => {
            if (!stream)
                return resolve();
            const lines = new LineSplitter((line, dropped) => {
                target.write(dropped > 0 ? `${line}… [profile-gate: line cut at ${MAX_LINE_BYTES} bytes, ${dropped} bytes dropped]\n` : `${line}\n`);
                tail.push(line.length > 1000 ? `${line.slice(0, 1000)}…` : line);
                if (tail.length > TAIL_LINES)
                    tail.shift();
                spec.onLine?.(line, name);
            });
            splitters.push(lines);
            let ended = false;
            const close = () => {
                if (ended)
                    return;
                ended = true;
                lines.end();
                resolve();
            };
            stream.on('data', (chunk) => lines.push(chunk));
            stream.on('end', close);
            stream.on('close', close);
            stream.on('error', close);
        });
        const outputDone = Promise.all([
            streamClosed(child.stdout, 'stdout', stdoutFile ?? log),
            streamClosed(child.stderr, 'stderr', log),
        ]);
        const timer = spec.timeoutMs !== undefined
            ? setTimeout(() => {
                timedOut = true;
                void stop();
            }, spec.timeoutMs)
            : undefined;
        const done = new Promise((resolve) => {
            const finish = async (exitCode, signal, startError) => {
                if (timer)
                    clearTimeout(timer);
                exited = true;
                let leftovers = 0;
                if (pgid !== undefined) {
                    leftovers = groupMembers(pgid).length;
                    if (leftovers > 0)
                        await this.stopGroup(pgid);
                    this.groups.delete(pgid);
                }
                // A grandchild that left the group could hold the pipes open; do not wait on it forever.
                let drainTimer;
                await Promise.race([outputDone, new Promise((resolve) => (drainTimer = setTimeout(resolve, 2000)))]);
                clearTimeout(drainTimer);
                child.stdout?.destroy();
                child.stderr?.destroy();
                fileCommands.remove();
                if (startError)
                    log.write(`${startError}\n`);
                await Promise.all([closeStream(log), stdoutFile ? closeStream(stdoutFile) : Promise.resolve()]);
                resolve({
                    exitCode,
                    signal,
                    timedOut,
                    cancelled: cancelledHere || this.cancelled,
                    ...(startError ? { startError } : {}),
                    durationMs: Date.now() - started,
                    tail,
                    leftovers,
                    cutLines: splitters.reduce((sum, lines) => sum + lines.cutLines, 0),
                    cutBytes: splitters.reduce((sum, lines) => sum + lines.cutBytes, 0),
                });
            };
            child.once('error', (error) => {
                if (exited)
                    return;
                const reason = error.code === 'ENOENT' ? 'not found' : error.code === 'EACCES' ? 'not executable' : error.message;
                void finish(null, null, `cannot start ${spec.argv[0]}: ${reason}`);
            });
            child.once('exit', (code, signal) => {
                if (this.cancelled)
                    cancelledHere = true;
                void finish(code, signal);
            });
        });
        return { pid: pgid, done, stop, exited: () => exited };
    }
    /**
     * On SIGINT/SIGTERM to this process: pass the same signal to every group started here, SIGKILL
     * after the grace period, wait for `settle` (the run writing its record of what finished, up to
     * `settleMs`), run `beforeExit`, then exit with 128+signal. A second signal kills at once.
     */
    forwardSignals(options = {}) {
        const exit = options.exit ?? ((code) => process.exit(code));
        let handling = false;
        const handler = (signal) => {
            if (handling) {
                for (const pgid of this.active()) {
                    try {
                        process.kill(-pgid, 'SIGKILL');
                    }
                    catch {
                        // gone
                    }
                }
                return;
            }
            handling = true;
            void (async () => {
                await this.stopAll(signal);
                try {
                    // The Actions runner waits 7.5 s after SIGINT before it sends SIGTERM.
                    if (options.settle)
                        await Promise.race([options.settle().catch(() => undefined), sleep(options.settleMs ?? 5000)]);
                }
                catch {
                    // the record is best effort; exit regardless
                }
                try {
                    await Promise.race([options.beforeExit?.(signal), sleep(1000)]);
                }
                finally {
                    exit(128 + (SIGNAL_NUMBERS[signal] ?? 15));
                }
            })();
        };
        process.on('SIGINT', handler);
        process.on('SIGTERM', handler);
        return () => {
            process.off('SIGINT', handler);
            process.off('SIGTERM', handler);
        };
    }
}

;// CONCATENATED MODULE: ./src/runner/capture-files.ts
/**
 * The files a run leaves: checked before the run claims success (present, non-empty and of the
 * expected shape, a cheap structural check; the importers read them fully later), collected from a
 * command workload's capture globs, found in a profiler's output folder, and derived (a profiled
 * `max generate` console without its timings, which profiling distorts).
 */









const HEAD_BYTES = 4 * 1024 * 1024;
async function head(path, bytes = HEAD_BYTES) {
    const file = await (0,promises_.open)(path, 'r');
    try {
        const buffer = Buffer.alloc(bytes);
        const { bytesRead } = await file.read(buffer, 0, bytes, 0);
        return buffer.subarray(0, bytesRead).toString('utf8');
    }
    finally {
        await file.close();
    }
}
async function tailText(path, size, bytes = 64) {
    const file = await (0,promises_.open)(path, 'r');
    try {
        const length = Math.min(bytes, size);
        const buffer = Buffer.alloc(length);
        await file.read(buffer, 0, length, size - length);
        return buffer.toString('utf8');
    }
    finally {
        await file.close();
    }
}
async function checkJsonLines(path) {
    const lines = (0,external_node_readline_.createInterface)({ input: (0,external_node_fs_.createReadStream)(path), crlfDelay: Infinity });
    let count = 0;
    let number = 0;
    for await (const line of lines) {
        number += 1;
        if (!line.trim())
            continue;
        try {
            JSON.parse(line);
        }
        catch {
            lines.close();
            return `line ${number} is not JSON`;
        }
        count += 1;
    }
    return count === 0 ? 'no samples' : undefined;
}
/** A JSON document: starts with { or [, ends with } or ] (a cut-off trace fails this). */
async function checkJsonShape(path, size) {
    const first = (await head(path, 256)).trimStart()[0];
    const last = (await tailText(path, size)).trimEnd().slice(-1);
    if (first !== '{' && first !== '[')
        return 'does not start with a JSON object';
    if (last !== '}' && last !== ']')
        return 'is cut off (does not end a JSON document)';
    return undefined;
}
/** A gzip file must decompress whole (its checksum catches a truncated trace). */
async function checkGzipJson(path) {
    return new Promise((resolve) => {
        let first;
        let lastChunk = '';
        (0,external_node_fs_.createReadStream)(path)
            .pipe((0,external_node_zlib_.createGunzip)())
            .on('data', (chunk) => {
            const text = chunk.toString('utf8');
            if (first === undefined && text.trim())
                first = text.trimStart()[0];
            lastChunk = text.trim() ? text : lastChunk;
        })
            .on('error', (error) => resolve(`does not decompress (${error.message})`))
            .on('end', () => {
            const last = lastChunk.trimEnd().slice(-1);
            if (first !== '{' && first !== '[')
                resolve('does not hold a JSON document');
            else if (last !== '}' && last !== ']')
                resolve('is cut off (does not end a JSON document)');
            else
                resolve(undefined);
        });
    });
}
const TEXT_MARKERS = {
    'max-generate': { pattern: /^(Eval throughput|Time to first token|Total Latency)|^=== Top \d+ GPU kernels|^=== Python\/CPU functions/m, expected: 'a max generate metrics block or kernel table' },
    'max-benchmark': { pattern: /Serving Benchmark Result/, expected: 'the "Serving Benchmark Result" summary' },
    'nsys-stats': { pattern: /^"?(Time \(%\)|Time\(%\))"?,/m, expected: 'an nsys stats CSV table (a "Time (%)" header)' },
    'nsys-gpu-time-util': { pattern: /In[- ]Use \(%\)/, expected: 'an nsys analyze gpu_time_util table (an "In-Use (%)" column)' },
    'rocprof-csv': { pattern: /"?(TotalDurationNs|Kernel_Name)"?/, expected: 'a rocprofv3 CSV header' },
    'ncu-csv': { pattern: /^"ID","Process ID"/m, expected: 'an ncu --csv details table' },
};
async function checkOutput(path, kind, options = {}) {
    let size;
    try {
        const info = await (0,promises_.stat)(path);
        if (!info.isFile())
            return { ok: false, reason: 'is not a file' };
        size = info.size;
    }
    catch {
        return { ok: false, reason: 'was not written' };
    }
    if (size === 0)
        return { ok: false, reason: 'is empty' };
    let problem;
    if (kind === 'gpu-snapshot-jsonl')
        problem = await checkJsonLines(path);
    else if (kind === 'max-benchmark-json') {
        try {
            const data = JSON.parse(await (0,promises_.readFile)(path, 'utf8'));
            if (!data || typeof data !== 'object' || !('duration' in data || 'completed' in data))
                problem = 'is JSON without "duration"/"completed"';
        }
        catch {
            problem = 'is not JSON';
        }
    }
    else if (kind === 'workload-console') {
        if (!options.sniffOnly) {
            const file = await (0,input_file/* openInput */.lt)(path);
            if (!IMPORTERS.some((importer) => importer.sniff(file.head)))
                problem = NO_METRIC_LINES;
        }
    }
    else if (kind === 'workload-capture') {
        if (/\.json\.gz$/i.test(path))
            problem = await checkGzipJson(path);
        else if (/\.json$/i.test(path))
            problem = await checkJsonShape(path, size);
    }
    else {
        const marker = TEXT_MARKERS[kind];
        if (marker && !marker.pattern.test(await head(path)))
            problem = `does not hold ${marker.expected}`;
    }
    return problem ? { ok: false, reason: problem } : { ok: true, bytes: size };
}
const NO_METRIC_LINES = 'holds no lines profile-gate reads (print JSON metric lines such as {"metric": "decode_tok_s", "value": 123.4} to compare throughput)';
/** Where the metric lines of a long workload console are gathered (next to its log). */
function consoleMetricsPath(logPath) {
    return `${logPath.replace(/\.log$/, '')}.metrics.jsonl`;
}
/** Copy the metric lines of `from` into `to`, streamed line by line (bounded lines); returns how many. */
async function extractMetricLines(from, to) {
    const out = (0,external_node_fs_.createWriteStream)(to);
    let found = 0;
    const lines = new LineSplitter((line, dropped) => {
        if (dropped > 0 || !asMetricRecord(line))
            return;
        found += 1;
        out.write(`${line}\n`);
    });
    try {
        for await (const chunk of (0,external_node_fs_.createReadStream)(from))
            lines.push(chunk);
        lines.end();
    }
    finally {
        await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
    }
    return found;
}
/**
 * The file the analysis reads for a command workload's console. A console in another known format
 * (its head says so) is read as it is; a short one whose first lines hold metric lines as well.
 * Otherwise the console is read whole, streamed, for its metric lines (a metric printed after a
 * long log still counts):
 * they go to a `.metrics.jsonl` next to the log, which is what the analysis then reads.
 */
async function consoleAnalysisFile(path) {
    const check = await checkOutput(path, 'workload-console', { sniffOnly: true });
    if (!check.ok)
        return check;
    const file = await (0,input_file/* openInput */.lt)(path);
    const sniffed = IMPORTERS.find((importer) => importer.sniff(file.head));
    if (sniffed && sniffed.id !== 'workload-metrics-jsonl')
        return { ok: true, path, bytes: check.bytes };
    if (sniffed && file.sizeBytes <= input_file/* SNIFF_BYTES */.dD)
        return { ok: true, path, bytes: check.bytes };
    const metrics = consoleMetricsPath(path);
    if ((await extractMetricLines(path, metrics)) === 0)
        return { ok: false, reason: NO_METRIC_LINES };
    return { ok: true, path: metrics, bytes: (await (0,promises_.stat)(metrics)).size };
}
/** Lines of the `max generate` metrics report; a profiled run's timings are not measurements. */
const GENERATE_METRIC_LINE = /^(Prompt size|Output size|Startup time|Time to first token|Prompt eval throughput \(context-encoding\)|Time per Output Token|Eval throughput \(token-generation\)|Total Latency|Total Throughput|Total tokens per second):/;
async function deriveProfileConsole(from, to) {
    const kept = [];
    let dropped = 0;
    const lines = (0,external_node_readline_.createInterface)({ input: (0,external_node_fs_.createReadStream)(from), crlfDelay: Infinity });
    for await (const line of lines) {
        if (GENERATE_METRIC_LINE.test(line))
            dropped += 1;
        else
            kept.push(line);
    }
    await (0,promises_.writeFile)(to, `${kept.join('\n')}\n`);
    return dropped;
}
/** A glob of `*`, `?` and `**` (any number of folders) as a RegExp over '/'-separated paths. */
function globToRegExp(glob) {
    let source = '';
    for (let i = 0; i < glob.length; i += 1) {
        const char = glob[i];
        if (char === '*' && glob[i + 1] === '*') {
            const slash = glob[i + 2] === '/';
            source += slash ? '(?:[^/]*/)*' : '.*';
            i += slash ? 2 : 1;
        }
        else if (char === '*')
            source += '[^/]*';
        else if (char === '?')
            source += '[^/]';
        else
            source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
    return new RegExp(`^${source}$`);
}
const MAX_WALK_ENTRIES = 200_000;
/** Files under `root` (relative paths), skipping .git and node_modules, bounded. */
async function capture_files_walk(root, prefix = '', found = []) {
    let entries;
    try {
        entries = await (0,promises_.readdir)((0,external_node_path_.join)(root, prefix), { withFileTypes: true });
    }
    catch {
        return found;
    }
    for (const entry of entries) {
        if (found.length >= MAX_WALK_ENTRIES)
            break;
        const path = prefix ? `${prefix}/${entry.name}` : entry.name;
        if (entry.isDirectory()) {
            if (entry.name !== '.git' && entry.name !== 'node_modules')
                await capture_files_walk(root, path, found);
        }
        else if (entry.isFile())
            found.push(path);
    }
    return found;
}
/** The fixed folder a glob starts from (`traces/**\/*.json` → `traces`), so the walk stays small. */
function globBase(glob) {
    const parts = glob.split('/');
    const fixed = [];
    for (const part of parts.slice(0, -1)) {
        if (/[*?]/.test(part))
            break;
        fixed.push(part);
    }
    return fixed.join('/');
}
/** Files matching `globs` (relative to `cwd`, or absolute) with their modification times. */
async function matchCaptures(globs, cwd) {
    const found = new Map();
    for (const glob of globs) {
        const absolute = (0,external_node_path_.isAbsolute)(glob);
        const root = absolute ? '/' : cwd;
        const relativeGlob = absolute ? glob.slice(1) : glob.replace(/^\.\//, '');
        const pattern = globToRegExp(relativeGlob);
        for (const file of await capture_files_walk(root, globBase(relativeGlob))) {
            if (!pattern.test(file))
                continue;
            const path = (0,external_node_path_.join)(root, file);
            try {
                found.set(path, (await (0,promises_.stat)(path)).mtimeMs);
            }
            catch {
                // removed meanwhile
            }
        }
    }
    return found;
}
/**
 * Copy the capture files a step wrote (new, or changed since `before` was taken) into `into`,
 * keeping their paths relative to `cwd`. Returns the copies.
 */
async function collectCaptures(globs, cwd, before, into) {
    const copies = [];
    for (const [source, mtime] of await matchCaptures(globs, cwd)) {
        if (source.startsWith(into + external_node_path_.sep) || before.get(source) === mtime)
            continue;
        const target = (0,external_node_path_.join)(into, source.startsWith(cwd + external_node_path_.sep) ? (0,external_node_path_.relative)(cwd, source) : (0,external_node_path_.basename)(source));
        await (0,promises_.mkdir)((0,external_node_path_.join)(target, '..'), { recursive: true });
        await (0,promises_.copyFile)(source, target);
        copies.push(target);
    }
    return copies;
}
/** Files below `dir` whose names end with `suffix` (rocprofv3 picks host/pid folders itself). */
async function findBySuffix(dir, suffix) {
    return (await capture_files_walk(dir)).filter((file) => file.endsWith(suffix)).map((file) => (0,external_node_path_.join)(dir, file));
}

;// CONCATENATED MODULE: ./src/runner/install-lines.ts
/** The exact line to install each tool the run can use, shown wherever the tool is missing. */
const INSTALL = {
    max: 'pip install modular (MAX ships in the modular package; see docs.modular.com for conda/pixi)',
    nsys: 'apt-get install -y nsight-systems-cli (from NVIDIA\'s devtools apt repository), or put an installed nsys on PATH',
    ncu: 'apt-get install -y cuda-nsight-compute-<cuda major>-<minor> (ships with the CUDA toolkit, also as /usr/local/cuda/bin/ncu)',
    rocprofv3: 'apt-get install -y rocprofiler-sdk (ROCm 6.2 or newer)',
    libdw: 'apt-get install -y libdw1 (nsys stats needs libdw.so.1)',
};

;// CONCATENATED MODULE: ./src/runner/preflight.ts
/**
 * Turning the JSON of python/preflight_custom_arch.py into messages, each failure with its exact
 * fix (the custom-architecture failure modes MAX users hit). The checker states facts; the wording,
 * the severity and what depends on the MAX version live here.
 */

const CheckSchema = schemas/* object */.Ikc({
    id: schemas/* string */.YjP(),
    status: schemas/* enum */.k5n(['ok', 'fail', 'warn', 'skip']),
    spec: schemas/* string */.YjP().optional(),
    module: schemas/* string */.YjP().optional(),
    kind: schemas/* string */.YjP().optional(),
    error: schemas/* string */.YjP().optional(),
    detail: schemas/* string */.YjP().optional(),
    entry: schemas/* string */.YjP().optional(),
    file: schemas/* string */.YjP().optional(),
    expected: schemas/* string */.YjP().optional(),
    found: schemas/* string */.YjP().optional(),
    names: schemas/* array */.YOg(schemas/* string */.YjP()).optional(),
})
    .loose();
const PreflightReportSchema = schemas/* object */.Ikc({
    python: schemas/* string */.YjP().optional(),
    executable: schemas/* string */.YjP().optional(),
    max: schemas/* object */.Ikc({ importable: schemas/* boolean */.zMY(), version: schemas/* string */.YjP().nullable().optional(), error: schemas/* string */.YjP().optional() }).loose().optional(),
    checks: schemas/* array */.YOg(CheckSchema),
})
    .loose();
function before26_5(version) {
    const match = /^(\d+)\.(\d+)/.exec(version ?? '');
    if (!match)
        return true;
    const [major, minor] = [Number(match[1]), Number(match[2])];
    return major < 26 || (major === 26 && minor < 5);
}
function messageFor(check, context) {
    const spec = check.spec ? `custom-architectures ${check.spec}` : 'custom-architectures';
    const names = (check.names ?? []).join(', ');
    switch (check.id) {
        case 'max-not-importable':
            return {
                severity: 'warning',
                check: check.id,
                message: `the python that runs max cannot import it (${check.detail ?? 'unknown error'}); the custom-architecture checks that need MAX were skipped`,
                fix: 'run profile-gate where `python -c "import max"` works (the environment MAX is installed in)',
            };
        case 'spec-form':
            return { severity: 'error', check: check.id, message: `${spec}: ${check.detail ?? 'bad spec'}`, fix: 'give a directory path, or IMPORT_PATH:MODULE_NAME with exactly one colon' };
        case 'spec-path':
            return { severity: 'error', check: check.id, message: `${spec}: ${check.detail ?? 'directory not found'}`, fix: 'give the path of the package directory (the folder with __init__.py), relative to the working directory' };
        case 'pythonpath-trap':
            return {
                severity: 'error',
                check: check.id,
                message: `${spec}: PYTHONPATH contains the package directory ${check.entry}, so \`import ${check.module}\` can find a file inside it instead of the package ("module '${check.module}' has no attribute 'ARCHITECTURES'")`,
                fix: `remove ${check.entry} from PYTHONPATH; MAX adds its parent directory itself`,
            };
        case 'import':
            if (check.status !== 'fail')
                return undefined;
            if (check.kind === 'module-not-found')
                return { severity: 'error', check: check.id, message: `${spec}: module ${check.module} not found (${check.error})`, fix: 'check the path: its last part must be the package directory name' };
            if (check.kind === 'import-drift')
                return {
                    severity: 'error',
                    check: check.id,
                    message: `${spec}: does not import against MAX ${context.maxVersion ?? ''}`.trimEnd() + ` (${check.error}): the module uses an API this MAX does not have`,
                    fix: 'update the imports to the installed MAX (max.pipelines moved between releases), or pin the MAX version the module was written for',
                };
            return { severity: 'error', check: check.id, message: `${spec}: importing ${check.module} raised ${check.error}`, fix: `run python -c "import ${check.module}" from its parent directory to see the full traceback` };
        case 'shadowed':
            return {
                severity: 'error',
                check: check.id,
                message: `${spec}: \`import ${check.module}\` loads ${check.file}, not the package at ${check.expected}`,
                fix: `rename the package, or remove the other ${check.module} from sys.path (PYTHONPATH, the working directory, an installed package of that name)`,
            };
        case 'architectures-list':
            if (check.status !== 'fail')
                return undefined;
            return {
                severity: 'error',
                check: check.id,
                message: `${spec}: the module imported but exposes no ARCHITECTURES list (found ${check.found ?? 'nothing'}); MAX fails with "Custom model imported, but did not expose an \`ARCHITECTURES\` list."`,
                fix: `define ARCHITECTURES = [<your SupportedArchitecture>] in ${check.module ?? 'the package'}/__init__.py`,
            };
        case 'name-collision':
            if (check.status !== 'warn')
                return undefined;
            return {
                severity: 'warning',
                check: check.id,
                message: `${spec}: ${names} is also a built-in MAX architecture; MAX 26.5 overrides the built-in (logged "Overriding existing architecture"), some earlier versions refuse with "Refusing to override existing architecture"`,
                fix: 'if MAX refuses, upgrade MAX, or give the architecture a distinct name and put that name in the model config.json "architectures"',
            };
        case 'embeddings-serve':
            if (check.status !== 'warn')
                return undefined;
            return {
                severity: before26_5(context.maxVersion) ? 'error' : 'warning',
                check: check.id,
                message: `${spec}: ${names} is an embeddings architecture; max serve before 26.5 detects the task before it imports custom architectures and fails with "Architecture '${check.names?.[0] ?? 'X'}' not found in registry"`,
                fix: 'use MAX 26.5 or newer for max serve, or measure the model with max-mode generate / the Python API',
            };
        case 'chat-template':
            if (check.status !== 'warn')
                return undefined;
            if (context.mode === 'generate' && !before26_5(context.maxVersion))
                return undefined;
            return {
                severity: context.mode === 'serve' ? 'error' : 'warning',
                check: check.id,
                message: `the model's tokenizer has no chat template (${check.detail}); ${context.mode === 'serve' ? 'chat requests to max serve' : 'max generate before 26.5'} fail with "tokenizer.chat_template is not set"`,
                fix: context.mode === 'serve' ? 'pass --chat-template in max-args (a passthrough template for a base model), or benchmark /v1/completions (benchmark-args: --endpoint /v1/completions)' : 'pass --chat-template in max-args, or use MAX 26.5 or newer',
            };
        case 'checker-error':
            return { severity: 'warning', check: check.id, message: `the custom-architecture checker failed (${check.detail}); checks skipped` };
        default:
            return check.status === 'fail' ? { severity: 'error', check: check.id, message: `${spec}: ${check.id} failed${check.detail ? ` (${check.detail})` : ''}` } : undefined;
    }
}
function preflightMessages(report, context) {
    const maxVersion = context.maxVersion ?? report.max?.version ?? null;
    return report.checks.map((check) => messageFor(check, { mode: context.mode, maxVersion })).filter((m) => m !== undefined);
}
/** Parse the checker's stdout: the last line that is a JSON object (imports may print above it). */
function parsePreflightOutput(text) {
    const lines = text.split(/\r?\n/).filter((line) => line.trim().startsWith('{'));
    for (let i = lines.length - 1; i >= 0; i -= 1) {
        try {
            const parsed = PreflightReportSchema.safeParse(JSON.parse(lines[i]));
            if (parsed.success)
                return parsed.data;
        }
        catch {
            // not this line
        }
    }
    return undefined;
}

// EXTERNAL MODULE: external "node:http"
var external_node_http_ = __webpack_require__(37067);
;// CONCATENATED MODULE: ./src/runner/serve.ts
/**
 * `max serve` for the length of the benchmark windows: started in its own process group, checked
 * for an early death or an error in its log within seconds, then polled on /health with a bounded
 * wait, watched while the benchmark runs, and stopped by its group (never by name).
 */

/** Log lines that mean the server will not come up, with what to do about each. Most specific first. */
const SERVE_ERRORS = [
    { pattern: /address already in use|\[Errno 98\]/i, problem: 'the port is already in use', fix: 'stop the process holding the port, or pass another --port N in max-args' },
    { pattern: /CUDA_ERROR_OUT_OF_MEMORY|out of memory|OutOfMemoryError|hipErrorOutOfMemory/i, problem: 'the GPU ran out of memory while loading the model', fix: 'free the GPU, or lower --max-batch-size / --max-length in max-args, or use a smaller quantization (--quantization-encoding)' },
    { pattern: /not found in registry/i, problem: 'the architecture is not registered with MAX', fix: 'check the custom-architectures option; for an embeddings model, max serve before 26.5 detects the task before it imports custom architectures' },
    {
        pattern: /Repository Not Found|RepositoryNotFoundError|404 Client Error|is not a local folder and is not a valid model identifier|does not appear to have a file named|GatedRepoError/i,
        problem: 'the model was not found',
        fix: 'check the model option (a Hugging Face id or a local path); for a gated model set HF_TOKEN in the job environment',
    },
    { pattern: /No such option|Got unexpected extra argument|Invalid value for|Missing option|unrecognized arguments/i, problem: 'max serve rejected a flag', fix: 'fix max-args (see max serve --help for this MAX version)' },
];
/**
 * Markers of trouble in the log before the server is ready (from Modular's own serve checks). With
 * a known cause (SERVE_ERRORS) the server is stopped at once; a bare traceback is reported and the
 * wait goes on, since a server can log one and still come up.
 */
const FAILURE_MARKERS = /Traceback \(most recent call last\)|CUDA_ERROR|not found in registry|address already in use|\[Errno 98\]|^Error: /i;
function classifyServeLog(lines) {
    for (const known of SERVE_ERRORS)
        if (lines.some((line) => known.pattern.test(line)))
            return { problem: known.problem, fix: known.fix };
    return undefined;
}
/** GET the URL; the status code, or null when nothing answers within two seconds. */
const httpHealthCheck = (url) => new Promise((resolve) => {
    const req = (0,external_node_http_.request)(url, { method: 'GET', timeout: 2000 }, (res) => {
        res.resume();
        resolve(res.statusCode ?? null);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
    req.end();
});
const DEFAULT_SERVE_TIMING = { earlyCheckMs: 3000, pollMs: 1000, progressMs: 30_000 };
const serve_sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
function lastLine(lines) {
    return lines.length ? JSON.stringify(lines[lines.length - 1].slice(0, 200)) : '(nothing yet)';
}
async function startServer(groups, step, plan, options) {
    const timing = options.timing ?? DEFAULT_SERVE_TIMING;
    const health = options.health ?? httpHealthCheck;
    const recent = [];
    let ready = false;
    let markerAt;
    let warned = false;
    const started = Date.now();
    const running = groups.start({
        argv: step.argv,
        cwd: options.cwd,
        env: options.env,
        logFile: step.logFile,
        onLine: (line) => {
            options.logger.output(line);
            recent.push(line);
            if (recent.length > 60)
                recent.shift();
            if (!ready && markerAt === undefined && FAILURE_MARKERS.test(line))
                markerAt = Date.now();
        },
    });
    let exit;
    const exited = running.done.then((outcome) => (exit = outcome));
    const server = { process: running, exited, recentLines: () => [...recent] };
    const failure = async (what, timedOut = false) => {
        await running.stop();
        await exited;
        const known = classifyServeLog(recent);
        const detail = known ? `${known.problem}. Fix: ${known.fix}` : `last log line: ${lastLine(recent)}`;
        return { ok: false, message: `max serve ${what}: ${detail} (log: ${step.logFile})`, timedOut, server };
    };
    const deathMessage = () => {
        if (exit?.startError)
            return `could not start (${exit.startError})`;
        return `exited with ${exit?.signal ? `signal ${exit.signal}` : `code ${exit?.exitCode}`} after ${((Date.now() - started) / 1000).toFixed(1)} s`;
    };
    // Early check: alive, and no error in the log, for a few seconds.
    const earlyEnd = started + timing.earlyCheckMs;
    while (Date.now() < earlyEnd) {
        if (exit)
            return failure(deathMessage());
        if (markerAt !== undefined && Date.now() - markerAt > 500) {
            if (classifyServeLog(recent))
                return failure('logged an error while starting');
            if (!warned)
                options.logger.warning(`max serve logged an error while starting (${lastLine(recent)}); still waiting for it to come up or exit`);
            warned = true;
        }
        await serve_sleep(Math.min(100, timing.earlyCheckMs));
    }
    options.logger.info(`waiting up to ${Math.round(options.readyTimeoutMs / 1000)} s for ${plan.healthUrl} to answer 200 (model download and compile happen now)`);
    const deadline = started + options.readyTimeoutMs;
    let nextProgress = Date.now() + timing.progressMs;
    while (Date.now() < deadline) {
        if (exit)
            return failure(deathMessage());
        if (markerAt !== undefined && Date.now() - markerAt > 500) {
            if (classifyServeLog(recent))
                return failure('logged an error while starting');
            if (!warned)
                options.logger.warning(`max serve logged an error while starting (${lastLine(recent)}); still waiting for it to come up or exit`);
            warned = true;
        }
        if (groups.isCancelled())
            return failure('was stopped: the run was cancelled');
        if ((await health(plan.healthUrl)) === 200) {
            ready = true;
            const seconds = (Date.now() - started) / 1000;
            options.logger.info(`${plan.healthUrl} answered 200 after ${seconds.toFixed(1)} s`);
            return { ok: true, server, seconds };
        }
        if (Date.now() >= nextProgress) {
            options.logger.info(`still waiting for ${plan.healthUrl} (${Math.round((Date.now() - started) / 1000)} s; last log line: ${lastLine(recent)})`);
            nextProgress = Date.now() + timing.progressMs;
        }
        await serve_sleep(timing.pollMs);
    }
    return failure(`did not answer 200 on ${plan.healthUrl} within ${Math.round(options.readyTimeoutMs / 1000)} s`, true);
}

;// CONCATENATED MODULE: ./src/runner/shell-words.ts
/**
 * Splitting an option such as `max-args: --max-length 2048 --prompt "two words"` into argv the way a
 * POSIX shell would (quotes and backslashes only: no expansion, no globbing), and quoting argv back
 * into one line for the plan and the logs.
 */
function splitShellWords(text) {
    const words = [];
    let current = '';
    let inWord = false;
    let quote = null;
    for (let i = 0; i < text.length; i += 1) {
        const char = text[i];
        if (quote === "'") {
            if (char === "'")
                quote = null;
            else
                current += char;
            continue;
        }
        if (quote === '"') {
            if (char === '"')
                quote = null;
            else if (char === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1]))
                current += text[++i];
            else
                current += char;
            continue;
        }
        if (char === "'" || char === '"') {
            quote = char;
            inWord = true;
        }
        else if (char === '\\' && i + 1 < text.length) {
            if (text[i + 1] !== '\n')
                current += text[i + 1];
            i += 1;
            inWord = true;
        }
        else if (/\s/.test(char)) {
            if (inWord)
                words.push(current);
            current = '';
            inWord = false;
        }
        else {
            current += char;
            inWord = true;
        }
    }
    if (quote)
        throw new Error(`unterminated ${quote} quote`);
    if (inWord)
        words.push(current);
    return words;
}
const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;
function quoteShellWord(word) {
    if (word !== '' && SAFE_WORD.test(word))
        return word;
    return `'${word.replace(/'/g, `'\\''`)}'`;
}
function formatCommand(argv) {
    return argv.map(quoteShellWord).join(' ');
}
/** The value given to `--name VALUE` or `--name=VALUE` in argv (the last one wins, as in argparse). */
function flagValue(argv, name) {
    let value;
    for (let i = 0; i < argv.length; i += 1) {
        const word = argv[i];
        if (word === name && i + 1 < argv.length)
            value = argv[i + 1];
        else if (word.startsWith(`${name}=`))
            value = word.slice(name.length + 1);
    }
    return value;
}
function hasFlag(argv, name) {
    return argv.some((word) => word === name || word.startsWith(`${name}=`));
}

;// CONCATENATED MODULE: ./src/runner/execute.ts
/**
 * Carrying out a plan: each step in a log group with its time, its process group stopped at its
 * limit or at the run's deadline, its files checked before they count. A failed warm-up, measured
 * run or server stops the run; a failed profile leaves a gap the report tells about.
 */








function describeExit(outcome) {
    if (outcome.startError)
        return outcome.startError;
    if (outcome.signal)
        return `was killed by ${outcome.signal}`;
    return `exited with code ${outcome.exitCode}`;
}
function execute_tailText(outcome) {
    const lines = outcome.tail.slice(-5).map((line) => line.slice(0, 300));
    return lines.length ? ` Last output: ${lines.map((line) => JSON.stringify(line)).join(' / ')}` : '';
}
/** An extra hint for failures with a known cause. */
function knownCause(step, outcome) {
    const text = outcome.tail.join('\n');
    if (/libdw\.so\.1/.test(text))
        return ` Fix: ${INSTALL.libdw}.`;
    if (outcome.startError && /not found/.test(outcome.startError)) {
        const program = step.argv[0] ?? '';
        const tool = ['nsys', 'ncu', 'rocprofv3', 'max'].find((name) => program.endsWith(name));
        if (tool)
            return ` Install: ${INSTALL[tool]}.`;
    }
    if (/Process launch is not allowed in this state/.test(text))
        return ' A stale nsys session is still open: run `nsys sessions list` and `nsys shutdown --session=<name>`.';
    // Timeouts and cancellation are reported before this; a SIGKILL here came from outside the run.
    if (outcome.signal === 'SIGKILL')
        return " A SIGKILL that the run did not send is usually the kernel's out-of-memory killer: check `dmesg` and the runner's memory.";
    return '';
}
async function executePlan(plan, deps) {
    const { logger, groups } = deps;
    const started = Date.now();
    const deadline = started + plan.budgetSeconds * 1000;
    const reserveMs = (deps.reserveSeconds ?? 15) * 1000;
    const records = [];
    const files = [];
    const notices = [...plan.notices];
    let server;
    let stopReason;
    const failedSteps = new Set();
    const display = (path) => (path.startsWith(`${plan.cwd}/`) ? (0,external_node_path_.relative)(plan.cwd, path) : path);
    const envFor = (step) => {
        if (!step.pathPrepend.length)
            return step.env;
        return { ...step.env, PATH: [...step.pathPrepend, process.env.PATH ?? ''].join(external_node_path_.delimiter) };
    };
    const verify = async (step, extra) => {
        const found = [];
        const problems = [];
        const outputs = [...step.outputs, ...extra];
        if (step.findOutputs) {
            const matches = await findBySuffix(step.findOutputs.dir, step.findOutputs.suffix);
            if (matches.length === 0)
                problems.push(`no *${step.findOutputs.suffix} under ${display(step.findOutputs.dir)}`);
            for (const path of matches)
                outputs.push({ path, kind: step.findOutputs.kind, analysis: true });
        }
        for (const output of outputs) {
            const check = output.kind === 'workload-console' ? await consoleAnalysisFile(output.path) : { ...(await checkOutput(output.path, output.kind)), path: output.path };
            if (check.ok)
                found.push({ path: check.path, kind: output.kind, analysis: output.analysis, bytes: check.bytes, step: step.id });
            else if (output.optional) {
                // Said once for all the runs of a workload whose console carries no metrics.
                const message = output.kind === 'workload-console' ? `the workload's console ${check.reason}` : `${step.id}: ${display(output.path)} ${check.reason}`;
                if (!notices.some((notice) => notice.message === message))
                    notices.push({ severity: 'info', message });
            }
            else
                problems.push(`${display(output.path)} ${check.reason}${output.hint ? ` (${output.hint})` : ''}`);
        }
        return problems.length ? { files: found, problem: problems.join('; ') } : { files: found };
    };
    const runProcessStep = async (step, timeoutMs) => {
        const stepStart = Date.now();
        const cwd = step.cwd ?? plan.cwd;
        const capturesBefore = step.collect ? await matchCaptures(step.collect.globs, cwd) : new Map();
        logger.info(`${step.cwd ? `(in ${step.cwd}) ` : ''}$ ${formatCommand(step.argv.map(display))}`);
        const running = groups.start({
            argv: step.argv,
            cwd,
            env: envFor(step),
            logFile: step.logFile,
            ...(step.stdoutFile ? { stdoutFile: step.stdoutFile } : {}),
            timeoutMs,
            onLine: (line) => logger.output(line),
        });
        let outcome;
        let serverDied = false;
        if (server && (step.role === 'benchmark' || step.role === 'benchmark-warmup' || step.role === 'profile')) {
            const watched = server;
            const first = await Promise.race([running.done.then(() => 'step'), watched.exited.then(() => 'server')]);
            if (first === 'server') {
                serverDied = true;
                await running.stop();
            }
            outcome = await running.done;
        }
        else
            outcome = await running.done;
        const seconds = (Date.now() - stepStart) / 1000;
        const base = { id: step.id, title: step.title, seconds, exitCode: outcome.exitCode, logFile: step.logFile };
        if (outcome.leftovers > 0)
            notices.push({ severity: 'info', message: `${step.id}: ${outcome.leftovers} process(es) of its group were still running after it exited and were stopped` });
        if (outcome.cutLines > 0) {
            const lines = outcome.cutLines === 1 ? '1 output line longer than' : `${outcome.cutLines} output lines longer than`;
            notices.push({ severity: 'warning', message: `${step.id}: ${lines} ${MAX_LINE_BYTES} bytes ${outcome.cutLines === 1 ? 'was' : 'were'} cut (${outcome.cutBytes} bytes dropped; log: ${display(step.logFile)})` });
        }
        if (serverDied) {
            const exit = await server.exited;
            const lines = server.recentLines().slice(-3).map((line) => JSON.stringify(line.slice(0, 200)));
            return { record: { ...base, status: 'failed', message: `max serve exited (${describeExit(exit)}) during ${step.title.toLowerCase()}; its last log lines: ${lines.join(' / ') || '(none)'}` }, files: [] };
        }
        if (outcome.cancelled)
            return { record: { ...base, status: 'cancelled', message: `${step.title} was stopped: the run was cancelled` }, files: [] };
        if (outcome.timedOut)
            return { record: { ...base, status: 'timeout', message: `${step.title} did not finish within ${Math.round(timeoutMs / 1000)} s and was stopped (log: ${display(step.logFile)}).${execute_tailText(outcome)}` }, files: [] };
        if (outcome.exitCode !== 0)
            return { record: { ...base, status: 'failed', message: `${step.title} ${describeExit(outcome)} (log: ${display(step.logFile)}).${knownCause(step, outcome)}${execute_tailText(outcome)}` }, files: [] };
        const derived = [];
        if (step.derive) {
            const dropped = await deriveProfileConsole(step.derive.from, step.derive.to);
            derived.push({ path: step.derive.to, kind: 'max-generate', analysis: true });
            if (dropped)
                logger.info(`${display(step.derive.to)}: the profiled run's console without its ${dropped} timing lines (profiling slows the run)`);
        }
        const collected = [];
        if (step.collect) {
            const copies = await collectCaptures(step.collect.globs, cwd, capturesBefore, step.collect.into);
            if (copies.length === 0)
                notices.push({ severity: 'warning', message: `${step.id}: the step wrote no file matching captures ${step.collect.globs.join(', ')}` });
            for (const path of copies) {
                const check = await checkOutput(path, 'workload-capture');
                if (check.ok)
                    collected.push({ path, kind: 'workload-capture', analysis: step.collect.analysis, bytes: check.bytes, step: step.id });
                else
                    notices.push({ severity: 'warning', message: `${step.id}: capture ${display(path)} ${check.reason}; left out of the analysis` });
            }
        }
        const verified = await verify(step, derived);
        if (verified.problem)
            return { record: { ...base, status: 'failed', message: `${step.title} exited 0 but ${verified.problem} (log: ${display(step.logFile)})` }, files: [...collected, ...verified.files] };
        return { record: { ...base, status: 'ok' }, files: [...collected, ...verified.files] };
    };
    const runPreflight = async (step, timeoutMs) => {
        const result = await runProcessStep({ ...step, outputs: [] }, timeoutMs);
        if (result.record.status === 'cancelled')
            return result;
        const text = step.stdoutFile ? await (0,promises_.readFile)(step.stdoutFile, 'utf8').catch(() => '') : '';
        const report = parsePreflightOutput(text);
        if (!report) {
            notices.push({ severity: 'warning', message: `custom-architecture pre-flight skipped: the checker gave no result (${result.record.message ?? 'no JSON on stdout'})` });
            return { record: { ...result.record, status: 'ok', message: 'checker gave no result; skipped' }, files: [] };
        }
        const messages = preflightMessages(report, { mode: plan.options.mode, maxVersion: plan.detected.maxVersion ?? null });
        for (const message of messages) {
            const line = `${message.message}${message.fix ? ` Fix: ${message.fix}` : ''}`;
            if (message.severity === 'error')
                logger.error(line);
            else if (message.severity === 'warning')
                logger.warning(line);
            else
                logger.info(line);
            if (message.severity !== 'error')
                notices.push({ severity: message.severity === 'warning' ? 'warning' : 'info', message: message.message, ...(message.fix ? { fix: message.fix } : {}) });
        }
        const errors = messages.filter((m) => m.severity === 'error');
        if (errors.length) {
            const text = errors.map((m) => `${m.message}${m.fix ? ` Fix: ${m.fix}` : ''}`).join(' | ');
            return { record: { ...result.record, status: 'failed', message: `custom-architecture pre-flight failed: ${text}` }, files: [] };
        }
        logger.info('custom architectures: pre-flight passed');
        return { record: { ...result.record, status: 'ok' }, files: [] };
    };
    const runServe = async (step, timeoutMs) => {
        const stepStart = Date.now();
        logger.info(`${step.cwd ? `(in ${step.cwd}) ` : ''}$ ${formatCommand(step.argv.map(display))}`);
        const start = await startServer(groups, step, plan.serve, {
            logger,
            env: envFor(step),
            cwd: step.cwd ?? plan.cwd,
            readyTimeoutMs: timeoutMs,
            ...(deps.serveTiming ? { timing: deps.serveTiming } : {}),
            ...(deps.health ? { health: deps.health } : {}),
        });
        const seconds = (Date.now() - stepStart) / 1000;
        const base = { id: step.id, title: step.title, seconds, logFile: step.logFile };
        if (!start.ok) {
            const status = groups.isCancelled() ? 'cancelled' : start.timedOut ? 'timeout' : 'failed';
            return { record: { ...base, status, message: start.message }, files: [] };
        }
        server = start.server;
        return { record: { ...base, status: 'ok' }, files: [] };
    };
    const stopServer = async (step) => {
        const stepStart = Date.now();
        const id = step?.id ?? 'serve-stop';
        const title = step?.title ?? 'Stop the server';
        if (!server)
            return { id, title, status: 'skipped', seconds: 0 };
        const pid = server.process.pid;
        if (!server.process.exited()) {
            logger.info(`stopping the server's process group ${pid} (SIGTERM, SIGKILL after ${groups.graceMs / 1000} s)`);
            await server.process.stop();
        }
        await server.exited;
        server = undefined;
        return { id, title, status: 'ok', seconds: (Date.now() - stepStart) / 1000, message: `process group ${pid} stopped` };
    };
    try {
        for (const step of plan.steps) {
            if (stopReason || groups.isCancelled()) {
                if (step.role === 'serve-stop')
                    records.push(await logger.group(step.title, () => stopServer(step)));
                else
                    records.push({ id: step.id, title: step.title, status: 'skipped', seconds: 0 });
                continue;
            }
            if (step.role === 'profile-stats' && failedSteps.has(`${step.side ?? 'head'}:profile`)) {
                records.push({ id: step.id, title: step.title, status: 'skipped', seconds: 0, message: 'the profiled run failed' });
                continue;
            }
            if (step.role === 'serve-stop') {
                records.push(await logger.group(step.title, () => stopServer(step)));
                continue;
            }
            const remaining = deadline - Date.now() - (server ? reserveMs : 0);
            if (remaining <= 0) {
                stopReason = { outcome: 'timeout', message: `the run reached its time budget (timeout-minutes ${plan.options.timeoutMinutes}) before ${step.title.toLowerCase()}` };
                records.push({ id: step.id, title: step.title, status: 'skipped', seconds: 0 });
                continue;
            }
            const timeoutMs = Math.min(step.timeoutSeconds * 1000, remaining);
            const result = await logger.group(step.title, async () => {
                const outcome = step.role === 'preflight' ? await runPreflight(step, timeoutMs) : step.role === 'serve' ? await runServe(step, timeoutMs) : await runProcessStep(step, timeoutMs);
                const mark = outcome.record.status === 'ok' ? 'done' : outcome.record.status;
                logger.info(`${step.id}: ${mark} in ${outcome.record.seconds.toFixed(1)} s`);
                if (outcome.record.message && outcome.record.status !== 'ok') {
                    if (step.onFailure === 'stop')
                        logger.error(outcome.record.message);
                    else
                        logger.warning(outcome.record.message);
                }
                return outcome;
            });
            records.push(result.record);
            files.push(...(step.side ? result.files.map((file) => ({ ...file, side: step.side })) : result.files));
            if (result.record.status === 'ok')
                continue;
            failedSteps.add(step.role === 'profile' ? `${step.side ?? 'head'}:profile` : step.id);
            if (result.record.status === 'cancelled')
                stopReason = { outcome: 'cancelled', message: 'the run was cancelled' };
            else if (step.onFailure === 'stop')
                stopReason = { outcome: result.record.status === 'timeout' ? 'timeout' : 'failed', message: result.record.message ?? `${step.title} failed` };
            else
                notices.push({ severity: 'warning', message: `${result.record.message ?? `${step.title} failed`} The report has no ${step.role === 'profile' || step.role === 'profile-stats' ? 'kernel profile' : `data from ${step.id}`}.` });
        }
    }
    finally {
        if (server)
            records.push(await logger.group('Stop the server', () => stopServer()));
    }
    const outcome = groups.isCancelled() ? 'cancelled' : stopReason?.outcome ?? 'ok';
    const analysisInputs = files.filter((file) => file.analysis && !file.side).map((file) => file.path);
    const baseAnalysisInputs = files.filter((file) => file.analysis && file.side === 'base').map((file) => file.path);
    const missing = analysisInputs.length === 0 ? 'the head' : plan.base && baseAnalysisInputs.length === 0 ? 'the base' : undefined;
    if (outcome === 'ok' && missing) {
        const message = `every step finished but no capture file was produced for ${plan.base ? `${missing}'s analysis` : 'the analysis'}`;
        return { outcome: 'failed', message, steps: records, files, analysisInputs, baseAnalysisInputs, notices, seconds: (Date.now() - started) / 1000 };
    }
    return {
        outcome,
        ...(outcome !== 'ok' ? { message: stopReason?.message ?? 'the run was cancelled' } : {}),
        steps: records,
        files,
        analysisInputs,
        baseAnalysisInputs,
        notices,
        seconds: (Date.now() - started) / 1000,
    };
}

;// CONCATENATED MODULE: ./src/runner/profilers.ts
/**
 * Which profiler a run uses on this box (what `profiler: auto` means, and the fallback with its
 * install line when a tool is missing), and the exact profiler command lines.
 */


function resolveProfiler(options, detected, notices) {
    const { nsys, rocprofv3 } = detected.tools;
    const nvidia = detected.vendor === 'nvidia';
    const amd = detected.vendor === 'amd';
    const requested = options.profiler;
    const missing = (tool, fallback) => {
        notices.push({ severity: 'warning', message: `${tool} not found: ${fallback}`, fix: INSTALL[tool] });
        return 'none';
    };
    const noGpu = () => {
        if (requested !== 'auto' && requested !== 'none')
            notices.push({ severity: 'warning', message: `profiler ${requested}: no GPU found, so no kernel profile; the run measures throughput only` });
        return 'none';
    };
    if (options.engine === 'command') {
        if (requested === 'torch' || (requested === 'auto' && options.captures.length > 0))
            return 'torch';
        if (requested === 'none')
            return 'none';
        if (!detected.vendor)
            return noGpu();
        if (requested === 'rocprofv3' || (requested === 'auto' && amd)) {
            if (!amd)
                return noGpu();
            return rocprofv3 ? 'rocprofv3' : missing('rocprofv3', 'no kernel profile; utilization and throughput only');
        }
        if (!nvidia)
            return noGpu();
        return nsys ? 'nsys' : missing('nsys', 'no kernel profile; utilization and throughput only');
    }
    if (options.mode === 'serve') {
        if (requested === 'auto') {
            notices.push({ severity: 'info', message: 'serve mode records benchmark metrics and GPU utilization; set profiler: nsys to also run the server under nsys launch and trace one benchmark window' });
            return 'none';
        }
        if (requested === 'none')
            return 'none';
        if (requested === 'rocprofv3') {
            notices.push({ severity: 'warning', message: 'profiler rocprofv3 is not supported with max serve; the run measures throughput only' });
            return 'none';
        }
        if (!nvidia)
            return noGpu();
        return nsys ? 'nsys' : missing('nsys', 'the server runs without a kernel trace; benchmark metrics and utilization only');
    }
    if (requested === 'none')
        return 'none';
    if (!detected.vendor)
        return noGpu();
    if (amd) {
        if (requested !== 'auto' && requested !== 'rocprofv3')
            notices.push({ severity: 'warning', message: `profiler ${requested} needs an NVIDIA GPU; this box has an AMD GPU, using rocprofv3` });
        return rocprofv3 ? 'rocprofv3' : missing('rocprofv3', 'no kernel profile; utilization and throughput only');
    }
    if (requested === 'rocprofv3')
        return noGpu();
    if (!nsys)
        return missing('nsys', `no kernel profile${requested === 'max' || requested === 'auto' ? ' (max generate --profile needs nsys on PATH)' : ''}; utilization and throughput only`);
    if (requested === 'nsys')
        return 'nsys';
    if (maxHasProfileFlag(detected.maxVersion))
        return 'max';
    notices.push({
        severity: requested === 'max' ? 'warning' : 'info',
        message: `MAX ${detected.maxVersion ?? '(version unknown)'} has no max generate --profile (added in 26.4): nsys records the whole profiled run, model load and warm-up included`,
    });
    return 'nsys';
}
function nsysProfileArgs(nsys, output, captureRange) {
    return [
        nsys,
        'profile',
        '--trace=cuda,nvtx',
        ...(captureRange ? ['--capture-range=cudaProfilerApi', '--capture-range-end=stop'] : []),
        '--cuda-graph-trace=node',
        '--sample=none',
        '--cpuctxsw=none',
        '--force-overwrite=true',
        '--output',
        output,
    ];
}
function nsysStatsArgs(nsys, rep) {
    return [nsys, 'stats', '--force-export=true', '--report', 'cuda_gpu_kern_sum,cuda_api_sum', '--format', 'csv', rep];
}
/** Every chunk's in-use share (threshold 100 lists them all), so the rows cover the whole capture range. */
function nsysGpuUtilArgs(nsys, rep) {
    return [nsys, 'analyze', '--rule', 'gpu_time_util:threshold=100', '--format', 'csv', rep];
}
function rocprofArgs(rocprofv3, dir) {
    return [rocprofv3, '--kernel-trace', '--stats', '--output-format', 'csv', '-d', dir, '-o', 'profile', '--'];
}

;// CONCATENATED MODULE: ./src/runner/plan-steps.ts
/**
 * The steps of each kind of run, with their exact commands and files: `max generate`, `max serve`
 * with benchmark windows, and a command workload. Each run writes its consoles to logs/<step>.log
 * and what the analysis reads to captures/.
 */



const SNAPSHOT_INTERVAL_SECONDS = 0.5;
function createStepBuilder(options, detected, context, profiler, sampling, base) {
    const out = (...parts) => (base ? (0,external_node_path_.join)(context.outDir, 'base', ...parts) : (0,external_node_path_.join)(context.outDir, ...parts));
    const log = (id) => out('logs', `${id}.log`);
    const python = options.engine === 'max' ? detected.tools.python : 'python3';
    const step = (input) => {
        const planned = { env: {}, pathPrepend: [], timeoutSeconds: 0, logFile: log(input.id), outputs: [], ...input };
        return base ? { ...planned, id: `base-${input.id}`, title: `Base: ${input.title}`, side: 'base', cwd: base.cwd } : planned;
    };
    const count = (n) => Array.from({ length: n }, (_, i) => i + 1);
    return {
        options,
        detected,
        profiler,
        out,
        log,
        step,
        sampled: (argv, file) => (sampling ? [python, (0,external_node_path_.join)(context.pythonDir, 'gpu_snapshot.py'), '--interval', String(SNAPSHOT_INTERVAL_SECONDS), '--out', file, '--run', ...argv] : argv),
        snapshotOutput: (file) => (sampling ? [{ path: file, kind: 'gpu-snapshot-jsonl', analysis: true }] : []),
        nsysStats(rep, hint) {
            const csv = out('captures', 'profile.nsys-stats.csv');
            const util = out('captures', 'profile.gpu-time-util.csv');
            return [
                step({ id: 'profile-stats', role: 'profile-stats', title: 'Kernel summary (nsys stats)', argv: nsysStatsArgs(detected.tools.nsys, rep), stdoutFile: csv, outputs: [{ path: csv, kind: 'nsys-stats', analysis: true, ...(hint ? { hint } : {}) }], onFailure: 'continue', weight: 1 }),
                step({ id: 'profile-gpu-util', role: 'profile-stats', title: 'GPU in use over the capture (nsys analyze gpu_time_util)', argv: nsysGpuUtilArgs(detected.tools.nsys, rep), stdoutFile: util, outputs: [{ path: util, kind: 'nsys-gpu-time-util', analysis: true, optional: true }], onFailure: 'continue', weight: 0.5 }),
            ];
        },
        nsysDir: detected.tools.nsys ? [detected.tools.nsys.slice(0, detected.tools.nsys.lastIndexOf('/')) || '/'] : [],
        preflight() {
            if (options.engine !== 'max' || options.customArchitectures.length === 0)
                return [];
            const argv = [python, (0,external_node_path_.join)(context.pythonDir, 'preflight_custom_arch.py'), '--mode', options.mode, '--model', options.model ?? ''];
            for (const spec of options.customArchitectures)
                argv.push('--spec', spec);
            // One word with '=': argparse would take a lone value like --trust-remote-code for an option.
            if (options.maxArgs.length)
                argv.push(`--max-args=${options.maxArgs.join(' ')}`);
            return [step({ id: 'preflight', role: 'preflight', title: 'Pre-flight: custom architectures', argv, stdoutFile: out('logs', 'preflight.json'), onFailure: 'stop', weight: 0 })];
        },
        warmups: count(options.warmupRuns),
        runs: count(options.runs),
        ...(context.portInUse ? { portInUse: context.portInUse } : {}),
    };
}
/** The first run of the job compiles the model: it gets the largest share of the time. */
function runWeight(b, role, i) {
    const first = role === 'warmup' ? i === 1 : b.options.warmupRuns === 0 && i === 1;
    return first ? 3 : 1.5;
}
/**
 * Warm-up runs, then measured runs sampled by gpu_snapshot: the same for `max generate` and a command
 * workload. `measured` gives what each measured run writes (its console as an analysis input, captures).
 */
function warmupAndMeasuredSteps(b, argv, measured) {
    const { options } = b;
    const steps = [];
    for (const i of b.warmups)
        steps.push(b.step({ id: `warmup-${i}`, role: 'warmup', title: `Warm-up run ${i}/${options.warmupRuns}`, argv, onFailure: 'stop', weight: runWeight(b, 'warmup', i) }));
    for (const i of b.runs) {
        const snapshot = b.out('captures', `measured-${i}.gpu.jsonl`);
        const { outputs = [], ...rest } = measured(i);
        steps.push(b.step({
            id: `measured-${i}`,
            role: 'measured',
            title: `Measured run ${i}/${options.runs}`,
            argv: b.sampled(argv, snapshot),
            outputs: [...outputs, ...b.snapshotOutput(snapshot)],
            ...rest,
            onFailure: 'stop',
            weight: runWeight(b, 'measured', i),
        }));
    }
    return steps;
}
function archFlags(options) {
    return options.customArchitectures.flatMap((spec) => ['--custom-architectures', spec]);
}
function maxGenerateSteps(b) {
    const { options, detected } = b;
    const generate = [
        'max',
        'generate',
        '--model',
        options.model ?? '',
        ...(hasFlag(options.maxArgs, '--max-new-tokens') ? [] : ['--max-new-tokens', String(options.maxNewTokens)]),
        ...(options.prompt !== undefined && !hasFlag(options.maxArgs, '--prompt') ? ['--prompt', options.prompt] : []),
        ...archFlags(options),
        ...options.maxArgs,
    ];
    const steps = warmupAndMeasuredSteps(b, generate, (i) => ({ outputs: [{ path: b.log(`measured-${i}`), kind: 'max-generate', analysis: true }] }));
    const rep = b.out('captures', 'profile.nsys-rep');
    if (b.profiler === 'max') {
        steps.push(b.step({
            id: 'profile',
            role: 'profile',
            title: 'Profiled run (max generate --profile)',
            argv: [...generate, '--profile', '--profile-output', rep],
            pathPrepend: b.nsysDir,
            outputs: [{ path: rep, kind: 'nsys-rep', analysis: false, optional: true }],
            derive: { from: b.log('profile'), to: b.out('captures', 'profile.max-generate.txt') },
            onFailure: 'continue',
            weight: 2.5,
        }));
    }
    else if (b.profiler === 'nsys') {
        const argv = [...nsysProfileArgs(detected.tools.nsys, rep.replace(/\.nsys-rep$/, ''), false), ...generate];
        steps.push(b.step({ id: 'profile', role: 'profile', title: 'Profiled run (nsys, whole process)', argv, outputs: [{ path: rep, kind: 'nsys-rep', analysis: false }], onFailure: 'continue', weight: 2.5 }));
        steps.push(...b.nsysStats(rep));
    }
    else if (b.profiler === 'rocprofv3') {
        const dir = b.out('captures', 'rocprof');
        steps.push(b.step({ id: 'profile', role: 'profile', title: 'Profiled run (rocprofv3)', argv: [...rocprofArgs(detected.tools.rocprofv3, dir), ...generate], findOutputs: { dir, suffix: '_kernel_stats.csv', kind: 'rocprof-csv' }, onFailure: 'continue', weight: 2.5 }));
    }
    return { steps, workload: generate };
}
function maxServeSteps(b, problems) {
    const { options, detected } = b;
    const model = options.model ?? '';
    const port = Number(flagValue(options.maxArgs, '--port') ?? 8000);
    if (!Number.isInteger(port) || port <= 0 || port > 65535)
        problems.push(`max-args: --port ${flagValue(options.maxArgs, '--port')} is not a port number`);
    else if (b.portInUse?.(port))
        problems.push(`max-args: port ${port} is already in use by another process; stop it or pass --port N in max-args`);
    const steps = [];
    const underNsys = b.profiler === 'nsys' ? [detected.tools.nsys, 'launch', '--trace=cuda,nvtx', '--cuda-graph-trace=node', '--trace-fork-before-exec=true'] : [];
    const serveArgv = [...underNsys, 'max', 'serve', '--model', model, ...archFlags(options), ...options.maxArgs];
    // A/B: each side's windows in two blocks, each with its own server start and warm-up, so that
    // the job's order is base, head, head, base (ABBA) and a drift over the job falls on both sides.
    const blocks = options.base && options.runs >= 2 ? 2 : 1;
    const suffix = (block) => (block === 1 ? '' : `-${block}`);
    const window = Math.ceil(options.captureSeconds);
    const benchmark = [
        'max',
        'benchmark',
        '--model',
        model,
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        ...options.benchmarkArgs,
        ...(flagValue(options.benchmarkArgs, '--dataset-name') === 'random' && !hasFlag(options.benchmarkArgs, '--random-output-len') ? ['--random-output-len', String(options.maxNewTokens)] : []),
        ...(hasFlag(options.benchmarkArgs, '--max-benchmark-duration-s') ? [] : ['--max-benchmark-duration-s', String(window)]),
    ];
    // A window's limit: twice its length plus tokenizer load and the test prompt.
    const windowSeconds = window * 2 + 120;
    const perBlock = Math.ceil(b.runs.length / blocks);
    for (const i of b.runs) {
        const block = Math.floor((i - 1) / perBlock) + 1;
        if ((i - 1) % perBlock === 0) {
            if (block > 1)
                steps.push(b.step({ id: `serve-stop${suffix(block - 1)}`, role: 'serve-stop', title: 'Stop the server', argv: [], timeoutSeconds: 30, onFailure: 'continue', weight: 0 }));
            const restart = block > 1 ? ` (restart ${block - 1})` : '';
            steps.push(b.step({ id: `serve${suffix(block)}`, role: 'serve', title: `Start max serve on port ${port}${restart}`, argv: serveArgv, onFailure: 'stop', weight: 3 }));
            for (const w of b.warmups)
                steps.push(b.step({ id: `benchmark-warmup${suffix(block)}-${w}`, role: 'benchmark-warmup', title: `Warm-up benchmark window ${w}/${options.warmupRuns}${restart}`, argv: benchmark, timeoutSeconds: windowSeconds, onFailure: 'stop', weight: 0 }));
        }
        const json = b.out('captures', `benchmark-${i}.json`);
        const snapshot = b.out('captures', `benchmark-${i}.gpu.jsonl`);
        steps.push(b.step({
            id: `benchmark-${i}`,
            role: 'benchmark',
            title: `Measured benchmark window ${i}/${options.runs}`,
            argv: b.sampled([...benchmark, '--result-filename', json], snapshot),
            timeoutSeconds: windowSeconds,
            outputs: [{ path: json, kind: 'max-benchmark-json', analysis: true }, { path: b.log(`benchmark-${i}`), kind: 'max-benchmark', analysis: false }, ...b.snapshotOutput(snapshot)],
            onFailure: 'stop',
            weight: 0,
        }));
    }
    const rep = b.out('captures', 'profile.nsys-rep');
    if (b.profiler === 'nsys') {
        steps.push(b.step({ id: 'profile', role: 'profile', title: 'Traced benchmark window (nsys)', argv: [...benchmark, '--trace', '--trace-file', rep], pathPrepend: b.nsysDir, timeoutSeconds: windowSeconds + 120, outputs: [{ path: rep, kind: 'nsys-rep', analysis: false }], onFailure: 'continue', weight: 0 }));
    }
    if (!b.runs.length) {
        steps.push(b.step({ id: 'serve', role: 'serve', title: `Start max serve on port ${port}`, argv: serveArgv, onFailure: 'stop', weight: 3 }));
        for (const w of b.warmups)
            steps.push(b.step({ id: `benchmark-warmup-${w}`, role: 'benchmark-warmup', title: `Warm-up benchmark window ${w}/${options.warmupRuns}`, argv: benchmark, timeoutSeconds: windowSeconds, onFailure: 'stop', weight: 0 }));
    }
    steps.push(b.step({ id: `serve-stop${suffix(blocks)}`, role: 'serve-stop', title: 'Stop the server', argv: [], timeoutSeconds: 30, onFailure: 'continue', weight: 0 }));
    // The summary is made after the server is gone, so the GPU box is free sooner.
    if (b.profiler === 'nsys')
        steps.push(...b.nsysStats(rep));
    return { steps, workload: [], serve: { port, healthUrl: `http://127.0.0.1:${port}/health` } };
}
function commandSteps(b, notices) {
    const { options, detected } = b;
    const run = ['bash', '-c', options.run ?? ''];
    const profileRun = ['bash', '-c', options.profileRun ?? options.run ?? ''];
    const collect = (id, analysis) => (options.captures.length ? { collect: { globs: options.captures, into: b.out('captures', id), analysis } } : {});
    const steps = warmupAndMeasuredSteps(b, run, (i) => ({
        outputs: [{ path: b.log(`measured-${i}`), kind: 'workload-console', analysis: true, optional: true }],
        // With a separate profile-run, the measured runs' own captures are timings, not the profile.
        ...collect(`measured-${i}`, !(b.profiler === 'torch' && options.profileRun)),
    }));
    const rep = b.out('captures', 'profile.nsys-rep');
    if (b.profiler === 'nsys') {
        if (!options.profileRun)
            notices.push({ severity: 'info', message: 'nsys records between cudaProfilerStart and cudaProfilerStop: the workload must call them around its steady-state window (torch.cuda.profiler.start()/stop()), or nothing is captured' });
        steps.push(b.step({ id: 'profile', role: 'profile', title: 'Profiled run (nsys)', argv: [...nsysProfileArgs(detected.tools.nsys, rep.replace(/\.nsys-rep$/, ''), true), ...profileRun], outputs: [{ path: rep, kind: 'nsys-rep', analysis: false }], onFailure: 'continue', weight: 2.5 }));
        steps.push(...b.nsysStats(rep, 'the capture range probably never opened: call torch.cuda.profiler.start() and stop() (cudaProfilerStart/Stop) around the steady-state window of the workload'));
    }
    else if (b.profiler === 'rocprofv3') {
        const dir = b.out('captures', 'rocprof');
        steps.push(b.step({ id: 'profile', role: 'profile', title: 'Profiled run (rocprofv3)', argv: [...rocprofArgs(detected.tools.rocprofv3, dir), ...profileRun], findOutputs: { dir, suffix: '_kernel_stats.csv', kind: 'rocprof-csv' }, onFailure: 'continue', weight: 2.5 }));
    }
    else if (b.profiler === 'torch' && options.profileRun) {
        steps.push(b.step({ id: 'profile', role: 'profile', title: "Profiled run (the workload's own profiler)", argv: profileRun, ...collect('profile', true), onFailure: 'continue', weight: 2.5 }));
    }
    return { steps, workload: run };
}

;// CONCATENATED MODULE: ./src/runner/plan.ts
/**
 * The plan: from the options and the detected box, the ordered steps with their exact commands,
 * files and time limits. Pure, so `--dry-run` shows exactly what a run would do. What the box lacks
 * becomes a notice with the install line and the fallback; what cannot work at all is a problem,
 * found here, before anything long starts.
 */






const MIN_STEP_SECONDS = 30;
function buildPlan(options, detected, context) {
    const notices = [];
    const problems = [];
    if (options.ignored.length)
        notices.push({ severity: 'info', message: `ignored for engine ${options.engine}${options.engine === 'max' ? ` (${options.mode})` : ''}: ${options.ignored.join(', ')}` });
    if (options.engine === 'max' && !detected.tools.max)
        problems.push(`engine max: the max command is not on PATH. Install MAX: ${INSTALL.max}`);
    if (options.engine === 'max' && (hasFlag(options.maxArgs, '--model') || hasFlag(options.maxArgs, '--model-path')))
        problems.push('max-args: give the model with the model option, not --model/--model-path in max-args');
    const profiler = resolveProfiler(options, detected, notices);
    const sampling = Boolean(detected.vendor) && context.gpuSnapshotAvailable;
    if (!detected.vendor)
        notices.push({ severity: 'warning', message: 'no GPU found (nvidia-smi and rocm-smi list none): GPU utilization is not sampled' });
    else if (!context.gpuSnapshotAvailable)
        notices.push({ severity: 'warning', message: `${(0,external_node_path_.join)(context.pythonDir, 'gpu_snapshot.py')} is missing: GPU utilization is not sampled` });
    const stepsFor = (builder, sideNotices, sideProblems) => {
        const built = options.engine === 'command' ? commandSteps(builder, sideNotices) : options.mode === 'serve' ? maxServeSteps(builder, sideProblems) : maxGenerateSteps(builder);
        return { built, steps: [...builder.preflight(), ...built.steps] };
    };
    const builder = createStepBuilder(options, detected, context, profiler, sampling);
    const head = stepsFor(builder, notices, problems);
    const { built } = head;
    let steps = head.steps;
    let base;
    const extraPairs = [];
    if (options.base) {
        const cwd = (0,external_node_path_.resolve)(context.cwd, options.base.workdir ?? '.');
        base = { cwd, ...(options.base.run ? { run: options.base.run } : {}) };
        if (options.base.workdir !== undefined && context.isDirectory && !context.isDirectory(cwd))
            problems.push(`base-workdir: ${cwd} is not a folder (check out the base commit there first, e.g. actions/checkout with path: ${options.base.workdir})`);
        if (!options.base.run && options.base.workdir !== undefined && cwd === context.cwd)
            problems.push('base-workdir: the base folder is the job\'s own folder, so both sides would run the same build; point it at a checkout of the base commit');
        const { profileRun: _head, ...shared } = options;
        const baseOptions = options.base.run ? { ...shared, run: options.base.run } : options;
        // Notices and problems of the base side repeat the head's; the head's are enough.
        const baseSide = stepsFor(createStepBuilder(baseOptions, detected, context, profiler, sampling, { side: 'base', cwd }), [], []);
        steps = interleaveSides(baseSide.steps, head.steps, options.engine === 'max' && options.mode === 'serve');
        if (options.maxRuns > options.runs) {
            // The same builders with max-runs measured runs; the runs past the planned ones are the reserve.
            const reserve = (stepsOf) => stepsOf.filter((s) => s.role === 'measured').slice(options.runs);
            const headMore = reserve(stepsFor(createStepBuilder({ ...options, runs: options.maxRuns }, detected, context, profiler, sampling), [], []).steps);
            const baseMore = reserve(stepsFor(createStepBuilder({ ...baseOptions, runs: options.maxRuns }, detected, context, profiler, sampling, { side: 'base', cwd }), [], []).steps);
            for (let i = 0; i < headMore.length; i += 2) {
                // ABBA: base, head, head, base; a last odd run is one base/head pair.
                extraPairs.push([baseMore[i], headMore[i], headMore[i + 1], baseMore[i + 1]].filter((x) => x !== undefined));
            }
        }
        notices.push({
            severity: 'info',
            message: options.engine === 'max' && options.mode === 'serve'
                ? 'A/B: the servers run one at a time in blocks base, head, head, base (ABBA), each restarted with its own warm-up, so a drift over the job falls on both sides; both share the time budget'
                : 'A/B: the measured runs alternate base/head in ABBA order, so a drift of the GPU over the job falls on both sides alike; both share the time budget',
        });
    }
    const deepDive = planDeepDive(options, detected, built.workload, notices, builder.out);
    const budgetSeconds = Math.round(options.timeoutMinutes * 60);
    assignTimeouts(steps, deepDive, budgetSeconds);
    // A reserve run may take as long as a planned measured run of its side.
    const lastMeasured = [...steps].reverse().find((s) => s.role === 'measured');
    for (const pair of extraPairs)
        for (const s of pair)
            s.timeoutSeconds = lastMeasured?.timeoutSeconds ?? MIN_STEP_SECONDS;
    const serve = built.serve ? { ...built.serve, readyTimeoutSeconds: steps.find((s) => s.role === 'serve').timeoutSeconds } : undefined;
    return {
        options,
        detected,
        environment: environmentFingerprint(detected, options.engine, options.model),
        profiler,
        sampling,
        steps,
        ...(serve ? { serve } : {}),
        deepDive,
        notices,
        problems,
        budgetSeconds,
        outDir: context.outDir,
        cwd: context.cwd,
        ...(base ? { base } : {}),
        extraPairs,
    };
}
/**
 * One order for both sides: pre-flights and warm-ups first, then the measured runs in ABBA pairs
 * (base-1 head-1, head-2 base-2, …), then each side's profiled run. A server holds the GPU's memory,
 * so serve mode runs one server at a time, in blocks: base, head, head, base, each block its own
 * server start and warm-up windows, then half of the side's measured windows.
 */
function interleaveSides(base, head, blocks) {
    if (blocks) {
        // Serve blocks end at a server stop; two per side run base, head, head, base.
        const split = (steps) => {
            const out = [[]];
            for (const s of steps) {
                if (s.role === 'serve' && out[out.length - 1].some((x) => x.role === 'serve'))
                    out.push([]);
                out[out.length - 1].push(s);
            }
            return out;
        };
        const [b, h] = [split(base), split(head)];
        if (b.length === 2 && h.length === 2)
            return [...b[0], ...h[0], ...h[1], ...b[1]];
        return [...base, ...head];
    }
    const before = (steps) => steps.filter((s) => s.role === 'preflight' || s.role === 'warmup');
    const measured = (steps) => steps.filter((s) => s.role === 'measured');
    const after = (steps) => steps.filter((s) => s.role !== 'preflight' && s.role !== 'warmup' && s.role !== 'measured');
    const ordered = [...before(base), ...before(head)];
    const [b, h] = [measured(base), measured(head)];
    for (let i = 0; i < Math.max(b.length, h.length); i++) {
        const pair = [b[i], h[i]].filter((s) => s !== undefined);
        ordered.push(...(i % 2 === 0 ? pair : pair.reverse()));
    }
    return [...ordered, ...after(base), ...after(head)];
}
function planDeepDive(options, detected, workload, notices, out) {
    const base = { mode: options.deepDive, workload, timeoutSeconds: 0, logFile: out('logs', 'deep-dive.log'), csvFile: out('captures', 'deep-dive.ncu.csv') };
    if (options.deepDive === 'off')
        return { ...base, enabled: false, reason: 'deep-dive: off' };
    if (options.engine === 'max' && options.mode === 'serve')
        return { ...base, enabled: false, reason: 'no deep dive with max-mode serve (ncu replays the kernels of one process; use max-mode generate)' };
    if (detected.vendor !== 'nvidia')
        return { ...base, enabled: false, reason: 'no deep dive: Nsight Compute needs an NVIDIA GPU' };
    if (!detected.tools.ncu) {
        notices.push({ severity: 'warning', message: 'ncu not found: no kernel deep dive', fix: INSTALL.ncu });
        return { ...base, enabled: false, reason: 'no deep dive: ncu not found' };
    }
    const reason = options.deepDive === 'always' ? 'ncu on the dominant kernel (or the top kernel)' : 'ncu on the dominant kernel, if the analysis finds one';
    return { ...base, enabled: true, reason, ncu: detected.tools.ncu };
}
/**
 * Each step may use twice its weighted share of the budget (a slow step is tolerated, a hung one
 * is not); the runner also stops any step at the overall deadline.
 */
function assignTimeouts(steps, deepDive, budgetSeconds) {
    const fixed = steps.reduce((sum, s) => sum + (s.weight === 0 && s.role !== 'preflight' ? s.timeoutSeconds : 0), 0);
    const weights = steps.reduce((sum, s) => sum + s.weight, 0) + (deepDive.enabled ? 2 : 0);
    const flexible = Math.max(budgetSeconds - fixed / 2, budgetSeconds / 4);
    const share = (weight) => Math.min(budgetSeconds, Math.max(MIN_STEP_SECONDS, Math.round(((flexible * weight) / Math.max(weights, 1)) * 2)));
    for (const s of steps) {
        if (s.role === 'preflight')
            s.timeoutSeconds = Math.min(budgetSeconds, 120);
        else if (s.weight > 0)
            s.timeoutSeconds = share(s.weight);
        else
            s.timeoutSeconds = Math.min(budgetSeconds, s.timeoutSeconds || MIN_STEP_SECONDS);
    }
    if (deepDive.enabled)
        deepDive.timeoutSeconds = share(2);
}

;// CONCATENATED MODULE: ./src/runner/plan-text.ts
/** The plan as a person reads it before a long run (and alone with --dry-run). Plain text. */


function formatSeconds(seconds) {
    if (seconds < 90)
        return `${Math.round(seconds)}s`;
    const minutes = Math.floor(seconds / 60);
    const rest = Math.round(seconds % 60);
    return rest ? `${minutes}m${String(rest).padStart(2, '0')}s` : `${minutes}m`;
}
const PROFILER_TEXT = {
    max: 'max generate --profile (MAX runs itself under nsys)',
    nsys: 'Nsight Systems (nsys profile, then nsys stats)',
    rocprofv3: 'rocprofv3 (kernel trace and stats)',
    torch: "the workload's own PyTorch profiler traces (captures)",
    none: 'none: throughput and utilization only',
};
function renderPlan(plan) {
    const show = (path) => (path.startsWith(`${plan.cwd}/`) ? (0,external_node_path_.relative)(plan.cwd, path) : path);
    const { options, detected } = plan;
    const lines = ['profile-gate run: plan'];
    const engine = options.engine === 'max'
        ? `max ${options.mode}${detected.maxVersion ? ` (MAX ${detected.maxVersion})` : ''}, model ${options.model}`
        : `command${options.model ? `, model ${options.model}` : ''}`;
    const gpu = detected.gpus.length
        ? `${detected.gpus.length} x ${detected.gpus[0]}${detected.driver ? `, driver ${detected.driver}` : ''}${detected.cuda ? `, CUDA ${detected.cuda}` : ''}${detected.rocm ? `, ROCm ${detected.rocm}` : ''}`
        : 'none found';
    const tools = [detected.tools.nsys && `nsys ${detected.tools.nsys}`, detected.tools.ncu && `ncu ${detected.tools.ncu}`, detected.tools.rocprofv3 && `rocprofv3 ${detected.tools.rocprofv3}`].filter(Boolean);
    lines.push(`  engine      ${engine}`);
    lines.push(`  GPU         ${gpu}`);
    lines.push(`  tools       ${tools.length ? tools.join('; ') : 'no profiler found'}`);
    lines.push(`  profiler    ${PROFILER_TEXT[plan.profiler]}`);
    lines.push(`  sampling    ${plan.sampling ? 'gpu_snapshot.py every 0.5 s during each measured run' : 'off'}`);
    lines.push(`  runs        ${options.warmupRuns} warm-up, ${options.runs} measured${options.engine === 'max' && options.mode === 'serve' ? ` benchmark windows of ${Math.ceil(options.captureSeconds)} s` : ''}`);
    if (plan.base) {
        const what = plan.base.run ? `\`${plan.base.run}\`` : 'the same workload';
        const order = options.engine === 'max' && options.mode === 'serve' ? 'server blocks base, head, head, base (ABBA), each restarted' : 'measured runs interleaved base/head in ABBA order';
        lines.push(`  A/B         base build: ${what} in ${plan.base.cwd === plan.cwd ? 'this folder' : plan.base.cwd}; ${order}; its report is the baseline`);
        if (plan.extraPairs.length)
            lines.push(`  adaptive    while a gated metric is undecided, up to ${plan.extraPairs.length} more ABBA pair${plan.extraPairs.length === 1 ? '' : 's'} (max-runs ${options.maxRuns} per side), alpha spent over the looks`);
    }
    lines.push(`  deep dive   ${plan.deepDive.reason}`);
    lines.push(`  time budget ${formatSeconds(plan.budgetSeconds)} in all (timeout-minutes ${options.timeoutMinutes}); each step stops at its own limit`);
    lines.push(`  output      ${show(plan.outDir)}`);
    lines.push('', 'Steps');
    plan.steps.forEach((step, index) => {
        const limit = step.role === 'serve-stop' ? '' : `  (limit ${formatSeconds(step.timeoutSeconds)})`;
        lines.push(`  ${index + 1}. ${step.title}${limit}`);
        if (step.role === 'serve-stop')
            lines.push(`     SIGTERM to the server's process group, SIGKILL after the grace period`);
        else
            lines.push(`     ${step.cwd ? `(in ${step.cwd}) ` : ''}$ ${formatCommand(step.argv.map(show))}${step.stdoutFile ? ` > ${show(step.stdoutFile)}` : ''}`);
        if (step.role === 'serve' && plan.serve)
            lines.push(`     then wait for ${plan.serve.healthUrl} to answer 200`);
        for (const output of step.outputs.filter((o) => o.analysis))
            lines.push(`     -> ${show(output.path)} (${output.kind})`);
        if (step.derive)
            lines.push(`     -> ${show(step.derive.to)} (max-generate, timings removed)`);
        if (step.collect)
            lines.push(`     -> ${step.collect.globs.join(', ')} copied to ${show(step.collect.into)}`);
        if (step.findOutputs)
            lines.push(`     -> ${show(step.findOutputs.dir)}/**/*${step.findOutputs.suffix} (${step.findOutputs.kind})`);
    });
    if (plan.deepDive.enabled) {
        lines.push(`  ${plan.steps.length + 1}. Deep dive, if the analysis asks for one  (limit ${formatSeconds(plan.deepDive.timeoutSeconds)})`);
        lines.push(`     $ ${show(plan.deepDive.ncu)} --log-file ${show(plan.deepDive.csvFile)} --clock-control none --csv --page details … ${formatCommand(plan.deepDive.workload.map(show))}`);
    }
    if (plan.notices.length) {
        lines.push('', 'Notices');
        for (const notice of plan.notices) {
            lines.push(`  ${notice.severity === 'warning' ? '!' : '-'} ${notice.message}`);
            if (notice.fix)
                lines.push(`    install/fix: ${notice.fix}`);
        }
    }
    if (detected.notes.length) {
        lines.push('', 'Detection');
        for (const note of detected.notes)
            lines.push(`  - ${note}`);
    }
    if (plan.problems.length) {
        lines.push('', 'Problems (the run cannot start)');
        for (const problem of plan.problems)
            lines.push(`  x ${problem}`);
    }
    return `${lines.join('\n')}\n`;
}

;// CONCATENATED MODULE: ./src/runner/run-options.ts
/**
 * What to run, as the action inputs and the `profile-gate run` flags name it (kebab-case, one name
 * per option in both doors). Parsed once into RunOptions; an error names the option it is about.
 */



const ENGINES = ['max', 'command'];
const run_options_MODES = ['generate', 'serve'];
const PROFILERS = ['auto', 'max', 'nsys', 'rocprofv3', 'torch', 'none'];
const DEEP_DIVES = ['auto', 'off', 'always'];
/** The option names, as the action's inputs and the CLI's flags spell them. */
const RUN_OPTION_NAMES = [
    'engine',
    'model',
    'max-mode',
    'max-args',
    'prompt',
    'max-new-tokens',
    'custom-architectures',
    'benchmark-args',
    'run',
    'profile-run',
    'captures',
    'warmup-runs',
    'runs',
    'profiler',
    'capture-seconds',
    'deep-dive',
    'timeout-minutes',
    'base-workdir',
    'base-run',
    'max-runs',
];
/** A/B: the most runs per side, as a multiple of `runs`, when max-runs is not given (5 planned → up to 15). */
const DEFAULT_MAX_RUNS_FACTOR = 3;
/** Load shape of `max benchmark` when benchmark-args is not given: offline (random data), bounded. */
const DEFAULT_BENCHMARK_ARGS = '--dataset-name random --random-input-len 512 --num-prompts 1000 --max-concurrency 8';
/** MAX serves its metrics on this port; serving on it breaks the server after "Server ready". */
const MAX_METRICS_PORT = 8001;
function choice(values) {
    return schemas/* enum */.k5n(values, { error: `expected one of ${values.join(', ')}` });
}
function integer(min) {
    return schemas/* number */.aig({ error: 'expected a whole number' }).int({ error: 'expected a whole number' }).min(min, { error: `expected a whole number >= ${min}` });
}
function positive() {
    return schemas/* number */.aig({ error: 'expected a number' }).positive({ error: 'expected a number > 0' });
}
function words() {
    return schemas/* string */.YjP().superRefine((value, ctx) => {
        try {
            splitShellWords(value);
        }
        catch (error) {
            ctx.addIssue({ code: 'custom', message: `cannot split into arguments: ${error.message}` });
        }
    });
}
const run_options_list = schemas/* array */.YOg(schemas/* string */.YjP().min(1));
const RawRunOptionsSchema = schemas/* object */.Ikc({
    engine: choice(ENGINES).default('max'),
    model: schemas/* string */.YjP().min(1).optional(),
    'max-mode': choice(run_options_MODES).default('generate'),
    'max-args': words().default(''),
    prompt: schemas/* string */.YjP().optional(),
    'max-new-tokens': integer(1).default(100),
    'custom-architectures': run_options_list.default([]),
    'benchmark-args': words().default(DEFAULT_BENCHMARK_ARGS),
    run: schemas/* string */.YjP().min(1).optional(),
    'profile-run': schemas/* string */.YjP().min(1).optional(),
    captures: run_options_list.default([]),
    'warmup-runs': integer(0).default(1),
    runs: integer(1).default(5),
    profiler: choice(PROFILERS).default('auto'),
    'capture-seconds': positive().default(10),
    'deep-dive': choice(DEEP_DIVES).default('auto'),
    'timeout-minutes': positive().default(30),
    'base-workdir': schemas/* string */.YjP().min(1).optional(),
    'base-run': schemas/* string */.YjP().min(1).optional(),
    'max-runs': integer(1).optional(),
});
function optionLabel(name, style) {
    return style === 'cli' ? `--${name}` : `input '${name}'`;
}
const NUMERIC = new Set(['max-new-tokens', 'warmup-runs', 'runs', 'capture-seconds', 'timeout-minutes', 'max-runs']);
const LISTS = new Set(['custom-architectures', 'captures']);
/** Action inputs and flags arrive as text: '' means unset, numbers and lists are split here. */
function run_options_normalize(raw) {
    const out = {};
    for (const [name, value] of Object.entries(raw)) {
        if (value === undefined || value === null)
            continue;
        if (typeof value === 'string' && value.trim() === '')
            continue; // the action passes every unset input as ''
        if (NUMERIC.has(name) && typeof value === 'string')
            out[name] = /^\s*[+-]?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
        else if (LISTS.has(name) && typeof value === 'string')
            out[name] = value.split(/[\n,]/).map((item) => item.trim()).filter(Boolean);
        else
            out[name] = typeof value === 'string' && name !== 'prompt' ? value.trim() : value;
    }
    return out;
}
/** `model` is kept for a command workload too: it labels the report's environment. */
const ONLY_FOR_MAX = ['max-mode', 'max-args', 'prompt', 'max-new-tokens', 'custom-architectures', 'benchmark-args'];
const ONLY_FOR_COMMAND = ['run', 'profile-run', 'captures'];
function parseRunOptions(raw, style = 'input') {
    const fail = (name, message) => {
        throw new errors/* UsageError */.eb(`${optionLabel(name, style)}: ${message}`);
    };
    const given = run_options_normalize(raw);
    for (const name of Object.keys(given)) {
        if (!RUN_OPTION_NAMES.includes(name))
            fail(name, `unknown option; expected one of ${RUN_OPTION_NAMES.join(', ')}`);
    }
    const parsed = RawRunOptionsSchema.safeParse(given);
    if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const name = String(issue.path[0] ?? 'options');
        const value = raw[name];
        fail(name, `${issue.message}${typeof value === 'string' ? `, got ${JSON.stringify(value)}` : ''}`);
    }
    const o = parsed.data;
    const ignored = [];
    const isGiven = (name) => given[name] !== undefined;
    if (o.engine === 'max') {
        if (!o.model)
            fail('model', 'required with engine max (a Hugging Face id or a local path)');
        ignored.push(...ONLY_FOR_COMMAND.filter(isGiven));
        if (o.profiler === 'torch')
            fail('profiler', 'torch reads Kineto traces a command workload writes; with engine max use auto, max, nsys, rocprofv3 or none');
        if (o['max-mode'] === 'serve') {
            if (isGiven('prompt'))
                ignored.push('prompt');
            const port = flagValue(splitShellWords(o['max-args']), '--port');
            if (port !== undefined && Number(port) === MAX_METRICS_PORT) {
                fail('max-args', `--port ${MAX_METRICS_PORT} is the port MAX serves its metrics on; the server would report ready, then shut its workers down. Pick another port, e.g. --port 8000`);
            }
        }
        else if (isGiven('benchmark-args'))
            ignored.push('benchmark-args');
    }
    else {
        if (!o.run)
            fail('run', 'required with engine command (the workload command line)');
        ignored.push(...ONLY_FOR_MAX.filter(isGiven).filter((name) => name !== 'max-mode' || given['max-mode'] !== 'generate'));
        if (o.profiler === 'max')
            fail('profiler', 'max is the profiler of max generate; with engine command use auto, nsys, rocprofv3, torch or none');
        if (o.profiler === 'torch' && o.captures.length === 0)
            fail('captures', 'required with profiler torch: the globs of the Kineto traces the workload writes (e.g. traces/*.json)');
    }
    if (o.engine === 'max' && o['base-run'] !== undefined)
        fail('base-run', 'applies to engine command only; with engine max the base side runs the same max command in base-workdir');
    const ab = o['base-workdir'] !== undefined || o['base-run'] !== undefined;
    if (ab) {
        if (o.runs < 3)
            fail('runs', `A/B needs at least 3 measured runs per side to compare, got ${o.runs}`);
        if (o['max-runs'] !== undefined && o['max-runs'] < o.runs)
            fail('max-runs', `must be at least runs (${o.runs}), got ${o['max-runs']}`);
    }
    else if (isGiven('max-runs'))
        ignored.push('max-runs');
    // Serving A/B runs its windows per side: no pairs to add.
    const adaptive = ab && !(o.engine === 'max' && o['max-mode'] === 'serve');
    return {
        engine: o.engine,
        ...(o.model ? { model: o.model } : {}),
        mode: o.engine === 'max' ? o['max-mode'] : 'generate',
        maxArgs: splitShellWords(o['max-args']),
        ...(o.prompt !== undefined && o.engine === 'max' && o['max-mode'] === 'generate' ? { prompt: o.prompt } : {}),
        maxNewTokens: o['max-new-tokens'],
        customArchitectures: o['custom-architectures'],
        benchmarkArgs: splitShellWords(o['benchmark-args']),
        ...(o.engine === 'command' ? { run: o.run, ...(o['profile-run'] ? { profileRun: o['profile-run'] } : {}) } : {}),
        captures: o.engine === 'command' ? o.captures : [],
        warmupRuns: o['warmup-runs'],
        runs: o.runs,
        profiler: o.profiler,
        captureSeconds: o['capture-seconds'],
        deepDive: o['deep-dive'],
        timeoutMinutes: o['timeout-minutes'],
        maxRuns: adaptive ? (o['max-runs'] ?? DEFAULT_MAX_RUNS_FACTOR * o.runs) : o.runs,
        ...(o['base-workdir'] !== undefined || o['base-run'] !== undefined
            ? { base: { ...(o['base-workdir'] !== undefined ? { workdir: o['base-workdir'] } : {}), ...(o['base-run'] !== undefined ? { run: o['base-run'] } : {}) } }
            : {}),
        ignored,
    };
}

;// CONCATENATED MODULE: ./src/runner/logger.ts

/** Plain text to a writable stream, headers for groups (the CLI). */
function createPlainLogger(write, options = {}) {
    const showOutput = options.showOutput ?? true;
    return {
        info: (message) => write(`${message}\n`),
        warning: (message) => write(`warning: ${message}\n`),
        error: (message) => write(`error: ${message}\n`),
        output: (line) => {
            if (showOutput)
                write(`  | ${line}\n`);
        },
        async group(name, fn) {
            write(`\n== ${name}\n`);
            return fn();
        },
    };
}
/** Keeps every line in memory; for tests. */
function createMemoryLogger() {
    const lines = [];
    return {
        lines,
        info: (text) => lines.push({ kind: 'info', text }),
        warning: (text) => lines.push({ kind: 'warning', text }),
        error: (text) => lines.push({ kind: 'error', text }),
        output: (text) => lines.push({ kind: 'output', text }),
        async group(name, fn) {
            lines.push({ kind: 'group', text: name });
            return fn();
        },
        text: () => lines.map((line) => `${line.kind}: ${line.text}`).join('\n'),
    };
}
/**
 * Untrusted lines (a workload's output) for a log that the Actions runner scans for workflow
 * commands: they are written between `::stop-commands::TOKEN` and `::TOKEN::`, the runner's own
 * way to show text without acting on it, so a printed `::add-mask::`, `::error::` or
 * `::stop-commands::` takes no effect. The token is fresh and random each time the fence opens;
 * the workload never sees it. `close` before writing trusted commands (groups, warnings).
 */
function commandFence(write, newToken = () => (0,external_node_crypto_.randomBytes)(16).toString('hex')) {
    let token;
    return {
        line(text) {
            if (token === undefined) {
                token = newToken();
                write(`::stop-commands::${token}`);
            }
            write(text);
        },
        close() {
            if (token === undefined)
                return;
            write(`::${token}::`);
            token = undefined;
        },
    };
}
/** A logger whose `output` lines are fenced (see commandFence) and whose other lines close the fence first. */
function fencedLogger(base, write, newToken) {
    const fence = commandFence(write, newToken);
    const trusted = (fn) => (...args) => {
        fence.close();
        fn(...args);
    };
    return {
        info: trusted(base.info),
        warning: trusted(base.warning),
        error: trusted(base.error),
        output: (line) => fence.line(line),
        async group(name, fn) {
            fence.close();
            return base.group(name, async () => {
                try {
                    return await fn();
                }
                finally {
                    fence.close();
                }
            });
        },
    };
}

;// CONCATENATED MODULE: ./src/runner/run-workload.ts
/**
 * The whole job on a GPU box, shared by the action and `profile-gate run`: detect the box, plan,
 * run the steps, hand the checked capture files to the analysis, and (when the analysis points at
 * one kernel) run the Nsight Compute deep dive and analyze again with it.
 */




















/** The folder with the python helpers: <package root>/python, from src/runner and from dist. */
function findPythonDir(start = (0,external_node_path_.dirname)((0,external_node_url_.fileURLToPath)(import.meta.url))) {
    let dir = start;
    for (let i = 0; i < 6; i += 1) {
        if ((0,external_node_fs_.existsSync)((0,external_node_path_.join)(dir, 'python', 'preflight_custom_arch.py')))
            return (0,external_node_path_.join)(dir, 'python');
        const parent = (0,external_node_path_.dirname)(dir);
        if (parent === dir)
            break;
        dir = parent;
    }
    return (0,external_node_path_.join)(start, 'python');
}
/** True when something already listens on the port (binding it fails with EADDRINUSE). */
function isPortInUse(port) {
    return new Promise((resolvePromise) => {
        const server = (0,external_node_net_.createServer)();
        server.once('error', (error) => resolvePromise(error.code === 'EADDRINUSE'));
        server.listen({ port, host: '0.0.0.0', exclusive: true }, () => server.close(() => resolvePromise(false)));
    });
}
async function prepareRun(options, prepare) {
    const cwd = (0,external_node_path_.resolve)(prepare.cwd ?? process.cwd());
    const pythonDir = prepare.pythonDir ?? findPythonDir();
    const detected = await detectEnvironment(prepare.probe ?? createSystemProbe(), { needMax: options.engine === 'max' });
    let busyPort;
    if (options.engine === 'max' && options.mode === 'serve') {
        const port = Number(flagValue(options.maxArgs, '--port') ?? 8000);
        if (Number.isInteger(port) && port > 0 && port < 65536 && (await isPortInUse(port)))
            busyPort = port;
    }
    return buildPlan(options, detected, {
        outDir: (0,external_node_path_.resolve)(cwd, prepare.outDir),
        cwd,
        pythonDir,
        gpuSnapshotAvailable: (0,external_node_fs_.existsSync)((0,external_node_path_.join)(pythonDir, 'gpu_snapshot.py')),
        portInUse: (port) => port === busyPort,
        isDirectory: (path) => {
            try {
                return (0,external_node_fs_.statSync)(path).isDirectory();
            }
            catch {
                return false;
            }
        },
    });
}
/** Plan notices and run gaps in the report's notice shape. */
function runNotices(run) {
    return run.notices.map((notice) => ({ code: 'run', severity: notice.severity, message: notice.fix ? `${notice.message} (${notice.fix})` : notice.message }));
}
async function runDeepDiveStep(plan, report, deps, remainingSeconds) {
    const top = report.kernels[0];
    const choice = chooseDeepDive(plan.deepDive.mode, { findings: report.findings, ...(top ? { topKernel: { name: top.name, instances: top.instances } } : {}) }, plan.deepDive.ncu, plan.deepDive.workload);
    if (!choice.run) {
        deps.logger.info(`deep dive: ${choice.why}`);
        return {};
    }
    if (remainingSeconds < 30) {
        deps.logger.warning(`deep dive skipped: ${Math.round(remainingSeconds)} s left of the time budget`);
        return {};
    }
    const step = {
        id: 'deep-dive',
        role: 'profile',
        title: 'Deep dive (Nsight Compute)',
        argv: withNcuLogFile(choice.argv, plan.deepDive.csvFile),
        env: {},
        pathPrepend: [],
        timeoutSeconds: Math.min(plan.deepDive.timeoutSeconds, remainingSeconds),
        logFile: plan.deepDive.logFile,
        outputs: [{ path: plan.deepDive.csvFile, kind: 'ncu-csv', analysis: true }],
        onFailure: 'continue',
        weight: 0,
    };
    deps.logger.info(`deep dive: ${choice.why}`);
    const run = await executePlan({ ...plan, steps: [step], notices: [], budgetSeconds: Math.ceil(remainingSeconds) }, { ...deps, reserveSeconds: 0 });
    const record = run.steps[0];
    // What ncu was asked for, so a deep dive that profiled nothing says where to look.
    const asked = `ncu was asked for launch ${choice.request.launchSkip + 1} of the kernels matching ${choice.request.nameRegex}${choice.request.demangled ? ' (demangled names)' : ''}`;
    return { record: { ...record, why: choice.why }, run, asked };
}
async function writeRunJson(plan, result) {
    const { run } = result;
    const data = {
        outcome: run.outcome,
        ...(run.message ? { message: run.message } : {}),
        environment: plan.environment,
        profiler: plan.profiler,
        options: plan.options,
        steps: run.steps,
        ...(result.deepDive ? { deepDive: result.deepDive } : {}),
        files: run.files,
        analysisInputs: run.analysisInputs,
        ...(plan.base ? { base: { ...plan.base, analysisInputs: run.baseAnalysisInputs, report: baseReportPath(plan) } } : {}),
        notices: run.notices,
        seconds: run.seconds,
    };
    await writeOutput((0,external_node_path_.join)(plan.outDir, 'run.json'), `${JSON.stringify(data, null, 2)}\n`);
}
/** Remove what an earlier run into the same folder left at the paths this plan writes (only those). */
async function clearPlannedFiles(plan) {
    const paths = new Set([(0,external_node_path_.join)(plan.outDir, 'run.json'), plan.deepDive.csvFile, plan.deepDive.logFile]);
    for (const step of plan.steps) {
        paths.add(step.logFile);
        if (step.stdoutFile)
            paths.add(step.stdoutFile);
        if (step.derive)
            paths.add(step.derive.to);
        if (step.collect)
            paths.add(step.collect.into);
        if (step.findOutputs)
            paths.add(step.findOutputs.dir);
        for (const output of step.outputs) {
            paths.add(output.path);
            if (output.kind === 'workload-console')
                paths.add(consoleMetricsPath(output.path));
        }
    }
    const ours = [...paths].filter((path) => path.startsWith(`${plan.outDir}/`));
    await Promise.all(ours.map((path) => (0,promises_.rm)(path, { recursive: true, force: true })));
}
/**
 * Where an A/B job keeps the base build's report. Not named report.json, so that a folder or an
 * artifact holding the run is never read as two reports (matrix merge, baseline download, dashboard).
 */
function baseReportPath(plan) {
    return (0,external_node_path_.join)(plan.outDir, 'base', 'baseline-report.json');
}
function abBaseline(plan, base, report, look) {
    const where = base.cwd === plan.cwd ? 'this folder' : base.cwd;
    const what = base.run ? `\`${base.run}\` in ${where}` : `the same workload in ${where}`;
    const order = plan.options.engine === 'max' && plan.options.mode === 'serve' ? 'its benchmark windows in server blocks base, head, head, base (ABBA)' : 'its measured runs interleaved with the head\'s (ABBA)';
    return { report, origin: 'a/b', path: base.cwd, reason: `base build: ${what}, in this job on the same machine, ${order}`, ...(look ? { look } : {}) };
}
/** Seconds one reserve pair is expected to take: its runs at the mean length of the measured runs so far. */
function pairSeconds(run, plan, pair) {
    const measured = new Set(plan.steps.filter((s) => s.role === 'measured').map((s) => s.id));
    const times = run.steps.filter((s) => measured.has(s.id) && s.status === 'ok').map((s) => s.seconds);
    const mean = times.length ? times.reduce((a, b) => a + b, 0) / times.length : 0;
    return mean * pair.length;
}
/**
 * Adaptive A/B: while the head's comparison has undecided gated metrics (the sides overlap, or too
 * few or not significant runs) and it has not failed, run the next reserve ABBA pair and compare
 * again, as the next look (the gate spends alpha over the looks). Stops at max-runs, or when the
 * next pair would not fit twice into the time left.
 */
async function decideWithMoreRuns(plan, result, deps, executeDeps, started) {
    const { run } = result;
    const looks = plan.extraPairs.length + 1;
    for (let index = 2; index <= looks; index += 1) {
        const undecided = result.report.comparison?.undecided ?? [];
        // A fail is decided; an invalid comparison (throttled, another environment) no run can mend.
        if (result.report.verdict === 'fail' || result.report.verdict === 'invalid' || !undecided.length)
            return;
        const pair = plan.extraPairs[index - 2];
        const remaining = plan.budgetSeconds - (Date.now() - started) / 1000;
        const need = pairSeconds(run, plan, pair);
        if (remaining < 2 * need + 30) {
            run.notices.push({ severity: 'info', message: `${undecided.join(', ')} still undecided after look ${index - 1} of ${looks}: ${Math.round(remaining)} s left of the time budget, and a pair takes about ${Math.round(need)} s` });
            return;
        }
        deps.logger.info(`${undecided.join(', ')} undecided: one more ABBA pair (look ${index} of ${looks})`);
        const more = await executePlan({ ...plan, steps: pair, notices: [], budgetSeconds: Math.floor(remaining) }, { ...executeDeps, reserveSeconds: 0 });
        run.steps.push(...more.steps);
        run.files.push(...more.files);
        if (more.outcome !== 'ok') {
            run.notices.push({ severity: 'warning', message: `an added A/B pair did not finish (${more.message ?? more.outcome}); the comparison is the one before it` });
            return;
        }
        run.analysisInputs.push(...more.analysisInputs);
        run.baseAnalysisInputs.push(...more.baseAnalysisInputs);
        result.baseReport = await deps.analyze(run.baseAnalysisInputs, { side: 'base' });
        result.report = await deps.analyze(run.analysisInputs, { side: 'head', baseline: abBaseline(plan, plan.base, result.baseReport, { index, of: looks }) });
    }
}
/**
 * Processes the steps started that are still alive at the end (a daemon that left its group and
 * session, found by the tracking marker): stopped, and named in the run's notices.
 */
async function stopTrackedLeftovers(groups, run, logger, report) {
    const swept = await groups.sweepTracked();
    if (swept.length === 0)
        return;
    const list = swept.map((entry) => `pid ${entry.pid} (${entry.command.slice(0, 200) || 'command unknown'})`).join(', ');
    const message = `${swept.length === 1 ? '1 process the run started was' : `${swept.length} processes the run started were`} still running after its last step and ${swept.length === 1 ? 'was' : 'were'} stopped: ${list}`;
    logger.warning(message);
    run.notices.push({ severity: 'warning', message });
    report?.notices.push({ code: 'run', severity: 'warning', message });
}
/** Run a plan to the end. Throws UsageError when the plan has problems (nothing was started). */
async function runJob(plan, deps) {
    if (plan.problems.length)
        throw new errors/* UsageError */.eb(`cannot run: ${plan.problems.join('; ')}`);
    const started = Date.now();
    const groups = deps.groups ?? new ProcessGroups();
    const executeDeps = { ...deps, groups };
    await clearPlannedFiles(plan);
    // Every folder a step writes into (logs/, captures/, and base/… for an A/B job's base side).
    const folders = new Set([(0,external_node_path_.join)(plan.outDir, 'logs'), (0,external_node_path_.join)(plan.outDir, 'captures')]);
    for (const step of plan.steps)
        for (const path of [step.logFile, step.stdoutFile, ...step.outputs.map((o) => o.path)])
            if (path?.startsWith(`${plan.outDir}/`))
                folders.add((0,external_node_path_.dirname)(path));
    for (const folder of folders)
        await (0,promises_.mkdir)(folder, { recursive: true });
    await (0,promises_.writeFile)((0,external_node_path_.join)(plan.outDir, 'logs', 'plan.txt'), renderPlan(plan));
    const run = await executePlan(plan, executeDeps);
    const result = { plan, run };
    if (run.outcome === 'ok' && deps.analyze) {
        let head = { side: 'head' };
        const looks = plan.extraPairs.length + 1;
        if (plan.base) {
            result.baseReport = await deps.analyze(run.baseAnalysisInputs, { side: 'base' });
            head = { side: 'head', baseline: abBaseline(plan, plan.base, result.baseReport, looks > 1 ? { index: 1, of: looks } : undefined) };
        }
        result.report = await deps.analyze(run.analysisInputs, head);
        if (plan.base && looks > 1) {
            await decideWithMoreRuns(plan, result, deps, executeDeps, started);
            head = { side: 'head', baseline: abBaseline(plan, plan.base, result.baseReport, result.report.comparison?.look ? { index: result.report.comparison.look.index, of: looks } : undefined) };
        }
        const analyzeHead = (inputs) => deps.analyze(inputs, head);
        const remaining = plan.budgetSeconds - (Date.now() - started) / 1000;
        if (plan.deepDive.enabled) {
            const deep = await runDeepDiveStep(plan, result.report, executeDeps, remaining);
            if (deep.record)
                result.deepDive = deep.record;
            if (deep.run && deep.run.outcome === 'ok') {
                run.files.push(...deep.run.files);
                run.analysisInputs.push(...deep.run.analysisInputs);
                result.report = await analyzeHead(run.analysisInputs);
            }
            else if (deep.record) {
                run.notices.push({ severity: 'warning', message: `${deep.record.message ?? 'the deep dive failed'} The report has no Nsight Compute section (${deep.asked ?? 'no request'}).` });
            }
        }
        result.report.notices.push(...runNotices(run));
    }
    await stopTrackedLeftovers(groups, run, deps.logger, result.report);
    try {
        if (result.baseReport)
            await writeOutput(baseReportPath(plan), serializeReport(result.baseReport));
        await writeRunJson(plan, result);
    }
    catch (error) {
        // A full disk must not cost the report that was already made: warn, and keep going.
        const message = `${error.message}; the run's record is in this log only`;
        deps.logger.warning(message);
        run.notices.push({ severity: 'warning', message });
        result.report?.notices.push({ code: 'run', severity: 'warning', message });
    }
    return result;
}

;// CONCATENATED MODULE: ./src/action/modes/run-mode.ts
/**
 * Mode `run`: the whole job on this GPU runner — plan, warm-up, measured runs with utilization sampling,
 * one profiled run, an optional deep dive — then analyze and publish. The orchestration is the engine's
 * (src/runner), shared with `profile-gate run`; this file maps it onto the runner's log, signals and
 * artifact.
 */










/** The runner's log; the workload's own lines are fenced so that it cannot issue workflow commands. */
function actionLogger() {
    const base = {
        info: (text) => core/* info */.pq(oneLine(text)),
        warning: (text) => core/* warning */.$e(oneLine(text)),
        error: (text) => core/* error */.z3(oneLine(text)),
        output: (text) => core/* info */.pq(oneLine(text)),
        group: (name, fn) => core/* group */.Os(name, fn),
    };
    return fencedLogger(base, (line) => core/* info */.pq(oneLine(line)));
}
/**
 * A pull request from a fork brings a stranger's code; mode run would execute it on this
 * self-hosted runner. GitHub advises self-hosted runners only for private repositories for that
 * reason, so it takes an explicit input.
 */
function forkWorkloadRefusal(ctx) {
    if (!ctx.run.fromFork || ctx.inputs.allowForkWorkloads)
        return undefined;
    return `mode run: pull request #${ctx.run.pullRequest ?? '?'} comes from a fork, and its workload would run on this self-hosted runner; nothing was run. Use the fork-safe pattern (examples/fork-safe-pr.yml and fork-safe-comment.yml: approval for outside collaborators, ephemeral runners, no write token) and set ${INPUTS.allowForkWorkloads}: true there`;
}
async function runMode(ctx) {
    const refusal = forkWorkloadRefusal(ctx);
    if (refusal)
        throw new errors/* UsageError */.eb(refusal);
    const raw = Object.fromEntries(RUN_OPTION_NAMES.map((name) => [name, core/* getInput */.V4(name)]));
    const options = parseRunOptions(raw, 'input');
    const gate = gateOptions(ctx);
    const { baseline, note } = await resolveBaseline(ctx, options.base !== undefined);
    const plan = await prepareRun(options, { outDir: (0,external_node_path_.join)(ctx.inputs.reportDir, 'run') });
    core/* info */.pq(renderPlan(plan));
    const groups = new ProcessGroups();
    // The runner sends SIGINT then SIGTERM on cancel: stop exactly the workload's process groups first.
    let job;
    const restoreSignals = groups.forwardSignals({ settle: () => job ?? Promise.resolve(), beforeExit: (signal) => core/* warning */.$e(`${signal}: stopped the workload's process groups; run.json says what finished`) });
    let result;
    try {
        const running = runJob(plan, {
            logger: actionLogger(),
            groups,
            analyze: (inputs, which) => analyze({
                inputs,
                environment: plan.environment,
                failOn: ctx.inputs.failOn,
                run: runInfo(ctx),
                gate,
                ...(ctx.inputs.analyzeTimeoutSeconds ? { timeoutMs: ctx.inputs.analyzeTimeoutSeconds * 1000 } : {}),
                // The base side of an A/B run is a baseline in the making: never compared itself.
                baseline: which.side === 'base' ? null : which.baseline ?? baseline,
            }),
        });
        job = running;
        result = await running;
    }
    finally {
        restoreSignals();
    }
    const logs = [(0,external_node_path_.join)(plan.outDir, 'run.json'), ...(result.baseReport ? [baseReportPath(plan)] : []), ...result.run.files.map((file) => file.path)];
    if (result.run.outcome !== 'ok' || !result.report) {
        core/* setFailed */.C1(`profile-gate run ${result.run.outcome}: ${oneLine(result.run.message ?? 'no report was produced')} (logs in ${plan.outDir})`);
        return;
    }
    await publishReport(ctx, { report: result.report, extraFiles: logs, ...(note ? { baselineNote: note } : {}) });
}

;// CONCATENATED MODULE: ./src/action/run-action.ts
/**
 * The action door: read the inputs, then hand over to the mode. Modes share `publish` (summary,
 * annotations, sticky comment, outputs); a failing verdict or a bad input fails the job.
 */









const MODE_HANDLERS = {
    analyze: analyzeMode,
    report: reportMode,
    run: runMode,
};
async function run() {
    try {
        const inputs = getInputs();
        const handler = MODE_HANDLERS[inputs.mode];
        if (inputs.githubToken)
            core/* setSecret */.Pq(inputs.githubToken);
        const limits = limitsFromEnv(process.env);
        let client;
        const ctx = {
            inputs,
            run: (0,run_context/* readRunContext */.$p)(),
            limits,
            github: () => {
                if (!inputs.githubToken)
                    throw new errors/* UsageError */.eb(`input '${INPUTS.githubToken}': empty; expected a token (the default is \${{ github.token }})`);
                const apiUrl = (process.env['GITHUB_API_URL'] || 'https://api.github.com').replace(/\/+$/, '');
                client ??= new GitHubClient({ token: inputs.githubToken, apiUrl, limits: limits.http, retry: limits.retry });
                return client;
            },
        };
        await handler(ctx);
    }
    catch (error) {
        core/* setFailed */.C1((0,errors/* describeError */.Uc)(error));
    }
}


/***/ }),

/***/ 73311:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   $D: () => (/* binding */ MAX_TEXT_BYTES),
/* harmony export */   dD: () => (/* binding */ SNIFF_BYTES),
/* harmony export */   inputFromText: () => (/* binding */ inputFromText),
/* harmony export */   lt: () => (/* binding */ openInput)
/* harmony export */ });
/* unused harmony export decodeBytes */
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(73024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(51455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_stream__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(57075);
/* harmony import */ var node_stream__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(node_stream__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var node_zlib__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(38522);
/* harmony import */ var node_zlib__WEBPACK_IMPORTED_MODULE_3___default = /*#__PURE__*/__webpack_require__.n(node_zlib__WEBPACK_IMPORTED_MODULE_3__);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(83916);
/**
 * One input file as the importers see it: decoded text (gzip and UTF-16/BOM handled), a head for
 * sniffing, and a byte stream for the formats that must be streamed (Kineto traces over V8's string limit).
 */





const SNIFF_BYTES = 64 * 1024;
/** Files above this are never read whole into one string; streaming importers must be used. */
const MAX_TEXT_BYTES = 256 * 1024 * 1024;
function detectEncoding(bytes) {
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
        return { encoding: 'utf8', bomLength: 3 };
    if (bytes[0] === 0xff && bytes[1] === 0xfe)
        return { encoding: 'utf16le', bomLength: 2 };
    if (bytes[0] === 0xfe && bytes[1] === 0xff)
        return { encoding: 'utf16be', bomLength: 2 };
    // UTF-16 without a BOM: every other byte of ASCII text is zero.
    if (bytes.length >= 4 && bytes[1] === 0 && bytes[3] === 0 && bytes[0] !== 0)
        return { encoding: 'utf16le', bomLength: 0 };
    if (bytes.length >= 4 && bytes[0] === 0 && bytes[2] === 0 && bytes[1] !== 0)
        return { encoding: 'utf16be', bomLength: 0 };
    return { encoding: 'utf8', bomLength: 0 };
}
function decodeBytes(bytes) {
    const { encoding, bomLength } = detectEncoding(bytes);
    const body = bytes.subarray(bomLength);
    if (encoding === 'utf16be') {
        const swapped = Buffer.from(body.subarray(0, body.length - (body.length % 2)));
        swapped.swap16();
        return swapped.toString('utf16le');
    }
    return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString(encoding);
}
/**
 * The bytes as UTF-8 without a BOM, as the streaming importers expect them: a trace saved by a
 * Windows tool (UTF-16, or UTF-8 with a BOM) reads like the original. Offsets in errors are then
 * offsets into the UTF-8 text.
 */
async function* asUtf8(source, encoding, bomLength) {
    const decoder = encoding === 'utf8' ? undefined : new TextDecoder(encoding === 'utf16le' ? 'utf-16le' : 'utf-16be', { ignoreBOM: true });
    let skip = bomLength;
    let bytes = 0;
    for await (const chunk of source) {
        let piece = chunk;
        if (skip > 0) {
            const n = Math.min(skip, piece.length);
            piece = piece.subarray(n);
            skip -= n;
        }
        if (!decoder) {
            if (piece.length)
                yield piece;
            continue;
        }
        bytes += piece.length;
        const text = decoder.decode(piece, { stream: true });
        if (text)
            yield Buffer.from(text, 'utf8');
    }
    // A lone last byte of UTF-16 is dropped, as decodeBytes drops it, not read as U+FFFD.
    const rest = bytes % 2 === 1 ? undefined : decoder?.decode();
    if (rest)
        yield Buffer.from(rest, 'utf8');
}
function isGzip(bytes) {
    return bytes[0] === 0x1f && bytes[1] === 0x8b;
}
async function readPrefix(path, length) {
    const handle = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.open)(path, 'r');
    try {
        const buffer = Buffer.alloc(length);
        const { bytesRead } = await handle.read(buffer, 0, length, 0);
        return buffer.subarray(0, bytesRead);
    }
    finally {
        await handle.close();
    }
}
/** First `length` decompressed bytes of a gzip file, without inflating the rest. */
async function gunzipPrefix(path, length) {
    const chunks = [];
    let total = 0;
    const source = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.createReadStream)(path).pipe((0,node_zlib__WEBPACK_IMPORTED_MODULE_3__.createGunzip)());
    try {
        for await (const chunk of source) {
            chunks.push(chunk);
            total += chunk.length;
            if (total >= length)
                break;
        }
    }
    catch (error) {
        if (total === 0)
            throw new _errors_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .dz(path, `expected a readable gzip file (${error.message})`);
    }
    finally {
        source.destroy();
    }
    return Buffer.concat(chunks).subarray(0, length);
}
/** A file that exists but cannot be read (no permission, an I/O error): one line naming it. */
function unreadable(path, error) {
    const { code, message } = error;
    return new _errors_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .dz(path, `cannot read the file (${code ?? message}); expected a capture file that this user may read`);
}
async function openInput(path) {
    let sizeBytes;
    try {
        const info = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.stat)(path);
        if (!info.isFile())
            throw new _errors_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .dz(path, 'expected a file, found a directory or special file');
        sizeBytes = info.size;
    }
    catch (error) {
        if (error instanceof _errors_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .dz)
            throw error;
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .dz(path, `cannot read the file (${error.code ?? error.message})`);
    }
    let prefix;
    try {
        prefix = await readPrefix(path, SNIFF_BYTES);
    }
    catch (error) {
        throw unreadable(path, error);
    }
    const gzip = isGzip(prefix);
    const headBytes = gzip ? await gunzipPrefix(path, SNIFF_BYTES) : prefix;
    const head = decodeBytes(headBytes);
    const { encoding, bomLength } = detectEncoding(headBytes);
    return {
        path,
        head,
        gzip,
        sizeBytes,
        async bytes() {
            const { readFile } = await Promise.resolve(/* import() */).then(__webpack_require__.t.bind(__webpack_require__, 51455, 23));
            const raw = await readFile(path);
            if (!gzip)
                return raw;
            try {
                return (0,node_zlib__WEBPACK_IMPORTED_MODULE_3__.gunzipSync)(raw, { maxOutputLength: 2 * MAX_TEXT_BYTES });
            }
            catch (error) {
                throw new _errors_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .dz(path, `expected a complete gzip stream (${error.message})`);
            }
        },
        async text() {
            if (!gzip && sizeBytes > MAX_TEXT_BYTES) {
                throw new _errors_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .dz(path, `file is ${sizeBytes} bytes; text formats are read up to ${MAX_TEXT_BYTES} bytes`);
            }
            const { readFile } = await Promise.resolve(/* import() */).then(__webpack_require__.t.bind(__webpack_require__, 51455, 23));
            const raw = await readFile(path).catch((error) => {
                throw unreadable(path, error);
            });
            let bytes;
            if (gzip) {
                try {
                    bytes = (0,node_zlib__WEBPACK_IMPORTED_MODULE_3__.gunzipSync)(raw, { maxOutputLength: MAX_TEXT_BYTES });
                }
                catch (error) {
                    throw new _errors_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .dz(path, `expected a complete gzip stream (${error.message})`);
                }
            }
            else {
                bytes = raw;
            }
            return decodeBytes(bytes);
        },
        stream() {
            const raw = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.createReadStream)(path, { highWaterMark: 1 << 20 });
            let bytes = raw;
            if (gzip) {
                const gunzip = (0,node_zlib__WEBPACK_IMPORTED_MODULE_3__.createGunzip)({ chunkSize: 1 << 20 });
                raw.on('error', (error) => gunzip.destroy(error));
                bytes = raw.pipe(gunzip);
            }
            if (encoding === 'utf8' && bomLength === 0)
                return gzip ? node_stream__WEBPACK_IMPORTED_MODULE_2__.Readable.from(bytes) : raw;
            return node_stream__WEBPACK_IMPORTED_MODULE_2__.Readable.from(asUtf8(bytes, encoding, bomLength));
        },
    };
}
/** An in-memory input, for tests and for stdin. */
function inputFromText(path, text) {
    return {
        path,
        head: text.slice(0, SNIFF_BYTES),
        gzip: false,
        sizeBytes: Buffer.byteLength(text),
        text: async () => text,
        stream: () => node_stream__WEBPACK_IMPORTED_MODULE_2__.Readable.from([Buffer.from(text)]),
        bytes: async () => Buffer.from(text),
    };
}


/***/ })

};
