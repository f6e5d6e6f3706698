import type { Observer } from './observer.ts'

type HookEvent<Hook extends keyof Observer> = Parameters<NonNullable<Observer[Hook]>>[0]

/**
 * Calls one hook on every observer; a hook that throws or rejects is ignored so it cannot break the run. With
 * `awaited`, returns a promise that settles once every hook's promise has settled (undefined when none returned one).
 */
export function notify<Hook extends keyof Observer>(
  observers: readonly Observer[],
  hook: Hook,
  event: HookEvent<Hook>,
  awaited = false,
): Promise<void> | undefined {
  let pending: Promise<void>[] | undefined
  for (const observer of observers) {
    const method = observer[hook] as ((event: HookEvent<Hook>) => unknown) | undefined
    if (!method) continue
    try {
      const returned = method.call(observer, event)
      if (!(returned instanceof Promise)) continue
      const settled = returned.then(ignore, ignore)
      if (awaited) (pending ??= []).push(settled)
    } catch {
      // observers must never break a run
    }
  }
  return pending && Promise.all(pending).then(ignore)
}

function ignore(): void {}
