/**
 * What a terminal acts on: C0 controls (ESC, CR, LF, TAB, BEL…), DEL, C1 controls (0x9B is a one-byte CSI), the
 * bidirectional overrides and isolates that reorder what is shown, and lone surrogates.
 */
const ACTIVE =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\0-\x1F\x7F-\x9F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' }

/**
 * Text from a target, a model or a case file made inert for one line of a terminal: every control character is
 * shown as an escape (`\n`, `\u001b`), so an output, a tool name or an error message cannot clear the screen, set
 * the window title, print an OSC 8 link, return the carriage or start a line that forges `✓ everything fine`.
 * Colour or not (NO_COLOR), the console's own styling is added around such text, never read from it.
 */
export function inert(text: string): string {
  return text.replace(
    ACTIVE,
    (char) => NAMED[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}
