import { expect, test } from 'vitest'
import { resolveRun, savedSettings } from '../../src/runner/plan/resolve-run.ts'
import type { RunPlan } from '../../src/runner/plan/run-json.ts'
import { caseOf, suiteOf } from '../runner/helpers.ts'

const suite = suiteOf([caseOf('a')])

test('trace capture is off by default; `--trace` is resolved once and saved for `--resume`', () => {
  expect(resolveRun([suite], {}).traces).toEqual({ all: false })
  const traced = resolveRun([suite], { trace: true })
  expect(traced.traces.all).toBe(true)
  const saved = savedSettings(traced, '2026-01-01T00:00:00.000Z')
  expect(saved.trace).toBe(true)
  expect(savedSettings(resolveRun([suite], {}), 'x').trace).toBeUndefined()
  const plan = { version: 1, runId: 'r', suites: [], ...saved } as unknown as RunPlan
  expect(resolveRun([suite], { saved: plan }).traces.all).toBe(true)
})

test("a case file's receiver port is the run's; two different ones are refused, naming both files", () => {
  const a = suiteOf([caseOf('a')], { file: '/cases/a.yaml', traceSettings: { port: 4318 } })
  const b = suiteOf([caseOf('b')], { file: '/cases/b.yaml', traceSettings: { port: 4319 } })
  expect(resolveRun([a, suite], {}).traces).toEqual({ all: false, port: 4318 })
  expect(() => resolveRun([a, b], {})).toThrow(
    'Two OTLP receiver ports: /cases/a.yaml says `trace: { port: 4318 }` and /cases/b.yaml says 4319',
  )
})
