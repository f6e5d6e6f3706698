import { defineJudgeSpec } from './spec.ts'

export const relevance = defineJudgeSpec({
  name: 'relevance',
  description: 'Does the output address the request rather than something else?',
  prompt: `Decide whether the assistant's reply addresses the user's request.

<request>
{{input}}
</request>

<reply>
{{output}}
</reply>

Judge relevance only, not correctness. Choose:
- relevant: everything in the reply serves the request
- partially_relevant: the reply addresses the request but wanders into unrelated material
- irrelevant: the reply does not address the request`,
  choices: { relevant: 10, partially_relevant: 5, irrelevant: 0 },
})
