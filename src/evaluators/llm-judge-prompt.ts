import { renderString } from '../util/template.ts'
import { ConfigError } from '../errors.ts'
import type { ToolCallRecord, Transcript } from '../types.ts'
import type { JudgeSpec } from './judges/spec.ts'

/** What one case gives its judge, after its vars are rendered into it. */
export interface ItemValues {
  /** the rubric, criteria or criterion */
  argument?: string
  reference?: string
  /** a list of passages is joined with blank lines */
  context?: string
}

/**
 * The variables a judge prompt sees; absent values stay absent so `{{#if reference}}` works. Tool calls the target
 * did not report are absent too: a prompt that shows them asks `{{#if toolCalls}}` first.
 */
export function promptVars(
  transcript: Pick<Transcript, 'input' | 'output' | 'toolCalls'>,
  values: ItemValues,
  spec: Pick<JudgeSpec, 'argument'>,
  vars: Record<string, unknown>,
  steps?: readonly string[],
): Record<string, unknown> {
  return {
    input:
      typeof transcript.input === 'string'
        ? transcript.input
        : transcript.input.map((turn) => `${turn.role}: ${turn.content}`).join('\n\n'),
    output: transcript.output,
    ...(transcript.toolCalls === null ? {} : { toolCalls: toolCallLines(transcript.toolCalls) }),
    vars,
    ...(spec.argument === undefined || values.argument === undefined
      ? {}
      : { [spec.argument]: values.argument }),
    ...(values.reference === undefined ? {} : { reference: values.reference }),
    ...(values.context === undefined ? {} : { context: values.context }),
    ...(steps === undefined ? {} : { steps: steps.map((step, index) => `${index + 1}. ${step}`).join('\n') }),
  }
}

function toolCallLines(toolCalls: readonly ToolCallRecord[]): string {
  return toolCalls
    .map((call) => {
      const result =
        call.error === undefined
          ? (JSON.stringify(call.result) as string | undefined)
          : `error: ${call.error}`
      return `${call.name}(${JSON.stringify(call.args)})${result === undefined ? '' : ` → ${result}`}`
    })
    .join('\n')
}

/** Renders a spec's prompt (strict: a missing variable is a ConfigError naming the spec). */
export function judgePrompt(
  spec: Pick<JudgeSpec, 'name' | 'system' | 'prompt'>,
  vars: Record<string, unknown>,
  template = spec.prompt,
): { system: string; user: string } {
  const rendered = renderString(template, vars)
  if (!rendered.ok) throw new ConfigError(`Judge spec \`${spec.name}\`: ${rendered.error}`)
  return { system: spec.system, user: rendered.value }
}
