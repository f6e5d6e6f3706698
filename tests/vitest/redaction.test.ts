import { expect, test } from 'vitest'
import '../../src/vitest/index.ts'
import { failureOf, transcriptOf } from './helpers.ts'

// a GitHub token's shape (secretlint's rule), built here so no scanner flags this file
const token = `ghp_leakedAbcdefgh0123${'x1Y2'.repeat(4)}zz`
const leaky = transcriptOf({
  output: `Your key is ${token}`,
  calls: [['send', { header: 'Authorization: Bearer leaked-bearer-value' }]],
})

test('a failure message and its diff never show a secret', async () => {
  const failure = await failureOf(() => {
    expect(leaky).toCallTool('send', { header: 'nothing' })
  })
  const shown = JSON.stringify(failure)
  expect(shown).not.toContain('leaked-bearer-value')
  expect(shown).toContain('[redacted]')
  const output = await failureOf(() => {
    expect(leaky).toContainOutput('refunded')
  })
  expect(output.message).not.toContain('leakedAbcdefgh0123')
  expect(output.message).toContain('Your key is [redacted]')
})
