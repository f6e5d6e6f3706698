/** Writes schema/cases.schema.json from the case-file zod schema: `npm run schema:build`. */
import { writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { format, resolveConfig } from 'prettier'
import { caseFileJsonSchema } from '../src/cases/schema.ts'

const target = fileURLToPath(new URL('../schema/cases.schema.json', import.meta.url))
const options = await resolveConfig(target)
await writeFile(target, await format(JSON.stringify(caseFileJsonSchema()), { ...options, filepath: target }))
process.stdout.write(`wrote ${target}\n`)
