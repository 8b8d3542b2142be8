/**
 * Report fields become page text and links: text is trimmed to a sane length, and only links of
 * a known shape survive (a commit SHA, OWNER/REPO, an https URL). Anything else is dropped, never
 * passed through, so a report cannot smuggle a javascript: link or a megabyte-long name.
 */

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** Display text: control characters become spaces, long text is cut with an ellipsis. */
export function clampText(text: string | undefined, max: number): string {
  if (!text) return '';
  const flat = text.replace(CONTROL, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function safeCommit(sha: string | undefined): string {
  return sha && /^[0-9a-f]{7,64}$/i.test(sha) ? sha.toLowerCase() : '';
}

export function safeRepository(repository: string | undefined): string {
  return repository && /^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/.test(repository) && !repository.includes('..') ? repository : '';
}

/** An absolute https URL without credentials, normalised; '' for anything else. */
export function safeHttpsUrl(url: string | undefined): string {
  if (!url || url.length > 2000) return '';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '';
  }
  if (parsed.protocol !== 'https:' || parsed.username || parsed.password) return '';
  return parsed.toString();
}

/** The server links point at: an https origin, https://github.com when absent or unusable. */
export function safeServerUrl(url: string | undefined): string {
  const safe = safeHttpsUrl(url);
  return safe ? new URL(safe).origin : 'https://github.com';
}
