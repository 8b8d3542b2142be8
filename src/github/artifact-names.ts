/**
 * Names the artifact service accepts. It refuses " : < > | * ? \r \n \ in artifact names and in the
 * paths of the files inside, so a capture named decode-12:00:00.jsonl would sink the whole upload.
 * Captures travel in an artifact of their own beside the report's, under mapped paths, with the
 * mapping kept in the artifact.
 */

/** What a file path inside an artifact may not hold (besides `/`, its separator). */
const REFUSED_IN_PATH = /[%":<>|*?\r\n\\]/g;

/** The captures of the report artifact NAME are in NAME + this. */
export const CAPTURES_SUFFIX = '-captures';
/** The file in the captures artifact that maps each stored path back to the capture's own. */
export const CAPTURE_NAMES_FILE = 'capture-names.json';

export function capturesArtifactName(reportArtifact: string): string {
  return `${reportArtifact}${CAPTURES_SUFFIX}`;
}

export function isCapturesArtifact(name: string): boolean {
  return name.endsWith(CAPTURES_SUFFIX);
}

/**
 * A path the service accepts: each refused character (and `%`, so the mapping can be undone)
 * becomes %XX. Paths that need no change stay as they are.
 */
export function storablePath(relativePath: string): string {
  return relativePath
    .split('/')
    .map((part) => part.replace(REFUSED_IN_PATH, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`))
    .join('/');
}
