/**
 * The support agent of cases/agents/support.ts under two prompt versions, chosen by the var `prompt` (set per
 * variant in cases/compare.yaml): `v2` ends every reply by offering more help. The offline `local` model does not
 * follow instructions, so the version is applied to the reply here; with a real model it belongs in the prompt.
 */
import type { TargetContext } from '../../src/targets/target.ts'
import type { Turn } from '../../src/types.ts'
import { createAgent } from '../agents/support.ts'

const closing = { v1: '', v2: ' Anything else I can help with?' } as const

export async function reply(input: string | Turn[], context: TargetContext): Promise<string> {
  const agent = createAgent(context.model === undefined ? {} : { model: context.model })
  const { output } = await agent.run(input, { signal: context.signal })
  return output + (context.vars?.prompt === 'v2' ? closing.v2 : closing.v1)
}
