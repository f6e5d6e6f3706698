import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'
import { serve, type ServerType } from '@hono/node-server'
import { Hono } from 'hono'
import { streamSSE } from 'hono/streaming'
import { compareRun, sharedSuites } from '../baselines/compare-run.ts'
import { readRunSummary } from '../baselines/run-summary-file.ts'
import { EvalsError } from '../errors.ts'
import { followResults } from './follow-results.ts'
import { VIEW_PAGE } from './page.ts'
import { VIEW_SCRIPT } from './page-script.ts'
import { openRegularFile, runFileOf, runFolderOf, SERVED_FILES } from './run-folder.ts'
import { listRuns } from './run-list.ts'

/** Options of `startView`. */
export interface ViewOptions {
  /** the reports folders to serve, absolute */
  roots: readonly string[]
  /** @default 0: a free port the system picks */
  port?: number
}

/** A running view server. */
export interface ViewServer {
  /** `http://127.0.0.1:<port>/` */
  url: string
  close: () => Promise<void>
}

const LOOPBACK = '127.0.0.1'
const require = createRequire(import.meta.url)

/**
 * A run's files are the run's, not the view's: whatever a run folder holds (a crafted report.html, an XML file with
 * XHTML script) runs in a sandbox with an opaque origin, so it cannot read the view's API, and may open no
 * connection at all. The report's own inline script and style still run.
 */
const RUN_FILE_POLICY: Readonly<Record<string, string>> = {
  'report.html':
    "sandbox allow-scripts; default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; " +
    "img-src data:; connect-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
}
const INERT_POLICY = "sandbox; default-src 'none'; frame-ancestors 'none'"

/**
 * The view's routes over `roots`: the page, the run list, a run's report files, the comparison of two runs and a
 * live feed of a running run. Every path a request names goes through `runFolderOf`, which refuses anything
 * outside the reports folders.
 */
export function viewApp(roots: readonly string[]): Hono {
  const app = new Hono()
  app.use(async (c, next) => {
    // a page elsewhere cannot reach the view through a DNS name that resolves to the loopback address
    const host = c.req.header('host') ?? ''
    if (!/^(127\.0\.0\.1|localhost)(:\d+)?$/.test(host))
      return c.text('evals view serves 127.0.0.1 only\n', 403)
    // nothing but the view's own pages (and the user's address bar) may ask: not another site, not a sandboxed report
    const site = c.req.header('sec-fetch-site')
    if (
      (site !== undefined && site !== 'same-origin' && site !== 'none') ||
      c.req.header('origin') === 'null'
    )
      return c.text('evals view answers its own pages only\n', 403)
    await next()
    c.header('X-Content-Type-Options', 'nosniff')
    c.header('Cross-Origin-Resource-Policy', 'same-origin')
    return undefined
  })
  app.get('/', (c) => c.html(VIEW_PAGE))
  app.get('/assets/view.js', (c) => c.body(VIEW_SCRIPT, 200, { 'Content-Type': 'text/javascript' }))
  app.get('/assets/uplot.js', async (c) =>
    c.body(await readFile(require.resolve('uplot/dist/uPlot.iife.min.js')), 200, {
      'Content-Type': 'text/javascript',
    }),
  )
  app.get('/assets/uplot.css', async (c) =>
    c.body(await readFile(require.resolve('uplot/dist/uPlot.min.css')), 200, { 'Content-Type': 'text/css' }),
  )
  app.get('/api/runs', async (c) => c.json({ roots, runs: await listRuns(roots) }))
  // streamed from the open file: ten requests for a 200 MB report.json hold a few buffers, not 2 GB
  app.get('/runs/:root/:run/:file', async (c) => {
    const { root, run, file } = c.req.param()
    const path = runFileOf(roots, root, run, file)
    const opened = path === undefined ? undefined : await openRegularFile(path)
    if (opened === undefined) return c.text('Not found\n', 404)
    const stream = opened.handle.createReadStream({ autoClose: true })
    return c.body(Readable.toWeb(stream) as ReadableStream<Uint8Array>, 200, {
      'Content-Type': SERVED_FILES[file] ?? 'application/octet-stream',
      'Content-Length': String(opened.size),
      'Content-Security-Policy': RUN_FILE_POLICY[file] ?? INERT_POLICY,
    })
  })
  app.get('/api/compare', async (c) => {
    const [current, reference] = [c.req.query('a') ?? '', c.req.query('b') ?? ''].map((id) => {
      const [root = '', run = ''] = id.split('/', 2)
      return runFileOf(roots, root, run, 'summary.json')
    })
    if (current === undefined || reference === undefined)
      return c.json({ error: 'give two runs as `a` and `b`, each `<folder>/<run-id>`' }, 400)
    try {
      const pairs = sharedSuites(
        await readRunSummary(current, 'evals view'),
        await readRunSummary(reference, 'evals view'),
      )
      const pair = pairs.find((entry) => entry.current.suite === c.req.query('suite')) ?? pairs[0]
      if (pair === undefined) return c.json({ error: 'the two runs share no suite' }, 400)
      return c.json({ suite: pair.current.suite, ...compareRun(pair.current, pair.reference) })
    } catch (error) {
      if (error instanceof EvalsError) return c.json({ error: error.message }, 400)
      throw error
    }
  })
  app.get('/api/live/:root/:run', (c) => {
    const dir = runFolderOf(roots, c.req.param('root'), c.req.param('run'))
    if (dir === undefined) return c.text('Not found\n', 404)
    return streamSSE(c, async (stream) => {
      await new Promise<void>((done) => {
        const stop = followResults(dir, async (event) => {
          if (event.kind === 'end') {
            await stream.writeSSE({ event: 'end', data: '{}' })
            done()
          } else await stream.writeSSE({ event: 'case', data: JSON.stringify(event.result) })
        })
        stream.onAbort(() => {
          stop()
          done()
        })
      })
    })
  })
  app.onError((error, c) => c.json({ error: error.message }, 500))
  return app
}

/** Serves the view on the loopback address only, on `port` or a free one. */
export async function startView(options: ViewOptions): Promise<ViewServer> {
  const app = viewApp(options.roots)
  const server = await new Promise<ServerType>((ready, fail) => {
    const started = serve({ fetch: app.fetch, hostname: LOOPBACK, port: options.port ?? 0 }, () => {
      ready(started)
    })
    started.once('error', fail)
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${LOOPBACK}:${String(port)}/`,
    close: () =>
      new Promise((closed) => {
        server.close(() => {
          closed()
        })
        if ('closeAllConnections' in server) server.closeAllConnections()
      }),
  }
}
