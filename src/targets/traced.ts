import type { CaseTraceContext, TraceHub, TraceWait } from '../traces/trace-hub.ts'
import type { Target, TargetContext } from './target.ts'

/**
 * `target` with trace capture: each call runs in a trace of its own, and the transcript gets what the spans say
 * where the target said nothing, with the spans. `wait`, for a target in another process (http, command): how
 * long spans that come after the reply are waited for.
 */
export function tracedTarget(target: Target, hub: TraceHub, wait: TraceWait | undefined): Target {
  return {
    id: target.id,
    async run(input, context) {
      const { value, spans } = await hub.capture(
        (trace) => target.run(input, withTrace(context, trace)),
        wait,
      )
      return hub.complete(value, spans)
    },
    ...(target.close && { close: () => target.close?.() ?? Promise.resolve() }),
  }
}

/** The context with the case's trace; the runner's context keeps its live getters (`signal`), so it is not copied. */
function withTrace(context: TargetContext, trace: CaseTraceContext): TargetContext {
  return new Proxy(context, {
    get: (target, key): unknown => (key === 'trace' ? trace : (Reflect.get(target, key, target) as unknown)),
  })
}
