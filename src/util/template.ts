import { createRequire } from 'node:module'
import type HandlebarsType from 'handlebars'
import { didYouMean } from './did-you-mean.ts'
import { valueAt } from './value-at.ts'

const compiled = new Map<string, HandlebarsType.TemplateDelegate>()
let handlebars: typeof HandlebarsType | undefined

// handlebars loads on the first template, so suites without vars start faster; the one engine of every template
// (case vars, judge prompts, `http` targets), with the `json` helper: `{{json input}}`
function templateEngine(): typeof HandlebarsType {
  if (handlebars === undefined) {
    handlebars = (createRequire(import.meta.url)('handlebars') as typeof HandlebarsType).create()
    handlebars.registerHelper('json', (value: unknown) => JSON.stringify(value))
  }
  return handlebars
}

/** `template` compiled once per text, strict (a missing variable throws, never renders '') and not HTML-escaping. */
export function compileStrict(template: string): HandlebarsType.TemplateDelegate {
  let render = compiled.get(template)
  if (!render) {
    render = templateEngine().compile(template, { strict: true, noEscape: true })
    compiled.set(template, render)
  }
  return render
}
const wholeExpression = /^\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}$/

/** Rendered value, or why it could not be rendered. */
export type Rendered<T> = { ok: true; value: T } | { ok: false; error: string; path: PropertyKey[] }

/**
 * Renders every string in `value` as a strict handlebars template over `vars`: a missing variable is an error.
 * A string that is exactly `{{name}}` takes the variable's own value, so numbers and objects keep their type.
 */
export function renderDeep(
  value: unknown,
  vars: Record<string, unknown>,
  path: PropertyKey[] = [],
): Rendered<unknown> {
  if (typeof value === 'string') {
    const whole = wholeExpression.exec(value)?.[1]
    const own = whole === undefined ? undefined : valueAt(vars, whole)
    return own === undefined ? renderString(value, vars, path) : { ok: true, value: own }
  }
  if (Array.isArray(value)) {
    const items: unknown[] = []
    for (const [index, item] of value.entries()) {
      const rendered = renderDeep(item, vars, [...path, index])
      if (!rendered.ok) return rendered
      items.push(rendered.value)
    }
    return { ok: true, value: items }
  }
  if (typeof value === 'object' && value !== null) {
    const entries: [string, unknown][] = []
    for (const [key, item] of Object.entries(value)) {
      const rendered = renderDeep(item, vars, [...path, key])
      if (!rendered.ok) return rendered
      entries.push([key, rendered.value])
    }
    return { ok: true, value: Object.fromEntries(entries) }
  }
  return { ok: true, value }
}

export function renderString(
  template: string,
  vars: Record<string, unknown>,
  path: PropertyKey[] = [],
): Rendered<string> {
  if (!template.includes('{{')) return { ok: true, value: template }
  try {
    return { ok: true, value: compileStrict(template)(vars) }
  } catch (error) {
    return { ok: false, error: templateError(error, vars), path }
  }
}

function templateError(error: unknown, vars: Record<string, unknown>): string {
  const message = error instanceof Error ? error.message : String(error)
  const missing = /"([^"]+)" not defined/.exec(message)?.[1]
  if (missing === undefined) return `invalid template: ${message.split('\n')[0] ?? message}`
  const names = Object.keys(vars)
  const suggestion = didYouMean(missing, names)
  const known =
    names.length === 0 ? 'the case has no `vars`' : `vars: ${names.map((n) => `\`${n}\``).join(', ')}`
  return `missing template variable \`${missing}\`${suggestion ? `; did you mean \`${suggestion}\`?` : ''} (${known})`
}
