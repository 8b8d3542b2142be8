export const id = 838;
export const ids = [838];
export const modules = {

/***/ 65142:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  ny: () => (/* reexport */ report_artifacts/* CONTEXT_FILE */.ny),
  Vb: () => (/* binding */ defaultArtifactName),
  TN: () => (/* binding */ oneLine),
  mk: () => (/* binding */ publish),
  S3: () => (/* binding */ publishReport),
  Vp: () => (/* binding */ settleVerdict)
});

// UNUSED EXPORTS: commentKey, commonRoot, failVerdicts

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(48161);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
// EXTERNAL MODULE: ./src/compare/verdict.ts
var verdict = __webpack_require__(57682);
// EXTERNAL MODULE: ./src/report/verdict-lines.ts + 1 modules
var verdict_lines = __webpack_require__(64997);
// EXTERNAL MODULE: ./src/compare/acceptance.ts
var acceptance = __webpack_require__(35628);
;// CONCATENATED MODULE: ./src/action/github/acceptance.ts
/**
 * The acceptances of a pull request, as GitHub records them: the accept label (on the PR now, and
 * who added it last, from the issue's events) and the accept command in comments. Only a person
 * with write access accepts (the collaborator permission API: admin, maintain and write roles; the
 * PR's author too, when they have it).
 *
 * An acceptance is bound to one commit, the head the report is for:
 * - a comment names it (`/profile-gate accept 3f2a9c1 …`, the short SHA the failing comment shows);
 *   a command for another commit, or for none, is refused;
 * - a label, and a comment too, count only when given after the head was last pushed. A SHA pushed,
 *   replaced and pushed again is a new push: what was given in between, for another commit, does not
 *   carry over.
 * When the head was last pushed is read from GitHub's clock, bound to SHAs: the workflow runs of the
 * PR's head branch, newest first; the newest unbroken stretch of runs of the head SHA began with
 * its push (every push starts runs of its SHA; a re-run keeps its creation time). A run of another
 * SHA after it ends the stretch. For the PR's current head, its last `head_ref_force_pushed` event is
 * a floor as well. Commit dates are not used: whoever made the commit set them.
 *
 * Comments and events are read newest first to the end; a scan its bound stopped is said. What was
 * read but refused comes back as one line per person (with a count), for the verdict and one
 * annotation each; what could not be read as another line, for the log: never silent. The rule that
 * applies the claims is src/compare/acceptance.ts.
 */

const WRITE = new Set(['admin', 'write']);
/** Runs of the head branch read at most, newest first, to find when the head was last pushed. */
const PUSH_RUNS = 2000;
/** A commit as GitHub shows it short, and as the failing comment asks the command to name it. */
function shortSha(sha) {
    return sha.slice(0, 7);
}
function message(error) {
    return (error instanceof Error ? error.message : String(error)).replace(/[\r\n]+/g, ' ').slice(0, 300);
}
function isBot(user) {
    return user?.type === 'Bot' || Boolean(user?.login?.endsWith('[bot]'));
}
const time = (at) => (at ? Date.parse(at) : NaN);
/** Refusals, one line per person: their newest refusal, and how many there were. */
class Refusals {
    byPerson = new Map();
    add(login, line) {
        const seen = this.byPerson.get(login);
        if (seen)
            seen.count += 1;
        else
            this.byPerson.set(login, { line, count: 1 });
    }
    lines() {
        return [...this.byPerson.entries()].map(([login, { line, count }]) => (count > 1 ? `${line} (${count} acceptances by @${login} were refused; the first is shown)` : line));
    }
}
/**
 * Where the newest unbroken stretch of `headSha`'s runs begins, in runs listed newest first:
 * its oldest run's creation, and whether a run of another SHA ended it.
 */
function lastPush(runs, headSha, headRepo) {
    let pushedAt;
    for (const run of runs) {
        if (headRepo !== undefined && run.head_repository?.id !== undefined && run.head_repository.id !== headRepo)
            continue;
        if (run.head_sha === headSha) {
            if (typeof run.created_at === 'string' && !Number.isNaN(Date.parse(run.created_at)))
                pushedAt = run.created_at;
        }
        else if (pushedAt !== undefined)
            return { pushedAt, ended: true };
    }
    return { ...(pushedAt ? { pushedAt } : {}), ended: false };
}
/** When `headSha` was last pushed, by GitHub's clock: see lastPush, over the runs of the PR's head branch. */
async function headPushedAt(client, repo, pull, headSha) {
    const headRepo = pull.head.repo?.id ?? undefined;
    const runs = await client.workflowRuns(repo, {
        ...(pull.head.ref ? { branch: pull.head.ref } : { headSha }),
        limit: PUSH_RUNS,
        until: (listed) => lastPush(listed, headSha, headRepo).ended,
    });
    return lastPush(runs, headSha, headRepo).pushedAt;
}
async function readEvents(client, repo, query, wantLabel) {
    const name = query.label.toLowerCase();
    const found = {};
    const scan = await client.scanIssueEvents(repo, query.pullRequest, (e) => {
        if (wantLabel && !found.labeled && e.event === 'labeled' && e.label?.name?.toLowerCase() === name)
            found.labeled = e;
        if (!found.forcePushed && e.event === 'head_ref_force_pushed')
            found.forcePushed = e;
        return (!wantLabel || found.labeled !== undefined) && found.forcePushed !== undefined;
    });
    return scan.cut ? { ...found, cut: scan.cut } : found;
}
async function readCommands(client, repo, query, unread) {
    const commands = [];
    const scan = await client.scanComments(repo, query.pullRequest, (c) => {
        if (isBot(c.user) || typeof c.user?.login !== 'string')
            return;
        const command = (0,acceptance/* parseAcceptCommand */.l6)(c.body ?? '', query.command);
        if (command)
            commands.push({ comment: c, command });
    });
    if (scan.cut)
        unread.push(`the ${query.command} comments were read in part: ${scan.cut}`);
    return commands;
}
/** The label's and the comments' acceptances of the pull request's head, each by someone with write access. */
async function readAcceptances(client, query) {
    const refusals = new Refusals();
    const unread = [];
    const repo = `${query.owner}/${query.repo}`;
    if (!query.label && !query.command)
        return { claims: [], refused: [], unread };
    let pull;
    try {
        pull = await client.pull(repo, query.pullRequest);
    }
    catch (error) {
        return { claims: [], refused: [], unread: [`acceptances not read: pull request #${query.pullRequest}: ${message(error)}`] };
    }
    const headSha = query.headSha ?? pull.head.sha;
    const head = shortSha(headSha);
    const labelOn = Boolean(query.label) && (pull.labels ?? []).some((l) => l.name?.toLowerCase() === query.label.toLowerCase());
    let commands = [];
    if (query.command) {
        try {
            commands = await readCommands(client, repo, query, unread);
        }
        catch (error) {
            unread.push(`the ${query.command} comments were not read: ${message(error)}`);
        }
    }
    if (!labelOn && !commands.length)
        return { claims: [], refused: [], unread, headSha };
    // The event that added the label, and the last force push: one scan of the events, newest first.
    let events = {};
    try {
        events = await readEvents(client, repo, query, labelOn);
        if (events.cut && labelOn && !events.labeled)
            unread.push(`the label ${query.label} is on the pull request, but the event that added it was not read: ${events.cut}`);
    }
    catch (error) {
        if (labelOn)
            unread.push(`the label ${query.label} was not read: ${message(error)}`);
        else
            unread.push(`the pull request's force pushes were not read: ${message(error)}`);
    }
    if (!events.labeled && !commands.length)
        return { claims: [], refused: [], unread, headSha };
    let pushedAt;
    try {
        pushedAt = await headPushedAt(client, repo, pull, headSha);
    }
    catch (error) {
        unread.push(`acceptances not applied: the workflow runs of the head ${head}, which tell when it was pushed, were not read (${message(error)}; reading runs needs actions: read)`);
        return { claims: [], refused: [], unread, headSha };
    }
    // A force push of the PR's current head is a push too, on GitHub's clock.
    const forced = events.forcePushed?.created_at;
    if (pull.head.sha === headSha && forced && !(time(pushedAt) >= time(forced)))
        pushedAt = forced;
    const candidates = [];
    const afterPush = (login, what, at, again) => {
        if (!pushedAt) {
            refusals.add(login, `${what} is not applied: no workflow run of the head ${head} was found to tell when it was pushed`);
            return false;
        }
        if (!(time(at) >= time(pushedAt))) {
            refusals.add(login, `${what} of ${at ?? 'an unknown time'} is not applied: it was given before the head ${head} was last pushed (${pushedAt}); an acceptance accepts the head it was given on, so ${again}`);
            return false;
        }
        return true;
    };
    const added = events.labeled;
    if (labelOn && added?.actor?.login) {
        const login = added.actor.login;
        if (afterPush(login, `the label ${query.label} added by @${login}`, added.created_at, 'remove the label and add it again')) {
            candidates.push({ by: login, via: 'label', at: added.created_at ?? '', url: `${query.serverUrl}/${query.owner}/${query.repo}/pull/${query.pullRequest}`, targets: [], headSha });
        }
    }
    const fromComments = [];
    for (const { comment, command } of commands) {
        const login = comment.user.login;
        const who = `the acceptance by @${login} (comment ${comment.html_url})`;
        if (!command.sha) {
            refusals.add(login, `${who} is not applied: it names no commit; to accept the head, comment ${query.command} ${head} (then, optionally, the rows and a reason)`);
            continue;
        }
        if (!headSha.toLowerCase().startsWith(command.sha)) {
            refusals.add(login, `${who} is not applied: it accepts ${command.sha}, not the head ${head} this report is for`);
            continue;
        }
        if (!afterPush(login, who, comment.created_at, 'comment again'))
            continue;
        fromComments.push({ by: login, via: 'comment', at: comment.created_at ?? '', url: comment.html_url, ...(command.reason ? { reason: command.reason } : {}), targets: command.targets, headSha });
    }
    // The newest comment speaks for its author's latest intent.
    candidates.push(...fromComments.sort((a, b) => time(b.at) - time(a.at)));
    const permissions = new Map();
    const claims = [];
    for (const claim of candidates) {
        if (!permissions.has(claim.by))
            permissions.set(claim.by, client.permission(repo, claim.by).then((p) => p.permission));
        let permission;
        try {
            permission = await permissions.get(claim.by);
        }
        catch (error) {
            refusals.add(claim.by, `the acceptance by ${(0,acceptance/* claimName */.cB)(claim)} is not applied: their permission could not be read (${message(error)})`);
            continue;
        }
        if (WRITE.has(permission))
            claims.push(claim);
        else
            refusals.add(claim.by, `the acceptance by ${(0,acceptance/* claimName */.cB)(claim)} is not applied: @${claim.by} has ${permission} access to the repository, and only write access accepts a regression`);
    }
    return { claims, refused: refusals.lines(), unread, headSha };
}

// EXTERNAL MODULE: ./src/model/finding-ids.ts
var finding_ids = __webpack_require__(28835);
// EXTERNAL MODULE: ./src/io/input-paths.ts
var input_paths = __webpack_require__(93053);
// EXTERNAL MODULE: ./src/io/secrets.ts
var io_secrets = __webpack_require__(53965);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(73024);
// EXTERNAL MODULE: external "node:stream"
var external_node_stream_ = __webpack_require__(57075);
// EXTERNAL MODULE: external "node:stream/promises"
var external_node_stream_promises_ = __webpack_require__(46466);
// EXTERNAL MODULE: external "node:string_decoder"
var external_node_string_decoder_ = __webpack_require__(46193);
// EXTERNAL MODULE: external "node:zlib"
var external_node_zlib_ = __webpack_require__(38522);
// EXTERNAL MODULE: ./src/errors.ts
var errors = __webpack_require__(83916);
// EXTERNAL MODULE: ./src/ingest/common/input-file.ts
var input_file = __webpack_require__(73311);
// EXTERNAL MODULE: ./src/ingest/common/sqlite-db.ts
var sqlite_db = __webpack_require__(56561);
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


// EXTERNAL MODULE: ./src/model/trace-events.ts
var trace_events = __webpack_require__(48668);
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
var profile_json = __webpack_require__(47534);
// EXTERNAL MODULE: ./src/version.ts
var version = __webpack_require__(311);
// EXTERNAL MODULE: ./src/ingest/registry.ts + 44 modules
var registry = __webpack_require__(395);
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
        const file = `${input_paths/* TRACES_DIR */.Po}/${n}-${capture.source.format}.trace.json`;
        const text = renderChromeTrace(capture.trace, {
            name: (name) => (0,io_secrets/* redact */.E$)(name, secrets),
            source: { format: capture.source.format, tool: capture.source.tool },
            generator: `profile-gate ${version/* TOOL_VERSION */.w}`,
        });
        const path = (0,external_node_path_.join)(dir, ...file.split('/'));
        await (0,input_paths/* writeOutput */.zh)(path, text);
        traces.push(path);
        entries.push({ file, format: capture.source.format, capture: (0,io_secrets/* redact */.E$)((0,external_node_path_.basename)(capture.source.path), secrets), events: capture.trace.count });
    }
    const profile = (0,external_node_path_.join)(dir, profile_json/* PROFILE_FILE */.F);
    await (0,input_paths/* writeOutput */.zh)(profile, (0,io_secrets/* redact */.E$)((0,profile_json/* renderProfileJson */.W)(report, entries), secrets));
    return { profile, traces, unread };
}

// EXTERNAL MODULE: ./src/model/report.ts + 1 modules
var model_report = __webpack_require__(20949);
;// CONCATENATED MODULE: ./src/model/verdict-meaning.ts
/** A verdict that compared nothing (too few samples, or a comparison no run can make valid): said aloud even when it does not fail the job. */
const COMPARED_NOTHING = {
    'insufficient-data': true,
    invalid: true,
    pass: false,
    warn: false,
    fail: false,
    accepted: false,
};
/** A verdict that a pull request's acceptances can change (fail), or must be told they cannot (invalid): only then are they read. */
const ACCEPTANCES_READ = {
    fail: true,
    invalid: true,
    pass: false,
    warn: false,
    'insufficient-data': false,
    accepted: false,
};

// EXTERNAL MODULE: ./src/report/markdown/sections.ts
var sections = __webpack_require__(89192);
// EXTERNAL MODULE: ./src/report/markdown/text.ts
var markdown_text = __webpack_require__(74755);
;// CONCATENATED MODULE: ./src/report/markdown/annotations.ts


const ANNOTATION_LIMITS = { perLevel: 10, messageChars: 4096, titleChars: 200 };
function annotationFor(finding, label) {
    const lines = [finding.message, `Next: ${finding.advice}`];
    if (finding.command)
        lines.push(`Run: ${finding.command}`);
    const where = label ? ` [${label}]` : '';
    return {
        level: finding.severity === 'error' ? 'error' : 'warning',
        title: (0,markdown_text/* plainText */.wh)(`profile-gate${where}: ${finding.title} (${finding.id})`, ANNOTATION_LIMITS.titleChars).replace(/\n/g, ' '),
        message: (0,markdown_text/* plainText */.wh)(lines.join('\n'), ANNOTATION_LIMITS.messageChars),
    };
}
function buildAnnotations(entries, options = {}) {
    const perLevel = Math.max(1, Math.min(options.perLevel ?? 5, ANNOTATION_LIMITS.perLevel - 1));
    const labelled = entries.length > 1;
    const out = [];
    for (const level of ['error', 'warning']) {
        const found = entries.flatMap((entry) => (0,sections/* orderFindings */.$t)(entry.report.findings)
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
                message: (0,markdown_text/* plainText */.wh)(`Not annotated: ${found.slice(perLevel).map((f) => f.finding.id).join(', ')}. See the job summary.`, ANNOTATION_LIMITS.messageChars),
            });
        }
    }
    return out;
}

// EXTERNAL MODULE: ./src/report/markdown/comment.ts
var comment = __webpack_require__(13779);
// EXTERNAL MODULE: ./src/report/json.ts
var json = __webpack_require__(32794);
// EXTERNAL MODULE: ./src/report/markdown/summary.ts
var summary = __webpack_require__(19198);
// EXTERNAL MODULE: ./src/report/merge-reports.ts
var merge_reports = __webpack_require__(42756);
;// CONCATENATED MODULE: ./src/report/markdown/upload-notes.ts
/**
 * What the job summary says about the run's files beyond the report: where profile-gate's own
 * traces are and how to open them, and each file that was not uploaded, by its path (redacted by
 * the caller) with the kind and the reason, never with anything the file holds.
 */

/** Files listed before the rest are counted only. */
const LISTED = 20;
function renderUploadNotes(notes) {
    const parts = [];
    if (notes.capturesArtifact && notes.traces.length) {
        parts.push(`**Traces.** The artifact ${(0,markdown_text/* safeCode */.lI)(notes.capturesArtifact)} holds profile.json (the profile read) and ${notes.traces.length} trace(s) written by profile-gate from the events it read (${notes.traces.slice(0, 3).map((t) => (0,markdown_text/* safeCode */.lI)(t)).join(', ')}${notes.traces.length > 3 ? ', …' : ''}): ` +
            'download it and open a trace in https://ui.perfetto.dev (Open trace file) or chrome://tracing (Load). They hold event names and times only.');
    }
    if (notes.withheld.length) {
        const rows = notes.withheld.slice(0, LISTED).map((w) => `- ${(0,markdown_text/* safeCode */.lI)(w.path)} (${(0,markdown_text/* safeText */.Hk)(w.kind, 20)}): ${(0,markdown_text/* safeText */.Hk)(w.reason, 300)}`);
        const more = notes.withheld.length > LISTED ? [`- and ${notes.withheld.length - LISTED} more`] : [];
        parts.push(['**Not uploaded.**', ...rows, ...more].join('\n'));
    }
    return parts.length ? `\n\n${parts.join('\n\n')}\n` : '';
}

// EXTERNAL MODULE: ./src/github/http.ts
var http = __webpack_require__(78003);
// EXTERNAL MODULE: ./src/github/report-artifacts.ts + 1 modules
var report_artifacts = __webpack_require__(30407);
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
    let existing;
    // The marker must be followed by the end of its line: one key's marker never prefixes another's.
    const scan = await client.scanComments(repo, target.issueNumber, (c) => {
        if (isOurs(c.user?.login, options.author) && firstLine(c.body ?? '') === options.marker)
            existing = c;
        return existing !== undefined;
    });
    const cut = !existing && scan.cut ? { cut: `our comment was not among the comments read (${scan.cut})` } : {};
    if (existing) {
        if (existing.body === body)
            return { action: 'unchanged', id: existing.id, url: existing.html_url };
        const data = await client.updateComment(repo, existing.id, body);
        return { action: 'updated', id: data.id, url: data.html_url };
    }
    if (!options.create)
        return { action: 'none', ...cut };
    const data = await client.createComment(repo, target.issueNumber, body);
    return { action: 'created', id: data.id, url: data.html_url, ...cut };
}
function firstLine(text) {
    return text.trimStart().split(/\r?\n/, 1)[0].trim();
}

;// CONCATENATED MODULE: ./src/action/github/artifacts.ts
/**
 * Uploading this job's report artifact through the host's artifact store (the runtime-token upload
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
async function uploadArtifact(store, name, files, rootDirectory, options) {
    await verifyFiles(files);
    const upload = () => store.upload(name, files, rootDirectory, options.retentionDays ? { retentionDays: options.retentionDays } : {});
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
        await store.delete(name);
        result = await upload();
    }
    if (typeof result.id !== 'number' || !result.size)
        throw new Error(`the artifact service did not confirm '${name}' (id ${String(result.id)}, ${String(result.size)} bytes)`);
    return { name, id: result.id, size: result.size };
}

// EXTERNAL MODULE: ./src/github/artifact-names.ts
var artifact_names = __webpack_require__(45655);
// EXTERNAL MODULE: ./src/action/github/run-context.ts
var run_context = __webpack_require__(55359);
// EXTERNAL MODULE: ./src/report/inert-text.ts
var inert_text = __webpack_require__(18036);
// EXTERNAL MODULE: ./src/action/inputs.ts + 1 modules
var inputs = __webpack_require__(39030);
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
/** What the summary and the comment link: the run (its artifacts) and, when given, the dashboard. */
function runLinks(ctx, publication) {
    return { runUrl: publication.runUrl, ...(ctx.inputs.dashboardUrl ? { dashboardUrl: ctx.inputs.dashboardUrl } : {}) };
}
/** How a reviewer accepts a regression of this PR's head: the workflow's label and command, and the head. */
function acceptWays(ctx, publication) {
    if (publication.prNumber === undefined)
        return undefined;
    return { label: ctx.inputs.acceptLabel, command: ctx.inputs.acceptCommand, ...(publication.headSha ? { headSha: publication.headSha } : {}) };
}
async function publish_comment(ctx, publication) {
    const decision = (0,comment/* decideComment */.Of)(ctx.inputs.comment, (0,run_context/* isPullRequestEvent */.T5)(ctx.run), publication.merged);
    if (decision.action === 'skip') {
        ctx.host.info(`No PR comment: ${decision.reason}.`);
        return undefined;
    }
    const pr = publication.prNumber;
    if (pr === undefined) {
        const line = 'No PR comment: this run concerns no pull request (set the pr-number input to name one).';
        if (ctx.inputs.comment === 'always')
            ctx.host.notice(line);
        else
            ctx.host.info(line);
        return undefined;
    }
    const key = commentKey(ctx);
    const body = (0,io_secrets/* redact */.E$)((0,comment/* renderComment */.wQ)(publication.merged, { key, links: runLinks(ctx, publication), accept: acceptWays(ctx, publication) }), ctx.secrets);
    try {
        const result = await upsertStickyComment(ctx.github(), { owner: ctx.run.owner, repo: ctx.run.repo, issueNumber: pr }, body, { marker: (0,comment/* commentMarker */.Ql)(key), author: ctx.inputs.commentAuthor, create: decision.action === 'post' });
        if (result.cut)
            ctx.host.warning(`PR #${pr}: ${result.cut}; a new comment was ${result.action === 'created' ? 'posted' : 'not posted'}.`);
        if (result.action === 'none')
            ctx.host.info(`No PR comment: ${decision.reason}.`);
        else
            ctx.host.info(`PR #${pr}: comment ${result.action}${result.url ? ` (${result.url})` : ''}.`);
        return result.url;
    }
    catch (error) {
        const message = `Could not comment on PR #${pr}: ${errorText(error)}. The job summary and the report artifact hold the full report.`;
        if (error instanceof http/* GitHubApiError */.OS && error.status === 403)
            ctx.host.notice(message);
        else
            ctx.host.warning(message);
        return undefined;
    }
}
/** Summary, annotations, comment and the shared outputs for one or several reports. */
async function publish(ctx, publication) {
    const { merged } = publication;
    try {
        await ctx.host.writeSummary((0,summary/* renderMergedSummary */.th)(merged, { links: runLinks(ctx, publication), accept: acceptWays(ctx, publication) }) + (publication.uploads ? renderUploadNotes(publication.uploads) : ''));
    }
    catch (error) {
        ctx.host.warning(`The job summary was not written: ${errorText(error)}`);
    }
    for (const annotation of buildAnnotations(merged.entries)) {
        if (annotation.level === 'error')
            ctx.host.error(annotation.message, { title: annotation.title });
        else
            ctx.host.warning(annotation.message, { title: annotation.title });
    }
    const commentUrl = await publish_comment(ctx, publication);
    ctx.host.setOutput(inputs/* OUTPUTS */.py.commentUrl, commentUrl ?? '');
    ctx.host.setOutput(inputs/* OUTPUTS */.py.verdict, merged.verdict);
    // Only known finding ids: a report read in mode report may come from a fork, and a workflow may
    // put this output into a shell line.
    const ids = new Set(merged.entries.flatMap((e) => e.report.findings.map((f) => f.id)).filter(finding_ids/* isFindingId */.nU));
    ctx.host.setOutput(inputs/* OUTPUTS */.py.findings, [...ids].join(','));
    const skipped = merged.entries.flatMap((e) => e.report.skippedInputs.map((s) => oneLine(s.path)));
    ctx.host.setOutput(inputs/* OUTPUTS */.py.skippedInputs, skipped.join('\n'));
}
/** The verdicts that fail this job (input fail-verdicts, checked with the other inputs). */
function failVerdicts(ctx) {
    return ctx.inputs.failVerdicts;
}
/**
 * Fails the job when the workflow's fail-verdicts list the verdict; a verdict that compared nothing
 * (invalid, insufficient-data) and does not fail it is still a warning annotation, never silent.
 */
function settleVerdict(ctx, report) {
    const why = oneLine((0,verdict_lines/* failureLine */.Pu)('lines' in report ? report.lines : (0,verdict_lines/* verdictLines */.rz)(report)));
    const failing = (0,verdict/* failsJob */.VC)(report.verdict, failVerdicts(ctx));
    if (failing)
        ctx.host.setFailed(`profile-gate verdict: ${report.verdict} (${why}; see the job summary)`);
    else if (COMPARED_NOTHING[report.verdict]) {
        ctx.host.warning(`profile-gate verdict: ${report.verdict}, which does not fail this job (input '${inputs/* INPUTS */.mc.failVerdicts}' does not list it): ${why}`, { title: `profile-gate: ${report.verdict}` });
    }
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
    return uploadArtifact(ctx.host.artifacts, name, files, root, {
        runAttempt: ctx.run.runAttempt,
        ...(ctx.inputs.retentionDays ? { retentionDays: ctx.inputs.retentionDays } : {}),
    });
}
/**
 * Files made ready for one artifact: scrubbed copies (src/io/scrub-uploads.ts) in a staging folder
 * of their own, with the layout they had below `root`. Paths the artifact service refuses
 * (decode-12:00:00.jsonl) are stored under mapped names, and capture-names.json maps them back.
 * What cannot go (a profiler's own report, a file that still holds a secret) is said in the log.
 */
async function stageArtifact(ctx, files, root, notes) {
    const stageRoot = await (0,promises_.mkdtemp)((0,external_node_path_.join)(ctx.run.tempDir || (0,external_node_os_.tmpdir)(), 'profile-gate-upload-'));
    // A file's name may hold a secret too (a folder named after a token): entry names are redacted.
    const paths = files.map((file) => ({ file, path: (0,io_secrets/* redact */.E$)((0,external_node_path_.relative)(root, file).split(external_node_path_.sep).join('/'), ctx.secrets) }));
    const pathOf = new Map(paths.map((p) => [p.file, p.path]));
    const { staged, withheld } = await scrubForUpload(paths.map(({ file, path }) => ({ file, target: (0,external_node_path_.join)(stageRoot, ...(0,artifact_names/* storablePath */.kN)(path).split('/')) })), { secrets: ctx.secrets, rawReports: ctx.inputs.uploadRawReports });
    const redactions = staged.reduce((sum, file) => sum + file.redactions, 0);
    if (redactions)
        ctx.host.info(`Scrubbed ${redactions} secret or environment value(s) from the files to upload.`);
    for (const { file, kind, reason } of withheld) {
        const path = pathOf.get(file) ?? '';
        notes?.withheld.push({ path, kind, reason });
        const line = (0,inert_text/* inertLine */.Fq)(`Not uploaded: ${path}: ${reason}.`);
        // A raw report left out is the setting working as set; anything else is a file that should have gone.
        if (kind === 'raw-report')
            ctx.host.info(line);
        else
            ctx.host.warning(line);
    }
    const uploadFiles = staged.map((file) => file.target);
    const kept = new Set(staged.map((file) => file.file));
    const mapped = paths.filter((p) => kept.has(p.file) && (0,artifact_names/* storablePath */.kN)(p.path) !== p.path);
    if (mapped.length) {
        const names = (0,external_node_path_.join)(stageRoot, artifact_names/* CAPTURE_NAMES_FILE */.PP);
        await (0,promises_.writeFile)(names, (0,io_secrets/* redact */.E$)(`${JSON.stringify({ note: 'stored path -> the capture file name it stands for', names: Object.fromEntries(mapped.map((p) => [(0,artifact_names/* storablePath */.kN)(p.path), p.path])) }, null, 2)}\n`, ctx.secrets));
        uploadFiles.push(names);
        ctx.host.info((0,inert_text/* inertLine */.Fq)(`${mapped.length} capture path(s) hold characters the artifact service refuses; stored under mapped names (${artifact_names/* CAPTURE_NAMES_FILE */.PP}), e.g. ${mapped[0].path} as ${(0,artifact_names/* storablePath */.kN)(mapped[0].path)}.`));
    }
    return { root: stageRoot, files: uploadFiles };
}
/** The report's own artifact: report.json, report.md and context.json only, so nothing else can sink it. */
async function uploadReport(ctx, files, root, notes) {
    const name = defaultArtifactName(ctx);
    let stage;
    try {
        stage = await stageArtifact(ctx, files, root, notes);
        const uploaded = await upload(ctx, name, stage.files, stage.root);
        ctx.host.info(`Uploaded artifact '${name}' (id ${uploaded.id}, ${uploaded.size} bytes, ${stage.files.length} files).`);
        return { name, id: uploaded.id, url: (0,run_context/* artifactUrl */.Wk)(ctx.run, ctx.run.runId, uploaded.id) };
    }
    catch (error) {
        ctx.host.warning(`The report artifact '${name}' was not uploaded: ${errorText(error)}. report.json and report.md are in ${ctx.inputs.reportDir}.`);
        return undefined;
    }
    finally {
        if (stage)
            await (0,promises_.rm)(stage.root, { recursive: true, force: true });
    }
}
/** profile.json and the clean traces, and with upload-raw-captures the captures and logs, scrubbed, in an artifact of their own after the report's. */
async function uploadCaptures(ctx, reportArtifact, files, root, notes) {
    const name = (0,artifact_names/* capturesArtifactName */.bA)(reportArtifact);
    let stage;
    try {
        stage = await stageArtifact(ctx, files, root, notes);
        if (!stage.files.length) {
            ctx.host.info(`No captures artifact: none of the ${files.length} capture file(s) may be uploaded.`);
            return;
        }
        const uploaded = await upload(ctx, name, stage.files, stage.root);
        ctx.host.info(`Uploaded artifact '${name}' (id ${uploaded.id}, ${uploaded.size} bytes, ${stage.files.length} files).`);
        notes.capturesArtifact = name;
    }
    catch (error) {
        ctx.host.warning(`The captures artifact '${name}' was not uploaded: ${errorText(error)}. The report artifact '${reportArtifact}' holds the report; the captures are in the workspace.`);
    }
    finally {
        if (stage)
            await (0,promises_.rm)(stage.root, { recursive: true, force: true });
    }
}
/**
 * The report with the pull request's acceptances applied (src/compare/acceptance.ts): read only for
 * a verdict they can change or must be told they cannot (fail, invalid), on a pull request. Each
 * acceptance refused is a warning annotation as well as a line of the verdict; a source the token
 * could not read is a warning annotation.
 */
async function withAcceptance(ctx, report) {
    const pullRequest = ctx.inputs.prNumber ?? ctx.run.pullRequest;
    const { acceptLabel: label, acceptCommand: command } = ctx.inputs;
    const eventHead = ctx.inputs.prNumber === undefined ? ctx.run.pullRequestHeadSha : undefined;
    const known = eventHead ? { headSha: eventHead } : {};
    if (pullRequest === undefined || (!label && !command) || !ACCEPTANCES_READ[report.verdict])
        return { report, ...known };
    let read;
    try {
        read = await readAcceptances(ctx.github(), {
            owner: ctx.run.owner,
            repo: ctx.run.repo,
            serverUrl: ctx.run.serverUrl,
            pullRequest,
            ...known,
            label,
            command,
        });
    }
    catch (error) {
        read = { claims: [], refused: [], unread: [`acceptances not read: ${errorText(error)}`], ...known };
    }
    // The rows it may cover are those the report records as failing it, under the policy it records.
    const accepted = (0,acceptance/* applyAcceptance */.qS)(report, { claims: read.claims, refused: read.refused });
    for (const line of read.refused)
        ctx.host.warning(oneLine(`profile-gate: ${line}`), { title: 'profile-gate: acceptance not applied' });
    // A token that may not read them is the workflow's setting, not the verdict's: the log says so.
    for (const line of read.unread)
        ctx.host.warning(oneLine(`profile-gate: ${line}`), { title: 'profile-gate: acceptances not read' });
    if (accepted.acceptance)
        ctx.host.notice(oneLine(`profile-gate: ${(0,verdict_lines/* verdictLines */.rz)(accepted)[0] ?? ''}`), { title: 'profile-gate: regression accepted' });
    return { report: accepted, ...(read.headSha ? { headSha: read.headSha } : {}) };
}
/** profile.json and a clean trace per capture with a timeline, beside the report; none when they could not be written (a warning). */
async function derivedFiles(ctx, report, captures, traceInputs) {
    try {
        const written = await writeDerivedFiles(ctx.inputs.reportDir, report, captures, ctx.secrets, { traceInputs });
        for (const line of written.unread)
            ctx.host.warning((0,inert_text/* inertLine */.Fq)(line));
        if (written.traces.length)
            ctx.host.info(`Wrote ${written.traces.length} clean trace(s) of the captures (traces/*.trace.json: open in https://ui.perfetto.dev or chrome://tracing).`);
        return [written.profile, ...written.traces].map((f) => (0,external_node_path_.resolve)(f));
    }
    catch (error) {
        ctx.host.warning(`profile.json and the clean traces were not written: ${errorText(error)}`);
        return [];
    }
}
/** A report made in this job (modes analyze and run): files, artifact, then everything `publish` does. */
async function publishReport(ctx, produced) {
    // Command lines and names in the report may quote a secret: the report itself is redacted, so its
    // file, summary, comment and outputs are.
    const withAccepted = await withAcceptance(ctx, produced.report);
    const report = (0,io_secrets/* redactValue */.FI)(withAccepted.report, ctx.secrets).value;
    const dir = ctx.inputs.reportDir;
    const jsonPath = (0,external_node_path_.join)(dir, model_report/* REPORT_FILE */.Uq);
    const context = {
        event: ctx.run.eventName,
        repository: `${ctx.run.owner}/${ctx.run.repo}`,
        ...(ctx.run.pullRequest !== undefined ? { pullRequest: ctx.run.pullRequest } : {}),
        ...(ctx.run.pullRequestHeadSha ? { headSha: ctx.run.pullRequestHeadSha } : {}),
    };
    // A full disk must not cost the summary and the comment: they are published, then the job fails.
    let notWritten;
    try {
        await (0,input_paths/* writeOutput */.zh)(jsonPath, (0,json/* serializeReport */.x)(report));
        await (0,input_paths/* writeOutput */.zh)((0,external_node_path_.join)(dir, 'report.md'), (0,summary/* renderSummary */.Br)(report));
        await (0,input_paths/* writeOutput */.zh)((0,external_node_path_.join)(dir, report_artifacts/* CONTEXT_FILE */.ny), `${JSON.stringify(context, null, 2)}\n`);
    }
    catch (error) {
        notWritten = errorText(error);
    }
    ctx.host.setOutput(inputs/* OUTPUTS */.py.reportJson, notWritten ? '' : jsonPath);
    const decode = report.metrics.find((m) => m.name === 'decode_tok_s');
    ctx.host.setOutput(inputs/* OUTPUTS */.py.decodeTokS, decode ? String(decode.value) : '');
    const reportFiles = [jsonPath, (0,external_node_path_.join)(dir, 'report.md'), (0,external_node_path_.join)(dir, report_artifacts/* CONTEXT_FILE */.ny)].map((f) => (0,external_node_path_.resolve)(f));
    // By default only what profile-gate wrote leaves the runner; the workload's own files on opt-in.
    const derived = ctx.inputs.uploadCaptures && ctx.inputs.uploadArtifact && !notWritten ? await derivedFiles(ctx, report, produced.captures ?? [], produced.traceInputs ?? []) : [];
    const raw = ctx.inputs.uploadCaptures && ctx.inputs.uploadRawCaptures ? (produced.extraFiles ?? []).map((f) => (0,external_node_path_.resolve)(f)) : [];
    const captures = [...new Set([...derived, ...raw])].filter((f) => !reportFiles.includes(f));
    // One root for both artifacts, so the captures keep the layout they had beside the report; the
    // same root whether the raw files go or not, so the report's place in its artifact does not move.
    const root = commonRoot([...reportFiles, ...captures, ...(produced.extraFiles ?? []).map((f) => (0,external_node_path_.resolve)(f))]);
    if (notWritten && ctx.inputs.uploadArtifact)
        ctx.host.warning(`The report artifact was not uploaded: the report files could not be written (${notWritten}).`);
    const derivedTraces = derived.filter((f) => f.endsWith('.trace.json'));
    const notes = { traces: derivedTraces.map((f) => (0,external_node_path_.relative)(root, f).split(external_node_path_.sep).join('/')), withheld: [] };
    const artifact = ctx.inputs.uploadArtifact && !notWritten ? await uploadReport(ctx, reportFiles, root, notes) : undefined;
    if (artifact && captures.length)
        await uploadCaptures(ctx, artifact.name, captures, root, notes);
    ctx.host.setOutput(inputs/* OUTPUTS */.py.artifactId, artifact?.id !== undefined ? String(artifact.id) : '');
    const entry = {
        label: ctx.inputs.key || (0,merge_reports/* labelFor */.gt)(report, ctx.run.job || 'profile'),
        report,
        ...(artifact ? { artifact } : {}),
        ...(produced.baselineNote ? { baselineNote: produced.baselineNote } : {}),
    };
    await publish(ctx, { merged: (0,merge_reports/* mergeReports */.C1)([entry]), runUrl: ctx.run.runUrl, prNumber: ctx.inputs.prNumber ?? ctx.run.pullRequest, headSha: withAccepted.headSha, uploads: notes });
    if (notWritten)
        ctx.host.setFailed(`profile-gate could not write its report files: ${notWritten}; the job summary holds the report`);
    settleVerdict(ctx, report);
}


/***/ }),

/***/ 45655:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   PP: () => (/* binding */ CAPTURE_NAMES_FILE),
/* harmony export */   QJ: () => (/* binding */ isCapturesArtifact),
/* harmony export */   bA: () => (/* binding */ capturesArtifactName),
/* harmony export */   kN: () => (/* binding */ storablePath)
/* harmony export */ });
/* unused harmony export CAPTURES_SUFFIX */
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


/***/ }),

/***/ 77759:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   N1: () => (/* binding */ loadReport),
/* harmony export */   gt: () => (/* binding */ labelFor),
/* harmony export */   jU: () => (/* binding */ findReportFiles)
/* harmony export */ });
/* unused harmony exports MAX_REPORT_BYTES, captureFormatOf */
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(51455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(76760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(83916);
/* harmony import */ var _ingest_common_input_file_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(73311);
/* harmony import */ var _ingest_registry_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(395);
/* harmony import */ var _github_limits_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(71679);
/* harmony import */ var _model_read_report_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(58731);
/* harmony import */ var _model_report_js__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(20949);
/* harmony import */ var _model_text_order_js__WEBPACK_IMPORTED_MODULE_8__ = __webpack_require__(97167);
/**
 * Reading report.json files back (matrix legs, downloaded artifacts) for the merged report.
 * They may come from a fork's workflow: size-capped, parsed within the report read bounds
 * (model/read-report.ts) and schema-validated, or refused with an InputError naming the file.
 */









/** A report of 10,000 kernels is a few MiB; anything far larger is not ours. */
const MAX_REPORT_BYTES = _github_limits_js__WEBPACK_IMPORTED_MODULE_5__/* .DEFAULT_ARTIFACT_LIMITS */ .SN.maxReportBytes;
const MAX_DEPTH = 6;
async function walk(directory, depth, found) {
    if (depth > MAX_DEPTH)
        return;
    const entries = (await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readdir)(directory, { withFileTypes: true })).sort((a, b) => (0,_model_text_order_js__WEBPACK_IMPORTED_MODULE_8__/* .compareText */ .n)(a.name, b.name));
    for (const entry of entries) {
        const path = (0,node_path__WEBPACK_IMPORTED_MODULE_1__.join)(directory, entry.name);
        if (entry.isDirectory())
            await walk(path, depth + 1, found);
        else if (entry.isFile() && entry.name === _model_report_js__WEBPACK_IMPORTED_MODULE_7__/* .REPORT_FILE */ .Uq)
            found.push(path);
    }
}
/** Files are taken as given; directories give every report.json inside them (links are not followed). */
async function findReportFiles(paths) {
    const found = [];
    for (const path of paths) {
        let info;
        try {
            info = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.stat)(path);
        }
        catch (error) {
            throw new _errors_js__WEBPACK_IMPORTED_MODULE_2__/* .InputError */ .dz(path, `cannot read it (${(0,_errors_js__WEBPACK_IMPORTED_MODULE_2__/* .systemErrorText */ .f9)(error)}); expected a report.json or a directory holding some`);
        }
        if (!info.isDirectory()) {
            found.push({ path });
            continue;
        }
        const inside = [];
        await walk(path, 0, inside);
        for (const file of inside) {
            const parts = (0,node_path__WEBPACK_IMPORTED_MODULE_1__.relative)(path, file).split(node_path__WEBPACK_IMPORTED_MODULE_1__.sep);
            found.push(parts.length > 1 ? { path: file, folder: parts[0] } : { path: file });
        }
    }
    return found;
}
async function loadReport(path) {
    let info;
    try {
        info = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.stat)(path);
    }
    catch (error) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_2__/* .InputError */ .dz(path, `cannot read it (${(0,_errors_js__WEBPACK_IMPORTED_MODULE_2__/* .systemErrorText */ .f9)(error)}); expected a profile-gate report.json`);
    }
    if (info.isDirectory()) {
        const inside = (0,node_path__WEBPACK_IMPORTED_MODULE_1__.join)(path, _model_report_js__WEBPACK_IMPORTED_MODULE_7__/* .REPORT_FILE */ .Uq);
        const hasReport = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.stat)(inside).then((s) => s.isFile(), () => false);
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_2__/* .InputError */ .dz(path, `a folder; expected one profile-gate ${_model_report_js__WEBPACK_IMPORTED_MODULE_7__/* .REPORT_FILE */ .Uq} file${hasReport ? ` (this folder holds ${inside})` : ` (analyze --json FILE and run --out DIR write one)`}`);
    }
    if (info.size > MAX_REPORT_BYTES)
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_2__/* .InputError */ .dz(path, `${info.size} bytes; expected a report.json under ${MAX_REPORT_BYTES} bytes`);
    let text;
    try {
        text = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readFile)(path, 'utf8');
    }
    catch (error) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_2__/* .InputError */ .dz(path, `cannot read it (${(0,_errors_js__WEBPACK_IMPORTED_MODULE_2__/* .systemErrorText */ .f9)(error)}); expected a profile-gate report.json`);
    }
    // Bounded while it is parsed (model/read-report.ts): a small file can hold an array of millions.
    try {
        return (0,_model_read_report_js__WEBPACK_IMPORTED_MODULE_6__/* .parseReportText */ .V)(text, path);
    }
    catch (error) {
        const format = await captureFormatOf(path);
        if (format === undefined)
            throw error;
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_2__/* .InputError */ .dz(path, `a capture (${format}), not a report; a baseline is the ${_model_report_js__WEBPACK_IMPORTED_MODULE_7__/* .REPORT_FILE */ .Uq} of an earlier analysis: profile-gate analyze --json baseline.json BASELINE_CAPTURES..., then give baseline.json`);
    }
}
/** The capture format of a file that is not a report, when it is one. */
async function captureFormatOf(path) {
    try {
        return (0,_ingest_registry_js__WEBPACK_IMPORTED_MODULE_4__/* .detectFormat */ .Tz)(await (0,_ingest_common_input_file_js__WEBPACK_IMPORTED_MODULE_3__/* .openInput */ .lt)(path)).id;
    }
    catch {
        return undefined;
    }
}
/** A label for a found report: its folder less `prefix`, else what the report says, else the file's folder. */
function labelFor(found, report, prefix = '') {
    if (found.folder)
        return found.folder.startsWith(prefix) && found.folder.length > prefix.length ? found.folder.slice(prefix.length) : found.folder;
    const parts = found.path.split(/[\\/]/).filter(Boolean);
    return report.run.workload ?? report.environment.model ?? (parts.length >= 2 ? parts[parts.length - 2] : (0,node_path__WEBPACK_IMPORTED_MODULE_1__.basename)(found.path));
}


/***/ }),

/***/ 32794:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   x: () => (/* binding */ serializeReport)
/* harmony export */ });
/* harmony import */ var _model_report_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(20949);
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
    const schema = _model_report_js__WEBPACK_IMPORTED_MODULE_0__/* .ReportSchema */ .M9.shape.kernels.element;
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
    const whole = () => `${JSON.stringify(_model_report_js__WEBPACK_IMPORTED_MODULE_0__/* .ReportSchema */ .M9.parse(report), null, 2)}\n`;
    const rest = _model_report_js__WEBPACK_IMPORTED_MODULE_0__/* .ReportSchema */ .M9.safeParse({ ...report, kernels: [] });
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


/***/ }),

/***/ 311:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   w: () => (/* binding */ TOOL_VERSION)
/* harmony export */ });
/** The product version written into every report; kept in step with package.json by a test. */
const TOOL_VERSION = '0.1.0';


/***/ })

};
