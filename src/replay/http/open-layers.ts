import { callScopeReader, type CallScope } from '../../engine/call-scope.ts'

/** What routing needs of an open HTTP layer. */
export interface RoutedLayer {
  /** whether the (case, trial) scope belongs to this layer's run */
  owns(scope: CallScope): boolean
  /** the environment that points a command target of the case at the layer's proxy; empty without one */
  proxyEnv(scope: CallScope): Record<string, string>
}

// the layers of the runs open in this process, last opened last: interception is process-wide, so a request finds
// its run through the (case, trial) scope it was made in
const layers: RoutedLayer[] = []
let readScope: (() => CallScope | undefined) | undefined

export function addLayer(layer: RoutedLayer): void {
  layers.push(layer)
}

export function removeLayer(layer: RoutedLayer): void {
  const at = layers.indexOf(layer)
  if (at >= 0) layers.splice(at, 1)
}

/** Makes the runner enter every pair's scope from now on (it does only once something reads it). */
export function scopeEveryPair(): void {
  readScope ??= callScopeReader()
}

/** The current (case, trial) and the layer of its run (the last opened, outside any case). */
export function currentRoute(): { scope: CallScope | undefined; layer: RoutedLayer | undefined } {
  if (layers.length === 0) return { scope: undefined, layer: undefined }
  // read only once a layer is open: a scope reader makes every pair enter its scope
  scopeEveryPair()
  const scope = readScope?.()
  const layer = (scope && layers.find((open) => open.owns(scope))) ?? layers.at(-1)
  return { scope, layer }
}

/**
 * The environment a command target's process gets for the current case: the model SDKs' base URLs pointed at the
 * run's loopback proxy (`--record`, `--replay`, or pacing alone), tagged with the case. Empty when no proxy runs.
 */
export function recordingEnv(): Record<string, string> {
  const { scope, layer } = currentRoute()
  return scope && layer ? layer.proxyEnv(scope) : {}
}
