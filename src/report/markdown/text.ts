/**
 * Text helpers for what GitHub renders from a report (job summary, PR comment, annotations).
 * Profile text is hostile by default: it is clipped first (so an entity is never cut in half),
 * then escaped, and @mentions / #refs are broken with `<wbr>` (an element, not a character: GitHub
 * links mentions and references within one text node only, and a copied name stays the name) so a
 * kernel name or a log line can never ping a user or cross-link an issue.
 */
import { escapeMarkdown } from '../escape.js';
import { showHidden } from '../inert-text.js';

/** Splits the text node without adding a character to the text. */
const BREAK = '<wbr>';

/** One line, whitespace collapsed, at most `max` UTF-16 units including the ellipsis. */
export function clip(text: string, max: number): string {
  // Whitespace first (a newline is a space here), then what is left that acts instead of showing
  // (ESC, bidi overrides, zero-width characters) as a visible escape: never removed, never added.
  const oneLine = showHidden(text.replace(/\s+/g, ' ').trim());
  if (oneLine.length <= max) return oneLine;
  let cut = oneLine.slice(0, Math.max(0, max - 1));
  // Never leave half of a surrogate pair behind.
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** GitHub turns `@name`, `#12` and `GH-12` in prose into mentions and cross-links. */
function neutralizeReferences(text: string): string {
  // Applied after escaping (so the break is markup, not text); an entity's own `&#` is left alone.
  return text
    .replace(/@(?=\\?[A-Za-z0-9_-])/g, `@${BREAK}`)
    .replace(/(?<!&)#(?=\d)/g, `#${BREAK}`)
    .replace(/\b(GH)(\\?-)(?=\d)/gi, `$1$2${BREAK}`);
}

/** Inline prose from a profile, safe in a paragraph, a list item, a table cell or a <summary>. */
export function safeText(text: string, max = 300): string {
  // `$` opens GitHub's math rendering, which escapeMarkdown does not cover.
  return neutralizeReferences(escapeMarkdown(clip(text, max))).replace(/\$/g, '&#36;');
}

/**
 * A name (kernel, model, file) as an inline code element. GitHub still parses markdown between
 * raw <code> tags, so every character that could start a markdown or HTML construct, a table
 * cell, a mention or an autolink is written as a numeric entity (shown literally, never parsed).
 */
export function safeCode(text: string, max = 160): string {
  const literal = clip(text, max)
    .replace(/[&<>"'|`*_~[\]!\\@#$]/g, (c) => `&#${c.charCodeAt(0)};`)
    // Break autolinks (scheme:// and www.) without encoding every C++ `::`.
    .replace(/:(?=\/\/)/g, '&#58;')
    .replace(/\b(www)\./gi, '$1&#46;');
  return `<code>${literal}</code>`;
}

/** Characters that could end or re-open a markdown link destination, percent-encoded. */
function encodeForLink(href: string): string {
  return href.replace(/[()[\]<>"'`*_\\| ]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** An http(s) URL made safe for a markdown link destination, or undefined when it is not one. */
export function safeUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  return encodeForLink(parsed.href);
}

/** `[label](url)` when the URL is safe; the escaped label alone otherwise. `label` is escaped here. */
export function safeLink(label: string, url: string | undefined, max = 120): string {
  const href = safeUrl(url);
  const text = safeText(label, max);
  return href ? `[${text}](${href})` : text;
}

/** Plain text for places that render no markdown (annotations): no control characters, bounded. */
export function plainText(text: string, max: number): string {
  // Line breaks kept (the message has lines), other C0 controls blanked; bidi, zero-width and C1
  // characters shown as escapes.
  const cleaned = text
    .replace(/\r\n?/g, '\n')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, ' ')
    .split('\n')
    .map(showHidden)
    .join('\n');
  if (cleaned.length <= max) return cleaned;
  let cut = cleaned.slice(0, Math.max(0, max - 1));
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** Bytes of a string as UTF-8 (the job summary limit is in bytes). */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
