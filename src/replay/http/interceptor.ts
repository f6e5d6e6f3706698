/** Answers an intercepted request, or returns undefined to let it through as it is. */
export type Dispatch = (request: Request, live: typeof fetch) => Promise<Response> | undefined

let installed: Promise<void> | undefined
// taken when this module loads, before any interception: the requests the layer sends itself go through it
const live = globalThis.fetch

/** the `fetch` the interception does not see */
export function liveFetch(): typeof fetch {
  return live
}

/**
 * Intercepts `fetch` and `node:http(s)` in this process with `@mswjs/interceptors` (the library under msw and
 * nock), so the requests of any SDK reach `dispatch`. Installed once and kept for the life of the process: an SDK
 * client keeps the `fetch` it found when it was made (the openai SDK does), so a client made during one run must
 * still be intercepted in the next; with no run open, `dispatch` lets everything through.
 */
export function intercept(dispatch: Dispatch): Promise<void> {
  installed ??= install(dispatch)
  return installed
}

async function install(dispatch: Dispatch): Promise<void> {
  const [{ BatchInterceptor }, { ClientRequestInterceptor }, { FetchInterceptor }] = await Promise.all([
    import('@mswjs/interceptors'),
    import('@mswjs/interceptors/ClientRequest'),
    import('@mswjs/interceptors/fetch'),
  ])
  const interceptor = new BatchInterceptor({
    name: 'agent-evals-http-layer',
    interceptors: [new ClientRequestInterceptor(), new FetchInterceptor()],
  })
  // the interceptor awaits a listener's promise before it lets the request through
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  interceptor.on('request', async ({ request, controller }) => {
    const answer = dispatch(request, live)
    if (!answer) return
    try {
      controller.respondWith(await answer)
    } catch (error) {
      // a network failure or an abort reaches the SDK as its own would, to be retried or reported by it
      controller.errorWith(error instanceof Error ? error : new Error(String(error)))
    }
  })
  interceptor.apply()
}
