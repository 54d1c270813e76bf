/**
 * Log lines the sandbox writes can carry text a client chose (a body in a fault line, a file
 * name, a header). A line break or a terminal escape in it would forge another line, or rewrite
 * the terminal, in whatever shows the log: every control character (C0, DEL, C1) and the Unicode
 * line and paragraph separators are written as escapes, so one log call is one line.
 */

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** `line` with control characters as `\n`, `\r`, `\t` or `\xNN` / `\uNNNN`. */
export function escapeLogLine(line: string): string {
  return line.replace(CONTROL, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** Wraps a log so every line it gets is escaped. */
export function safeLog(log: (line: string) => void): (line: string) => void {
  return (line) => log(escapeLogLine(line));
}
