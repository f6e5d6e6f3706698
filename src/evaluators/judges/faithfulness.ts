import { defineJudgeSpec } from './spec.ts'

export const faithfulness = defineJudgeSpec({
  name: 'faithfulness',
  description: 'Is every claim in the output supported by the given `context`?',
  requires: ['context'],
  prompt: `Check whether the assistant's reply is grounded in the context it was given.

<context>
{{context}}
</context>

<request>
{{input}}
</request>

<reply>
{{output}}
</reply>

List the claims the reply makes and check each against the context; outside knowledge does not count as
support. Choose:
- faithful: every claim is supported by the context
- mostly_faithful: one minor claim is not supported, nothing contradicts the context
- unfaithful: a key claim is unsupported by, or contradicts, the context`,
  choices: { faithful: 10, mostly_faithful: 6, unfaithful: 0 },
})
