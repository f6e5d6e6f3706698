import { z } from 'zod'
import type { ToolCallRecord } from '../types.ts'
import { findMismatch } from './deep-match.ts'
import { defineEvaluator } from './definition.ts'
import { reported } from './reported.ts'
import { code, codeList, compactJson } from './describe.ts'

export const tool = defineEvaluator({
  kind: 'tool',
  description: 'The agent called this tool at least once.',
  options: z.strictObject({ value: z.string().min(1) }),
  shorthand: z.string().min(1),
  fromShorthand: (value) => ({ value }),
  create: ({ value }) => ({
    name: 'tool',
    evaluate: (transcript) => {
      const called = calledNames(reported(transcript, 'toolCalls', 'tool'))
      return called.includes(value)
        ? { pass: true, reason: `agent called ${code(value)}` }
        : {
            pass: false,
            reason: `expected tool ${code(value)}, agent called ${codeList(called, 'no tools')}`,
          }
    },
  }),
})

const toolNames = z.array(z.string().min(1))

export const tools = defineEvaluator({
  kind: 'tools',
  description: 'The agent called every one of these tools, in any order; `[]`: the agent called no tool.',
  options: z.strictObject({ value: toolNames }),
  shorthand: toolNames,
  fromShorthand: (value) => ({ value }),
  create: ({ value }) => ({
    name: 'tools',
    evaluate: (transcript) => {
      const called = calledNames(reported(transcript, 'toolCalls', 'tools'))
      if (value.length === 0)
        return called.length === 0
          ? { pass: true, reason: 'agent called no tools, as expected' }
          : { pass: false, reason: `expected no tool calls, agent called ${codeList(called)}` }
      const missing = value.filter((name) => !called.includes(name))
      return missing.length === 0
        ? { pass: true, reason: `agent called ${codeList(value)}` }
        : {
            pass: false,
            score: (value.length - missing.length) / value.length,
            reason: `expected tools ${codeList(value)}, missing ${codeList(missing)}; agent called ${codeList(called, 'no tools')}`,
          }
    },
  }),
})

const argsByTool = z.record(z.string().min(1), z.record(z.string(), z.unknown()))

export const toolArgs = defineEvaluator({
  kind: 'tool_args',
  description: 'For each tool, some call has arguments that include these (deep subset).',
  options: z.strictObject({ value: argsByTool }),
  shorthand: argsByTool,
  fromShorthand: (value) => ({ value }),
  create: ({ value }) => ({
    name: 'tool_args',
    evaluate: (transcript) => {
      const toolCalls = reported(transcript, 'toolCalls', 'tool_args')
      for (const [name, expected] of Object.entries(value)) {
        const calls = toolCalls.filter((call) => call.name === name)
        if (calls.length === 0) {
          const called = codeList(calledNames(toolCalls), 'no tools')
          return { pass: false, reason: `expected a call to ${code(name)}, agent called ${called}` }
        }
        if (calls.some((call) => findMismatch(expected, call.args) === undefined)) continue
        const closest = calls[0] as ToolCallRecord
        const mismatch = findMismatch(expected, closest.args)
        const where = mismatch?.path ? ` (${code(mismatch.path)} is ${compactJson(mismatch.actual)})` : ''
        return {
          pass: false,
          reason: `expected ${code(name)} args to include ${compactJson(expected)}, got ${compactJson(closest.args)}${where}`,
          details: { tool: name, expected, actual: calls.map((call) => call.args) },
        }
      }
      return {
        pass: true,
        reason: `arguments of ${codeList(Object.keys(value))} include the expected values`,
      }
    },
  }),
})

export function calledNames(toolCalls: readonly ToolCallRecord[]): string[] {
  return [...new Set(toolCalls.map((call) => call.name))]
}
