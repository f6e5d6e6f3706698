import type { ReportCase } from '../report-file/schema.ts'
import { inlineMarkdown as md } from './markdown-text.ts'
import { reasoningOf } from './reasoning.ts'

const REASONING_CHARS = 500

/** A case's reasoning per model call, collapsed, as lines nested under the case's list item; empty when none. */
export function markdownReasoning(result: ReportCase): string[] {
  const reasoning = reasoningOf('transcript' in result ? result.transcript?.trace : undefined)
  if (reasoning.length === 0) return []
  const calls = reasoning.length === 1 ? '1 model call' : `${String(reasoning.length)} model calls`
  return [
    `  <details><summary>Reasoning (${calls})</summary>`,
    '',
    ...reasoning.map((step) => `  - model call ${String(step.iteration)}: ${md(step.text, REASONING_CHARS)}`),
    '',
    '  </details>',
  ]
}
