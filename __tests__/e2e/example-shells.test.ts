/**
 * The example workflows' own shell steps: a workload piped into `tee` must fail its step when the
 * workload fails. GitHub runs a `run:` step without `shell:` as `bash -e {0}`, where a pipeline's
 * status is the last command's (`tee`'s), so a crashed workload would pass and leave a partial
 * capture for profile-gate; `shell: bash` runs it with `-eo pipefail`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from '../helpers/fake-github-runner.js';

interface Step {
  name?: string;
  run?: string;
  shell?: string;
}

const PIPE = /(^|[^|])\|(?!\|)/;

describe('the examples\' shell steps', () => {
  it('a step that pipes its workload runs with pipefail, so a failed workload fails the step', () => {
    const unsafe: string[] = [];
    let piped = 0;
    for (const file of readdirSync(join(ROOT, 'examples')).filter((name) => name.endsWith('.yml'))) {
      const workflow = parse(readFileSync(join(ROOT, 'examples', file), 'utf8')) as { jobs: Record<string, { steps?: Step[]; defaults?: { run?: { shell?: string } } }> };
      for (const [id, job] of Object.entries(workflow.jobs)) {
        for (const step of job.steps ?? []) {
          if (!step.run || !step.run.split('\n').some((line) => PIPE.test(line.replace(/#.*$/, '')))) continue;
          piped += 1;
          const shell = step.shell ?? job.defaults?.run?.shell;
          if (shell !== 'bash' && !/set -[a-z]*o pipefail/.test(step.run)) unsafe.push(`${file} ${id}: ${step.name ?? step.run.slice(0, 40)}`);
        }
      }
    }
    expect(piped).toBeGreaterThan(0);
    expect(unsafe).toEqual([]);
  });
});
