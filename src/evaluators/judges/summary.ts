import { defineJudgeSpec } from './spec.ts'

export const summary = defineJudgeSpec({
  name: 'summary',
  description: 'Rates the output as a summary, against the `reference` summary.',
  requires: ['reference'],
  prompt: `Rate the assistant's summary against a reference summary of the same text.

<text>
{{input}}
</text>

<summary>
{{output}}
</summary>

<reference>
{{reference}}
</reference>

A good summary keeps the key points of the reference, adds nothing the text does not say, and is concise.
Rate from 1 to 5:
- 1: misses the main point or misstates the text
- 2: keeps few key points, or adds false statements
- 3: keeps most key points, with omissions or padding
- 4: keeps the key points, with a minor omission
- 5: as good as the reference or better`,
  choices: { '1': 0, '2': 2.5, '3': 5, '4': 7.5, '5': 10 },
})
