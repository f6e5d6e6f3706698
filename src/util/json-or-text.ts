/** `text` parsed as JSON, or the text itself when it is not JSON (a tool's arguments, a request body). */
export function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}
