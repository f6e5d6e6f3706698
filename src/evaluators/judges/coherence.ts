import { defineJudgeSpec } from './spec.ts'

export const coherence = defineJudgeSpec({
  name: 'coherence',
  description: 'Is the output well organized, consistent and easy to follow?',
  prompt: `Rate the coherence of the assistant's reply: whether it is logically ordered, consistent with itself
and easy to follow.

<request>
{{input}}
</request>

<reply>
{{output}}
</reply>

Rate from 1 to 5:
- 1: disjointed or self-contradictory
- 2: hard to follow, with jumps or contradictions
- 3: understandable, with some awkward ordering
- 4: clear, with minor lapses
- 5: clear, well ordered and consistent throughout`,
  choices: { '1': 0, '2': 2.5, '3': 5, '4': 7.5, '5': 10 },
})
