import type { TargetSpec } from '../cases/suite.ts'
import { agentTarget } from './agent.ts'
import { commandTarget } from './command.ts'
import { functionTarget } from './function.ts'
import { httpTarget } from './http.ts'
import type { Target } from './target.ts'

export interface CreateTargetOptions {
  /** the suite's model after `--model`; agent factories get it */
  model?: string
  /** prefixes errors, e.g. `cases/support.yaml: target` @default 'target' */
  label?: string
}

/** Builds the Target a case file's spec names. Throws a ConfigError naming the file and what it exports instead. */
export async function createTarget(spec: TargetSpec, options: CreateTargetOptions = {}): Promise<Target> {
  const label = options.label ?? 'target'
  switch (spec.type) {
    case 'agent':
      return agentTarget({
        file: spec.module,
        baseDir: '/',
        label: `${label}.agent`,
        ...(options.model === undefined ? {} : { model: options.model }),
      })
    case 'function':
      return functionTarget({
        ref: `${spec.module}#${spec.exportName}`,
        baseDir: '/',
        label: `${label}.function`,
      })
    case 'http':
      return httpTarget(spec)
    case 'command':
      return commandTarget(spec)
  }
}
