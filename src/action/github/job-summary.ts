/** The job summary file (GITHUB_STEP_SUMMARY), written once per step. */
import * as core from '@actions/core';

export async function writeJobSummary(markdown: string): Promise<void> {
  await core.summary.addRaw(markdown, true).write();
}
