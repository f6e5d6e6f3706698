/** ANSI styling that turns into plain text when colour is off. */
export interface Style {
  green: (text: string) => string
  red: (text: string) => string
  yellow: (text: string) => string
  dim: (text: string) => string
  bold: (text: string) => string
}

export function makeStyle(color: boolean): Style {
  const wrap =
    (open: number, close: number) =>
    (text: string): string =>
      color ? `\u001b[${open}m${text}\u001b[${close}m` : text
  return { green: wrap(32, 39), red: wrap(31, 39), yellow: wrap(33, 39), dim: wrap(2, 22), bold: wrap(1, 22) }
}

export function formatMs(ms: number): string {
  if (ms < 1) return `${ms.toFixed(2)}ms`
  if (ms < 1000) return `${Math.round(ms)}ms`
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)}s`
}

export function formatUsd(usd: number): string {
  if (usd === 0) return '$0'
  return `$${usd < 0.01 ? usd.toFixed(4) : usd.toFixed(2)}`
}
