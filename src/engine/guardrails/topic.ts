import { ConfigError } from '../../errors.ts'
import type { Guardrail, GuardrailReaction } from './guardrail.ts'

export interface TopicGuardrailOptions {
  /** keywords or phrases that must not appear (whole words, any case) */
  deny?: readonly string[]
  /** when given, at least one of these keywords or phrases must appear */
  allow?: readonly string[]
  /** `rewrite` replaces the whole text with `replacement` @default 'block' */
  action?: GuardrailReaction
  /** @default "I can only help with the topics I am here for." */
  replacement?: string
}

/** Keeps a text on topic by keywords: none of `deny`, and one of `allow` when it is given. */
export function topicGuardrail(options: TopicGuardrailOptions): Guardrail {
  if (!options.deny?.length && !options.allow?.length)
    throw new ConfigError('`topicGuardrail` needs `deny` or `allow` keywords.')
  const deny = options.deny?.map((word) => [word, wordPattern(word)] as const) ?? []
  const allow = options.allow?.map(wordPattern)
  const action = options.action ?? 'block'
  const replacement = options.replacement ?? 'I can only help with the topics I am here for.'
  const react = (reason: string) =>
    action === 'rewrite' ? { action, reason, text: replacement } : { action, reason }
  return {
    name: 'topic',
    check(text) {
      const denied = deny.find(([, pattern]) => pattern.test(text))
      if (denied) return react(`mentions \`${denied[0]}\``)
      if (allow && !allow.some((pattern) => pattern.test(text)))
        return react(`mentions none of ${options.allow?.map((word) => `\`${word}\``).join(', ') ?? ''}`)
      return { action: 'pass' }
    },
  }
}

function wordPattern(phrase: string): RegExp {
  const body = phrase
    .trim()
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/\s+/g, '\\s+')
  return new RegExp(`(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, 'iu')
}
