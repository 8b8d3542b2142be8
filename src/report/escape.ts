/**
 * Escaping for text that comes from profiles (kernel names, model names, log lines). Such text can
 * hold | < > ` * [ ] and newlines and must never inject markdown or HTML where it is rendered.
 */
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/**
 * Inline markdown text (also safe inside a table cell): newlines collapse, HTML is escaped, and every
 * markdown punctuation character is backslash-escaped so it renders literally.
 */
export function escapeMarkdown(text: string): string {
  // Markdown first, HTML second: the other order would backslash the '#' of the entities ('&\#39;').
  return escapeHtml(text.replace(/[\r\n]+/g, ' ').replace(/[\\`*_{}[\]()#+\-.!|~]/g, (c) => `\\${c}`));
}

/** A fenced block whose fence is longer than any backtick run inside the text. */
export function codeBlock(text: string, language = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}
