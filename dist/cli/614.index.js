export const id = 614;
export const ids = [614];
export const modules = {

/***/ 614:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  SCRUB_HELP: () => (/* binding */ SCRUB_HELP),
  runScrubCommand: () => (/* binding */ runScrubCommand)
});

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: external "node:util"
var external_node_util_ = __webpack_require__(7975);
// EXTERNAL MODULE: ./src/errors.ts
var errors = __webpack_require__(3916);
// EXTERNAL MODULE: ./src/io/secrets.ts
var io_secrets = __webpack_require__(3965);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: external "node:stream"
var external_node_stream_ = __webpack_require__(7075);
// EXTERNAL MODULE: external "node:stream/promises"
var external_node_stream_promises_ = __webpack_require__(6466);
// EXTERNAL MODULE: external "node:string_decoder"
var external_node_string_decoder_ = __webpack_require__(6193);
// EXTERNAL MODULE: external "node:zlib"
var external_node_zlib_ = __webpack_require__(8522);
// EXTERNAL MODULE: ./src/ingest/common/input-file.ts
var input_file = __webpack_require__(3311);
// EXTERNAL MODULE: ./src/ingest/common/sqlite-db.ts
var sqlite_db = __webpack_require__(6561);
;// CONCATENATED MODULE: ./src/io/scrub-uploads.ts
/**
 * Files made ready for an artifact when the workflow opts into the workload's own files
 * (upload-raw-captures): each is copied into a staging folder with the job's secrets and the
 * workload's environment taken out, or withheld with the reason and its kind. This is defence in
 * depth: by default only files profile-gate wrote itself are uploaded (io/derived-files.ts). What is
 * done depends on what the file is, read from its bytes (and, for the profilers' own report
 * formats, its name):
 * - text (CSV, JSON, logs, run.json): every secret in each of its forms (encoded-forms in
 *   secrets.ts), credential-shaped token and credential assignment replaced, streamed; text is cut
 *   between chunks only where no token, assignment, secret value or private key block can straddle;
 * - gzip: inflated (every member) and treated as what it holds, recursively, then compressed again;
 * - SQLite (nsys exports, rocpd): opened without ever being written to (no trigger can run), its
 *   tables copied one by one into a new database with every text cell redacted and the environment
 *   emptied; views, triggers, indexes and the schema's text are left behind;
 * - archives (zip, tar) and other compressions: withheld, since their entries cannot be checked here;
 * - the profilers' own reports (.nsys-rep, .ncu-rep, .qdrep, .qdstrm, Perfetto and OTF2 traces, also
 *   gzipped): withheld, since they embed the whole environment in formats that cannot be rewritten
 *   here; uploaded only when the workflow opts in, and then only without a known secret inside;
 * - other binary files: uploaded only without a known secret value inside.
 * Every staged file is searched once more (inflated) for the known secret values, in UTF-8 and
 * UTF-16, before it may go.
 */











/** The profilers' own report formats: they carry the profiled process's whole environment. */
const RAW_REPORT_SUFFIXES = ['.nsys-rep', '.qdrep', '.qdstrm', '.ncu-rep', '.pftrace', '.perfetto-trace', '.otf2'];
/** Text is read in chunks of this size. */
const TEXT_CHUNK_BYTES = 1 << 20;
/** At least this many characters are held back at each chunk's end (more for a longer secret). */
const MIN_OVERLAP = 64 * 1024;
/** The longest credential-shaped token kept whole across a cut (JWTs run to a few KiB). */
const SHAPE_REACH = 16 * 1024;
/** An unfinished private key block is held back up to this size; past it, the rest of the block is removed. */
const MAX_KEY_BLOCK = 1 << 20;
/** Inflated gzip content is staged up to this size; a larger one is withheld. */
const MAX_INFLATED_BYTES = 2 * 1024 * 1024 * 1024;
/** Gzip inside gzip is opened this deep. */
const MAX_GZIP_DEPTH = 4;
/** Zip, tar, 7z, xz, zstd, bzip2: formats whose entries cannot be checked here. */
function archiveKind(start) {
    if (start.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])) || start.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x05, 0x06])))
        return 'a zip archive';
    if (start.length > 262 && start.subarray(257, 262).toString('latin1') === 'ustar')
        return 'a tar archive';
    if (start.subarray(0, 6).equals(Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])))
        return 'a 7z archive';
    if (start.subarray(0, 6).equals(Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])))
        return 'xz-compressed data';
    if (start.subarray(0, 4).equals(Buffer.from([0x28, 0xb5, 0x2f, 0xfd])))
        return 'zstd-compressed data';
    if (start.subarray(0, 3).toString('latin1') === 'BZh')
        return 'bzip2-compressed data';
    return undefined;
}
function isRawReportName(file) {
    const lower = file.toLowerCase().replace(/\.gz$/, '');
    return RAW_REPORT_SUFFIXES.some((suffix) => lower.endsWith(suffix));
}
async function treatmentOf(file) {
    if (isRawReportName(file))
        return 'raw-report';
    const start = await (0,input_file/* readPrefix */.fr)(file, input_file/* SNIFF_BYTES */.dD);
    if (start.subarray(0, 16).toString('latin1') === sqlite_db/* SQLITE_MAGIC */.H5)
        return 'sqlite';
    if ((0,input_file/* isGzip */.bf)(start))
        return 'gzip';
    if (archiveKind(start))
        return 'archive';
    return start.includes(0) ? 'binary' : 'text';
}
/** Characters that end a word: a token, a value or a flag never holds one (bar a quoted value). */
const SEPARATOR = /[\s"'\x00,;&|<>`]/;
/** Where a credential-shaped token starts (secrets.ts CREDENTIAL_SHAPES). */
const SHAPE_START = /(?:hf_|gh[pousr]_|github_pat_|glpat-|sk-|AKIA|ASIA|xox[abposr]-|AIza|npm_|eyJ|Bearer|Basic)/g;
/** A word that makes the next word a value: a flag, a joiner, a scheme. */
const INTRODUCER = /^(?:-.*|.*[:=]|Bearer|Basic|Token|Digest)$/i;
function wordEnd(text, at) {
    let i = at;
    while (i < text.length && !SEPARATOR.test(text[i]))
        i++;
    return i;
}
function wordStart(text, at) {
    let i = at;
    while (i > 0 && !SEPARATOR.test(text[i - 1]))
        i--;
    return i;
}
/**
 * Where text may be cut so that nothing redaction needs whole straddles the cut: at or before
 * `limit`; after a line end where there is one near it, else before the word at the limit and
 * before the word that introduces it (`--token VALUE`, `Bearer VALUE`, `"key": "VALUE"`); never
 * inside a credential-shaped token, a known secret value of any form, or a private key block that
 * has not ended. Returns 0 when no place is safe (the caller keeps reading).
 */
function safeCut(text, limit, secrets, overlap) {
    let cut = limit;
    const near = limit - Math.floor(overlap / 2);
    const newline = text.lastIndexOf('\n', limit - 1);
    if (newline >= 0 && newline + 1 >= near)
        cut = newline + 1;
    else {
        const start = wordStart(text, limit);
        if (start >= near) {
            cut = start;
            // The words before, while one introduces the next (`--token`, `Bearer`, `key:`) or the next is a bare joiner (`=`).
            let current = text.slice(cut, wordEnd(text, cut));
            for (let words = 0; words < 3; words++) {
                let j = cut;
                while (j > 0 && /[ \t"']/.test(text[j - 1]))
                    j--;
                const before = wordStart(text, j);
                const word = text.slice(before, j);
                if (!word || before < near || !(INTRODUCER.test(word) || /^[:=]+$/.test(current)))
                    break;
                cut = before;
                current = word;
            }
        }
    }
    // Never inside a credential-shaped token (up to SHAPE_REACH long): before the first one that reaches the cut.
    SHAPE_START.lastIndex = Math.max(0, cut - SHAPE_REACH);
    for (let m = SHAPE_START.exec(text); m && m.index < cut; m = SHAPE_START.exec(text)) {
        let body = m.index + m[0].length;
        if (/^(Bearer|Basic)$/i.test(m[0]))
            while (body < cut && /[ \t]/.test(text[body]))
                body++;
        if (!SEPARATOR.test(text.slice(body, cut))) {
            cut = m.index;
            break;
        }
    }
    // Never inside a known value of any form: before any that straddles.
    for (let moved = true; moved;) {
        moved = false;
        for (const value of secrets.values) {
            const at = text.indexOf(value, Math.max(0, cut - value.length + 1));
            if (at >= 0 && at < cut && at + value.length > cut) {
                cut = at;
                moved = true;
            }
        }
    }
    // Never inside a private key block that has not ended before the cut.
    io_secrets/* PRIVATE_KEY_START */.lh.lastIndex = 0;
    for (let m = io_secrets/* PRIVATE_KEY_START */.lh.exec(text); m && m.index < cut; m = io_secrets/* PRIVATE_KEY_START */.lh.exec(text)) {
        io_secrets/* PRIVATE_KEY_END */.Cp.lastIndex = m.index;
        const end = io_secrets/* PRIVATE_KEY_END */.Cp.exec(text);
        if (!end || end.index + end[0].length > cut) {
            cut = m.index;
            break;
        }
        io_secrets/* PRIVATE_KEY_START */.lh.lastIndex = end.index + end[0].length;
    }
    return cut;
}
/** Redacts a character stream chunk by chunk, cutting only where safeCut allows. */
class RedactingStream extends external_node_stream_.Transform {
    secrets;
    pending = '';
    decoder = new external_node_string_decoder_.StringDecoder('utf8');
    overlap;
    count = 0;
    constructor(secrets) {
        super();
        this.secrets = secrets;
        this.overlap = Math.max(MIN_OVERLAP, 2 * Math.max(0, ...secrets.values.map((v) => v.length)) + 256);
    }
    _transform(chunk, _encoding, done) {
        if (chunk.includes(0)) {
            done(new BinaryContent());
            return;
        }
        let text = this.pending + this.decoder.write(chunk);
        let out = '';
        // Cut only with a whole overlap before the cut as well as after it: a cut near the start has no room to step back.
        while (text.length >= 2 * this.overlap) {
            const cut = safeCut(text, text.length - this.overlap, this.secrets, this.overlap);
            if (cut <= 0) {
                // An unfinished private key block longer than any key: remove it to the cut, keep its end marker's chance.
                if (text.length <= MAX_KEY_BLOCK)
                    break;
                io_secrets/* PRIVATE_KEY_START */.lh.lastIndex = 0;
                const start = io_secrets/* PRIVATE_KEY_START */.lh.exec(text);
                if (!start || start.index !== 0)
                    break;
                this.count += 1;
                out += io_secrets/* REDACTED */.XF;
                text = `${start[0]}${text.slice(text.length - this.overlap)}`;
                continue;
            }
            const redacted = (0,io_secrets/* redactText */.Rd)(text.slice(0, cut), this.secrets);
            this.count += redacted.count;
            out += redacted.text;
            text = text.slice(cut);
        }
        this.pending = text;
        done(null, out);
    }
    _flush(done) {
        const redacted = (0,io_secrets/* redactText */.Rd)(this.pending + this.decoder.end(), this.secrets);
        this.count += redacted.count;
        done(null, redacted.text);
    }
}
class BinaryContent extends Error {
    constructor() {
        super('the file holds binary data where text was expected');
    }
}
async function redactTextFile(file, target, secrets) {
    const redactor = new RedactingStream(secrets);
    await (0,external_node_stream_promises_.pipeline)((0,external_node_fs_.createReadStream)(file, { highWaterMark: TEXT_CHUNK_BYTES }), redactor, (0,external_node_fs_.createWriteStream)(target));
    return redactor.count;
}
/** Whether a known secret value, in UTF-8 or UTF-16, is anywhere in the file (inflated, for gzip). */
async function fileHoldsSecret(file, secrets, gzip = false) {
    if (!secrets.values.length)
        return false;
    const keep = (0,io_secrets/* longestSecretBytes */._g)(secrets) - 1;
    let tail = Buffer.alloc(0);
    let found = false;
    const search = new external_node_stream_.Writable({
        write(chunk, _encoding, done) {
            if (!found) {
                const window = Buffer.concat([tail, chunk]);
                if ((0,io_secrets/* findSecret */.mt)(window, secrets) !== undefined)
                    found = true;
                tail = window.subarray(Math.max(0, window.length - keep));
            }
            done();
        },
    });
    const source = (0,external_node_fs_.createReadStream)(file, { highWaterMark: TEXT_CHUNK_BYTES });
    if (gzip)
        await (0,external_node_stream_promises_.pipeline)(source, (0,external_node_zlib_.createGunzip)(), search);
    else
        await (0,external_node_stream_promises_.pipeline)(source, search);
    return found;
}
/** Gzip content inflated into a file of its own, within MAX_INFLATED_BYTES (every member). */
async function inflate(file, target) {
    let total = 0;
    const cap = new external_node_stream_.Transform({
        transform(chunk, _encoding, done) {
            total += chunk.length;
            if (total > MAX_INFLATED_BYTES)
                done(new Error(`it inflates past ${MAX_INFLATED_BYTES} bytes`));
            else
                done(null, chunk);
        },
    });
    await (0,external_node_stream_promises_.pipeline)((0,external_node_fs_.createReadStream)(file), (0,external_node_zlib_.createGunzip)(), cap, (0,external_node_fs_.createWriteStream)(target));
}
async function deflate(file, target) {
    await (0,external_node_stream_promises_.pipeline)((0,external_node_fs_.createReadStream)(file), (0,external_node_zlib_.createGzip)(), (0,external_node_fs_.createWriteStream)(target));
}
/** Columns that hold a process's environment (rocpd's `environment`, for one). */
const ENVIRONMENT_COLUMN = /^env(ironment)?(_?vars?|_?variables?)?$/i;
/** A column's type affinity (SQLite's rules), so the copy keeps how values compare without the schema's text. */
function affinity(declared) {
    const t = declared.toUpperCase();
    if (t.includes('INT'))
        return 'INTEGER';
    if (/CHAR|CLOB|TEXT/.test(t))
        return 'TEXT';
    if (t === '' || t.includes('BLOB'))
        return 'BLOB';
    if (/REAL|FLOA|DOUB/.test(t))
        return 'REAL';
    return 'NUMERIC';
}
/** Rows copied per transaction of the new database. */
const COPY_BATCH = 8192;
/** Distinct text values whose redaction is remembered per column. */
const TEXT_CACHE = 65_536;
/**
 * An SQLite capture copied table by table into a new database with its environment and secrets
 * taken out. The source is only read (query_only): no statement that could fire a trigger is ever
 * run on it, and views, triggers, indexes and the schema's text are not carried. nsys keeps the
 * environment in META_DATA_CAPTURE (one row per variable), in TARGET_INFO_SYSTEM_ENV and in
 * StringIds (whole blocks); rocpd in an `environment` column. Rows are kept (ids stay valid);
 * values go. Table and column names that hold a secret are withheld with the file.
 */
async function scrubSqlite(file, target, secrets) {
    const source = await (0,sqlite_db/* openDatabaseBytes */.xn)(await (0,promises_.readFile)(file));
    const copy = await (0,sqlite_db/* openDatabaseBytes */.xn)(new Uint8Array(0));
    let count = 0;
    try {
        source.run('PRAGMA query_only = 1');
        const tables = source.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")[0]?.values.map((row) => String(row[0])) ?? [];
        for (const table of tables) {
            if ((0,io_secrets/* redactText */.Rd)(table, secrets).count || (0,io_secrets/* findSecret */.mt)(Buffer.from(table), secrets))
                throw new Error('a table name holds a secret');
            const info = source.exec(`PRAGMA table_info(${(0,sqlite_db/* quoteName */.AB)(table)})`)[0]?.values ?? [];
            const columns = info.map((row) => ({ name: String(row[1]), affinity: affinity(String(row[2] ?? '')) }));
            if (!columns.length)
                continue;
            for (const { name } of columns)
                if ((0,io_secrets/* redactText */.Rd)(name, secrets).count || (0,io_secrets/* findSecret */.mt)(Buffer.from(name), secrets))
                    throw new Error('a column name holds a secret');
            copy.run(`CREATE TABLE ${(0,sqlite_db/* quoteName */.AB)(table)} (${columns.map((c) => `${(0,sqlite_db/* quoteName */.AB)(c.name)} ${c.affinity}`).join(', ')})`);
            const envRows = table === 'META_DATA_CAPTURE' && columns.some((c) => c.name === 'name') && columns.some((c) => c.name === 'value');
            const nameAt = columns.findIndex((c) => c.name === 'name');
            const caches = columns.map(() => new Map());
            const clean = (value, i, row) => {
                const column = columns[i].name;
                if (typeof value === 'string') {
                    if (ENVIRONMENT_COLUMN.test(column) || (envRows && column === 'value' && /ENVIRONMENT/i.test(String(row[nameAt] ?? '')))) {
                        if (value !== io_secrets/* REDACTED */.XF)
                            count += 1;
                        return io_secrets/* REDACTED */.XF;
                    }
                    const cache = caches[i];
                    let out = cache.get(value);
                    if (out === undefined) {
                        const redacted = (0,io_secrets/* redactText */.Rd)(value, secrets);
                        out = (0,io_secrets/* isEnvironmentBlock */.FL)(redacted.text) ? (0,io_secrets/* stripEnvironmentValues */.SS)(redacted.text) : redacted.text;
                        if (cache.size < TEXT_CACHE)
                            cache.set(value, out);
                    }
                    if (out !== value)
                        count += 1;
                    return out;
                }
                if (value instanceof Uint8Array) {
                    if (ENVIRONMENT_COLUMN.test(column) || (0,io_secrets/* findSecret */.mt)(value, secrets) !== undefined) {
                        count += 1;
                        return null;
                    }
                }
                return value;
            };
            await copyRows(source, copy, table, columns.map((c) => c.name), clean);
        }
        await (0,promises_.writeFile)(target, copy.export());
    }
    finally {
        source.close();
        copy.close();
    }
    return count;
}
async function copyRows(source, copy, table, columns, clean) {
    const select = source.prepare(`SELECT ${columns.map(sqlite_db/* quoteName */.AB).join(', ')} FROM ${(0,sqlite_db/* quoteName */.AB)(table)}`);
    const insert = copy.prepare(`INSERT INTO ${(0,sqlite_db/* quoteName */.AB)(table)} VALUES (${columns.map(() => '?').join(', ')})`);
    try {
        let inBatch = 0;
        copy.run('BEGIN');
        while (select.step()) {
            const row = select.get();
            insert.run(row.map((value, i) => clean(value, i, row)));
            if (++inBatch === COPY_BATCH) {
                copy.run('COMMIT');
                // Let the event loop breathe between batches (the action's signals, the analysis budget).
                await new Promise((resolve) => setImmediate(resolve));
                copy.run('BEGIN');
                inBatch = 0;
            }
        }
        copy.run('COMMIT');
    }
    finally {
        select.free();
        insert.free();
    }
}
const RAW_REPORT_REASON = "a profiler's own report embeds the workload's whole environment; the tables read from it are uploaded instead (set upload-raw-reports: true to upload it as it is)";
/** One file staged to `target` as what its bytes say it is, gzip opened recursively. */
async function stageOne(file, name, target, options, depth) {
    const treatment = await treatmentOf(file);
    if (treatment === 'raw-report' || (depth > 0 && isRawReportName(name))) {
        if (!options.rawReports)
            return { withheld: 'raw-report', reason: RAW_REPORT_REASON };
        await (0,promises_.copyFile)(file, target);
        return { treatment: 'raw-report', redactions: 0 };
    }
    if (treatment === 'archive') {
        const kind = archiveKind(await (0,input_file/* readPrefix */.fr)(file, input_file/* SNIFF_BYTES */.dD)) ?? 'an archive';
        return { withheld: 'archive', reason: `it is ${kind}, whose entries cannot be checked for secrets here` };
    }
    if (treatment === 'sqlite') {
        const { size } = await (0,promises_.stat)(file);
        if (size > sqlite_db/* MAX_SQLITE_BYTES */.On)
            return { withheld: 'too-large', reason: `an SQLite file of ${size} bytes is past the ${sqlite_db/* MAX_SQLITE_BYTES */.On} bytes that can be scrubbed` };
        return { treatment, redactions: await scrubSqlite(file, target, options.secrets) };
    }
    if (treatment === 'gzip') {
        if (depth >= MAX_GZIP_DEPTH)
            return { withheld: 'unscrubbable', reason: `gzip nested more than ${MAX_GZIP_DEPTH} deep` };
        const inflated = `${target}.inflated`;
        const inner = `${target}.inner`;
        try {
            try {
                await inflate(file, inflated);
            }
            catch (error) {
                return { withheld: 'unscrubbable', reason: `its gzip content could not be read (${error.message})` };
            }
            const outcome = await stageOne(inflated, name.replace(/\.gz$/i, ''), inner, options, depth + 1);
            if ('withheld' in outcome)
                return outcome;
            await deflate(inner, target);
            return { treatment: outcome.treatment === 'text' ? 'gzip-text' : 'gzip', redactions: outcome.redactions };
        }
        finally {
            await (0,promises_.rm)(inflated, { force: true });
            await (0,promises_.rm)(inner, { force: true });
        }
    }
    if (treatment === 'text') {
        try {
            return { treatment, redactions: await redactTextFile(file, target, options.secrets) };
        }
        catch (error) {
            if (!(error instanceof BinaryContent))
                throw error;
        }
    }
    await (0,promises_.copyFile)(file, target);
    return { treatment: 'binary', redactions: 0 };
}
/**
 * Stages each file for upload, or withholds it with the reason. Never throws for one file: a file
 * that cannot be checked is withheld, so the rest still go.
 */
async function scrubForUpload(files, options) {
    const staged = [];
    const withheld = [];
    for (const { file, target } of files) {
        try {
            await (0,promises_.mkdir)((0,external_node_path_.dirname)(target), { recursive: true });
            await (0,input_file/* readPrefix */.fr)(file, 1);
        }
        catch (error) {
            withheld.push({ file, kind: 'unreadable', reason: `could not be read (${(0,errors/* systemErrorText */.f9)(error)})` });
            continue;
        }
        try {
            const outcome = await stageOne(file, file, target, options, 0);
            if ('withheld' in outcome) {
                withheld.push({ file, kind: outcome.withheld, reason: outcome.reason });
                await (0,promises_.rm)(target, { force: true });
                continue;
            }
            // The last word: no known secret value leaves, in any form, whatever the file is.
            const gzipped = outcome.treatment === 'gzip' || outcome.treatment === 'gzip-text';
            if (await fileHoldsSecret(target, options.secrets, gzipped)) {
                withheld.push({ file, kind: 'secret', reason: outcome.treatment === 'raw-report' || outcome.treatment === 'binary' || outcome.treatment === 'gzip' ? 'it holds the value of a secret variable of this job, and its format cannot be scrubbed' : 'a secret value of this job was still found in it after scrubbing' });
                await (0,promises_.rm)(target, { force: true });
                continue;
            }
            staged.push({ file, target, treatment: outcome.treatment, redactions: outcome.redactions });
        }
        catch (error) {
            await (0,promises_.rm)(target, { force: true });
            // The error's own words, less anything it quoted from the file.
            withheld.push({ file, kind: 'unscrubbable', reason: `could not be scrubbed (${(0,errors/* withoutQuotedText */.sx)(error.message).slice(0, 200)})` });
        }
    }
    return { staged, withheld };
}
/** The secret forms' bytes, for tests and callers that search buffers themselves. */


// EXTERNAL MODULE: ./src/io/input-paths.ts
var input_paths = __webpack_require__(3053);
// EXTERNAL MODULE: ./src/cli/flag-errors.ts
var flag_errors = __webpack_require__(9156);
// EXTERNAL MODULE: ./src/options/read.ts
var read = __webpack_require__(4800);
;// CONCATENATED MODULE: ./src/cli/scrub-command.ts
/**
 * `profile-gate scrub --out DIR PATH...`: the files of a run made ready to leave the runner, as the
 * action's upload does (src/io/scrub-uploads.ts), for a workflow that uploads `profile-gate run`'s
 * folder itself. Secrets are this process's credential-named variables, --redact-env names and
 * credential shapes; the profilers' own reports stay out unless --raw-reports.
 */









const SCRUB_HELP = `Usage: profile-gate scrub --out DIR [options] PATH...

Copies the files under each PATH into DIR, keeping their layout, as the action uploads them: every
secret and environment value taken out of text, gzip and SQLite files; the profilers' own reports
(.nsys-rep, .ncu-rep, .qdrep, Perfetto) left out unless --raw-reports (they embed the workload's
whole environment); any file that still holds a secret value of this environment left out. Secrets
are the values of variables named like credentials (…_TOKEN, …_SECRET, …_API_KEY, …PASSWORD…), of
the variables named in --redact-env, and credential-shaped tokens.

${(0,read/* flagsHelp */.zo)('scrub', 'all', 24, ['out'])}
`;
async function filesUnder(path) {
    let info;
    try {
        info = await (0,promises_.stat)(path);
    }
    catch (error) {
        throw new errors/* InputError */.dz(path, `cannot read it (${(0,errors/* systemErrorText */.f9)(error)}); expected a file or a folder to scrub`);
    }
    if (!info.isDirectory())
        return [(0,external_node_path_.resolve)(path)];
    const entries = await (0,promises_.readdir)(path, { recursive: true, withFileTypes: true });
    return entries.filter((entry) => entry.isFile()).map((entry) => (0,external_node_path_.resolve)(entry.parentPath, entry.name)).sort();
}
/** A path as the user would type it: relative to the working folder when inside it, else whole (never `../../x`). */
function shownPath(file) {
    const rel = (0,external_node_path_.relative)(process.cwd(), file);
    return rel && !rel.startsWith('..') && !(0,external_node_path_.isAbsolute)(rel) ? rel : file;
}
async function runScrubCommand(argv, env = process.env) {
    const config = { args: argv, allowPositionals: true, strict: true, options: (0,read/* flagOptions */.vo)('scrub') };
    const { values, positionals } = (0,external_node_util_.parseArgs)(config);
    (0,flag_errors/* refuseRepeatedFlags */.k)(config, 'scrub');
    const options = (0,read/* readFlags */.uW)(values, 'scrub', env);
    if (!options.outDir)
        throw new errors/* UsageError */.eb('scrub: --out DIR is required');
    if (!positionals.length)
        throw new errors/* UsageError */.eb('scrub: expected at least one PATH to scrub');
    const out = (0,external_node_path_.resolve)(options.outDir);
    await (0,input_paths.makeOutputFolder)(out, 'the scrubbed files');
    const secrets = (0,io_secrets/* secretsFromEnv */.zr)(env, options.redactEnv);
    const files = [];
    for (const path of positionals) {
        const base = (0,external_node_path_.resolve)(path);
        for (const file of await filesUnder(path)) {
            if (file === out || file.startsWith(`${out}${external_node_path_.sep}`))
                continue;
            const rel = file === base ? (base.split(external_node_path_.sep).pop() ?? 'file') : (0,external_node_path_.join)(base.split(external_node_path_.sep).pop() ?? '', (0,external_node_path_.relative)(base, file));
            files.push({ file, target: (0,external_node_path_.join)(out, rel) });
        }
    }
    const { staged, withheld } = await scrubForUpload(files, { secrets, rawReports: options.uploadRawReports });
    const redactions = staged.reduce((sum, file) => sum + file.redactions, 0);
    process.stdout.write(`scrub: ${staged.length} file(s) written to ${out}, ${redactions} secret or environment value(s) taken out, ${withheld.length} left out\n`);
    for (const { file, reason } of withheld)
        process.stdout.write(`  left out ${shownPath(file)}: ${reason}\n`);
    return errors/* EXIT_OK */.Ij;
}


/***/ }),

/***/ 3965:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Cp: () => (/* binding */ PRIVATE_KEY_END),
/* harmony export */   E$: () => (/* binding */ redact),
/* harmony export */   FI: () => (/* binding */ redactValue),
/* harmony export */   FL: () => (/* binding */ isEnvironmentBlock),
/* harmony export */   Rd: () => (/* binding */ redactText),
/* harmony export */   SS: () => (/* binding */ stripEnvironmentValues),
/* harmony export */   XF: () => (/* binding */ REDACTED),
/* harmony export */   _g: () => (/* binding */ longestSecretBytes),
/* harmony export */   lh: () => (/* binding */ PRIVATE_KEY_START),
/* harmony export */   mt: () => (/* binding */ findSecret),
/* harmony export */   zr: () => (/* binding */ secretsFromEnv)
/* harmony export */ });
/* unused harmony exports isCredentialName, isCredentialFlag, NO_SECRETS, encodedForms, mergeSecrets, redactArgvPairs, secretBytes */
/**
 * Secrets kept out of everything that leaves the runner: the job log, the summary, the comment,
 * the outputs and the artifacts. A secret is known three ways:
 * - by its variable: the value of any environment variable whose name says it holds a credential
 *   (HF_TOKEN, WANDB_API_KEY, AWS_SECRET_ACCESS_KEY, …) or that the workflow names (`redact-env`);
 * - by its shape: token formats that announce themselves (hf_…, ghp_…, github_pat_…, sk-…, AKIA…,
 *   xox?-…, glpat-…, JWTs, PEM private keys), wherever they appear;
 * - by its place: the value of a credential-named assignment in text (`HF_TOKEN=…`, `"api_key": "…"`,
 *   `--hf-token …=`), even when the variable was never in this process's environment.
 * Pure: the doors hand in the environment.
 */
/** What replaces a secret. */
const REDACTED = '***';
/** Values shorter than this are never redacted by value: `true`, `1` or `none` would mangle text. */
const SHORTEST_SECRET = 8;
/** Name segments that mark a credential (compared whole, so `max_new_tokens` is not a token). */
const CREDENTIAL_SEGMENTS = new Set(['token', 'secret', 'password', 'passwd', 'passphrase', 'apikey', 'credential', 'credentials', 'cookie', 'auth', 'authorization', 'pat']);
/** A `_KEY` name is a credential after one of these (API_KEY, SECRET_ACCESS_KEY), or when written as an environment variable. */
const KEY_QUALIFIERS = new Set(['api', 'access', 'private', 'secret', 'session', 'signing', 'encryption', 'master', 'license', 'account', 'service', 'client']);
/** Whether a variable or field of this name holds a credential. */
function isCredentialName(fullName) {
    // An action input's variable is judged by the input's own name: INPUT_KEY is the `key` input, not a key.
    const name = fullName.replace(/^INPUT_/, '');
    const segments = name.split(/[^A-Za-z0-9]+|(?<=[a-z])(?=[A-Z])/).filter(Boolean).map((s) => s.toLowerCase());
    if (segments.some((s) => CREDENTIAL_SEGMENTS.has(s)))
        return true;
    const last = segments.length - 1;
    if (last >= 1 && segments[last] === 'key')
        return KEY_QUALIFIERS.has(segments[last - 1]) || /^[A-Z0-9_]+$/.test(name);
    return false;
}
/** `_KEY` flags that name no credential (`--cache-key`, `--sort-key`). */
const PLAIN_KEY_FLAG = /(?:^|[-_])(?:cache|sort|group|partition|dict|hash|lookup|index|metric|config|primary|foreign|kernel|join|shard|routing|order|row|column|map|dataset|data|text|label|input|output|prompt|model)[-_]?key$/i;
/** Whether a command-line flag (without its dashes) takes a credential: a credential name, or any other `-key` (`--wandb-key`, `--hf-key`). */
function isCredentialFlag(name) {
    return isCredentialName(name) || (/[-_]key$/i.test(name) && !PLAIN_KEY_FLAG.test(name));
}
/** Token formats that say what they are; matched anywhere, also after an underscore (`kernel_ghp_…`). */
const CREDENTIAL_SHAPES = [
    /(?<![A-Za-z0-9])hf_[A-Za-z0-9]{20,}/g,
    /(?<![A-Za-z0-9])gh[pousr]_[A-Za-z0-9]{20,}/g,
    /(?<![A-Za-z0-9])github_pat_[A-Za-z0-9_]{20,}/g,
    /(?<![A-Za-z0-9])glpat-[A-Za-z0-9_-]{20,}/g,
    /(?<![A-Za-z0-9])sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}/g,
    /(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
    /(?<![A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{10,}/g,
    /(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{35}/g,
    /(?<![A-Za-z0-9])npm_[A-Za-z0-9]{36}/g,
    /(?<![A-Za-z0-9])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
    /(?<![A-Za-z0-9])Bearer\s+[A-Za-z0-9._~+/-]{16,}=*/g,
    // HTTP basic credentials: base64 of user:password.
    /(?<![A-Za-z0-9])Basic\s+[A-Za-z0-9+/]{8,}=*/g,
    // PEM private keys and PGP private key blocks.
    /-----BEGIN [A-Z ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY(?: BLOCK)?-----/g,
];
/** The start of a private key block: text after it is held back until its end is seen (scrub-uploads.ts). */
const PRIVATE_KEY_START = /-----BEGIN [A-Z ]*PRIVATE KEY(?: BLOCK)?-----/g;
const PRIVATE_KEY_END = /-----END [A-Z ]*PRIVATE KEY(?: BLOCK)?-----/g;
/**
 * `NAME=value`, `NAME="value"`, `"name": "value"`, `name: value`, `--name=value`: the name, what
 * joins it to the value, and the value (up to a space, a quote, a separator or a NUL).
 */
const ASSIGNMENT = /([A-Za-z_][A-Za-z0-9_.-]*)("?[ \t]*[:=][ \t]*["']?)([^\s"'\x00,;&|<>`]+)/g;
/**
 * `--name VALUE` (argparse's usual form; also `-name VALUE`): a flag, the spaces (and an opening
 * quote), and the next word when it is not itself a flag. Only a word is taken, so that `-c 'cmd
 * --token VALUE'` still reaches the flag inside the quotes.
 */
const FLAG_VALUE = /(?<![A-Za-z0-9_-])(--?[A-Za-z][A-Za-z0-9_.-]*)([ \t]+["']?)([^\s"'\x00,;&|<>`-][^\s"'\x00,;&|<>`]*)/g;
const NO_SECRETS = { values: [], names: [] };
/**
 * The secret values of an environment: every credential-named variable's value, and those of the
 * variables named in `extraNames` (the workflow's own list), each at least SHORTEST_SECRET long.
 */
function secretsFromEnv(env, extraNames = []) {
    const extra = new Set(extraNames);
    const found = new Map();
    for (const [name, value] of Object.entries(env)) {
        if (value === undefined || value.length < SHORTEST_SECRET)
            continue;
        if (!extra.has(name) && !isCredentialName(name))
            continue;
        for (const candidate of [value, value.trim()]) {
            if (candidate.length < SHORTEST_SECRET)
                continue;
            for (const form of encodedForms(candidate))
                if (!found.has(form))
                    found.set(form, name);
        }
    }
    const values = [...found.keys()].sort((a, b) => b.length - a.length);
    return { values, names: [...new Set(found.values())].sort() };
}
/**
 * A value and the forms it takes when written by other code: URL-encoded (`%2F`, `+` for a space),
 * JSON-escaped (`\"`, `\/`, and `\u00fc` for every non-ASCII character, as Python's json writes
 * it), and base64 at each of the three alignments it can fall on inside a longer encoded text
 * (`Basic base64(user:token)`): the characters that encode only the value's own bytes. Forms
 * shorter than SHORTEST_SECRET are left out (too likely to occur by chance).
 */
function encodedForms(value) {
    const forms = new Set([value]);
    const url = encodeURIComponent(value);
    forms.add(url);
    forms.add(url.replace(/%20/g, '+'));
    forms.add(url.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()));
    const json = JSON.stringify(value).slice(1, -1);
    forms.add(json);
    forms.add(json.replace(/\//g, '\\/'));
    forms.add(json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
    const bytes = Buffer.from(value, 'utf8');
    for (let shift = 0; shift < 3; shift++) {
        const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
        // Characters that mix in a neighbour's bits: the first ones (from the padding) and the last group.
        const skip = shift === 0 ? 0 : shift === 1 ? 2 : 3;
        const full = Math.floor((shift + bytes.length) / 3) * 4;
        const form = encoded.slice(skip, full);
        forms.add(form);
    }
    return [...forms].filter((form) => form.length >= SHORTEST_SECRET);
}
/** Both sets at once (this job's secrets and another's). */
function mergeSecrets(a, b) {
    const values = [...new Set([...a.values, ...b.values])].sort((x, y) => y.length - x.length);
    return { values, names: [...new Set([...a.names, ...b.names])].sort() };
}
/** The text with every known secret, credential-shaped token and credential assignment replaced. */
function redactText(text, secrets) {
    let count = 0;
    let out = text;
    for (const value of secrets.values) {
        if (!out.includes(value))
            continue;
        const parts = out.split(value);
        count += parts.length - 1;
        out = parts.join(REDACTED);
    }
    for (const shape of CREDENTIAL_SHAPES) {
        shape.lastIndex = 0;
        if (!shape.test(out))
            continue;
        shape.lastIndex = 0;
        out = out.replace(shape, () => {
            count += 1;
            return REDACTED;
        });
    }
    if (out.includes('-')) {
        out = out.replace(FLAG_VALUE, (whole, flag, space, value) => {
            if (value === REDACTED || value.length < SHORTEST_SECRET / 2 || !isCredentialFlag(flag.replace(/^-+/, '')))
                return whole;
            count += 1;
            return `${flag}${space}${REDACTED}`;
        });
    }
    if (out.includes('=') || out.includes(':')) {
        out = out.replace(ASSIGNMENT, (whole, name, joiner, value) => {
            const credential = name.startsWith('-') ? isCredentialFlag(name.replace(/^-+/, '')) : isCredentialName(name);
            if (value === REDACTED || value.length < SHORTEST_SECRET / 2 || !credential)
                return whole;
            count += 1;
            return `${name}${joiner}${REDACTED}`;
        });
    }
    return { text: out, count };
}
/**
 * An argv held as a list: the word after a credential-named flag (`['--wandb-key', VALUE]`) is a
 * credential, which no single word's redaction can tell. Other lists are returned as they are.
 */
function redactArgvPairs(list, counted = () => undefined) {
    let out;
    for (let i = 0; i + 1 < list.length; i++) {
        const flag = list[i];
        const value = list[i + 1];
        if (typeof flag !== 'string' || typeof value !== 'string' || !/^--?[A-Za-z][A-Za-z0-9_.-]*$/.test(flag) || value.startsWith('-') || value === REDACTED)
            continue;
        if (value.length < SHORTEST_SECRET / 2 || !isCredentialFlag(flag.replace(/^-+/, '')))
            continue;
        out ??= [...list];
        out[i + 1] = REDACTED;
        counted();
    }
    return out ?? list;
}
/** Only the text (for log lines and messages). */
function redact(text, secrets) {
    return redactText(text, secrets).text;
}
/**
 * Every string of a JSON-like value redacted (a report, run.json), keys included; other values kept.
 * Returns a new value; the count is of replacements made.
 */
function redactValue(value, secrets) {
    let count = 0;
    const walk = (v) => {
        if (typeof v === 'string') {
            const r = redactText(v, secrets);
            count += r.count;
            return r.text;
        }
        if (Array.isArray(v))
            return redactArgvPairs(v.map(walk), () => (count += 1));
        if (v && typeof v === 'object') {
            const out = Object.create(Object.getPrototypeOf(v) === null ? null : Object.prototype);
            for (const [k, item] of Object.entries(v)) {
                // A credential-named field keeps its name and loses its value.
                if (typeof item === 'string' && item.length >= SHORTEST_SECRET / 2 && isCredentialName(k)) {
                    count += 1;
                    out[walk(k)] = REDACTED;
                }
                else
                    out[walk(k)] = walk(item);
            }
            return out;
        }
        return v;
    };
    return { value: walk(value), count };
}
/** The first known secret value found in these bytes (its variable is not said: only that one is there). */
function findSecret(bytes, secrets) {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return secrets.values.find((value) => secretBytes(value).some((form) => buffer.includes(form)));
}
const bytesCache = new Map();
/** A value's bytes as files hold it: UTF-8, UTF-16LE and UTF-16BE. */
function secretBytes(value) {
    let forms = bytesCache.get(value);
    if (!forms) {
        const le = Buffer.from(value, 'utf16le');
        forms = [Buffer.from(value, 'utf8'), le, Buffer.from(le).swap16()];
        if (bytesCache.size > 1000)
            bytesCache.clear();
        bytesCache.set(value, forms);
    }
    return forms;
}
/** The longest byte form of any value (how much a streamed search keeps between chunks). */
function longestSecretBytes(secrets) {
    return Math.max(0, ...secrets.values.map((v) => Math.max(...secretBytes(v).map((b) => b.length))));
}
/**
 * An environment block (the whole environment as one string: nsys keeps it so): three or more
 * `NAME=` words separated by spaces, NULs or new lines. Every value in it is removed, not only the
 * credentials: the environment is nobody's business outside the runner.
 */
const ENV_WORD = /(^|[\s\x00])([A-Z_][A-Z0-9_]+)=("[^"\x00\n]*"|[^\s\x00]*)/g;
/** A variable every process environment has: tells an environment from a list of template arguments. */
const ALWAYS_SET = new Set(['PATH', 'HOME', 'PWD', 'USER', 'LANG', 'SHELL', 'LD_LIBRARY_PATH', 'LD_PRELOAD']);
function isEnvironmentBlock(text) {
    let n = 0;
    let common = false;
    ENV_WORD.lastIndex = 0;
    for (let m = ENV_WORD.exec(text); m; m = ENV_WORD.exec(text)) {
        n += 1;
        if (ALWAYS_SET.has(m[2]))
            common = true;
        if (n >= 3 && common)
            return true;
    }
    return false;
}
/** The block with every value removed: `PATH=/usr/bin HF_TOKEN=hf_…` → `PATH=*** HF_TOKEN=***`. */
function stripEnvironmentValues(text) {
    return text.replace(ENV_WORD, (_whole, before, name) => `${before}${name}=${REDACTED}`);
}


/***/ })

};
