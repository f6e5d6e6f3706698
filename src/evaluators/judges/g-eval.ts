import { defineJudgeSpec } from './spec.ts'

export const gEval = defineJudgeSpec({
  name: 'g-eval',
  description:
    'G-Eval: the judge turns `criteria` into evaluation steps once (pinned beside the suite), then rates 1 to 5 by them.',
  argument: 'criteria',
  mode: 'g-eval',
  stepsPrompt: `You will grade replies written by an AI assistant against these criteria:

<criteria>
{{criteria}}
</criteria>

Write the evaluation steps a grader should follow to apply the criteria: 3 to 6 short, concrete steps, in
order, each one a single instruction.`,
  prompt: `Grade the assistant's reply by following the evaluation steps.

<criteria>
{{criteria}}
</criteria>

<steps>
{{steps}}
</steps>

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

Follow the steps one by one, then rate from 1 (does not meet the criteria) to 5 (fully meets them).`,
  choices: { '1': 0, '2': 2.5, '3': 5, '4': 7.5, '5': 10 },
})
