/**
 * `profile-gate dashboard --out DIR [INPUT...] [--from-artifacts ...]`: a static site (index.html,
 * data.js, dashboard.js, dashboard.css) from many report.json files: throughput with its confidence
 * band, family shares, top-kernel changes, findings and verdicts per workload, change points and the
 * open regressions on top. It needs no server: open index.html, or publish DIR to GitHub Pages.
 */
import { parseArgs } from 'node:util';
import { buildDashboard } from './dashboard-site.js';
import { limitsFromEnv } from '../github/limits.js';
import { EXIT_OK, UsageError } from '../errors.js';
import { TOOL_VERSION } from '../version.js';
import { inertLine } from '../report/inert-text.js';
import { BOUNDED_REPORT } from '../report/bounded-report.js';

export const DASHBOARD_USAGE = `profile-gate dashboard --out DIR [options] [REPORT.json|DIR...]
  Build a static dashboard (DIR/index.html) from report.json files or directories of them.

  --title TEXT          the page title (default 'profile-gate dashboard')
  --metric NAME         the throughput metric charted and scanned for shifts (default decode_tok_s)
  --top N               top kernels tracked per run (default 10, at most 200)
  --min-change PCT      smallest level shift that counts, in percent (default 2)
  --seed N              accepted for older workflows; no effect (change points use no random draws)

  --from-artifacts      also download the report artifacts of recent completed runs, failed ones
                        included (GITHUB_TOKEN, GITHUB_API_URL and GITHUB_SERVER_URL are read from
                        the environment)
  --repo OWNER/NAME     the repository (default $GITHUB_REPOSITORY)
  --workflow FILE       the workflow file name that uploads the reports, e.g. nightly.yml
  --branch NAME         the branch its runs built (default main)
  --limit N             completed runs to read, newest first, whatever their conclusion (default 60)
  --prefix PREFIX       artifact name prefix (default profile-gate-)
  --events LIST         run events accepted (default push,schedule)
  --save-reports DIR    keep the downloaded report.json files there (artifacts expire; the files need not)`;

function positiveInteger(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} ${value}: expected a positive integer`);
  return n;
}

function percentOption(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value.replace(/%$/, ''));
  if (!Number.isFinite(n) || n < 0 || n > 100) throw new UsageError(`${flag} ${value}: expected a percentage between 0 and 100`);
  return n / 100;
}

export async function runDashboardCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      out: { type: 'string' },
      title: { type: 'string' },
      metric: { type: 'string' },
      top: { type: 'string' },
      'min-change': { type: 'string' },
      seed: { type: 'string' },
      'from-artifacts': { type: 'boolean', default: false },
      repo: { type: 'string' },
      workflow: { type: 'string' },
      branch: { type: 'string', default: 'main' },
      limit: { type: 'string' },
      prefix: { type: 'string', default: 'profile-gate-' },
      events: { type: 'string', default: 'push,schedule' },
      'save-reports': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${DASHBOARD_USAGE}\n`);
    return EXIT_OK;
  }
  if (!values.out) throw new UsageError('dashboard: expected --out DIR; see profile-gate dashboard --help');
  if (!values['from-artifacts'] && positionals.length === 0) throw new UsageError('dashboard: expected report.json files or directories, or --from-artifacts');
  let artifacts;
  if (values['from-artifacts']) {
    const limits = limitsFromEnv(env);
    const repository = values.repo ?? env['GITHUB_REPOSITORY'];
    if (!repository) throw new UsageError('dashboard --from-artifacts: expected --repo OWNER/NAME (or GITHUB_REPOSITORY)');
    if (!values.workflow) throw new UsageError('dashboard --from-artifacts: expected --workflow FILE, e.g. nightly.yml');
    if (!env['GITHUB_TOKEN']) throw new UsageError("dashboard --from-artifacts: GITHUB_TOKEN is not set (a token with 'actions: read')");
    artifacts = {
      query: {
        repository,
        workflow: values.workflow,
        branch: values.branch,
        limit: positiveInteger('--limit', values.limit, 60),
        prefix: values.prefix,
        events: values.events.split(',').map((e) => e.trim()).filter(Boolean),
      },
      access: {
        token: env['GITHUB_TOKEN'],
        apiUrl: (env['GITHUB_API_URL'] || 'https://api.github.com').replace(/\/+$/, ''),
        serverUrl: (env['GITHUB_SERVER_URL'] || 'https://github.com').replace(/\/+$/, ''),
        limits: limits.http,
        retry: limits.retry,
        artifactLimits: limits.artifacts,
      },
      ...(values['save-reports'] ? { saveTo: values['save-reports'] } : {}),
    };
  } else if (values.repo || values.workflow || values.limit || values['save-reports']) {
    throw new UsageError('dashboard: --repo, --workflow, --limit and --save-reports go with --from-artifacts');
  }
  const topN = positiveInteger('--top', values.top, 10);
  // Each report is kept as its top kernels only (report/bounded-report.ts), read from disk or downloaded.
  if (topN > BOUNDED_REPORT.kernels) throw new UsageError(`--top ${topN}: expected at most ${BOUNDED_REPORT.kernels} (each report is read as its top ${BOUNDED_REPORT.kernels} kernels)`);
  if (values.seed !== undefined) {
    positiveInteger('--seed', values.seed, 1);
    process.stderr.write('profile-gate dashboard: --seed has no effect: change points are found without random draws, so the same history gives the same page\n');
  }
  const { data, written } = await buildDashboard({
    out: values.out,
    inputs: positionals,
    ...(artifacts ? { artifacts } : {}),
    options: {
      generatedAt: new Date().toISOString(),
      serverUrl: env['GITHUB_SERVER_URL'] || 'https://github.com',
      ...(values.title ? { title: values.title } : {}),
      ...(values.metric ? { metric: values.metric } : {}),
      topN,
      minChange: percentOption('--min-change', values['min-change'], 0.02),
    },
    log: (line) => process.stderr.write(`profile-gate dashboard: ${inertLine(line)}\n`),
  });
  // Artifact, workload and commit names come from the reports: printed inert.
  for (const skipped of data.skipped) process.stderr.write(`profile-gate dashboard: ${inertLine(`left out ${skipped.source}: ${skipped.reason}`)}\n`);
  const lines = data.regressions.map((r) => {
    const w = data.workloads[r.workload]!;
    return inertLine(`  open regression ${(r.latestRelative * 100).toFixed(1)}% ${w.name} since ${w.points.commit[r.index]?.slice(0, 7) || 'an unknown commit'}`);
  });
  process.stdout.write(
    `profile-gate dashboard ${TOOL_VERSION}: ${data.reportCount} reports, ${data.workloads.length} workloads, ${data.regressions.length} open regressions\n${lines.join('\n')}${lines.length ? '\n' : ''}wrote ${written[0]}\n`,
  );
  return EXIT_OK;
}
