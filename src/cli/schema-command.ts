import { caseFileJsonSchema } from '../cases/schema.ts'

/** `evals schema`: prints the case-file JSON Schema. */
export function schemaCommand(): number {
  process.stdout.write(`${JSON.stringify(caseFileJsonSchema(), null, 2)}\n`)
  return 0
}
