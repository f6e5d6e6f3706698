import { defineJudgeSpec } from './spec.ts'

export const completeness = defineJudgeSpec({
  name: 'completeness',
  description: 'Does the output address every part of the request?',
  prompt: `Check whether the assistant's reply addresses every part of the user's request.

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

{{#if reference}}
<reference>
{{reference}}
</reference>

{{/if}}
List the parts of the request (questions, tasks, constraints) and check each one. Choose:
- complete: every part is addressed
- mostly_complete: a minor part is missing
- partial: an important part is missing
- incomplete: most of the request is not addressed`,
  choices: { complete: 10, mostly_complete: 7, partial: 4, incomplete: 0 },
})
