import { defineJudgeSpec } from './spec.ts'

export const closedQa = defineJudgeSpec({
  name: 'closed-qa',
  description: 'Does the output answer the question (the case input) in the way the `criterion` demands?',
  argument: 'criterion',
  prompt: `Decide whether the assistant's reply answers the question and meets the criterion.

<question>
{{input}}
</question>

{{#if toolCalls}}
<tool_calls>
{{toolCalls}}
</tool_calls>

{{/if}}
<reply>
{{output}}
</reply>

<criterion>
{{criterion}}
</criterion>

Choose:
- yes: the reply answers the question and meets the criterion
- no: it does not answer the question, or it fails the criterion`,
  choices: { yes: 10, no: 0 },
})
