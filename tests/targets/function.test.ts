import { resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { ConfigError } from '../../src/errors.ts'
import { functionTarget } from '../../src/targets/function.ts'
import type { TargetContext } from '../../src/targets/target.ts'

const baseDir = resolve(import.meta.dirname, 'fixtures')
const context: TargetContext = { signal: new AbortController().signal, caseId: 'greet', trial: 2 }

describe('functionTarget', () => {
  test('turns a returned string into a transcript with the input and the trial index', async () => {
    const target = await functionTarget({ ref: './functions.ts#echo', baseDir })
    const transcript = await target.run('hello', context)
    expect(target.id).toBe('function:./functions.ts#echo')
    expect(transcript.output).toBe('greet#2: hello')
    expect(transcript.messages).toEqual([
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'greet#2: hello' },
    ])
    expect(transcript.costUsd).toBeNull()
  })

  test('keeps tool calls, usage and cost from a returned transcript-like object', async () => {
    const target = await functionTarget({ ref: './functions.ts#withTools', baseDir })
    const transcript = await target.run('cats', context)
    expect(transcript.toolCalls?.map((call) => call.name)).toEqual(['search'])
    expect(transcript.usage).toEqual({
      inputTokens: 3,
      outputTokens: 1,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    })
    expect(transcript.costUsd).toBe(0.5)
  })

  test('names the file and what it exports when the export is missing', async () => {
    await expect(
      functionTarget({ ref: './functions.ts#ech', baseDir, label: 'cases/a.yaml: target.function' }),
    ).rejects.toThrow(
      'cases/a.yaml: target.function: `./functions.ts` has no function export `ech`; it exports `echo`, `notAFunction`, `returnsNumber`, `throws`, `withTools`. Did you mean `./functions.ts#echo`?',
    )
  })

  test('says which path it looked for when the module does not exist', async () => {
    const error = await functionTarget({ ref: './missing.ts#x', baseDir }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toContain('cannot find `./missing.ts`')
  })

  test('rejects a return value that is neither a string nor a transcript', async () => {
    const target = await functionTarget({ ref: './functions.ts#returnsNumber', baseDir })
    await expect(target.run('x', context)).rejects.toThrow('returned number; return a string, a Transcript')
  })

  test('lets a throwing function reject, so the runner marks the case errored', async () => {
    const target = await functionTarget({ ref: './functions.ts#throws', baseDir })
    await expect(target.run('x', context)).rejects.toThrow('boom')
  })
})
