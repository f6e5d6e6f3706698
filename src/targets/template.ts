import type { Turn } from '../types.ts'
import { compileStrict } from '../util/template.ts'

/** What `http` templates can use: the case vars, `{{input}}`, `{{json input}}`, `{{json turns}}`, `{{caseId}}`, `{{trial}}`, `{{env.NAME}}`. */
export interface TemplateData {
  [variable: string]: unknown
  /** the input text; for turns, the last user message */
  input: string
  /** the input as turns (a string input is one user turn) */
  turns: Turn[]
  caseId: string
  trial: number
  env: NodeJS.ProcessEnv
}

/** Compiles a strict, non-escaping handlebars template (a missing variable is an error, not ''). */
export function compileTemplate(source: string): (data: TemplateData) => string {
  if (!source.includes('{{')) return () => source
  // `{"q": {{json input}}}` would read as a triple-stash close; JSON does not mind the extra space
  const template = source.includes('{{{') ? source : source.replaceAll('}}}', '}} }')
  return compileStrict(template)
}

export function templateData(
  input: string | Turn[],
  context: { caseId: string; trial: number; vars?: Record<string, unknown> },
): TemplateData {
  const turns: Turn[] = typeof input === 'string' ? [{ role: 'user', content: input }] : input
  const lastUser = turns.findLast((turn) => turn.role === 'user')
  const { caseId, trial } = context
  return { ...context.vars, input: lastUser?.content ?? '', turns, caseId, trial, env: process.env }
}
