import type { CallScope } from '../../engine/call-scope.ts'
import type { RateLimiters } from '../../engine/rate-limit.ts'
import { isOwnModelCall, watchOwnModelCalls } from '../../providers/own-call.ts'
import type { Cassette, ReplayMissError } from '../cassette.ts'
import type { CassetteSet } from '../cassettes.ts'
import { exchange } from './exchange.ts'
import { intercept, liveFetch, type Dispatch } from './interceptor.ts'
import { isModelRequest } from './model-request.ts'
import { addLayer, currentRoute, removeLayer, scopeEveryPair, type RoutedLayer } from './open-layers.ts'
import type { RecordingProxy } from './proxy.ts'

/** What a run's HTTP layer serves. */
export interface HttpLayerOptions {
  /** the run's cassettes (`--record`, `--replay`); undefined when off */
  cassettes: CassetteSet | undefined
  /** the run's per-provider limiters; undefined when rate limiting is off */
  limiters: RateLimiters | undefined
  /** intercept `fetch` and `node:http(s)` in this process (agent and function targets) */
  inProcess: boolean
  /** start the loopback proxy for command targets (recording, replay, or pacing alone: then it passes calls through) */
  proxy: boolean
}

/**
 * The run's recording, replay and pacing under SDKs the engine does not own. In process, every model request of a
 * case (found by the async context it was made in) is answered from the case's cassette or sent live through the
 * run's limiters, and recorded; our own providers' calls are marked and pass untouched (the engine records and paces
 * them itself). A command target's process reaches the same through the loopback proxy its base URLs point at.
 */
export class HttpLayer implements RoutedLayer {
  readonly #options: HttpLayerOptions
  readonly #misses = new Map<string, ReplayMissError>()
  readonly #tokens = new Map<string, CallScope>()
  #ready: Promise<void> = Promise.resolve()
  #proxy: RecordingProxy | undefined

  private constructor(options: HttpLayerOptions) {
    this.#options = options
  }

  /** Opens the layer; undefined when there is nothing to record, replay or pace. */
  static async open(options: HttpLayerOptions): Promise<HttpLayer | undefined> {
    const { cassettes, limiters } = options
    const inProcess = options.inProcess && (cassettes !== undefined || limiters !== undefined)
    const proxy = options.proxy && (cassettes !== undefined || limiters !== undefined)
    if (!inProcess && !proxy) return undefined
    const layer = new HttpLayer(options)
    watchOwnModelCalls()
    addLayer(layer)
    try {
      // recording waits for the interceptor here; pacing alone lets the run load its targets meanwhile, and the
      // first case waits (`ready`); should it fail to load, other SDKs go unpaced as before, and the engine paces
      // its own calls regardless
      if (inProcess && cassettes !== undefined) await intercept(dispatch)
      else if (inProcess) layer.#ready = intercept(dispatch).catch(() => undefined)
      if (proxy) {
        // a case's process learns its proxy path when it starts: every pair needs its scope, from the first
        scopeEveryPair()
        const { RecordingProxy } = await import('./proxy.ts')
        layer.#proxy = await RecordingProxy.start(
          (request, token) => layer.#viaProxy(request, token),
          process.env,
        )
      }
    } catch (error) {
      await layer.close()
      throw error
    }
    return layer
  }

  owns(scope: CallScope): boolean {
    const { cassettes, limiters } = this.#options
    return (
      (scope.recorder !== undefined && cassettes?.holds(scope.recorder) === true) ||
      (limiters !== undefined && scope.limiters === limiters)
    )
  }

  proxyEnv(scope: CallScope): Record<string, string> {
    if (!this.#proxy) return {}
    const token = `c${String(this.#tokens.size + 1)}`
    this.#tokens.set(token, scope)
    return this.#proxy.envFor(token)
  }

  /** Resolves once requests are intercepted: a pair waits for it before its target runs. */
  ready(): Promise<void> {
    return this.#ready
  }

  /** The replay miss of a (case, trial), once: the case errors with it whatever the agent made of the refusal. */
  takeMiss(pair: { suite: string; caseId: string; trial: number }): ReplayMissError | undefined {
    const key = pairKey(pair)
    const miss = this.#misses.get(key)
    this.#misses.delete(key)
    return miss
  }

  exchange(request: Request, scope: CallScope | undefined, live: typeof fetch): Promise<Response> {
    const { cassettes, limiters } = this.#options
    const recorder = scope?.recorder
    return exchange(request, {
      scope,
      cassette: cassettes?.holds(recorder) === true ? (recorder as Cassette) : undefined,
      mode: cassettes?.mode,
      limiters,
      live,
      onMiss: (missed, error) => {
        this.#misses.set(pairKey(missed), error)
      },
    })
  }

  async close(): Promise<void> {
    removeLayer(this)
    await this.#proxy?.close()
    this.#proxy = undefined
  }

  #viaProxy(request: Request, token: string): Promise<Response> {
    const scope = this.#tokens.get(token)
    if (!isModelRequest(request.method, new URL(request.url))) return liveFetch()(request)
    return this.exchange(request, scope, liveFetch())
  }
}

const dispatch: Dispatch = (request, live) => {
  if (isOwnModelCall() || !isModelRequest(request.method, new URL(request.url))) return undefined
  const { scope, layer } = currentRoute()
  return layer instanceof HttpLayer ? layer.exchange(request, scope, live) : undefined
}

function pairKey(pair: { suite: string; caseId: string; trial: number }): string {
  return `${pair.suite}\u0000${pair.caseId}\u0000${String(pair.trial)}`
}
