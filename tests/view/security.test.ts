import { request } from 'node:http'
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startView, type ViewServer } from '../../src/view/server.ts'
import { tempDir } from '../runner/helpers.ts'
import { runInto } from './runs.ts'

const SECRET = 'top-secret-content'
let server: ViewServer
let port = 0

/** A GET with the path sent byte for byte, as a hostile client would (no normalising of `..`). */
function get(path: string, host = `127.0.0.1:${String(port)}`): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => (body += chunk.toString()))
      res.on('end', () => {
        done({ status: res.statusCode ?? 0, body })
      })
    })
    req.on('error', fail)
    req.end()
  })
}

beforeAll(async () => {
  const outside = tempDir()
  writeFileSync(join(outside, 'summary.json'), SECRET)
  writeFileSync(join(outside, 'report.html'), SECRET)
  const reports = join(outside, 'reports')
  mkdirSync(reports)
  await runInto(reports, 'run-1')
  symlinkSync(outside, join(reports, 'escape'))
  server = await startView({ roots: [reports] })
  port = Number(new URL(server.url).port)
})

afterAll(async () => {
  await server.close()
})

describe('evals view', () => {
  test('listens on the loopback address and serves a run report', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
    const report = await get('/runs/0/run-1/report.html')
    expect(report.status).toBe(200)
    expect(report.body).toContain('<html')
  })

  test.each([
    '/runs/0/../summary.json',
    '/runs/0/../../summary.json',
    '/runs/0/..%2fsummary.json',
    '/runs/0/..%2F..%2Fsummary.json',
    '/runs/0/%2e%2e/summary.json',
    '/runs/0/%2E%2E/summary.json',
    '/runs/0/%252e%252e/summary.json',
    '/runs/0/%25252e%25252e/summary.json',
    '/runs/0/%2e%2e%2f%2e%2e/summary.json',
    '/runs/0/..%5csummary.json',
    '/runs/0//etc/passwd',
    '/runs/0/%2fetc%2fpasswd/summary.json',
    '/runs/0/escape/summary.json',
    '/runs/0/escape/report.html',
    '/runs/0/run-1/..%2f..%2fsummary.json',
    '/runs/0/run-1/run.json',
    '/runs/1/run-1/summary.json',
    '/runs/-1/run-1/summary.json',
    '/runs/..%2f/run-1/summary.json',
    '/api/live/0/..',
    '/api/live/0/%2e%2e',
    '/api/compare?a=0/..&b=0/run-1',
    '/api/compare?a=0/%2e%2e&b=0/run-1',
    '/api/compare?a=0/escape&b=0/run-1',
  ])('refuses %s', async (path) => {
    const response = await get(path)
    expect(response.status).toBeGreaterThanOrEqual(400)
    expect(response.body).not.toContain(SECRET)
  })

  test('refuses a request naming another host (DNS rebinding)', async () => {
    const response = await get('/api/runs', 'attacker.example:80')
    expect(response.status).toBe(403)
  })
})
