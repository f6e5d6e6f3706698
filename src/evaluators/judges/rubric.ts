import { defineJudgeSpec } from './spec.ts'

export const rubric = defineJudgeSpec({
  name: 'rubric',
  description: 'Grades the output from 0 to 10 against a custom rubric.',
  argument: 'rubric',
  prompt: `Grade the assistant's reply against the rubric.

<request>
{{input}}
</request>

{{#if toolCalls}}
<tool_calls>
{{toolCalls}}
</tool_calls>

{{/if}}
<reply>
{{output}}
</reply>

<rubric>
{{rubric}}
</rubric>

Score how well the reply (and the tool calls, if any) meets the rubric, from 0 (not at all) to 10 (fully, with
nothing missing or wrong). Choose the score as a number from 0 to 10.`,
  choices: Object.fromEntries(Array.from({ length: 11 }, (_, score) => [String(score), score])),
})
