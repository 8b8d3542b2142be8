/**
 * Every side effect of the action goes through one ActionHost: the log and its annotations, the
 * outputs, the job summary, failing the step, uploading artifacts, and reading the inputs and the
 * environment. The real host (actions-host.ts) is the runner's, through @actions/*; tests hand the
 * action a host of their own and run it in process.
 */

/** Where an annotation points; only a title today. */
export interface AnnotationProperties {
  title?: string;
}

export interface UploadResponse {
  id?: number | undefined;
  size?: number | undefined;
}

/** The artifact service of this run (the runtime-token upload protocol). */
export interface ArtifactStore {
  upload(name: string, files: readonly string[], rootDirectory: string, options: { retentionDays?: number }): Promise<UploadResponse>;
  /** Deletes this run's artifact of that name (a re-run attempt replaces its own). */
  delete(name: string): Promise<void>;
}

export interface ActionHost {
  /** An input's text as the runner hands it over ('' when not set). */
  getInput(name: string): string;
  /** The environment the runner started the action with: the one place the action reads it. */
  readonly env: Readonly<Record<string, string | undefined>>;
  debug(text: string): void;
  info(text: string): void;
  notice(text: string, properties?: AnnotationProperties): void;
  warning(text: string, properties?: AnnotationProperties): void;
  error(text: string, properties?: AnnotationProperties): void;
  group<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /** Masks a value in the log from here on. */
  setSecret(value: string): void;
  setOutput(name: string, value: string): void;
  /** Writes the job summary of this step (replacing what the step wrote before). */
  writeSummary(markdown: string): Promise<void>;
  /** Fails the step with one line; the action goes on to finish what it started. */
  setFailed(message: string): void;
  readonly artifacts: ArtifactStore;
}
