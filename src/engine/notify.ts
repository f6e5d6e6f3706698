import type { Observer } from './observer.ts'

type HookEvent<Hook extends keyof Observer> = Parameters<NonNullable<Observer[Hook]>>[0]

/** Calls one hook on every observer; a hook that throws or rejects is ignored so it cannot break the run. */
export function notify<Hook extends keyof Observer>(
  observers: readonly Observer[],
  hook: Hook,
  event: HookEvent<Hook>,
): void {
  for (const observer of observers) {
    const method = observer[hook] as ((event: HookEvent<Hook>) => unknown) | undefined
    if (!method) continue
    try {
      const returned = method.call(observer, event)
      if (returned instanceof Promise) returned.catch(ignore)
    } catch {
      // observers must never break a run
    }
  }
}

function ignore(): void {}
