import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'
import { CaseTimeouts, type Stoppable } from '../../src/runner/execute/case-timeouts.ts'

function pair(name: string, inMs: number, events: string[]): Stoppable {
  return {
    deadline: performance.now() + inMs,
    expire: () => events.push(`${name} expired`),
    interrupt: (reason) => events.push(`${name} interrupted: ${String(reason)}`),
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

test('each pair expires at its own deadline, the earliest first, whatever order they came in', async () => {
  const events: string[] = []
  const timeouts = CaseTimeouts.of(new AbortController().signal)
  const late = pair('late', 80, events)
  timeouts.add(late)
  timeouts.add(pair('early', 20, events))
  const done = pair('done', 40, events)
  timeouts.add(done)
  await sleep(50)
  expect(events).toEqual(['early expired', 'done expired'])
  timeouts.delete(late)
  await sleep(60)
  expect(events).toEqual(['early expired', 'done expired'])
})

test('a pair that ends before its deadline never expires', async () => {
  const events: string[] = []
  const timeouts = CaseTimeouts.of(new AbortController().signal)
  const quick = pair('quick', 20, events)
  timeouts.add(quick)
  timeouts.delete(quick)
  timeouts.add(pair('slow', 40, events))
  await sleep(60)
  expect(events).toEqual(['slow expired'])
})

test('the interrupt reaches every running pair once, through one listener', () => {
  const events: string[] = []
  const controller = new AbortController()
  const timeouts = CaseTimeouts.of(controller.signal)
  expect(CaseTimeouts.of(controller.signal)).toBe(timeouts)
  timeouts.add(pair('a', 1000, events))
  timeouts.add(pair('b', 1000, events))
  controller.abort('stop')
  controller.abort('again')
  expect(events).toEqual(['a interrupted: stop', 'b interrupted: stop'])
})

test('the timer keeps the process alive only while a pair runs', () => {
  // the built module (the global setup builds dist/): plain node loads it without tsx's loader hooks
  const module = fileURLToPath(new URL('../../dist/runner/execute/case-timeouts.js', import.meta.url))
  const run = (body: string) => {
    const started = Date.now()
    const script = `import { CaseTimeouts } from ${JSON.stringify(module)}
      const timeouts = CaseTimeouts.of(new AbortController().signal)
      const pair = (ms, name) => ({ deadline: performance.now() + ms, expire() { console.log(name, 'expired') }, interrupt() {} })
      ${body}`
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
    })
    return { ...result, ms: Date.now() - started }
  }
  // a hung pair, with nothing else to wait for, still times out
  const hung = run(`timeouts.add(pair(300, 'hung'))`)
  expect(hung.stderr).toBe('')
  expect(hung.stdout).toBe('hung expired\n')
  // a finished run exits at once, though the timer is armed for a minute on
  const finished = run(`const idle = pair(60_000, 'idle'); timeouts.add(idle); timeouts.delete(idle)`)
  expect(finished.stdout).toBe('')
  expect(finished.ms).toBeLessThan(20_000)
})
