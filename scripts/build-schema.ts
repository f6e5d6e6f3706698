/** Writes schema/cases.schema.json and schema/report.schema.json from their zod schemas: `npm run schema:build`. */
import { writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { format, resolveConfig } from 'prettier'
import { caseFileJsonSchema } from '../src/cases/schema.ts'
import { reportJsonSchema } from '../src/report-file/schema.ts'

for (const [name, schema] of [
  ['cases', caseFileJsonSchema()],
  ['report', reportJsonSchema()],
] as const) {
  const target = fileURLToPath(new URL(`../schema/${name}.schema.json`, import.meta.url))
  const options = await resolveConfig(target)
  await writeFile(target, await format(JSON.stringify(schema), { ...options, filepath: target }))
  process.stdout.write(`wrote ${target}\n`)
}
