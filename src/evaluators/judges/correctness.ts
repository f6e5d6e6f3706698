import { defineJudgeSpec } from './spec.ts'

export const correctness = defineJudgeSpec({
  name: 'correctness',
  description: 'Is the output factually correct when compared with the `reference` answer?',
  requires: ['reference'],
  prompt: `Compare the assistant's reply with an expert's reference answer to the same request.

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

<reference>
{{reference}}
</reference>

Ignore style, length and wording; judge only the facts. Choose:
- correct: the reply states the facts of the reference and contradicts none of them
- mostly_correct: the reply agrees with the reference but leaves out a minor detail
- partially_correct: the reply gets some key facts right but misses or garbles others
- incorrect: the reply contradicts the reference or misses its main point`,
  choices: { correct: 10, mostly_correct: 7, partially_correct: 4, incorrect: 0 },
})
