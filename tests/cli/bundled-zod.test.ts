/**
 * The published bundle carries its own zod (one chunk instead of 95 files). A user's tools are made with the user's
 * zod: the bundle's engine must read those schemas as its own — their JSON Schema (descriptions included) sent to
 * the model, their validation of the model's arguments, and the checks that walk nested objects.
 */
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { beforeAll, expect, test } from 'vitest'
import { z } from 'zod'
import type * as Library from '../../src/index.ts'
import type * as Testing from '../../src/testing/index.ts'
import { ensureBuilt, repo } from '../e2e/helpers.ts'

let library: typeof Library
let testing: typeof Testing
beforeAll(async () => {
  ensureBuilt()
  const bundle = join(repo, 'dist', 'bundle')
  library = (await import(pathToFileURL(join(bundle, 'index.js')).href)) as typeof Library
  testing = (await import(pathToFileURL(join(bundle, 'testing.js')).href)) as typeof Testing
}, 120_000)

test("the bundle's engine reads a tool schema made with the user's zod", async () => {
  const refund = library.tool({
    name: 'refund',
    description: 'Refund an order',
    parameters: z.object({
      order: z.object({ id: z.string().describe('the order id, e.g. o-3') }),
      amount: z.number().positive(),
    }),
    execute: ({ order, amount }) => `refunded ${String(amount)} for ${order.id}`,
  })
  const model = new testing.ScriptedProvider([
    { toolCalls: [{ name: 'refund', id: 'c1', args: { order: { id: 'o-3' }, amount: -5 } }] },
    { toolCalls: [{ name: 'refund', id: 'c2', args: { order: { id: 'o-3', extra: 1 }, amount: 20 } }] },
    { toolCalls: [{ name: 'refund', id: 'c3', args: { order: { id: 'o-3' }, amount: 20 } }] },
    'Done.',
  ])
  const result = await new library.Agent({ model, tools: [refund] }).run('refund 20 for order o-3')

  const sent = JSON.stringify(model.calls[0]?.tools)
  expect(sent).toContain('the order id, e.g. o-3')
  const results = result.toolCalls.map((call) => call.error ?? call.result)
  expect(results[0]).toMatch(/amount/)
  // an unknown nested key is found by walking the user's ZodObject with the bundle's `instanceof`
  expect(results[1]).toMatch(/extra/)
  expect(results[2]).toBe('refunded 20 for o-3')
  expect(result.output).toBe('Done.')
})
