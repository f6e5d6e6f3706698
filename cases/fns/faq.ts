/** A keyword FAQ bot: the `function:` target of cases/function.yaml and the backend of cases/http/faq-server.ts. */
import type { Turn } from 'agent-evals'

const answers: [keywords: RegExp, answer: string][] = [
  [/\b(hours?|open)\b/i, 'We are open 9:00-17:00, Monday to Friday.'],
  [/\breturns?\b/i, 'You can return any item within 30 days for a full refund.'],
  [/\bship(ping)?\b/i, 'Shipping is free on orders over $50.'],
]

/** `function: ./fns/faq.ts#answer` — gets the case input (and a context with caseId, trial, signal). */
export function answer(input: string | Turn[]): string {
  const question =
    typeof input === 'string' ? input : (input.findLast((turn) => turn.role === 'user')?.content ?? '')
  const match = answers.find(([keywords]) => keywords.test(question))
  return match?.[1] ?? 'Sorry, I can only answer questions about opening hours, returns and shipping.'
}
