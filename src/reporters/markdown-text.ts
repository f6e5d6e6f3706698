import { truncate, visibleControls } from './text.ts'

const MARKDOWN_SPECIAL = /[\\`*_[\]()<>|~&$#!]/g
const MENTION = /(@[\w-]+)/
/** what GFM turns into a link by itself: the `:` of `scheme://` and the first `.` of `www.`, escaped, are not */
const AUTOLINK = /(?<=[A-Za-z])(:)(?=\/\/)|(?<=\bwww)(\.)/gi

/**
 * One line of Markdown that shows `text` as it is and does nothing else: no links (bare URLs included), images, HTML, emphasis,
 * table breaks or math; `@mentions` go in code spans so they notify nobody; control characters are made visible
 * and newlines become spaces.
 */
export function inlineMarkdown(text: string, max: number): string {
  const flat = truncate(visibleControls(text).replace(/\s*[\r\n]+\s*/g, ' '), max)
  return flat
    .split(MENTION)
    .map((part, i) =>
      i % 2 === 1 ? `\`${part}\`` : part.replace(MARKDOWN_SPECIAL, '\\$&').replace(AUTOLINK, '\\$&'),
    )
    .join('')
}

/** Builds Markdown line by line and stops taking lines once `maxBytes` (UTF-8) would be passed. */
export class BoundedMarkdown {
  readonly #lines: string[] = []
  #bytes = 0

  readonly #maxBytes: number

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes
  }

  /** false when the line did not fit; nothing is added then */
  add(line: string): boolean {
    const bytes = Buffer.byteLength(line) + 1
    if (this.#bytes + bytes > this.#maxBytes) return false
    this.#lines.push(line)
    this.#bytes += bytes
    return true
  }

  get bytes(): number {
    return this.#bytes
  }

  toString(): string {
    return this.#lines.map((line) => `${line}\n`).join('')
  }
}
