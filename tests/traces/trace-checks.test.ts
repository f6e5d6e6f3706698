import { describe, expect, test } from 'vitest'
import { caseSpansOf } from '../../src/traces/span.ts'
import { assertCheck, expectCheck, transcriptOf } from '../evaluators/helpers.ts'
import { spanOf } from './spans.ts'

const spans = caseSpansOf([
  spanOf('ai.generateText', {}, { durationMs: 120 }),
  spanOf('ai.generateText.doGenerate', {}, { durationMs: 40 }),
  spanOf('ai.toolCall', {}, { durationMs: 30, status: 'error', error: 'no order X' }),
  spanOf('ai.generateText.doGenerate', {}, { durationMs: 45 }),
])
const traced = transcriptOf({ spans })

describe('trace checks', () => {
  test('span_count counts all spans, or those named like a glob, against min and max', async () => {
    expect(await expectCheck('span_count', { min: 4, max: 4 }, traced)).toMatchObject({
      pass: true,
      reason: '4 spans, within 4..4',
    })
    expect(await expectCheck('span_count', { name: '*.doGenerate', max: 1 }, traced)).toMatchObject({
      pass: false,
      reason: '2 spans named `*.doGenerate`, more than 1',
    })
    expect(await assertCheck({ kind: 'span_count', name: 'ai.toolCall', min: 2 }, traced)).toMatchObject({
      pass: false,
      reason: '1 span named `ai.toolCall`, fewer than 2',
    })
  })

  test('error_spans_lte names the first error span and its message', async () => {
    expect(await expectCheck('error_spans_lte', 0, traced)).toMatchObject({
      pass: false,
      reason: '1 of 4 spans ended with an error, more than 0: `ai.toolCall` (no order X)',
    })
    expect(
      await assertCheck({ kind: 'error_spans_lte', value: 0, name: '*.doGenerate' }, traced),
    ).toMatchObject({
      pass: true,
    })
  })

  test('span_duration_lte names the slowest span', async () => {
    expect(await expectCheck('span_duration_lte', 100, traced)).toMatchObject({
      pass: false,
      reason: 'the slowest span, `ai.generateText`, took 120 ms, over the limit of 100 ms',
    })
    expect(
      await assertCheck({ kind: 'span_duration_lte', value: 50, name: '*.doGenerate' }, traced),
    ).toMatchObject({
      pass: true,
    })
  })

  test('a trace check on a case whose spans were not captured errors with how to turn capture on', async () => {
    await expect(expectCheck('span_count', { min: 1 }, transcriptOf())).rejects.toThrow(
      "`span_count` needs the case's spans, and none were captured: turn on trace capture with `trace: true` in the case file (or `--trace`).",
    )
  })

  test('checks over spans claim nothing of spans that never came, or were left out beyond the bound', async () => {
    await expect(expectCheck('error_spans_lte', 0, transcriptOf({ spans: caseSpansOf([]) }))).rejects.toThrow(
      'the target sent no spans',
    )
    const many = caseSpansOf(
      Array.from({ length: 7 }, () => spanOf('step')),
      5,
    )
    expect(many).toMatchObject({ total: 7, omitted: 2 })
    expect(await expectCheck('span_count', { min: 7 }, transcriptOf({ spans: many }))).toMatchObject({
      pass: true,
    })
    await expect(
      expectCheck('span_count', { name: 'step', min: 7 }, transcriptOf({ spans: many })),
    ).rejects.toThrow('2 beyond the first 5 were not kept')
  })
})
