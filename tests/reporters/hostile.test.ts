import { readFileSync } from 'node:fs'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { openReport } from '../../src/report-file/read.ts'
import { writeJsonReport } from '../../src/report-file/write-json.ts'
import { htmlRenderer } from '../../src/reporters/html/html.ts'
import { PAGE_STRING_CHARS } from '../../src/reporters/html/page-data.ts'
import { junitRenderer } from '../../src/reporters/junit.ts'
import { MARKDOWN_MAX_BYTES, markdownRenderer } from '../../src/reporters/markdown.ts'
import type { CaseResult } from '../../src/model/case-result.ts'
import { createRedactor, loadSecretShapes } from '../../src/util/redact.ts'
import { launchChromium, NO_CHROMIUM } from './browser.ts'
import { syntheticTranscript, writeRun } from './synthetic.ts'
import { junitSchemaErrors, named, NO_XMLLINT } from './tools.ts'

const SECRET_ENV = 'env-secret-value-1234'
// an Anthropic key's shape (secretlint's rule: 93 characters after the prefix, ending AA), built so no scanner flags
// this file
const ANTHROPIC_KEY = `sk-ant-api03-${'abcdefghij'.repeat(9)}klmAA`

/** Model output that tries to break out of every format. */
const PAYLOADS: Record<string, string> = {
  script: '<script>window.__pwned = "script"</script>',
  'script in JSON': '</script><script>window.__pwned = "breakout"</script><!-- <script>',
  'img onerror': '<img src=x onerror="window.__pwned = \'img\'">',
  'javascript link': '<a href="javascript:window.__pwned=1">click</a>',
  markdown: '[click](javascript:alert(1)) ![x](https://evil.example/x.png) @octocat **bold** | cell | $x$',
  ansi: '\u001b[31mred\u001b[0m \u001b]8;;https://evil.example\u0007link\u001b]8;;\u0007',
  nul: 'before\u0000after',
  'lone surrogates': 'high \ud800 low \udc00 end',
  cdata: 'a ]]> b ]]> c <![CDATA[ d',
  secrets: `key ${ANTHROPIC_KEY} and ${SECRET_ENV}`,
  '5 MB': 'A'.repeat(5 * 1024 * 1024),
}

function hostileCase(name: string, payload: string, i: number): CaseResult {
  const transcript = {
    ...syntheticTranscript(i, payload),
    toolCalls: [
      {
        id: 'c1',
        name: 'lookup',
        args: { q: payload.slice(0, 200) },
        result: payload.slice(0, 200),
        durationMs: 1,
      },
    ],
  }
  return {
    suite: 'hostile',
    caseId: `${String(i).padStart(2, '0')} ${name} ${payload.slice(0, 60)}`,
    trial: 0,
    tags: ['<b>tag</b>'],
    weight: 1,
    durationMs: 5,
    status: 'failed',
    score: 0,
    verdicts: [{ evaluator: 'contains', weight: 1, pass: false, reason: `saw ${payload.slice(0, 300)}` }],
    transcript,
  }
}

const dir = mkdtempSync(join(tmpdir(), 'evals-hostile-'))
const read = (file: string): string => readFileSync(join(dir, file), 'utf8')
const env = { OPENAI_API_KEY: SECRET_ENV }

beforeAll(async () => {
  const results = Object.entries(PAYLOADS).map(([name, payload], i) => hostileCase(name, payload, i))
  // what a run redacts with: the environment's keys and secretlint's shapes
  const redactor = createRedactor({ env, shapes: await loadSecretShapes() })
  const json = await writeJsonReport(writeRun(dir, results, ['hostile']), { redactor, cwd: dir })
  for (const renderer of [junitRenderer, htmlRenderer, markdownRenderer]) {
    await renderer.render(await openReport(json, { env }), join(dir, renderer.fileName))
  }
}, 60_000)

describe('hostile model output', () => {
  test('survives intact in report.json, secrets aside', async () => {
    const outputs: string[] = []
    for await (const result of (await openReport(join(dir, 'report.json'))).cases()) {
      if (result.status === 'failed') outputs.push(result.transcript.output)
    }
    const expected = Object.values(PAYLOADS).map((payload) =>
      payload.replace(ANTHROPIC_KEY, '[redacted]').replace(SECRET_ENV, '[redacted OPENAI_API_KEY]'),
    )
    expect(outputs).toEqual(expected)
  })

  test('never reaches any report file as a secret', () => {
    for (const file of ['report.json', 'report.junit.xml', 'report.html', 'report.md']) {
      expect(read(file)).not.toContain('abcdefghijklmnop')
      expect(read(file)).not.toContain(SECRET_ENV)
    }
  })

  test.skipIf(NO_XMLLINT !== undefined)(
    named('keeps report.junit.xml valid, with control characters shown as escapes', NO_XMLLINT),
    () => {
      expect(junitSchemaErrors(join(dir, 'report.junit.xml'))).toBe('')
      const xml = read('report.junit.xml')
      expect(xml).toContain('\\u001b[31mred\\u001b[0m')
      expect(xml).toContain('before\\u0000after')
      expect(xml).toContain('high \\ud800 low \\udc00 end')
      expect(xml).toContain('a ]]]]><![CDATA[> b ]]]]><![CDATA[> c')
    },
  )

  test('is inert text in report.md: no HTML, links, images, mentions or control characters, under the cap', () => {
    const markdown = read('report.md')
    expect(Buffer.byteLength(markdown)).toBeLessThan(MARKDOWN_MAX_BYTES)
    expect(markdown).not.toMatch(/(^|[^\\])<(script|img|a)\b/)
    expect(markdown).not.toMatch(/\]\(javascript:/)
    expect(markdown).not.toMatch(/(^|[^`])@octocat/)
    expect(markdown).toContain('`@octocat`')
    // eslint-disable-next-line no-control-regex -- asserting there are none
    expect(markdown).not.toMatch(/[\u0000-\u0008\u001b]/)
    expect(markdown).toContain('\\<script\\>window.\\_\\_pwned = "script"\\</script\\>')
  })

  test('cannot leave the data element of report.html', () => {
    const html = read('report.html')
    expect(html.match(/<script/g)).toHaveLength(2)
    expect(html.match(/<\/script>/g)).toHaveLength(2)
    expect(html).not.toContain('<!--')
  })
})

describe.skipIf(NO_CHROMIUM !== undefined)(named('hostile model output in Chromium', NO_CHROMIUM), () => {
  let browser: Awaited<ReturnType<typeof launchChromium>>
  beforeAll(async () => {
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser.close()
  })

  test('runs no script, makes no request, and shows every payload as text', async () => {
    const page = await browser.newPage()
    const requests: string[] = []
    const dialogs: string[] = []
    page.on('request', (request) => requests.push(request.url()))
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message())
      void dialog.dismiss()
    })
    const url = pathToFileURL(join(dir, 'report.html')).href
    await page.goto(url)
    await page.waitForSelector('body[data-ready="1"]')
    const names = Object.keys(PAYLOADS)
    for (const [i, name] of names.entries()) {
      const label = `${String(i).padStart(2, '0')} ${name}`
      await page.locator('#search').fill(label)
      await page.locator('#rows .row', { hasText: label }).click()
      await page.locator('#detail h2', { hasText: label }).waitFor()
      const output = await page.locator('#detail pre').nth(1).textContent()
      const payload = (PAYLOADS[name] as string)
        .replace(ANTHROPIC_KEY, '[redacted]')
        .replace(SECRET_ENV, '[redacted OPENAI_API_KEY]')
      if (payload.length > PAGE_STRING_CHARS)
        expect(output?.startsWith('A'.repeat(PAGE_STRING_CHARS))).toBe(true)
      else expect(output).toBe(payload)
    }
    expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined()
    expect(dialogs).toEqual([])
    expect(requests).toEqual([url])
    await page.close()
  })
})
