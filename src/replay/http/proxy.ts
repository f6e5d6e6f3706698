import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'

/**
 * The SDKs a command target may use, by the variable that sets their base URL, and where each goes when the user
 * has not set it. A target's process gets each pointed at the proxy; the proxy forwards to the user's value or the
 * default.
 */
export const PROXIED_BASE_URLS = {
  OPENAI_BASE_URL: 'https://api.openai.com/v1',
  ANTHROPIC_BASE_URL: 'https://api.anthropic.com',
  GROQ_BASE_URL: 'https://api.groq.com',
  GOOGLE_GEMINI_BASE_URL: 'https://generativelanguage.googleapis.com',
} as const

const SET_BY_CLIENT = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'])

type BaseUrlVariable = keyof typeof PROXIED_BASE_URLS

/** Answers a request forwarded to `upstream`, made by the case registered under `token`. */
export type ProxyHandler = (request: Request, token: string) => Promise<Response>

/** A loopback HTTP server that hands `/<token>/<variable>/<path>` to `handle` as a request to the upstream URL. */
export class RecordingProxy {
  readonly url: string
  readonly #server: ReturnType<typeof createServer>
  readonly #upstream: Record<BaseUrlVariable, string>

  private constructor(
    url: string,
    server: ReturnType<typeof createServer>,
    upstream: Record<BaseUrlVariable, string>,
  ) {
    this.url = url
    this.#server = server
    this.#upstream = upstream
  }

  /** Starts on an ephemeral loopback port; upstreams are read from `env` now (the user's values win). */
  static async start(handle: ProxyHandler, env: NodeJS.ProcessEnv): Promise<RecordingProxy> {
    const upstream = Object.fromEntries(
      Object.entries(PROXIED_BASE_URLS).map(([name, fallback]) => [name, env[name] || fallback]),
    ) as Record<BaseUrlVariable, string>
    const started: { proxy?: RecordingProxy } = {}
    const server = createServer((incoming, outgoing) => {
      if (started.proxy) void started.proxy.#serve(incoming, outgoing, handle)
    })
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(0, '127.0.0.1', resolve)
    })
    const { port } = server.address() as AddressInfo
    started.proxy = new RecordingProxy(`http://127.0.0.1:${String(port)}`, server, upstream)
    return started.proxy
  }

  /** the base-URL variables for a case's process, each through the proxy under the case's `token` */
  envFor(token: string): Record<string, string> {
    return Object.fromEntries(
      Object.keys(this.#upstream).map((name) => [name, `${this.url}/${token}/${name}`]),
    )
  }

  close(): Promise<void> {
    this.#server.closeAllConnections()
    return new Promise((resolve) =>
      this.#server.close(() => {
        resolve()
      }),
    )
  }

  async #serve(incoming: IncomingMessage, outgoing: ServerResponse, handle: ProxyHandler): Promise<void> {
    try {
      const [, token = '', variable = '', ...rest] = (incoming.url ?? '/').split('/')
      const base = this.#upstream[variable as BaseUrlVariable] as string | undefined
      if (base === undefined) {
        outgoing
          .writeHead(404, { 'content-type': 'text/plain' })
          .end(`Not a proxied API: ${incoming.url ?? ''}\n`)
        return
      }
      const target = new URL(base)
      const [path = '', query] = rest.join('/').split('?')
      target.pathname = `${target.pathname.replace(/\/$/, '')}/${path}`
      target.search = query === undefined ? '' : `?${query}`
      const chunks: Buffer[] = []
      for await (const chunk of incoming) chunks.push(chunk as Buffer)
      const headers = new Headers()
      for (const [name, value] of Object.entries(incoming.headers)) {
        if (value === undefined || SET_BY_CLIENT.has(name)) continue
        headers.set(name, Array.isArray(value) ? value.join(', ') : value)
      }
      const method = incoming.method ?? 'GET'
      const body =
        chunks.length > 0 && method !== 'GET' && method !== 'HEAD' ? Buffer.concat(chunks) : undefined
      const response = await handle(new Request(target, { method, headers, ...(body && { body }) }), token)
      const out: Record<string, string> = {}
      response.headers.forEach((value, name) => {
        out[name] = value
      })
      outgoing.writeHead(response.status, out)
      if (response.body) Readable.fromWeb(response.body).pipe(outgoing)
      else outgoing.end()
    } catch (error) {
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' })
      outgoing.end(
        `The recording proxy could not forward the request: ${error instanceof Error ? error.message : String(error)}\n`,
      )
    }
  }
}
