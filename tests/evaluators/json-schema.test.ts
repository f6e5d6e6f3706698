import { describe, expect, test } from 'vitest'
import { expectCheck, transcriptOf } from './helpers.ts'

const order = { $ref: './schemas/order.schema.json' }

describe('json_schema', () => {
  test('passes on JSON a function target wrote in a code fence, against a schema file beside the case file', async () => {
    const output = 'Here is the order:\n```json\n{"id": "o-7", "items": [{"sku": "a", "price": 3}]}\n```'
    expect(await expectCheck('json_schema', order, transcriptOf({ output }))).toEqual({
      pass: true,
      reason: 'output is valid against the JSON Schema',
    })
  })

  test('names every error by its JSON path', async () => {
    const output = JSON.stringify({ id: 'x', email: 'nope', items: [{ sku: 'a', price: '3' }], note: 1 })
    const verdict = await expectCheck('json_schema', order, transcriptOf({ output }))
    expect(verdict.pass).toBe(false)
    expect(verdict.details?.errors).toEqual([
      '$: must NOT have additional properties ("note")',
      '$.id: must match pattern "^o-\\d+$"',
      '$.email: must match format "email"',
      '$.items[0].price: must be number',
    ])
    expect(verdict.reason).toBe(
      'output is not valid against the JSON Schema (4 errors): $: must NOT have additional properties ("note"); ' +
        '$.id: must match pattern "^o-\\d+$"; $.email: must match format "email"',
    )
  })

  test('takes an inline schema and reads the structured output first', async () => {
    const schema = {
      type: 'object',
      required: ['intent'],
      properties: { intent: { enum: ['cancel', 'refund'] } },
    }
    const transcript = transcriptOf({ output: 'ignored', parsed: { intent: 'upgrade' } })
    expect(await expectCheck('json_schema', schema, transcript)).toMatchObject({
      pass: false,
      reason:
        'output is not valid against the JSON Schema (1 error): $.intent: must be equal to one of the allowed values (["cancel","refund"])',
    })
  })

  test('in prose, checks the value the schema is about, not the first bracket (a citation like [1])', async () => {
    const schema = { type: 'object', required: ['id'] }
    const output = 'See [1]: {"id": "o-7", "status": "shipped"}'
    // before, `[1]` was the JSON found, and an array is not an object
    expect(await expectCheck('json_schema', schema, transcriptOf({ output }))).toEqual({
      pass: true,
      reason: 'output is valid against the JSON Schema',
    })
    const wrong = 'See [1]: {"status": "shipped"}'
    expect(await expectCheck('json_schema', schema, transcriptOf({ output: wrong }))).toMatchObject({
      pass: false,
      reason:
        'none of the 2 JSON values in the output; the largest is not valid against the JSON Schema (1 error): ' +
        "$: must have required property 'id'",
    })
  })

  test('fails when the output holds no JSON', async () => {
    expect(await expectCheck('json_schema', { type: 'object' }, transcriptOf({ output: 'no json' }))).toEqual(
      {
        pass: false,
        reason:
          'no structured output, and the output holds no JSON value (bare, in a code fence, or in prose)',
      },
    )
  })

  test('a missing schema file or an invalid schema is a configuration error naming it', async () => {
    await expect(expectCheck('json_schema', { $ref: './schemas/none.json' }, transcriptOf())).rejects.toThrow(
      /json_schema: `\$ref: \.\/schemas\/none\.json` \(.+none\.json\) could not be read as JSON: ENOENT/,
    )
    await expect(expectCheck('json_schema', { type: 'objekt' }, transcriptOf())).rejects.toThrow(
      /^json_schema: not a valid JSON Schema: schema is invalid: data\/type must be equal to one of the allowed values/,
    )
  })
})
