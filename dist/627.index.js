export const id = 627;
export const ids = [627];
export const modules = {

/***/ 75627:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  forkWorkloadRefusal: () => (/* binding */ forkWorkloadRefusal),
  runMode: () => (/* binding */ runMode)
});

// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
// EXTERNAL MODULE: ./src/pipeline/analyze.ts + 13 modules
var analyze = __webpack_require__(11843);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(73024);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
// EXTERNAL MODULE: external "node:net"
var external_node_net_ = __webpack_require__(77030);
// EXTERNAL MODULE: external "node:url"
var external_node_url_ = __webpack_require__(73136);
// EXTERNAL MODULE: ./src/errors.ts
var errors = __webpack_require__(83916);
// EXTERNAL MODULE: ./src/ingest/registry.ts + 44 modules
var registry = __webpack_require__(395);
// EXTERNAL MODULE: ./src/model/report.ts + 1 modules
var report = __webpack_require__(20949);
// EXTERNAL MODULE: ./src/classify/kernel-name.ts
var kernel_name = __webpack_require__(98545);
// EXTERNAL MODULE: ./src/diagnose/deep-dive-request.ts
var deep_dive_request = __webpack_require__(80959);
;// CONCATENATED MODULE: ./src/runner/deep-dive.ts
/**
 * The deep dive: Nsight Compute on the one kernel the analysis points at. A finding asks for it
 * with a structured request (kernel key and filter, launch skip, sections); here it becomes argv:
 * only ncu is ever run, the card's clocks are left alone (`--clock-control none`), the output is
 * CSV of the details page, and the workload follows ncu's own arguments.
 */


/** The ncu command line of a request: ncu, its arguments, then the workload. */
function ncuArgv(ncu, request, workload) {
    return [ncu, ...(0,deep_dive_request/* ncuArgs */.mA)(request), ...workload];
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
        const request = (0,deep_dive_request/* deepDiveRequest */.Oj)(target.topKernel.name, target.topKernel.instances);
        return { run: true, argv: ncuArgv(ncu, request, workload), why: `deep-dive: always, on the top kernel ${target.topKernel.name}`, request };
    }
    return { run: false, why: mode === 'always' ? 'deep-dive: always, but the analysis has no kernels' : 'no finding asks for a deep dive' };
}
/** What ncu was asked for, in words, so a deep dive that attached nothing says where to look. */
function askedText(request) {
    return `ncu was asked for launch ${request.launchSkip + 1} of the kernels matching ${request.nameRegex}${request.demangled ? ' (demangled names)' : ''}`;
}
/**
 * Why the deep dive read from `file` does not attach to the kernel it was asked for: no profiled
 * launch in it, or launches of other kernels only. Undefined when one of its launches is that kernel.
 */
function deepDiveMismatch(launches, request, file) {
    if (launches.length === 0)
        return `the deep dive's ${file} was read but holds no profiled launch; the report has no Nsight Compute section (${askedText(request)}).`;
    const wanted = [{ name: request.kernel, totalNs: 0 }];
    if (launches.some((launch) => (0,kernel_name/* matchKernel */.xz)(launch.kernel, wanted)))
        return undefined;
    const names = [...new Set(launches.map((launch) => launch.kernel))];
    const short = (name) => (name.length > 120 ? `${name.slice(0, 120)}…` : name);
    const shown = names.slice(0, 3).map(short).join('; ');
    return `the deep dive's ${file} holds launches of ${shown}${names.length > 3 ? ` and ${names.length - 3} more` : ''}, none of them ${short(request.kernel)} (key ${request.kernelKey}), the kernel it was run for (${askedText(request)}).`;
}

// EXTERNAL MODULE: external "node:child_process"
var external_node_child_process_ = __webpack_require__(31421);
// EXTERNAL MODULE: ./src/model/text-order.ts
var text_order = __webpack_require__(97167);
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
    return (0,text_order/* compareNatural */.d)(a, b);
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
            // The environment given explicitly: the one `which` searched (an embedding host may swap process.env).
            (0,external_node_child_process_.execFile)(command, [...args], { env: process.env, timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
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
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
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
        await sleep(Math.min(100, timing.earlyCheckMs));
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
        await sleep(timing.pollMs);
    }
    return failure(`did not answer 200 on ${plan.healthUrl} within ${Math.round(options.readyTimeoutMs / 1000)} s`, true);
}

// EXTERNAL MODULE: external "node:readline"
var external_node_readline_ = __webpack_require__(80481);
// EXTERNAL MODULE: external "node:zlib"
var external_node_zlib_ = __webpack_require__(38522);
// EXTERNAL MODULE: ./src/io/input-paths.ts
var input_paths = __webpack_require__(93053);
// EXTERNAL MODULE: ./src/ingest/common/input-file.ts
var input_file = __webpack_require__(73311);
// EXTERNAL MODULE: ./src/model/capture.ts
var capture = __webpack_require__(8347);
;// CONCATENATED MODULE: ./src/runner/line-splitter.ts
/**
 * Splitting a byte stream into lines with a bounded buffer. Bytes are held until a line ends and
 * decoded then, so a character split across two chunks arrives whole. Depends on node built-ins
 * only (the process tests load the process modules on their own).
 */
/** Longest output line kept (log file, callback); the rest of a longer line is dropped and counted. */
const MAX_LINE_BYTES = 1 << 20;
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
const isFormat = (kind) => capture/* FORMAT_IDS */.Jn.includes(kind);
/** A capture of a known format: its importer's own sniff on its head, as the analysis will detect it. */
async function checkFormat(path, format) {
    const importer = (0,registry/* importerFor */.UE)(format);
    return importer.sniff((await (0,input_file/* openInput */.lt)(path)).head) ? undefined : `does not look like ${importer.label}`;
}
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
    if (kind === 'workload-console') {
        if (!options.sniffOnly) {
            const file = await (0,input_file/* openInput */.lt)(path);
            if (!registry/* IMPORTERS */.a.some((importer) => importer.sniff(file.head)))
                problem = NO_METRIC_LINES;
        }
    }
    else if (kind === 'workload-capture') {
        if (/\.json\.gz$/i.test(path))
            problem = await checkGzipJson(path);
        else if (/\.json$/i.test(path))
            problem = await checkJsonShape(path, size);
    }
    else if (isFormat(kind)) {
        // JSON lines are checked whole (a cut last line), then the head by the importer.
        if (/\.jsonl$/i.test(path))
            problem = await checkJsonLines(path);
        problem ??= await checkFormat(path, kind);
    }
    return problem ? { ok: false, reason: problem } : { ok: true, bytes: size };
}
const NO_METRIC_LINES = 'holds no {"metric": …, "value": …} line (print one per result, e.g. {"metric": "decode_tok_s", "value": 123.4}, to compare throughput)';

/** Copy the metric lines of `from` into `to`, streamed line by line (bounded lines); returns how many. */
async function extractMetricLines(from, to) {
    const out = (0,external_node_fs_.createWriteStream)(to);
    const reader = (0,registry/* lineImporter */.F_)();
    let found = 0;
    let prose;
    const lines = new LineSplitter((line, dropped) => {
        if (dropped > 0)
            return;
        if (!reader.lineRecord(line)) {
            if (prose === undefined && THROUGHPUT_IN_WORDS.test(line))
                prose = line.trim().slice(0, 120);
            return;
        }
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
    return prose === undefined ? { found } : { found, prose };
}
/** A throughput written for people ("decode throughput: 100 tok/s"): what the metric line should carry instead. */
const THROUGHPUT_IN_WORDS = /\d(?:[\d.,]*)\s*(?:tok(?:en)?s?\s*\/\s*s|tok(?:en)?s?\s+per\s+second)\b/i;
/** The reason a console holds no metric line, quoting the line that reads like one. */
function noMetricLines(prose) {
    if (prose === undefined)
        return NO_METRIC_LINES;
    const value = /(\d[\d,]*(?:\.\d+)?)\s*tok/i.exec(prose)?.[1]?.replace(/,/g, '') ?? '123.4';
    return `holds no {"metric": …, "value": …} line: it prints ${JSON.stringify(prose)}, which is for people; print the number as a metric line too, e.g. {"metric": "decode_tok_s", "value": ${value}}`;
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
    const sniffed = registry/* CONSOLE_IMPORTERS */.Qi.find((importer) => importer.sniff(file.head));
    // A format of its own is read as it is; lines among other output are gathered (below) unless the head is all.
    if (sniffed && !sniffed.lineRecord)
        return { ok: true, path, bytes: check.bytes };
    // Whole, only where the analysis would read it as the same format (not for its tables).
    if (sniffed && file.sizeBytes <= input_file/* SNIFF_BYTES */.dD && registry/* IMPORTERS */.a.find((importer) => importer.sniff(file.head)) === sniffed)
        return { ok: true, path, bytes: check.bytes };
    const metrics = (0,input_paths/* consoleMetricsPath */.cn)(path);
    const extracted = await extractMetricLines(path, metrics);
    if (extracted.found === 0)
        return { ok: false, reason: noMetricLines(extracted.prose) };
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
async function walk(root, prefix = '', found = []) {
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
                await walk(root, path, found);
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
        for (const file of await walk(root, globBase(relativeGlob))) {
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
    return (await walk(dir)).filter((file) => file.endsWith(suffix)).map((file) => (0,external_node_path_.join)(dir, file));
}

// EXTERNAL MODULE: ./src/runner/shell-words.ts
var shell_words = __webpack_require__(49080);
;// CONCATENATED MODULE: ./src/runner/install-lines.ts
/** The exact line to install each tool the run can use, shown wherever the tool is missing. */
const INSTALL = {
    max: 'pip install modular (MAX ships in the modular package; see docs.modular.com for conda/pixi)',
    nsys: 'apt-get install -y nsight-systems-cli (from NVIDIA\'s devtools apt repository), or put an installed nsys on PATH',
    ncu: 'apt-get install -y cuda-nsight-compute-<cuda major>-<minor> (ships with the CUDA toolkit, also as /usr/local/cuda/bin/ncu)',
    rocprofv3: 'apt-get install -y rocprofiler-sdk (ROCm 6.2 or newer)',
    libdw: 'apt-get install -y libdw1 (nsys stats needs libdw.so.1)',
};

;// CONCATENATED MODULE: ./src/runner/steps/failure-text.ts
/**
 * What a command's end says when it did not end well: the exit in words, its last output lines,
 * and the fix for failures with a known cause.
 */

function describeExit(outcome) {
    if (outcome.startError)
        return outcome.startError;
    if (outcome.signal)
        return `was killed by ${outcome.signal}`;
    return `exited with code ${outcome.exitCode}`;
}
function failure_text_tailText(outcome) {
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
/** The status and message of a command that was cancelled, ran out of time or failed; undefined when it exited 0. */
function commandFailure(step, outcome, timeoutMs, log) {
    if (outcome.cancelled)
        return { status: 'cancelled', message: `${step.title} was stopped: the run was cancelled` };
    if (outcome.timedOut)
        return { status: 'timeout', message: `${step.title} did not finish within ${Math.round(timeoutMs / 1000)} s and was stopped (log: ${log}).${failure_text_tailText(outcome)}` };
    if (outcome.exitCode !== 0)
        return { status: 'failed', message: `${step.title} ${describeExit(outcome)} (log: ${log}).${knownCause(step, outcome)}${failure_text_tailText(outcome)}` };
    return undefined;
}

;// CONCATENATED MODULE: ./src/runner/steps/outputs.ts
/**
 * The files a command step leaves, checked before they count: the analysis copy of a profiled
 * console, the captures a workload wrote (copied out), and the planned outputs (present, not empty,
 * the expected kind). A missing optional output is a notice; a missing required one fails the step.
 */

/** The analysis copy of a profiled `max generate` console (its timings are not a measurement). */
async function deriveConsole(step, context) {
    if (!step.derive)
        return [];
    const dropped = await deriveProfileConsole(step.derive.from, step.derive.to);
    if (dropped)
        context.logger.info(`${context.display(step.derive.to)}: the profiled run's console without its ${dropped} timing lines (profiling slows the run)`);
    return [{ path: step.derive.to, kind: 'max-generate', analysis: true }];
}
/** The captures the step wrote (new or changed since `before`), copied out and checked. */
async function collectStepCaptures(step, context, cwd, before) {
    if (!step.collect)
        return [];
    const collected = [];
    const copies = await collectCaptures(step.collect.globs, cwd, before, step.collect.into);
    // A measured run beside a profile run of its own need not write the profile: only the
    // step whose captures are analyzed is expected to.
    if (copies.length === 0 && step.collect.analysis)
        context.notices.push({ severity: 'warning', message: `${step.id}: the step wrote no file matching captures ${step.collect.globs.join(', ')}` });
    for (const path of copies) {
        const check = await checkOutput(path, 'workload-capture');
        if (check.ok)
            collected.push({ path, kind: 'workload-capture', analysis: step.collect.analysis, bytes: check.bytes, step: step.id });
        else
            context.notices.push({ severity: 'warning', message: `${step.id}: capture ${context.display(path)} ${check.reason}; left out of the analysis` });
    }
    return collected;
}
/** The planned outputs (and those found by suffix), each checked. */
async function verifyOutputs(step, extra, context) {
    const { display, notices } = context;
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
            if (output.kind !== 'workload-console')
                notices.push({ severity: 'info', message: `${step.id}: ${display(output.path)} ${check.reason}` });
            else if (!notices.some((notice) => notice.code === 'workload-console-unread'))
                notices.push({ code: 'workload-console-unread', severity: 'info', message: `the workload's console ${check.reason}` });
        }
        else
            problems.push(`${display(output.path)} ${check.reason}${output.hint ? ` (${output.hint})` : ''}`);
    }
    return problems.length ? { files: found, problem: problems.join('; ') } : { files: found };
}
/**
 * The files of a command that exited 0, captures first; `problem` says what a required output
 * lacked (the step then failed).
 */
async function stepOutputs(step, context, cwd, capturesBefore) {
    const derived = await deriveConsole(step, context);
    const collected = await collectStepCaptures(step, context, cwd, capturesBefore);
    const verified = await verifyOutputs(step, derived, context);
    const files = [...collected, ...verified.files];
    return verified.problem ? { files, problem: verified.problem } : { files };
}

;// CONCATENATED MODULE: ./src/runner/steps/command.ts
/**
 * The runner most roles share: one command in its own process group, stopped at its limit, its
 * output streamed to its log, its files checked before they count. With `watchServer`, the server
 * a serve step started is watched too: its death stops the command and fails the step.
 */





/** Says in the log what is run, and where when not in the job's folder. */
function announce(step, context) {
    context.logger.info(`${step.cwd ? `(in ${step.cwd}) ` : ''}$ ${(0,shell_words/* formatCommand */.fE)(step.argv.map(context.display))}`);
}
/**
 * How long a failed command waits for the watched server's exit to be seen: a server that dies
 * makes its client fail at once (connection refused), often before the server's own exit is
 * reported, and the failure is the server's.
 */
const SERVER_EXIT_GRACE_MS = 2_000;
/** Waits for the command; when the watched server exits first (or just after the command failed), stops the command and says so. */
async function waitWatching(running, server) {
    if (!server)
        return { outcome: await running.done, serverDied: false };
    const first = await Promise.race([running.done.then(() => 'step'), server.exited.then(() => 'server')]);
    if (first === 'server') {
        await running.stop();
        return { outcome: await running.done, serverDied: true };
    }
    const outcome = await running.done;
    if (outcome.exitCode === 0)
        return { outcome, serverDied: false };
    let timer;
    const grace = new Promise((resolve) => {
        timer = setTimeout(() => resolve('alive'), SERVER_EXIT_GRACE_MS);
    });
    const after = await Promise.race([server.exited.then(() => 'died'), grace]);
    clearTimeout(timer);
    return { outcome, serverDied: after === 'died' };
}
/** Notices about the command's process group and output, whatever its end. */
function noteProcessTrouble(step, outcome, context) {
    if (outcome.leftovers > 0)
        context.notices.push({ severity: 'info', message: `${step.id}: ${outcome.leftovers} process(es) of its group were still running after it exited and were stopped` });
    if (outcome.cutLines > 0) {
        const lines = outcome.cutLines === 1 ? '1 output line longer than' : `${outcome.cutLines} output lines longer than`;
        context.notices.push({ severity: 'warning', message: `${step.id}: ${lines} ${MAX_LINE_BYTES} bytes ${outcome.cutLines === 1 ? 'was' : 'were'} cut (${outcome.cutBytes} bytes dropped; log: ${context.display(step.logFile)})` });
    }
}
async function serverDeathMessage(step, server) {
    const exit = await server.exited;
    const lines = server.recentLines().slice(-3).map((line) => JSON.stringify(line.slice(0, 200)));
    return `max serve exited (${describeExit(exit)}) during ${step.title.toLowerCase()}; its last log lines: ${lines.join(' / ') || '(none)'}`;
}
async function runCommand(step, context, timeoutMs, options = {}) {
    const stepStart = Date.now();
    const cwd = step.cwd ?? context.plan.cwd;
    const capturesBefore = step.collect ? await matchCaptures(step.collect.globs, cwd) : new Map();
    announce(step, context);
    const running = context.groups.start({
        argv: step.argv,
        cwd,
        env: context.envFor(step),
        logFile: step.logFile,
        ...(step.stdoutFile ? { stdoutFile: step.stdoutFile } : {}),
        timeoutMs,
        onLine: (line) => context.logger.output(line),
    });
    const server = options.watchServer ? context.server : undefined;
    const { outcome, serverDied } = await waitWatching(running, server);
    const base = { id: step.id, title: step.title, seconds: (Date.now() - stepStart) / 1000, exitCode: outcome.exitCode, logFile: step.logFile };
    noteProcessTrouble(step, outcome, context);
    if (serverDied)
        return { record: { ...base, status: 'failed', message: await serverDeathMessage(step, server) }, files: [] };
    const failure = commandFailure(step, outcome, timeoutMs, context.display(step.logFile));
    if (failure)
        return { record: { ...base, ...failure }, files: [] };
    const { files, problem } = await stepOutputs(step, context, cwd, capturesBefore);
    if (problem)
        return { record: { ...base, status: 'failed', message: `${step.title} exited 0 but ${problem} (log: ${context.display(step.logFile)})` }, files };
    return { record: { ...base, status: 'ok' }, files };
}
/** A runner of plain commands for a role. */
function commandRunner(options = {}) {
    return { kind: 'timed', run: (step, context, timeoutMs) => runCommand(step, context, timeoutMs, options) };
}

;// CONCATENATED MODULE: ./src/runner/steps/serve.ts


const serveRunner = {
    kind: 'timed',
    async run(step, context, timeoutMs) {
        const stepStart = Date.now();
        const { groups, plan } = context;
        announce(step, context);
        const start = await startServer(groups, step, plan.serve, {
            logger: context.logger,
            env: context.envFor(step),
            cwd: step.cwd ?? plan.cwd,
            readyTimeoutMs: timeoutMs,
            ...(context.serveTiming ? { timing: context.serveTiming } : {}),
            ...(context.health ? { health: context.health } : {}),
        });
        const base = { id: step.id, title: step.title, seconds: (Date.now() - stepStart) / 1000, logFile: step.logFile };
        if (!start.ok) {
            const status = groups.isCancelled() ? 'cancelled' : start.timedOut ? 'timeout' : 'failed';
            return { record: { ...base, status, message: start.message }, files: [] };
        }
        context.server = start.server;
        return { record: { ...base, status: 'ok' }, files: [] };
    },
};
/** Stops the server's process group (skipped when none runs). Without a step: the stop at the end of the run. */
async function stopServer(context, step) {
    const stepStart = Date.now();
    const id = step?.id ?? 'serve-stop';
    const title = step?.title ?? 'Stop the server';
    const { server } = context;
    if (!server)
        return { id, title, status: 'skipped', seconds: 0 };
    const pid = server.process.pid;
    if (!server.process.exited()) {
        context.logger.info(`stopping the server's process group ${pid} (SIGTERM, SIGKILL after ${context.groups.graceMs / 1000} s)`);
        await server.process.stop();
    }
    await server.exited;
    context.server = undefined;
    return { id, title, status: 'ok', seconds: (Date.now() - stepStart) / 1000, message: `process group ${pid} stopped` };
}
const serveStopRunner = { kind: 'cleanup', run: (step, context) => stopServer(context, step) };

;// CONCATENATED MODULE: ./src/runner/executor.ts
/**
 * The step loop: the plan's steps in order, each handed to the runner of its role inside a log
 * group with its time. A step gets what is left of the run's budget (less a reserve while a server
 * runs) up to its own limit. Once a step that stops the run fails, or the run is cancelled or out
 * of time, the rest are skipped, except cleanup steps (stopping the server); a server still running
 * at the end is stopped all the same. A failed step that lets the run go on leaves a notice of the
 * gap. The runners are passed in (steps/index.ts in a run; stand-ins in the tests).
 */


function contextFor(plan, deps) {
    return {
        plan,
        logger: deps.logger,
        groups: deps.groups,
        ...(deps.health ? { health: deps.health } : {}),
        ...(deps.serveTiming ? { serveTiming: deps.serveTiming } : {}),
        notices: [...plan.notices],
        server: undefined,
        display: (path) => (path.startsWith(`${plan.cwd}/`) ? (0,external_node_path_.relative)(plan.cwd, path) : path),
        envFor: (step) => (step.pathPrepend.length ? { ...step.env, PATH: [...step.pathPrepend, process.env.PATH ?? ''].join(external_node_path_.delimiter) } : step.env),
    };
}
const skipped = (step, message) => ({ id: step.id, title: step.title, status: 'skipped', seconds: 0, ...(message ? { message } : {}) });
class Executor {
    context;
    runners;
    records = [];
    files = [];
    stepProblems = [];
    stopReason;
    failedRoles = new Set();
    deadline;
    reserveMs;
    constructor(context, runners, deps, started) {
        this.context = context;
        this.runners = runners;
        this.deadline = started + context.plan.budgetSeconds * 1000;
        this.reserveMs = (deps.reserveSeconds ?? 15) * 1000;
    }
    failed(role, side) {
        return this.failedRoles.has(`${side ?? 'head'}:${role}`);
    }
    async runAll() {
        const { logger, plan } = this.context;
        try {
            for (const step of plan.steps)
                await this.step(step);
        }
        finally {
            if (this.context.server)
                this.records.push(await logger.group('Stop the server', () => stopServer(this.context)));
        }
    }
    async step(step) {
        const { logger, groups } = this.context;
        const runner = this.runners[step.role];
        if (runner.kind === 'cleanup') {
            this.records.push(await logger.group(step.title, () => runner.run(step, this.context)));
            return;
        }
        if (this.stopReason || groups.isCancelled()) {
            this.records.push(skipped(step));
            return;
        }
        const why = runner.skipWhy?.(step, this);
        if (why) {
            this.records.push(skipped(step, why));
            return;
        }
        const remaining = this.deadline - Date.now() - (this.context.server ? this.reserveMs : 0);
        if (remaining <= 0) {
            this.stopReason = { outcome: 'timeout', message: `the run reached its time budget (timeout-minutes ${this.context.plan.options.timeoutMinutes}) before ${step.title.toLowerCase()}` };
            this.records.push(skipped(step));
            return;
        }
        const timeoutMs = Math.min(step.timeoutSeconds * 1000, remaining);
        const result = await logger.group(step.title, () => this.runLogged(step, runner, timeoutMs));
        this.settle(step, runner, result);
    }
    /** Runs the step and logs how it ended. */
    async runLogged(step, runner, timeoutMs) {
        const { logger } = this.context;
        const result = await runner.run(step, this.context, timeoutMs);
        const { record } = result;
        logger.info(`${step.id}: ${record.status === 'ok' ? 'done' : record.status} in ${record.seconds.toFixed(1)} s`);
        if (record.message && record.status !== 'ok') {
            if (step.onFailure === 'stop')
                logger.error(record.message);
            else
                logger.warning(record.message);
        }
        return result;
    }
    /** Keeps the step's record and files; a failure stops the run or leaves a gap the report tells about. */
    settle(step, runner, result) {
        const { record } = result;
        this.records.push(record);
        this.files.push(...(step.side ? result.files.map((file) => ({ ...file, side: step.side })) : result.files));
        if (record.status === 'ok')
            return;
        this.failedRoles.add(`${step.side ?? 'head'}:${step.role}`);
        const message = record.message ?? `${step.title} failed`;
        if (record.status === 'cancelled')
            this.stopReason = { outcome: 'cancelled', message: 'the run was cancelled' };
        else if (step.onFailure === 'stop')
            this.stopReason = { outcome: record.status === 'timeout' ? 'timeout' : 'failed', message };
        else {
            this.stepProblems.push(message);
            this.context.notices.push({ severity: 'warning', message: `${message} The report has no ${runner.lacks?.(step) ?? `data from ${step.id}`}.` });
        }
    }
}
/** Carries out the plan's steps in order; `started` is when the run's budget began. */
async function runSteps(plan, deps, runners, started = Date.now()) {
    const context = contextFor(plan, deps);
    const executor = new Executor(context, runners, deps, started);
    await executor.runAll();
    return {
        records: executor.records,
        files: executor.files,
        context,
        ...(executor.stopReason ? { stopReason: executor.stopReason } : {}),
        stepProblems: executor.stepProblems,
    };
}

;// CONCATENATED MODULE: ./src/runner/steps/benchmark.ts
/**
 * `benchmark-warmup` and `benchmark`: `max benchmark` against the running server, which is watched
 * while they run (its death fails the step at once instead of at the benchmark's own timeout).
 */

const benchmarkWarmupRunner = commandRunner({ watchServer: true });
const benchmarkRunner = commandRunner({ watchServer: true });

// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 17 modules
var schemas = __webpack_require__(38816);
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

;// CONCATENATED MODULE: ./src/runner/steps/preflight.ts
/**
 * The custom-architecture pre-flight: a checker that prints JSON. Its errors stop the run, its
 * warnings become notices; a checker that gives no result is skipped with a warning, not a failure.
 */



const preflightRunner = {
    kind: 'timed',
    async run(step, context, timeoutMs) {
        const { logger, notices, plan } = context;
        const result = await runCommand({ ...step, outputs: [] }, context, timeoutMs);
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
    },
};

;// CONCATENATED MODULE: ./src/runner/steps/profile.ts
/**
 * `profile` runs the workload under the profiler (also the deep dive's ncu run); `profile-stats`
 * turns its report into tables, and is skipped when the profiled run of its side failed. Either
 * failing leaves the report without a kernel profile. In serve mode the profiled run is a traced
 * benchmark window, and fails when the server dies under it.
 */

const lacks = () => 'kernel profile';
const profileRunner = { ...commandRunner({ watchServer: true }), lacks };
const profileStatsRunner = {
    ...commandRunner(),
    lacks,
    skipWhy: (step, progress) => (progress.failed('profile', step.side) ? 'the profiled run failed' : undefined),
};

;// CONCATENATED MODULE: ./src/runner/steps/workload.ts
/**
 * `warmup` and `measured`: the workload itself, unprofiled (a command workload, `max generate`, or
 * the sampler wrapping either). A failure stops the run or leaves a gap, as the plan says.
 */

const warmupRunner = commandRunner();
const measuredRunner = commandRunner();

;// CONCATENATED MODULE: ./src/runner/steps/index.ts
/**
 * The runner of each step role. A role added to StepRole (plan-types.ts) does not compile until it
 * has a row here.
 */





const STEP_RUNNERS = {
    preflight: preflightRunner,
    warmup: warmupRunner,
    measured: measuredRunner,
    profile: profileRunner,
    'profile-stats': profileStatsRunner,
    serve: serveRunner,
    'benchmark-warmup': benchmarkWarmupRunner,
    benchmark: benchmarkRunner,
    'serve-stop': serveStopRunner,
};

;// CONCATENATED MODULE: ./src/runner/execute.ts
/**
 * Carrying out a plan: the executor (executor.ts) runs each step with the runner of its role
 * (steps/), each in its process group, stopped at its limit or at the run's deadline, its files
 * checked before they count. A failed warm-up, measured run or server stops the run; a failed
 * profile leaves a gap the report tells about. Here: the run's outcome from what the steps left.
 */


/**
 * Measured runs whose console gave no metric line while the other measured runs' of their side did:
 * each gave no sample, so the comparison rests on fewer runs than planned. Named, in place of the
 * general note that a console was unread.
 */
function runsWithoutSamples(plan, done) {
    const ok = new Set(done.records.filter((record) => record.status === 'ok').map((record) => record.id));
    const notices = [];
    for (const side of [undefined, 'base']) {
        const measured = plan.steps.filter((step) => step.role === 'measured' && step.side === side && ok.has(step.id) && step.outputs.some((o) => o.kind === 'workload-console'));
        const read = (id) => done.files.some((file) => file.step === id && file.kind === 'workload-console');
        const without = measured.filter((step) => !read(step.id));
        if (without.length === 0 || without.length === measured.length)
            continue;
        const ids = without.map((step) => step.id);
        notices.push({
            code: 'workload-console-unread',
            severity: 'warning',
            message: `${ids.join(', ')} gave no sample: ${ids.length === 1 ? 'its console holds' : 'their consoles hold'} no {"metric": …, "value": …} line, unlike the other measured runs; ${measured.length - without.length} of ${measured.length} measured runs count`,
        });
    }
    return notices;
}
/** The run's outcome: a run that ended ok with nothing to analyze (for either side) failed. */
function outcomeOf(plan, done, cancelled, seconds) {
    const { records: steps, files, stopReason, stepProblems } = done;
    const partial = runsWithoutSamples(plan, done);
    const notices = partial.length ? [...done.context.notices.filter((notice) => notice.code !== 'workload-console-unread'), ...partial] : done.context.notices;
    const outcome = cancelled ? 'cancelled' : stopReason?.outcome ?? 'ok';
    const analysisInputs = files.filter((file) => file.analysis && !file.side).map((file) => file.path);
    const baseAnalysisInputs = files.filter((file) => file.analysis && file.side === 'base').map((file) => file.path);
    const missing = analysisInputs.length === 0 ? 'the head' : plan.base && baseAnalysisInputs.length === 0 ? 'the base' : undefined;
    if (outcome === 'ok' && missing) {
        // The failed steps' own messages carry the hint (a capture range that never opened, a tool missing).
        // With no failed step, a command workload's console without metric lines is the likely cause.
        const consoleNotice = stepProblems.length ? undefined : notices.find((notice) => notice.code === 'workload-console-unread');
        const why = stepProblems.length ? `: ${stepProblems.join('; ')}` : consoleNotice ? `: ${consoleNotice.message}` : '';
        const message = `${stepProblems.length ? '' : 'every step finished but '}no capture file was produced for ${plan.base ? `${missing}'s analysis` : 'the analysis'}${why}`;
        return { outcome: 'failed', message, steps, files, analysisInputs, baseAnalysisInputs, notices, seconds: seconds() };
    }
    return {
        outcome,
        ...(outcome !== 'ok' ? { message: stopReason?.message ?? 'the run was cancelled' } : {}),
        steps,
        files,
        analysisInputs,
        baseAnalysisInputs,
        notices,
        seconds: seconds(),
    };
}
async function executePlan(plan, deps) {
    const started = Date.now();
    const done = await runSteps(plan, deps, STEP_RUNNERS, started);
    return outcomeOf(plan, done, deps.groups.isCancelled(), () => (Date.now() - started) / 1000);
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
/** nsys records between the workload's cudaProfilerStart and cudaProfilerStop (torch.cuda.profiler.start()/stop()). */
const NSYS_CAPTURE_RANGE_ARGS = ['--capture-range=cudaProfilerApi', '--capture-range-end=stop'];
function nsysProfileArgs(nsys, output, captureRange) {
    return [
        nsys,
        'profile',
        '--trace=cuda,nvtx',
        ...(captureRange ? NSYS_CAPTURE_RANGE_ARGS : []),
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
/**
 * Every chunk's in-use share (threshold 100 lists them all), so the rows cover the whole capture
 * range. `--force-export=true`: the SQLite export `nsys stats` just wrote can read as older than
 * the report (seen on an H100 host, 2026-12-06), and nsys analyze then refuses it without this.
 */
function nsysGpuUtilArgs(nsys, rep) {
    return [nsys, 'analyze', '--force-export=true', '--rule', 'gpu_time_util:threshold=100', '--format', 'csv', rep];
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
    const out = (...parts) => (base ? (0,external_node_path_.join)(context.outDir, report/* BASE_SIDE_DIR */.Qk, ...parts) : (0,external_node_path_.join)(context.outDir, ...parts));
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
        sampled: (argv, file, jobOnGpu = false) => sampling ? [python, (0,external_node_path_.join)(context.pythonDir, 'gpu_snapshot.py'), '--interval', String(SNAPSHOT_INTERVAL_SECONDS), jobOnGpu ? '--job-parent' : '--gpu-free-before', '--out', file, '--run', ...argv] : argv,
        snapshotOutput: (file) => (sampling ? [{ path: file, kind: 'gpu-snapshot-jsonl', analysis: true }] : []),
        nsysStats(rep, hint) {
            const csv = out('captures', 'profile.nsys-stats.csv');
            const util = out('captures', 'profile.gpu-time-util.csv');
            return [
                step({ id: 'profile-stats', role: 'profile-stats', title: 'Kernel summary (nsys stats)', argv: nsysStatsArgs(detected.tools.nsys, rep), stdoutFile: csv, outputs: [{ path: csv, kind: 'nsys-stats', analysis: true, ...(hint ? { hint } : {}) }, { path: rep.replace(/\.nsys-rep$/, '.sqlite'), kind: 'nsys-sqlite', analysis: false, optional: true }], onFailure: 'continue', weight: 1 }),
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
        ...((0,shell_words/* hasFlag */.Lt)(options.maxArgs, '--max-new-tokens') ? [] : ['--max-new-tokens', String(options.maxNewTokens)]),
        ...(options.prompt !== undefined && !(0,shell_words/* hasFlag */.Lt)(options.maxArgs, '--prompt') ? ['--prompt', options.prompt] : []),
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
    const port = Number((0,shell_words/* flagValue */.y6)(options.maxArgs, '--port') ?? 8000);
    if (!Number.isInteger(port) || port <= 0 || port > 65535)
        problems.push(`max-args: --port ${(0,shell_words/* flagValue */.y6)(options.maxArgs, '--port')} is not a port number`);
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
        ...((0,shell_words/* flagValue */.y6)(options.benchmarkArgs, '--dataset-name') === 'random' && !(0,shell_words/* hasFlag */.Lt)(options.benchmarkArgs, '--random-output-len') ? ['--random-output-len', String(options.maxNewTokens)] : []),
        ...((0,shell_words/* hasFlag */.Lt)(options.benchmarkArgs, '--max-benchmark-duration-s') ? [] : ['--max-benchmark-duration-s', String(window)]),
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
            argv: b.sampled([...benchmark, '--result-filename', json], snapshot, true),
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
    if (options.engine === 'max' && ((0,shell_words/* hasFlag */.Lt)(options.maxArgs, '--model') || (0,shell_words/* hasFlag */.Lt)(options.maxArgs, '--model-path')))
        problems.push('max-args: give the model with the model option, not --model/--model-path in max-args');
    if (context.isFile?.(context.outDir))
        problems.push(`out: ${context.outDir} is a file, not a folder; name a folder for the run's logs, captures and report`);
    const profiler = resolveProfiler(options, detected, notices);
    const sampling = Boolean(detected.vendor) && context.gpuSnapshotAvailable;
    // A GPU job on a box where no GPU is found (a broken driver, a runner without device access) would
    // measure throughput only and pass: that is a failed plan unless the workflow allows it.
    const needsGpu = [options.profiler !== 'none' ? `profiler ${options.profiler}` : '', context.gpuSnapshotAvailable ? 'GPU sampling' : ''].filter(Boolean);
    if (!detected.vendor && needsGpu.length && !options.allowNoGpu) {
        problems.push(`no GPU found (nvidia-smi and rocm-smi list none), but ${needsGpu.join(' and ')} need${needsGpu.length === 1 ? 's' : ''} one; check the driver and the runner's device access, or allow a throughput-only run with allow-no-gpu (--allow-no-gpu)`);
    }
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
    // Without a GPU nothing but throughput can be measured: the lines say so, and agree with the problem below.
    const noGpu = detected.gpus.length === 0 && !detected.vendor;
    const profilerText = plan.profiler === 'none' ? (noGpu || !plan.sampling ? 'none: throughput only' : PROFILER_TEXT.none) : PROFILER_TEXT[plan.profiler];
    const asked = options.profiler !== plan.profiler ? ` (asked: ${options.profiler}${noGpu ? '; no GPU found' : ''})` : '';
    lines.push(`  profiler    ${profilerText}${asked}`);
    lines.push(`  sampling    ${plan.sampling ? 'gpu_snapshot.py every 0.5 s during each measured run' : noGpu ? 'not possible: no GPU found' : 'off'}`);
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
            lines.push(`     ${step.cwd ? `(in ${step.cwd}) ` : ''}$ ${(0,shell_words/* formatCommand */.fE)(step.argv.map(show))}${step.stdoutFile ? ` > ${show(step.stdoutFile)}` : ''}`);
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
        lines.push(`     $ ${show(plan.deepDive.ncu)} --log-file ${show(plan.deepDive.csvFile)} --clock-control none --csv --page details … ${(0,shell_words/* formatCommand */.fE)(plan.deepDive.workload.map(show))}`);
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

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(77598);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(48161);
;// CONCATENATED MODULE: ./src/runner/child-env.ts
/**
 * The environment a workload process starts with: ours less what is ours alone, the run's tracking
 * marker, and throwaway stand-ins for the runner's file commands. Depends on node built-ins only (the
 * process tests load the process modules on their own).
 */



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
 * Our environment less what is ours alone: the action's inputs (the token among them) and the
 * runner's tokens for the artifact service and OIDC. A workload that prints its environment into a
 * log must not put them into the uploaded artifact, and it has no business with them.
 */
const WITHHELD_ENV = /^(INPUT_.*|ACTIONS_RUNTIME_TOKEN|ACTIONS_ID_TOKEN_REQUEST_TOKEN|ACTIONS_ID_TOKEN_REQUEST_URL)$/i;
function childEnvironment(env) {
    return Object.fromEntries(Object.entries(env).filter(([name]) => !WITHHELD_ENV.test(name)));
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
 * The full environment of a workload process, and the removal of its throwaway file commands (call
 * once it has exited). Without a temporary folder the workload gets no file commands at all.
 */
function workloadEnvironment(extra, trackingId) {
    let fileCommands = { env: {}, remove: () => undefined };
    try {
        fileCommands = throwawayFileCommands(process.env);
    }
    catch {
        // no temporary folder: the workload gets no file commands at all (below)
    }
    const env = { ...childEnvironment(process.env), ...extra, ...fileCommands.env, [TRACKING_VARIABLE]: trackingId };
    for (const name of FILE_COMMANDS)
        if (!(name in fileCommands.env))
            delete env[name];
    return { env, remove: fileCommands.remove };
}

;// CONCATENATED MODULE: ./src/runner/proc-stat.ts
/**
 * /proc/<pid>/stat read once into a typed record, and the table of live processes built from it.
 * The command name sits in parentheses and may itself hold spaces and parentheses (`(python (x) y)`),
 * so the fields after it are counted from the last ')'. Depends on node built-ins only (the process
 * tests load the process modules on their own).
 */

/** The fields of a stat line, or undefined when it has no command name in parentheses. */
function parseProcStat(text) {
    const open = text.indexOf('(');
    const close = text.lastIndexOf(')');
    if (open < 0 || close < open)
        return undefined;
    // Field 3 (state) onwards: state ppid pgrp session tty_nr … starttime is field 22.
    const fields = text.slice(close + 2).split(' ');
    return {
        pid: Number(text.slice(0, open).trim()),
        comm: text.slice(open + 1, close),
        state: fields[0] ?? '',
        ppid: Number(fields[1]),
        pgid: Number(fields[2]),
        session: Number(fields[3]),
        startTime: fields[19] ?? '',
    };
}
/** Neither a zombie nor dead. */
function isLive(stat) {
    return stat.state !== 'Z' && stat.state !== 'X';
}
/** One process's stat; undefined when it is gone or cannot be read. */
function readProcStat(pid) {
    try {
        return parseProcStat((0,external_node_fs_.readFileSync)(`/proc/${pid}/stat`, 'utf8'));
    }
    catch {
        return undefined;
    }
}
/** Live (not zombie) processes from /proc; empty where there is no /proc. */
function liveProcesses() {
    let entries;
    try {
        entries = (0,external_node_fs_.readdirSync)('/proc');
    }
    catch {
        return [];
    }
    const table = [];
    for (const entry of entries) {
        if (!/^\d+$/.test(entry))
            continue;
        const stat = readProcStat(Number(entry));
        if (stat && isLive(stat))
            table.push(stat);
    }
    return table;
}
/** The same process (same start time) is still there and not a zombie. */
function stillRunning(known) {
    const now = readProcStat(known.pid);
    return now !== undefined && isLive(now) && now.startTime === known.startTime;
}

;// CONCATENATED MODULE: ./src/runner/process-output.ts
/**
 * A child's output: both streams split into lines, written to the log (stdout to a file of its own
 * when asked), handed to a callback, and the last lines kept for the error message. Depends on node
 * built-ins and line-splitter.ts only (the process tests load the process modules on their own).
 */



const TAIL_LINES = 20;
function openStream(path) {
    (0,external_node_fs_.mkdirSync)((0,external_node_path_.dirname)(path), { recursive: true });
    return (0,external_node_fs_.createWriteStream)(path, { flags: 'w' });
}
function closeStream(stream) {
    return new Promise((resolve) => stream.end(() => resolve()));
}
class ProcessOutput {
    spec;
    /** The last lines of output, both streams, for the error message. */
    tail = [];
    log;
    stdoutFile;
    splitters = [];
    ended = Promise.resolve();
    streams = [];
    /** Opens the files (before the child starts: a folder that cannot be made stops the start). */
    constructor(spec) {
        this.spec = spec;
        this.log = openStream(spec.logFile);
        this.stdoutFile = spec.stdoutFile ? openStream(spec.stdoutFile) : undefined;
    }
    /** Reads the child's streams from now on. */
    attach(stdout, stderr) {
        this.streams = [stdout, stderr].filter((stream) => stream !== null);
        this.ended = Promise.all([this.follow(stdout, 'stdout', this.stdoutFile ?? this.log), this.follow(stderr, 'stderr', this.log)]);
    }
    /**
     * Waits for both streams to end, at most `ms`: a grandchild that left the group could hold the
     * pipes open, and is not waited on forever. Then lets go of the streams.
     */
    async drain(ms) {
        let timer;
        await Promise.race([this.ended, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
        clearTimeout(timer);
        for (const stream of this.streams)
            stream.destroy();
    }
    /** Lines longer than MAX_LINE_BYTES, both streams: how many, and the bytes dropped from them. */
    cut() {
        return {
            cutLines: this.splitters.reduce((sum, lines) => sum + lines.cutLines, 0),
            cutBytes: this.splitters.reduce((sum, lines) => sum + lines.cutBytes, 0),
        };
    }
    /** Closes the files, with a last line in the log when there is one (why the child did not start). */
    async close(lastLogLine) {
        if (lastLogLine)
            this.log.write(`${lastLogLine}\n`);
        await Promise.all([closeStream(this.log), this.stdoutFile ? closeStream(this.stdoutFile) : Promise.resolve()]);
    }
    follow(stream, name, target) {
        return new Promise((resolve) => {
            if (!stream)
                return resolve();
            const lines = new LineSplitter((line, dropped) => {
                target.write(dropped > 0 ? `${line}… [profile-gate: line cut at ${MAX_LINE_BYTES} bytes, ${dropped} bytes dropped]\n` : `${line}\n`);
                this.tail.push(line.length > 1000 ? `${line.slice(0, 1000)}…` : line);
                if (this.tail.length > TAIL_LINES)
                    this.tail.shift();
                this.spec.onLine?.(line, name);
            });
            this.splitters.push(lines);
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
    }
}

;// CONCATENATED MODULE: ./src/runner/process-table.ts
/**
 * Questions about the processes a run started, answered from /proc: the members of a group, the
 * descendants that left it, the processes that carry the run's marker. Depends on node built-ins and
 * proc-stat.ts only (the process tests load the process modules on their own).
 */


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
    return liveProcesses()
        .filter((entry) => entry.pgid === pgid)
        .map((entry) => entry.pid);
}
/**
 * Processes descended from a member of the group that moved to a group of their own (setsid, or a
 * wrapper such as gpu_snapshot.py that runs its command in a new group). Still ours to stop.
 */
function escapedDescendants(pgid) {
    const table = liveProcesses();
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
    return liveProcesses().filter((entry) => {
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

;// CONCATENATED MODULE: ./src/runner/process-group.ts
/**
 * Starting and stopping the workload's processes. Each child leads its own process group
 * (spawn detached = setsid), so it and everything it starts can be stopped together with a signal to
 * -pgid: SIGTERM, then SIGKILL after a grace period. Only groups started here are ever signalled,
 * never a process found by name; a cancel signal to us is passed on to them. Output goes through
 * process-output.ts, /proc is read through proc-stat.ts and process-table.ts, the environment comes
 * from child-env.ts. Depends on node built-ins and those modules only (the process tests load them on
 * their own).
 */






const SIGNAL_NUMBERS = { SIGINT: 2, SIGTERM: 15 };
/** How long the output of an exited child is waited on (a grandchild may hold its pipes open). */
const DRAIN_MS = 2000;
const process_group_sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
function signalProcess(pid, signal) {
    try {
        process.kill(pid, signal);
    }
    catch {
        // already gone
    }
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
            if (stillRunning(entry))
                signalProcess(entry.pid, name);
        };
        for (const entry of found)
            signal(entry, 'SIGTERM');
        const deadline = Date.now() + this.graceMs;
        while (Date.now() < deadline && found.some(stillRunning))
            await process_group_sleep(50);
        for (const entry of found)
            signal(entry, 'SIGKILL');
        for (let i = 0; i < 20 && found.some(stillRunning); i += 1)
            await process_group_sleep(25);
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
        // the group may be gone already; escaped descendants may remain
        signalProcess(-pgid, first);
        const remaining = () => groupMembers(pgid).length + escaped.filter(stillRunning).length;
        const deadline = Date.now() + this.graceMs;
        while (Date.now() < deadline && remaining() > 0)
            await process_group_sleep(50);
        if (remaining() > 0) {
            escaped.push(...escapedDescendants(pgid).filter((entry) => !escaped.some((known) => known.pid === entry.pid)));
            signalProcess(-pgid, 'SIGKILL');
            for (const entry of escaped.filter(stillRunning))
                signalProcess(entry.pid, 'SIGKILL');
            for (let i = 0; i < 20 && remaining() > 0; i += 1)
                await process_group_sleep(25);
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
        const output = new ProcessOutput(spec);
        const environment = workloadEnvironment(spec.env ?? {}, this.trackingId);
        const child = (0,external_node_child_process_.spawn)(spec.argv[0], spec.argv.slice(1), {
            cwd: spec.cwd,
            env: environment.env,
            detached: true,
            stdio: ['ignore', 'pipe', 'pipe'],
        });
        const pgid = child.pid;
        if (pgid !== undefined)
            this.groups.add(pgid);
        output.attach(child.stdout, child.stderr);
        let exited = false;
        let timedOut = false;
        let cancelledHere = false;
        const stop = async () => {
            if (pgid !== undefined)
                await this.stopGroup(pgid);
        };
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
                const leftovers = await this.afterExit(pgid, output, environment.remove);
                await output.close(startError);
                const cancelled = cancelledHere || this.cancelled;
                resolve({ exitCode, signal, timedOut, cancelled, ...(startError ? { startError } : {}), durationMs: Date.now() - started, tail: output.tail, leftovers, ...output.cut() });
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
     * Once the main process has exited: stops what is left of its group (returns how many were
     * left), waits for its output to drain and removes its throwaway files.
     */
    async afterExit(pgid, output, removeFiles) {
        let leftovers = 0;
        if (pgid !== undefined) {
            leftovers = groupMembers(pgid).length;
            if (leftovers > 0)
                await this.stopGroup(pgid);
            this.groups.delete(pgid);
        }
        await output.drain(DRAIN_MS);
        removeFiles();
        return leftovers;
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
                for (const pgid of this.active())
                    signalProcess(-pgid, 'SIGKILL');
                return;
            }
            handling = true;
            void (async () => {
                await this.stopAll(signal);
                try {
                    // The Actions runner waits 7.5 s after SIGINT before it sends SIGTERM.
                    if (options.settle)
                        await Promise.race([options.settle().catch(() => undefined), process_group_sleep(options.settleMs ?? 5000)]);
                }
                catch {
                    // the record is best effort; exit regardless
                }
                try {
                    await Promise.race([options.beforeExit?.(signal), process_group_sleep(1000)]);
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

;// CONCATENATED MODULE: ./src/runner/lost-captures.ts
/**
 * A capture that was planned and not made is a loss the report shows, never a quiet gap. Two parts:
 * - the fallback: under `--profiler nsys` a command workload is profiled between its own
 *   cudaProfilerStart and cudaProfilerStop; a workload that never calls them leaves nsys exiting 0
 *   with no report. That profiled run is taken once more as a whole process (no capture range), so
 *   the kernel comparison is kept, and the notice says how to mark the window;
 * - the loss: a side whose kernel capture still did not reach the analysis (the profiled run or
 *   its summary failed, or wrote nothing) is named, with why, as a skipped input of the report: the
 *   verdict's first line, the action's `skipped-inputs` output, and `strict` fails on it.
 */



/** How to mark the profiled window, said wherever a capture range did not open. */
const MARK_THE_WINDOW = 'mark the steady-state window: call torch.cuda.profiler.start() and torch.cuda.profiler.stop() around it (cudaProfilerStart/cudaProfilerStop), or give a --profile-run that does';
const CAPTURE_STEP_ROLES = new Set(['profile', 'profile-stats']);
/** The steps of a side that make its kernel capture: its profiled run and the summaries of it. */
function captureSteps(steps, side) {
    return steps.filter((step) => CAPTURE_STEP_ROLES.has(step.role) && step.side === side);
}
/**
 * The steps that take a side's profiled run again as a whole process, when its nsys capture range
 * never opened (nsys exited 0 and wrote no report); undefined otherwise. Its summaries follow it.
 */
function wholeProcessFallback(plan, run, side) {
    const profile = plan.steps.find((step) => step.role === 'profile' && step.side === side && NSYS_CAPTURE_RANGE_ARGS.every((arg) => step.argv.includes(arg)));
    if (!profile)
        return undefined;
    const record = run.steps.find((r) => r.id === profile.id);
    const report = profile.outputs.find((output) => output.kind === 'nsys-rep');
    // The run itself failed (an exit code, a timeout): the workload's fault, which a second run repeats.
    if (!record || record.status !== 'failed' || record.exitCode !== 0 || !report || (0,external_node_fs_.existsSync)(report.path))
        return undefined;
    const whole = {
        ...profile,
        id: `${profile.id}-whole`,
        title: profile.title.replace('(nsys)', '(nsys, whole process: the capture range never opened)'),
        argv: profile.argv.filter((arg) => !NSYS_CAPTURE_RANGE_ARGS.includes(arg)),
        logFile: profile.logFile.replace(/(\.log)?$/, '-whole.log'),
    };
    return [whole, ...captureSteps(plan.steps, side).filter((step) => step.role === 'profile-stats')];
}
/** The notice of a fallback that made the capture: what was lost, what stands in for it, and how to mark the window. */
function fallbackNotice(side) {
    const who = side === 'base' ? "the base build's profiled run" : 'the profiled run';
    return `${who} wrote no report: nsys records between cudaProfilerStart and cudaProfilerStop, and the workload never called them, so the capture range never opened. It was taken again as a whole process, so the kernel comparison includes model load and warm-up; ${MARK_THE_WINDOW}`;
}
/** A file of a step counts for the analysis of its side. */
function madeCapture(run, ids, side) {
    return run.files.some((file) => file.analysis && ids.has(file.step) && file.side === side);
}
/**
 * Without a profiled run (the workload's own profiler, no profile-run), the measured runs collect the
 * kernel capture: when runs finished and none wrote a file matching `captures`, it was not made.
 */
function measuredCaptureMissed(plan, run, side) {
    const collecting = plan.steps.filter((step) => step.role === 'measured' && step.side === side && step.collect?.analysis);
    if (plan.profiler !== 'torch' || collecting.length === 0)
        return undefined;
    const ids = new Set(collecting.map((step) => step.id));
    if (run.files.some((file) => file.kind === 'workload-capture' && ids.has(file.step) && file.side === side))
        return undefined;
    if (!run.steps.some((record) => ids.has(record.id) && record.status === 'ok'))
        return undefined;
    const globs = collecting[0].collect.globs.join(', ');
    return { path: globs, reason: `planned capture not made${side === 'base' ? ' (base build)' : ''}, so no kernel comparison, per-step time or kernel findings: no measured run wrote a file matching captures ${globs}` };
}
/**
 * The sides whose planned kernel capture did not reach the analysis, each as a skipped input: the
 * planned file and why (each capture step of the side that failed, in its own words).
 * A fallback that made the capture is no loss.
 */
function lostCaptures(plan, run, extraSteps = []) {
    const lost = [];
    for (const side of [undefined, 'base']) {
        const planned = captureSteps(plan.steps, side);
        const profile = planned.find((step) => step.role === 'profile');
        if (!profile) {
            const missed = measuredCaptureMissed(plan, run, side);
            if (missed)
                lost.push(missed);
            continue;
        }
        const all = [...planned, ...captureSteps(extraSteps, side)];
        const ids = new Set(all.map((step) => step.id));
        if (madeCapture(run, ids, side))
            continue;
        const records = all.map((step) => run.steps.find((r) => r.id === step.id)).filter((r) => r !== undefined);
        // Nothing ran (the run stopped before the profile): the run's own outcome says so.
        if (!records.some((r) => r.status !== 'skipped'))
            continue;
        // Every try that failed, in order (the profiled run, then its whole-process retake), else what was skipped.
        const failed = records.filter((r) => r.status !== 'ok' && r.status !== 'skipped').map((r) => r.message ?? `${r.title} ${r.status}`);
        const skipped = records.find((r) => r.status === 'skipped');
        const why = failed.length ? failed.join('; then ') : skipped?.message ?? `${profile.title} left no file for the analysis`;
        const where = profile.outputs[0]?.path ?? profile.findOutputs?.dir ?? profile.collect?.into ?? profile.logFile;
        const path = where.startsWith(`${plan.cwd}/`) ? (0,external_node_path_.relative)(plan.cwd, where) : where;
        lost.push({ path, reason: `planned capture not made${side === 'base' ? ' (base build)' : ''}, so no kernel comparison, per-step time or kernel findings: ${why}` });
    }
    return lost;
}

// EXTERNAL MODULE: ./src/io/secrets.ts
var io_secrets = __webpack_require__(53965);
// EXTERNAL MODULE: ./src/report/json.ts
var json = __webpack_require__(32794);
// EXTERNAL MODULE: ./src/runner/run-options.ts
var run_options = __webpack_require__(68576);
// EXTERNAL MODULE: ./src/report/inert-text.ts
var inert_text = __webpack_require__(18036);
;// CONCATENATED MODULE: ./src/runner/logger.ts


/** Plain text to a writable stream, headers for groups (the CLI). */
function createPlainLogger(write, options = {}) {
    const showOutput = options.showOutput ?? true;
    return {
        // The run's own lines quote names from outside (files, kernels): printed inert (inert-text.ts).
        info: (message) => write(`${inertLine(message)}\n`),
        warning: (message) => write(`warning: ${inertLine(message)}\n`),
        error: (message) => write(`error: ${inertLine(message)}\n`),
        output: (line) => {
            if (showOutput)
                write(`  | ${line}\n`);
        },
        async group(name, fn) {
            write(`\n== ${inertLine(name)}\n`);
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
        const port = Number((0,shell_words/* flagValue */.y6)(options.maxArgs, '--port') ?? 8000);
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
        isFile: (path) => {
            try {
                return !(0,external_node_fs_.statSync)(path).isDirectory();
            }
            catch {
                return false;
            }
        },
    });
}
const NOT_FORMATS = new Set(['nsys-rep', 'workload-capture', 'workload-console']);
/** A planned output of a format whose importer reads GPU utilization samples (the sampler's files). */
function holdsUtilization(kind) {
    return !NOT_FORMATS.has(kind) && (0,registry/* capabilitiesOf */.SF)(kind).utilization === true;
}
/** A planned output of a format whose importer reads a per-launch timeline. */
function holdsTimeline(kind) {
    return !NOT_FORMATS.has(kind) && (0,registry/* capabilitiesOf */.SF)(kind).timeline === true;
}
/**
 * The GPU sampler's files record the command they ran (their header's `command`): redacted in place
 * as soon as the steps end, before anything reads or uploads them.
 */
async function redactCommandRecords(run, secrets) {
    for (const file of run.files) {
        if (!holdsUtilization(file.kind))
            continue;
        try {
            const text = await (0,promises_.readFile)(file.path, 'utf8');
            const lines = text.split('\n').map((line) => {
                if (!line.includes('"command"'))
                    return line;
                try {
                    return JSON.stringify((0,io_secrets/* redactValue */.FI)(JSON.parse(line), secrets).value);
                }
                catch {
                    return (0,io_secrets/* redact */.E$)(line, secrets);
                }
            });
            const clean = lines.join('\n');
            if (clean !== text)
                await (0,promises_.writeFile)(file.path, clean);
        }
        catch {
            // A file the step did not leave is told by the run's own checks.
        }
    }
}
/** Plan notices and run gaps in the report's notice shape. */
function runNotices(run) {
    return run.notices.map((notice) => ({ code: notice.code ?? 'run', severity: notice.severity, message: notice.fix ? `${notice.message} (${notice.fix})` : notice.message }));
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
    // The deep dive is the head's alone: run as a plan without the base side, which would otherwise
    // count the base's missing capture of this step as a failed run (and lose the CSV of an A/B job).
    const { base: _base, ...headOnly } = plan;
    const run = await executePlan({ ...headOnly, steps: [step], notices: [], budgetSeconds: Math.ceil(remainingSeconds) }, { ...deps, reserveSeconds: 0 });
    const record = run.steps[0];
    // A step that ended ok in a run that did not still failed: the run's reason is the step's.
    const message = record.message ?? (run.outcome !== 'ok' ? run.message : undefined);
    return { record: { ...record, ...(run.outcome !== 'ok' && record.status === 'ok' ? { status: 'failed' } : {}), ...(message ? { message } : {}), why: choice.why }, run, asked: askedText(choice.request), request: choice.request };
}
/** The options as run.json records them: those of the engine that ran, none of the other's. */
function recordedOptions(options) {
    if (options.engine === 'command') {
        const { mode: _mode, maxArgs: _maxArgs, prompt: _prompt, maxNewTokens: _maxNewTokens, customArchitectures: _arch, benchmarkArgs: _bench, captureSeconds: _seconds, ...rest } = options;
        return rest;
    }
    const { captures: _captures, ...rest } = options;
    return options.mode === 'serve' ? rest : (({ captureSeconds: _seconds, benchmarkArgs: _bench, ...generate }) => generate)(rest);
}
async function writeRunJson(plan, result, secrets) {
    const { run } = result;
    const data = {
        outcome: run.outcome,
        ...(run.message ? { message: run.message } : {}),
        environment: plan.environment,
        profiler: plan.profiler,
        options: recordedOptions(plan.options),
        steps: run.steps,
        ...(result.deepDive ? { deepDive: result.deepDive } : {}),
        files: run.files,
        analysisInputs: run.analysisInputs,
        ...(plan.base ? { base: { ...plan.base, analysisInputs: run.baseAnalysisInputs, report: baseReportPath(plan) } } : {}),
        ...(result.lost?.length ? { lostCaptures: result.lost } : {}),
        notices: run.notices,
        seconds: run.seconds,
    };
    // Command lines quote what the workflow wrote, a `--token VALUE` included.
    await (0,input_paths/* writeOutput */.zh)((0,external_node_path_.join)(plan.outDir, report/* RUN_FILE */.zF), `${JSON.stringify((0,io_secrets/* redactValue */.FI)(data, secrets).value, null, 2)}\n`);
}
/** Remove what an earlier run into the same folder left at the paths this plan writes (only those). */
async function clearPlannedFiles(plan) {
    const paths = new Set([(0,external_node_path_.join)(plan.outDir, report/* RUN_FILE */.zF), plan.deepDive.csvFile, plan.deepDive.logFile]);
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
                paths.add((0,input_paths/* consoleMetricsPath */.cn)(output.path));
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
    return (0,external_node_path_.join)(plan.outDir, report/* BASE_SIDE_DIR */.Qk, 'baseline-report.json');
}
/**
 * The head's files that hold its timeline but were not read by the analysis (the nsys SQLite export
 * beside the stats it read): what profile-gate's clean trace of the run is written from.
 */
function traceInputs(run) {
    return run.files.filter((file) => holdsTimeline(file.kind) && !file.side && !run.analysisInputs.includes(file.path)).map((file) => file.path);
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
/** Whether more A/B pairs may change a verdict: a fail is decided; an invalid comparison (throttled, another environment) no run can mend. */
const MORE_PAIRS_MAY_DECIDE = { pass: true, warn: true, 'insufficient-data': true, accepted: true, fail: false, invalid: false };
/**
 * Adaptive A/B: while the head's comparison has undecided gated metrics and it has not failed, run
 * the next reserve ABBA pair and compare again, as the next look (the gate spends alpha over the
 * looks). Undecided is the gate's rule (src/compare/metric-rows.ts): a metric passes only when its
 * interval excludes a regression at the floor, so one whose interval reaches past the floor is
 * undecided as much as one whose sides overlap or whose change is not significant. Stops at
 * max-runs, or when the next pair would not fit twice into the time left; the last look's rows
 * then say insufficient-data with what would decide them.
 */
async function decideWithMoreRuns(plan, result, deps, executeDeps, started) {
    const { run } = result;
    const looks = plan.extraPairs.length + 1;
    for (let index = 2; index <= looks; index += 1) {
        const undecided = result.report.comparison?.undecided ?? [];
        if (!MORE_PAIRS_MAY_DECIDE[result.report.verdict] || !undecided.length)
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
        result.report = await deps.analyze(run.analysisInputs, { side: 'head', baseline: abBaseline(plan, plan.base, result.baseReport, { index, of: looks }), ...lostOf(result) });
    }
}
function lostOf(result) {
    return result.lost?.length ? { skipped: result.lost } : {};
}
/**
 * A profiled run whose nsys capture range never opened (the workload never called
 * cudaProfilerStart: nsys exits 0 and writes no report) is taken once more as a whole process, on
 * each side that lost it, with its summaries; the run's files and analysis inputs gain what it
 * made. Returns the steps it ran, so the loss is judged over both tries.
 */
async function recoverCaptureRange(plan, run, deps, started) {
    const ran = [];
    for (const side of [undefined, 'base']) {
        const steps = wholeProcessFallback(plan, run, side);
        if (!steps)
            continue;
        const remaining = plan.budgetSeconds - (Date.now() - started) / 1000;
        if (remaining < 30) {
            run.notices.push({ severity: 'warning', message: `${fallbackNotice(side).split('. It was taken again')[0]}; ${Math.round(remaining)} s left of the time budget, too little to take it again as a whole process` });
            continue;
        }
        deps.logger.warning(`${side === 'base' ? 'base: ' : ''}the capture range never opened (nsys wrote no report): profiling the run again as a whole process`);
        const { base: _base, ...withoutBase } = plan;
        const more = await executePlan({ ...(side === 'base' ? plan : withoutBase), steps, notices: [], budgetSeconds: Math.floor(remaining) }, { ...deps, reserveSeconds: 0 });
        ran.push(...steps);
        run.steps.push(...more.steps);
        run.files.push(...more.files);
        run.notices.push(...more.notices);
        const made = more.files.filter((file) => file.analysis);
        run.analysisInputs.push(...made.filter((file) => !file.side).map((file) => file.path));
        run.baseAnalysisInputs.push(...made.filter((file) => file.side === 'base').map((file) => file.path));
        if (made.length)
            run.notices.push({ severity: 'warning', message: fallbackNotice(side) });
    }
    // A run that failed only for want of a capture file stands once the fallback made one.
    if (ran.length && run.outcome === 'failed' && run.analysisInputs.length && (!plan.base || run.baseAnalysisInputs.length) && !stoppedByStep(plan, run)) {
        run.outcome = 'ok';
        delete run.message;
    }
    return ran;
}
/** A step whose failure stops the run did not end ok. */
function stoppedByStep(plan, run) {
    const stops = new Set(plan.steps.filter((step) => step.onFailure === 'stop').map((step) => step.id));
    return run.steps.some((record) => stops.has(record.id) && record.status !== 'ok' && record.status !== 'skipped');
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
    const secrets = deps.secrets ?? (0,io_secrets/* secretsFromEnv */.zr)(process.env);
    await (0,promises_.writeFile)((0,external_node_path_.join)(plan.outDir, 'logs', 'plan.txt'), (0,io_secrets/* redact */.E$)(renderPlan(plan), secrets));
    const run = await executePlan(plan, executeDeps);
    const fallback = await recoverCaptureRange(plan, run, executeDeps, started);
    await redactCommandRecords(run, secrets);
    const result = { plan, run };
    const lost = run.outcome === 'ok' ? lostCaptures(plan, run, fallback) : [];
    if (lost.length) {
        result.lost = lost;
        for (const entry of lost)
            deps.logger.warning(`${entry.path}: ${entry.reason}`);
    }
    if (run.outcome === 'ok' && deps.analyze) {
        let head = { side: 'head', ...lostOf(result) };
        const looks = plan.extraPairs.length + 1;
        if (plan.base) {
            result.baseReport = await deps.analyze(run.baseAnalysisInputs, { side: 'base' });
            head = { side: 'head', baseline: abBaseline(plan, plan.base, result.baseReport, looks > 1 ? { index: 1, of: looks } : undefined), ...lostOf(result) };
        }
        result.report = await deps.analyze(run.analysisInputs, head);
        if (plan.base && looks > 1) {
            await decideWithMoreRuns(plan, result, deps, executeDeps, started);
            // No run is added after the last comparison: it is the final look, tested at what the looks
            // before it left of alpha (all of it when the job stopped at its first look), so the same
            // samples read as they would in analyze, and no row promises runs the job will not add.
            const last = { index: result.report.comparison?.look?.index ?? 1, of: looks, final: true };
            head = { side: 'head', baseline: abBaseline(plan, plan.base, result.baseReport, last), ...lostOf(result) };
            if (result.report.comparison)
                result.report = await deps.analyze(run.analysisInputs, head);
        }
        const analyzeHead = (inputs) => deps.analyze(inputs, head);
        const remaining = plan.budgetSeconds - (Date.now() - started) / 1000;
        if (plan.deepDive.enabled) {
            const deep = await runDeepDiveStep(plan, result.report, executeDeps, remaining);
            if (deep.record)
                result.deepDive = deep.record;
            if (deep.run && deep.run.outcome === 'ok') {
                run.files.push(...deep.run.files);
                const csv = plan.deepDive.csvFile.startsWith(`${plan.cwd}/`) ? (0,external_node_path_.relative)(plan.cwd, plan.deepDive.csvFile) : plan.deepDive.csvFile;
                try {
                    result.report = await analyzeHead([...run.analysisInputs, ...deep.run.analysisInputs]);
                    run.analysisInputs.push(...deep.run.analysisInputs);
                    const mismatch = deep.request ? deepDiveMismatch(result.report.deepDive, deep.request, csv) : undefined;
                    if (mismatch)
                        run.notices.push({ severity: 'warning', message: mismatch });
                }
                catch (error) {
                    // The deep dive is extra: a CSV the analysis refuses costs it, not the report made without it.
                    if (!(error instanceof errors/* InputError */.dz))
                        throw error;
                    run.notices.push({ severity: 'warning', message: `the deep dive's ${csv} could not be analyzed (${error.message}); the report has no Nsight Compute section (${deep.asked ?? 'no request'}).` });
                }
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
            await (0,input_paths/* writeOutput */.zh)(baseReportPath(plan), (0,json/* serializeReport */.x)(result.baseReport));
        await writeRunJson(plan, result, secrets);
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

// EXTERNAL MODULE: ./src/action/publish.ts + 9 modules
var publish = __webpack_require__(65142);
// EXTERNAL MODULE: ./src/action/baseline.ts
var action_baseline = __webpack_require__(26611);
// EXTERNAL MODULE: ./src/action/modes/run-info.ts
var run_info = __webpack_require__(35153);
// EXTERNAL MODULE: ./src/io/families-file.ts + 1 modules
var families_file = __webpack_require__(61090);
// EXTERNAL MODULE: ./src/action/inputs.ts + 1 modules
var inputs = __webpack_require__(39030);
;// CONCATENATED MODULE: ./src/action/modes/run-mode.ts
/**
 * Mode `run`: the whole job on this GPU runner — plan, warm-up, measured runs with utilization sampling,
 * one profiled run, an optional deep dive — then analyze and publish. The orchestration is the engine's
 * (src/runner), shared with `profile-gate run`; this file maps it onto the runner's log, signals and
 * artifact.
 */












/** The runner's log; the workload's own lines are fenced so that it cannot issue workflow commands. */
function actionLogger(ctx) {
    const base = {
        // The run's own lines quote names from outside: inert (no line can be a workflow command).
        info: (text) => ctx.host.info((0,inert_text/* inertLine */.Fq)(text)),
        warning: (text) => ctx.host.warning((0,inert_text/* inertLine */.Fq)(text)),
        error: (text) => ctx.host.error((0,inert_text/* inertLine */.Fq)(text)),
        output: (text) => ctx.host.info((0,publish/* oneLine */.TN)(text)),
        group: (name, fn) => ctx.host.group(name, fn),
    };
    return fencedLogger(base, (line) => ctx.host.info((0,publish/* oneLine */.TN)(line)));
}
/**
 * A pull request from a fork brings a stranger's code; mode run would execute it on this
 * self-hosted runner. GitHub advises self-hosted runners only for private repositories for that
 * reason, so it takes an explicit input.
 */
function forkWorkloadRefusal(ctx) {
    if (!ctx.run.fromFork || ctx.inputs.allowForkWorkloads)
        return undefined;
    return `mode run: pull request #${ctx.run.pullRequest ?? '?'} comes from a fork, and its workload would run on this self-hosted runner; nothing was run. Use the fork-safe pattern (examples/fork-safe-pr.yml and fork-safe-comment.yml: approval for outside collaborators, ephemeral runners, no write token) and set ${inputs/* INPUTS */.mc.allowForkWorkloads}: true there`;
}
async function runMode(ctx) {
    const refusal = forkWorkloadRefusal(ctx);
    if (refusal)
        throw new errors/* UsageError */.eb(refusal);
    const options = ctx.inputs.run;
    if (!options)
        throw new Error('mode run: the run options were not read with the inputs');
    const gate = (0,action_baseline/* gateOptions */.O)(ctx);
    const families = ctx.inputs.families ? await (0,families_file/* loadFamilies */.Z)(ctx.inputs.families) : [];
    const { baseline, note } = await (0,action_baseline/* resolveBaseline */.o)(ctx, options.base !== undefined);
    const plan = await prepareRun(options, { outDir: (0,external_node_path_.join)(ctx.inputs.reportDir, 'run') });
    ctx.host.info((0,inert_text/* inertLines */.wi)(renderPlan(plan)));
    const groups = new ProcessGroups();
    // The runner sends SIGINT then SIGTERM on cancel: stop exactly the workload's process groups first.
    let job;
    const restoreSignals = groups.forwardSignals({ settle: () => job ?? Promise.resolve(), beforeExit: (signal) => ctx.host.warning(`${signal}: stopped the workload's process groups; run.json says what finished`) });
    let result;
    // The captures of the head's last analysis: what the clean traces are written from.
    let read = [];
    try {
        const running = runJob(plan, {
            logger: actionLogger(ctx),
            groups,
            secrets: ctx.secrets,
            analyze: (inputs, which) => (0,analyze/* analyze */.ns)({
                inputs,
                onCaptures: (captures) => {
                    if (which.side !== 'base')
                        read = captures;
                },
                environment: plan.environment,
                run: (0,run_info/* runInfo */.Q)(ctx),
                gate,
                diagnose: { options: ctx.inputs.ruleOptions },
                families,
                ...(ctx.inputs.analyzeTimeoutSeconds ? { timeoutMs: ctx.inputs.analyzeTimeoutSeconds * 1000 } : {}),
                // The base side of an A/B run is a baseline in the making: never compared itself.
                baseline: which.side === 'base' ? null : which.baseline ?? baseline,
                // A planned capture that was not made leads the verdict's reasons and the skipped-inputs output.
                ...(which.side === 'head' && which.skipped?.length ? { skippedInputs: which.skipped } : {}),
            }),
        });
        job = running;
        result = await running;
    }
    finally {
        restoreSignals();
    }
    const logs = [(0,external_node_path_.join)(plan.outDir, report/* RUN_FILE */.zF), ...(result.baseReport ? [baseReportPath(plan)] : []), ...result.run.files.map((file) => file.path)];
    if (result.run.outcome !== 'ok' || !result.report) {
        ctx.host.setFailed(`profile-gate run ${result.run.outcome}: ${(0,publish/* oneLine */.TN)(result.run.message ?? 'no report was produced')} (logs in ${plan.outDir})`);
        return;
    }
    await (0,publish/* publishReport */.S3)(ctx, { report: result.report, extraFiles: logs, captures: read, traceInputs: traceInputs(result.run), ...(note ? { baselineNote: note } : {}) });
    if (ctx.inputs.strict && result.lost?.length) {
        // A planned capture that was not made fails a strict job (the skipped-inputs output names it).
        ctx.host.setFailed(`profile-gate run: input '${inputs/* INPUTS */.mc.strict}': ${(0,publish/* oneLine */.TN)(result.lost.map((entry) => `${entry.path}: ${entry.reason}`).join('; '))}`);
    }
}


/***/ })

};
