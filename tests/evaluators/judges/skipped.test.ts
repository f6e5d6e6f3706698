import { expect, test } from 'vitest'
import { judge } from './helpers.ts'

test('without a judge model, a judge is skipped (never passed) and says which setting to add', async () => {
  const result = await judge({ rubric: 'Confirms the cancellation' }, undefined)
  expect(result).toEqual({
    pass: false,
    skipped: true,
    reason:
      'judge `rubric` skipped: no judge model: set `judge.model` in the suite or pass `--judge openai:gpt-4.1-mini`',
    details: { judge: 'rubric', specHash: expect.stringMatching(/^[0-9a-f]{16}$/) as unknown },
  })
})

test('suite settings without a model also skip', async () => {
  expect(await judge({ toxicity: true }, { temperature: 0 })).toMatchObject({ skipped: true, pass: false })
})

test('a judge model string resolves through the provider registry', async () => {
  await expect(judge({ toxicity: true }, { model: 'nope:model' })).rejects.toThrow(
    /^Unknown model `nope:model`/,
  )
})
