import { defineJudgeSpec } from './spec.ts'

export const pairwise = defineJudgeSpec({
  name: 'pairwise',
  description:
    'Compares the output with the `reference` answer, in both orders; passes when the output is at least as good.',
  requires: ['reference'],
  mode: 'pairwise',
  threshold: 5,
  prompt: `Two assistants answered the same request. Decide which answer is better.

<request>
{{input}}
</request>

<answer_1>
{{first}}
</answer_1>

<answer_2>
{{second}}
</answer_2>

Judge helpfulness, correctness and clarity. Do not let the order of the answers or their length sway you.
Choose:
- first: answer 1 is better
- tie: they are equally good
- second: answer 2 is better`,
  choices: { first: 10, tie: 5, second: 0 },
})
