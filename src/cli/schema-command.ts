import { caseFileJsonSchema } from '../cases/schema.ts'
import { defineCommand } from './command.ts'
import { EXIT } from './exit-code.ts'
import { HELP_FLAG } from './flag-table.ts'

/** `evals schema`: prints the case-file JSON Schema. */
export const schemaCommand = defineCommand({
  name: 'evals schema',
  usage: `Usage: evals schema

Prints the JSON Schema of case files, e.g. for editor completion: \`evals schema > cases.schema.json\`.`,
  flags: { help: HELP_FLAG },
  positionals: false,
  run() {
    process.stdout.write(`${JSON.stringify(caseFileJsonSchema(), null, 2)}\n`)
    return EXIT.ok
  },
})
