import { randomBytes } from 'node:crypto'
import { openAtomic } from '../../util/atomic-file.ts'
import type { ReportSource } from '../../report-file/read.ts'
import { suiteKey } from '../../report-file/suite-key.ts'
import type { ReportRenderer } from '../renderer.ts'
import { baselineLookup, pageCase, pageHeader, scriptSafeJson } from './page-data.ts'
import { PAGE_SCRIPT } from './page-script.ts'
import { pageShell } from './page-shell.ts'
import { PAGE_STYLE } from './page-style.ts'

/**
 * One self-contained HTML file: inline CSS and JS, the cases embedded as escaped JSON, no network requests, works
 * from file://. Cases are streamed into the file one by one.
 */
export const htmlRenderer: ReportRenderer = {
  name: 'html',
  fileName: 'report.html',
  render: renderHtml,
}

export async function renderHtml(source: ReportSource, path: string): Promise<void> {
  const nonce = randomBytes(16).toString('base64')
  const marker = `@@evals-data-${randomBytes(8).toString('hex')}@@`
  const { header } = source
  const suites = [...new Set(header.run.suites.map((suite) => suite.name))].join(', ')
  const page = pageShell({
    nonce,
    title: `evals report${suites === '' ? '' : ` · ${suites}`}`,
    style: PAGE_STYLE,
    script: PAGE_SCRIPT,
    data: marker,
  })
  const at = page.indexOf(marker)
  const out = await openAtomic(path)
  try {
    out.write(`${page.slice(0, at)}{"header":${scriptSafeJson(pageHeader(header))},"cases":[`)
    const baseline = baselineLookup(header)
    let first = true
    for await (const batch of source.batches()) {
      for (const result of batch) {
        const transition = baseline.get(suiteKey(result.suite, result.variant))?.get(result.caseId)
        out.write(`${first ? '' : ','}\n${scriptSafeJson(pageCase(result, transition))}`)
        first = false
      }
    }
    out.write(`]}${page.slice(at + marker.length)}`)
    await out.commit()
  } catch (error) {
    await out.abort()
    throw error
  }
}
