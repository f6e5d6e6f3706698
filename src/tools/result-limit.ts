import { ConfigError } from '../errors.ts'
import { cutEnd } from '../util/cut-end.ts'
import { formatCount } from '../util/format-count.ts'

/** Throws a ConfigError unless `limit` is absent or a positive integer. */
export function checkResultLimit(label: string, option: string, limit: unknown): void {
  if (limit === undefined || (Number.isInteger(limit) && (limit as number) > 0)) return
  throw new ConfigError(
    `${label}: \`${option}\` must be a positive whole number of characters, got ${JSON.stringify(limit)}.`,
  )
}

/** A tool result's text cut to `limit` characters, with a marker the model reads; as it is when it fits. */
export function limitResultText(
  text: string,
  limit: number | undefined,
): { text: string; truncatedFrom?: number } {
  if (limit === undefined || text.length <= limit) return { text }
  const end = cutEnd(text, limit)
  const cut = text.length - end
  const marker = `…[truncated ${formatCount(cut)} of ${formatCount(text.length)} characters]`
  return { text: `${text.slice(0, end)}${marker}`, truncatedFrom: text.length }
}
