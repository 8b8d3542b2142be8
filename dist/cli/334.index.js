export const id = 334;
export const ids = [334];
export const modules = {

/***/ 1334:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  writeDerivedFiles: () => (/* binding */ writeDerivedFiles)
});

// UNUSED EXPORTS: TRACES_DIR

// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: ./src/model/trace-events.ts
var trace_events = __webpack_require__(8668);
;// CONCATENATED MODULE: ./src/report/chrome-trace.ts
/**
 * A clean Chrome-trace / Perfetto JSON of one capture, written by profile-gate from the events it
 * read (model/trace-events.ts): kernels, copies and fills on their device and stream, ranges and CPU
 * ops on their thread. Nothing else of the profiler's file is carried: no metadata, environment,
 * command line, process table or unknown field. Names go through the caller's `name` (the
 * redaction). Opens in https://ui.perfetto.dev and chrome://tracing; profile-gate reads it back as
 * a Kineto trace (same categories and args).
 */

/** The host's events go under one process id no GPU has (GPUs are their device number, as Kineto writes them). */
const HOST_PID = 1_000_000;
/** The Kineto category of each kind, so the trace reads back as the events it was written from. */
const CATEGORY = {
    kernel: 'kernel',
    memcpy: 'gpu_memcpy',
    memset: 'gpu_memset',
    range: 'user_annotation',
    'cpu-op': 'cpu_op',
};
/** µs with ns digits, as Chrome traces count time. */
const micros = (ns) => (ns / 1000).toFixed(3);
/** The trace as JSON text; events in start order, times from the first event kept. */
function renderChromeTrace(trace, options) {
    const names = new Map();
    const nameOf = (text) => {
        let json = names.get(text);
        if (json === undefined)
            names.set(text, (json = JSON.stringify(options.name(text))));
        return json;
    };
    const events = [...trace.events()].sort((a, b) => a.startNs - b.startNs);
    const origin = events.length ? events[0].startNs : 0;
    const lanes = new Map();
    const processes = new Map();
    const lines = [];
    for (const e of events) {
        const host = e.device === trace_events/* HOST_DEVICE */.u$;
        const pid = host ? HOST_PID : e.device;
        const tid = e.lane;
        processes.set(pid, host ? 'Host' : `GPU ${e.device}`);
        const laneKey = `${pid}:${tid}`;
        if (!lanes.has(laneKey))
            lanes.set(laneKey, { pid, tid, label: host ? `thread ${tid}` : `stream ${tid}` });
        const args = host ? '' : `,"args":{"device":${e.device},"stream":${tid}}`;
        lines.push(`{"ph":"X","cat":"${CATEGORY[e.kind]}","name":${nameOf(e.name)},"pid":${pid},"tid":${tid},"ts":${micros(e.startNs - origin)},"dur":${micros(e.durNs)}${args}}`);
    }
    const meta = [];
    for (const [pid, label] of processes)
        meta.push(`{"ph":"M","name":"process_name","pid":${pid},"tid":0,"args":{"name":${JSON.stringify(label)}}}`);
    for (const { pid, tid, label } of lanes.values())
        meta.push(`{"ph":"M","name":"thread_name","pid":${pid},"tid":${tid},"args":{"name":${JSON.stringify(label)}}}`);
    const cut = trace.dropped();
    const otherData = {
        generator: options.generator,
        source: options.source,
        events: events.length,
        ...(Object.keys(cut).length ? { eventsCut: cut, note: 'only the first events of each class were kept; eventsCut counts those left out' } : {}),
    };
    return `{"traceEvents":[\n${[...meta, ...lines].join(',\n')}\n],\n"displayTimeUnit":"ns",\n"otherData":${JSON.stringify(otherData)}}\n`;
}

// EXTERNAL MODULE: ./src/report/profile-json.ts
var profile_json = __webpack_require__(7534);
// EXTERNAL MODULE: ./src/version.ts
var version = __webpack_require__(311);
// EXTERNAL MODULE: ./src/ingest/registry.ts + 44 modules
var registry = __webpack_require__(395);
// EXTERNAL MODULE: ./src/io/input-paths.ts
var input_paths = __webpack_require__(3053);
// EXTERNAL MODULE: ./src/io/secrets.ts
var io_secrets = __webpack_require__(3965);
;// CONCATENATED MODULE: ./src/io/derived-files.ts
/**
 * The files profile-gate writes from its own model of what it read, for upload in place of the
 * captures: profile.json (the normalized profile) and, for each capture with a timeline, a clean
 * Chrome-trace JSON (report/chrome-trace.ts) under traces/. Every name in them passes through the
 * job's redaction; a trace's file name is its number and format, never the capture's name.
 */








/** Writes profile.json and traces/N-format.trace.json into `dir`; the report given is already redacted. */
async function writeDerivedFiles(dir, report, captures, secrets, options = {}) {
    const entries = [];
    const traces = [];
    const unread = [];
    const more = [];
    for (const path of options.traceInputs ?? []) {
        try {
            more.push(await (0,registry/* ingestFile */.tf)(path));
        }
        catch {
            unread.push(`no clean trace of ${(0,io_secrets/* redact */.E$)((0,external_node_path_.basename)(path), secrets)}: it could not be read as a capture`);
        }
    }
    let n = 0;
    for (const capture of [...captures, ...more]) {
        if (!capture.trace || capture.trace.count === 0)
            continue;
        n += 1;
        const file = `${input_paths.TRACES_DIR}/${n}-${capture.source.format}.trace.json`;
        const text = renderChromeTrace(capture.trace, {
            name: (name) => (0,io_secrets/* redact */.E$)(name, secrets),
            source: { format: capture.source.format, tool: capture.source.tool },
            generator: `profile-gate ${version/* TOOL_VERSION */.w}`,
        });
        const path = (0,external_node_path_.join)(dir, ...file.split('/'));
        await (0,input_paths.writeOutput)(path, text);
        traces.push(path);
        entries.push({ file, format: capture.source.format, capture: (0,io_secrets/* redact */.E$)((0,external_node_path_.basename)(capture.source.path), secrets), events: capture.trace.count });
    }
    const profile = (0,external_node_path_.join)(dir, profile_json/* PROFILE_FILE */.F);
    await (0,input_paths.writeOutput)(profile, (0,io_secrets/* redact */.E$)((0,profile_json/* renderProfileJson */.W)(report, entries), secrets));
    return { profile, traces, unread };
}


/***/ })

};
