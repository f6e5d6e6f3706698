import { spawn, spawnSync } from 'node:child_process'
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
  ftruncateSync,
} from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startView, type ViewServer } from '../../src/view/server.ts'
import { tempDir } from '../runner/helpers.ts'
import { runInto } from './runs.ts'

const SECRET = 'top-secret-content'
let server: ViewServer
let port = 0
let reports = ''

function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, headers, timeout: 10_000 }, (res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => (body += chunk.toString()))
      res.on('end', () => {
        done({ status: res.statusCode ?? 0, body, headers: res.headers })
      })
    })
    req.on('timeout', () => req.destroy(new Error(`GET ${path} hung`)))
    req.on('error', fail)
    req.end()
  })
}

beforeAll(async () => {
  const outside = tempDir()
  writeFileSync(join(outside, 'secret.json'), JSON.stringify({ secret: SECRET }))
  reports = join(outside, 'reports')
  mkdirSync(reports)
  const run = await runInto(reports, 'run-1')
  // a crafted folder: every served file a link, out of the reports folder or within the run's own folder
  const evil = join(reports, 'evil')
  mkdirSync(evil)
  symlinkSync(join(outside, 'secret.json'), join(evil, 'summary.json'))
  symlinkSync(join(outside, 'secret.json'), join(evil, 'report.html'))
  symlinkSync('/dev/zero', join(evil, 'report.json'))
  writeFileSync(join(evil, 'run.json'), JSON.stringify({ secret: SECRET }))
  symlinkSync(join(evil, 'run.json'), join(evil, 'report.md'))
  symlinkSync(join(run, 'report.json'), join(run, 'report.junit.xml'))
  spawnSync('mkfifo', [join(evil, 'report.junit.xml')])
  server = await startView({ roots: [reports] })
  port = Number(new URL(server.url).port)
})

afterAll(async () => {
  await server.close()
})

describe('evals view keeps a run folder’s files in their place', () => {
  test.each([
    ['a link out of the reports folder', '/runs/0/evil/summary.json'],
    ['a link to the secret named report.html', '/runs/0/evil/report.html'],
    ['a link to /dev/zero', '/runs/0/evil/report.json'],
    ['a link to a file inside the run folder', '/runs/0/evil/report.md'],
    ['a link to another run’s file', '/runs/0/run-1/report.junit.xml'],
    ['a FIFO', '/runs/0/evil/report.junit.xml'],
  ])('refuses %s (%s) at once', async (_, path) => {
    const response = await get(path)
    expect(response.status).toBe(404)
    expect(response.body).not.toContain(SECRET)
  })

  test('lists the crafted folder without reading its linked summary', async () => {
    const response = await get('/api/runs')
    expect(response.status).toBe(200)
    expect(response.body).not.toContain(SECRET)
  })

  test('serves a report in a sandbox with no connections, and every other file inert', async () => {
    const html = await get('/runs/0/run-1/report.html')
    expect(html.status).toBe(200)
    const policy = String(html.headers['content-security-policy'])
    expect(policy).toMatch(/(^|; )sandbox allow-scripts(;|$)/)
    expect(policy).not.toMatch(/allow-same-origin/)
    expect(policy).toContain("connect-src 'none'")
    const json = await get('/runs/0/run-1/report.json')
    expect(json.status).toBe(200)
    expect(String(json.headers['content-security-policy'])).toMatch(/^sandbox; default-src 'none'/)
    expect(Number(json.headers['content-length'])).toBe(json.body.length)
  })

  test.each([
    ['another site', { 'sec-fetch-site': 'cross-site' }],
    ['a sandboxed page (origin null)', { origin: 'null', 'sec-fetch-site': 'same-origin' }],
    ['a sibling site', { 'sec-fetch-site': 'same-site' }],
  ])('refuses a request from %s', async (_, headers) => {
    for (const path of ['/api/runs', '/runs/0/run-1/summary.json', '/api/compare?a=0/run-1&b=0/run-1'])
      expect((await get(path, headers)).status).toBe(403)
  })
})

describe('evals view streams large files', () => {
  test('ten parallel GETs of a 200 MB report.json, read slowly, keep the server’s peak memory far below one file', async () => {
    const dir = join(tempDir(), 'reports')
    mkdirSync(join(dir, 'big'), { recursive: true })
    const size = 200 * 1024 * 1024
    // sparse: no disk is used, and the bytes read are zeros
    const fd = openSync(join(dir, 'big', 'report.json'), 'w')
    ftruncateSync(fd, size)
    closeSync(fd)
    // the built module (the global setup builds dist/): plain node loads it without tsx's loader hooks
    const script = `import { startView } from ${JSON.stringify(join(import.meta.dirname, '../../dist/view/server.js'))}
const view = await startView({ roots: [${JSON.stringify(dir)}] })
console.log(view.url)`
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    try {
      const url = await new Promise<string>((resolve) => {
        child.stdout.once('data', (chunk: Buffer) => {
          resolve(chunk.toString().trim())
        })
      })
      port = Number(new URL(url).port)
      // ten clients each take 4 MB and stop reading: a server that streams holds a few buffers per request, one that
      // reads each file whole has taken 2 GB before its first byte is sent
      const sockets: { destroy: () => void }[] = []
      const heads = await Promise.all(
        Array.from(
          { length: 10 },
          () =>
            new Promise<number>((done, fail) => {
              const req = request({ host: '127.0.0.1', port, path: '/runs/0/big/report.json' }, (res) => {
                let bytes = 0
                res.on('data', (chunk: Buffer) => {
                  bytes += chunk.length
                  if (bytes < 4 << 20) return
                  res.pause()
                  done(Number(res.headers['content-length']))
                })
              })
              sockets.push(req)
              req.on('error', fail).end()
            }),
        ),
      )
      expect(heads).toEqual(Array.from({ length: 10 }, () => size))
      await new Promise((resolve) => setTimeout(resolve, 500))
      // the peak resident set of the server process
      const status = readFileSync(`/proc/${String(child.pid)}/status`, 'utf8')
      const peakMb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]) / 1024
      for (const socket of sockets) socket.destroy()
      expect(peakMb).toBeGreaterThan(10)
      expect(peakMb).toBeLessThan(400)
    } finally {
      child.kill()
      port = Number(new URL(server.url).port)
    }
  }, 60_000)
})
