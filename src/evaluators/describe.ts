/** Formatting helpers that keep verdict reasons short, quoted and comparable. */

export function code(name: string): string {
  return `\`${name}\``
}

export function codeList(names: readonly string[], empty = 'nothing'): string {
  return names.length === 0 ? empty : names.map(code).join(', ')
}

export function preview(text: string, max = 80): string {
  const oneLine = text.replace(/\s+/g, ' ').trim()
  return JSON.stringify(oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine)
}

export function compactJson(value: unknown, max = 80): string {
  // JSON.stringify returns undefined for undefined, functions and symbols
  const text = (JSON.stringify(value) as string | undefined) ?? typeof value
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}
