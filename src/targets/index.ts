import type { TargetSpec } from './target.ts'
import type { Target } from './target.ts'

export interface CreateTargetOptions {
  /** the suite's model after `--model`; agent factories get it */
  model?: string
  /** prefixes errors, e.g. `cases/support.yaml: target` @default 'target' */
  label?: string
}

/**
 * Builds the Target a case file's spec names. Throws a ConfigError naming the file and what it exports instead.
 * Each kind is imported on use, so a run loads only what its targets need.
 */
export async function createTarget(spec: TargetSpec, options: CreateTargetOptions = {}): Promise<Target> {
  const label = options.label ?? 'target'
  switch (spec.type) {
    case 'agent': {
      const { agentTarget } = await import('./agent.ts')
      return agentTarget({
        file: spec.module,
        baseDir: '/',
        label: `${label}.agent`,
        ...(spec.mcp === undefined ? {} : { mcp: spec.mcp }),
        ...(options.model === undefined ? {} : { model: options.model }),
      })
    }
    case 'function': {
      const { functionTarget } = await import('./function.ts')
      return functionTarget({
        ref: `${spec.module}#${spec.exportName}`,
        baseDir: '/',
        label: `${label}.function`,
      })
    }
    case 'http': {
      const { httpTarget } = await import('./http.ts')
      return httpTarget(spec)
    }
    case 'command': {
      const { commandTarget } = await import('./command.ts')
      return commandTarget(spec)
    }
  }
}
