/**
 * The real ActionHost: the runner's, through @actions/core and @actions/artifact. The @actions
 * edge: this module is the only one under src/action/ (and in src/) that imports @actions/*, and
 * the only one that reads process.env for the action (__tests__/meta/actions-edge.test.ts holds it).
 * @actions/artifact is loaded on the first upload: it loads @actions/github, whose context parses
 * GITHUB_EVENT_PATH while loading and would end a bad event file in a stack trace, so it must come
 * after the action has read (and checked) that file itself.
 */
import * as core from '@actions/core';
import type { ActionHost, ArtifactStore } from './host.js';

type ArtifactClient = import('@actions/artifact').ArtifactClient;

function artifactStore(): ArtifactStore {
  let client: Promise<ArtifactClient> | undefined;
  const get = (): Promise<ArtifactClient> => (client ??= import('@actions/artifact').then(({ DefaultArtifactClient }) => new DefaultArtifactClient()));
  return {
    upload: async (name, files, root, options) => (await get()).uploadArtifact(name, [...files], root, options.retentionDays ? { retentionDays: options.retentionDays } : {}),
    delete: async (name) => {
      await (await get()).deleteArtifact(name);
    },
  };
}

export function actionsHost(): ActionHost {
  return {
    getInput: (name) => core.getInput(name),
    env: process.env,
    debug: (text) => core.debug(text),
    info: (text) => core.info(text),
    notice: (text, properties) => core.notice(text, properties),
    warning: (text, properties) => core.warning(text, properties),
    error: (text, properties) => core.error(text, properties),
    group: (name, fn) => core.group(name, fn),
    setSecret: (value) => core.setSecret(value),
    setOutput: (name, value) => core.setOutput(name, value),
    writeSummary: async (markdown) => {
      await core.summary.addRaw(markdown, true).write();
    },
    setFailed: (message) => core.setFailed(message),
    artifacts: artifactStore(),
  };
}
