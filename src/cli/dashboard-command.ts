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
import { refuseRepeatedFlags } from './flag-errors.js';
import { flagOptions, flagsHelp, readFlags } from '../options/read.js';
import { TOOL_VERSION } from '../version.js';
import { inertLine } from '../report/inert-text.js';

export const DASHBOARD_HELP = `Usage: profile-gate dashboard --out DIR [options] [REPORT.json|DIR...]

Builds a static dashboard (DIR/index.html) from report.json files or directories of them, with
--from-artifacts from the report artifacts of a workflow's recent runs, and with --history FILE from
a history store (one summary per report) that it appends the reports it has not seen to.

${flagsHelp('dashboard', ['output', 'dashboard'], 24)}

${flagsHelp('dashboard', ['artifacts', 'publish'], 24, ['from-artifacts', 'repo', 'workflow', 'branch', 'limit', 'prefix'])}
`;

/** `1 workload`, `2 workloads`. */
function plural(count: number, one: string): string {
  return `${count} ${count === 1 ? one : `${one}s`}`;
}

export async function runDashboardCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const config = { args: argv, allowPositionals: true, strict: true, options: flagOptions('dashboard') };
  const { values, positionals } = parseArgs(config);
  refuseRepeatedFlags(config, 'dashboard');
  const options = readFlags(values, 'dashboard', env);
  const out = options.outDir;
  if (!out) throw new UsageError('dashboard: expected --out DIR; see profile-gate dashboard --help');
  if (!options.fromArtifacts && positionals.length === 0 && !options.history) throw new UsageError('dashboard: expected report.json files or directories, --from-artifacts, or --history FILE');
  let artifacts;
  if (options.fromArtifacts) {
    const limits = limitsFromEnv(env);
    const repository = options.repo;
    if (!repository) throw new UsageError('dashboard --from-artifacts: expected --repo OWNER/NAME (or GITHUB_REPOSITORY)');
    if (!options.workflow) throw new UsageError('dashboard --from-artifacts: expected --workflow FILE, e.g. nightly.yml');
    if (!env['GITHUB_TOKEN']) throw new UsageError("dashboard --from-artifacts: GITHUB_TOKEN is not set (a token with 'actions: read')");
    artifacts = {
      query: {
        repository,
        workflow: options.workflow,
        branch: options.workflowBranch,
        limit: options.limit,
        prefix: options.artifactPrefix,
        events: options.events,
      },
      access: {
        token: env['GITHUB_TOKEN'],
        apiUrl: (env['GITHUB_API_URL'] || 'https://api.github.com').replace(/\/+$/, ''),
        serverUrl: (env['GITHUB_SERVER_URL'] || 'https://github.com').replace(/\/+$/, ''),
        limits: limits.http,
        retry: limits.retry,
        artifactLimits: limits.artifacts,
      },
      ...(options.saveReports ? { saveTo: options.saveReports } : {}),
    };
  } else if (values['repo'] || values['workflow'] || values['limit'] || values['save-reports']) {
    // Given on the command line, not taken from the environment or the defaults.
    throw new UsageError('dashboard: --repo, --workflow, --limit and --save-reports go with --from-artifacts');
  }
  if (options.seed !== undefined) {
    process.stderr.write('profile-gate dashboard: --seed has no effect: change points are found without random draws, so the same history gives the same page\n');
  }
  const { data, written } = await buildDashboard({
    out,
    inputs: positionals,
    ...(artifacts ? { artifacts } : {}),
    ...(options.history ? { history: options.history } : {}),
    options: {
      generatedAt: new Date().toISOString(),
      serverUrl: env['GITHUB_SERVER_URL'] || 'https://github.com',
      ...(options.dashboardTitle ? { title: options.dashboardTitle } : {}),
      ...(options.dashboardMetric ? { metric: options.dashboardMetric } : {}),
      topN: options.dashboardTop,
      minChange: options.minChange,
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
    `profile-gate dashboard ${TOOL_VERSION}: ${plural(data.reportCount, 'report')}, ${plural(data.workloads.length, 'workload')}, ${plural(data.regressions.length, 'open regression')}\n${lines.join('\n')}${lines.length ? '\n' : ''}wrote ${written[0]}\n`,
  );
  return EXIT_OK;
}
