import { z } from 'zod'
import type { ValidateFunction } from 'ajv'
import { ConfigError } from '../errors.ts'
import type { ToolCallRecord } from '../types.ts'
import { defineEvaluator, expected } from './definition.ts'
import { reported } from './reported.ts'
import { code, codeList, plural } from './describe.ts'
import { describeError, loadSchema, validator } from './json-schema.ts'

// how the agent engine words a call it rejected before running the tool (src/tools/validate.ts, engine/tool-call.ts)
const engineRejection = /^(?:Invalid arguments for tool|Unknown tool) /

const toolSchemas = z
  .record(z.string().min(1), z.record(z.string(), z.unknown()), {
    error: expected('a map of tool name → JSON Schema'),
  })
  .describe('tool name → JSON Schema of its arguments; without it, the agent engine’s own checks count')

export const isValidToolCall = defineEvaluator({
  kind: 'is_valid_tool_call',
  description:
    'Every tool call has arguments valid against its tool’s JSON Schema: the `schemas` given (tool name → schema, inline or `{ $ref: ./file.json }`), or else the schemas the agent engine checked the calls against.',
  options: z.strictObject({ schemas: toolSchemas.optional() }),
  shorthand: z.union([z.literal(true), toolSchemas], {
    error: expected('`true` or a map of tool name → JSON Schema'),
  }),
  fromShorthand: (value) => (value === true ? {} : { schemas: value }),
  create: ({ schemas }, { baseDir }) => {
    const validators =
      schemas === undefined
        ? undefined
        : new Map(
            Object.entries(schemas).map(([tool, schema]) => [
              tool,
              compile(tool, loadSchema(schema, baseDir)),
            ]),
          )
    return {
      name: 'is_valid_tool_call',
      evaluate: (transcript) => {
        const toolCalls = reported(transcript, 'toolCalls', 'is_valid_tool_call')
        if (toolCalls.length === 0) return { pass: true, reason: 'no tool calls to check' }
        if (!validators && transcript.source !== 'engine') {
          throw new ConfigError(
            `\`is_valid_tool_call\` needs the tool schemas: this transcript comes from \`${transcript.source}\`, not the built-in agent engine (which checks every call against its tool); give them with \`schemas:\` (tool name → JSON Schema).`,
          )
        }
        const problems = toolCalls.flatMap((call, index) => {
          const problem = validators ? schemaProblem(call, validators) : engineProblem(call)
          return problem === undefined ? [] : [`call ${index + 1} ${code(call.name)}: ${problem}`]
        })
        const count = plural(toolCalls.length, 'tool call')
        return problems.length === 0
          ? { pass: true, reason: `${count} with valid arguments` }
          : {
              pass: false,
              reason: `${plural(problems.length, 'invalid tool call')} of ${toolCalls.length}: ${problems.slice(0, 3).join('; ')}`,
              details: { problems },
            }
      },
    }
  },
})

function compile(tool: string, schema: Record<string, unknown>): ValidateFunction {
  try {
    return validator().compile(schema)
  } catch (error) {
    throw new ConfigError(
      `is_valid_tool_call: the schema of ${code(tool)} is not a valid JSON Schema: ${(error as Error).message}`,
      { cause: error },
    )
  }
}

function engineProblem(call: ToolCallRecord): string | undefined {
  return call.error !== undefined && engineRejection.test(call.error)
    ? call.error.split('\n').join(' ')
    : undefined
}

function schemaProblem(
  call: ToolCallRecord,
  validators: ReadonlyMap<string, ValidateFunction>,
): string | undefined {
  const validate = validators.get(call.name)
  if (!validate) return `no schema for this tool (schemas: ${codeList([...validators.keys()])})`
  const args = parsedArgs(call.args)
  if (args === undefined) return `arguments are not valid JSON: ${String(call.args).slice(0, 60)}`
  if (validate(args.value)) return undefined
  return (validate.errors ?? []).map(describeError).slice(0, 3).join(', ')
}

/** the arguments as a value: the engine records the raw text when it was not valid JSON */
function parsedArgs(args: unknown): { value: unknown } | undefined {
  if (typeof args !== 'string') return { value: args }
  try {
    return { value: JSON.parse(args) as unknown }
  } catch {
    return undefined
  }
}
