import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { openReport, sourceOfBatches } from '../../src/report-file/read.ts'
import type { ReportCase } from '../../src/report-file/schema.ts'
import { writeJsonReport } from '../../src/report-file/write-json.ts'
import { junitRenderer } from '../../src/reporters/junit.ts'
import type { CaseResult } from '../../src/model/case-result.ts'
import { junitCases } from './junit-cases.ts'
import { syntheticResult, syntheticTranscript, writeRun } from './synthetic.ts'
import { junitSchemaErrors, named, NO_XMLLINT } from './tools.ts'

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'junit')

/** Renders report.junit.xml for `results` through report.json, as a run does; returns the run directory. */
async function renderResults(results: CaseResult[], suites = ['support']): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'evals-junit-'))
  const json = await writeJsonReport(writeRun(dir, results, suites), {
    env: {},
    cliVersion: '0.1.0',
    git: Promise.resolve({ commit: 'c0ffee', branch: 'main' }),
  })
  await junitRenderer.render(await openReport(json, { env: {} }), join(dir, 'report.junit.xml'))
  return dir
}

/** An XPath expression's value over a file, by xmllint: an independent reading of what was written. */
function xpath(file: string, expression: string): string {
  const result = spawnSync('xmllint', ['--xpath', expression, file], { encoding: 'utf8' })
  return result.stdout.trim()
}

describe.skipIf(NO_XMLLINT !== undefined)(
  named('report.junit.xml against the published schemas', NO_XMLLINT),
  () => {
    test('both schemas reject what junit-report-builder wrote before: so they can catch a bad report', () => {
      const old = join(FIXTURES, 'junit-report-builder-5.1.2.xml')
      const errors = junitSchemaErrors(old)
      // Jenkins' junit-10.xsd has no `skipped` on <testsuites> and no <properties> in a testcase
      expect(errors).toMatch(/jenkins junit-10\.xsd: .*attribute 'skipped' is not allowed/s)
      expect(errors).toMatch(/jenkins junit-10\.xsd: .*Element 'properties': This element is not expected/s)
      expect(errors).toMatch(/ant JUnit\.xsd: /)
    })

    test('is valid against both for every shape of testcase, one testsuite per suite, counts in its tag', async () => {
      const dir = await renderResults(junitCases(), ['support', 'billing'])
      const file = join(dir, 'report.junit.xml')
      expect(junitSchemaErrors(file)).toBe('')
      // support has its cases, billing none (listed, so present and empty), extra is not listed but has a case
      expect(xpath(file, '//testsuite/@name')).toBe('name="support"\n name="billing"\n name="extra"')
      const results = junitCases().filter((result) => result.suite === 'support')
      const count = (status: string): number => results.filter((result) => result.status === status).length
      expect(xpath(file, 'string(//testsuite[@name="support"]/@tests)')).toBe(String(results.length))
      expect(xpath(file, 'string(//testsuite[@name="support"]/@failures)')).toBe(String(count('failed')))
      expect(xpath(file, 'string(//testsuite[@name="support"]/@errors)')).toBe(String(count('errored')))
      expect(xpath(file, 'string(//testsuite[@name="support"]/@skipped)')).toBe(String(count('skipped')))
      expect(xpath(file, 'count(//testcase[@classname="support"])')).toBe(String(results.length))
      // what the schemas have no place for is in the suite's system-out: the partial pass, the tags of a failure
      const out = xpath(file, 'string(//testsuite[@name="support"]/system-out)')
      expect(out).toMatch(/── partly · passed · (tags [^\n]* · )?score /)
      expect(out).toContain('checks ran (skipped: rubric)')
      expect(out).toContain('tags <b>, a,b')
    })

    test('is an empty <testsuites/> for a run with no suites and no cases', async () => {
      const dir = await renderResults([], [])
      expect(readFileSync(join(dir, 'report.junit.xml'), 'utf8')).toBe(
        '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites/>\n',
      )
      expect(junitSchemaErrors(join(dir, 'report.junit.xml'))).toBe('')
    })

    test('gives a suite with variants one testsuite, not one more empty testsuite per variant', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'evals-junit-'))
      const passed = syntheticResult(20)
      const results = ['a', 'b', 'c'].map((variant): CaseResult => ({ ...passed, caseId: 'greet', variant }))
      const input = writeRun(dir, results, ['support'])
      const suites = ['a', 'b', 'c'].map((variant) => ({ ...input.suites[0]!, variant }))
      const json = await writeJsonReport({ ...input, suites }, { env: {}, cliVersion: '0.1.0' })
      await junitRenderer.render(await openReport(json, { env: {} }), join(dir, 'report.junit.xml'))
      const file = join(dir, 'report.junit.xml')
      expect(junitSchemaErrors(file)).toBe('')
      expect(xpath(file, 'count(//testsuite)')).toBe('1')
      expect(xpath(file, '//testcase/@name')).toBe('name="greet [a]"\n name="greet [b]"\n name="greet [c]"')
      expect(xpath(file, 'string(//property[@name="variants"]/@value)')).toBe('a, b, c')
    })

    test('shows a known failure (`expect_fail`) as skipped, saying so, not as a failure', async () => {
      const failed = syntheticResult(7)
      if (failed.status !== 'failed') throw new Error('synthetic case 7 should fail')
      const dir = await renderResults([{ ...failed, caseId: 'refund', expectFail: 'issue #12' }])
      const file = join(dir, 'report.junit.xml')
      expect(junitSchemaErrors(file)).toBe('')
      expect(xpath(file, 'string(//testsuite/@failures)')).toBe('0')
      expect(xpath(file, 'string(//testsuite/@skipped)')).toBe('1')
      expect(xpath(file, 'string(//testcase[@name="refund"]/skipped/@message)')).toMatch(
        /^known failure \(expect_fail: issue #12\): /,
      )
    })
  },
)

describe('report.junit.xml', () => {
  test.skipIf(NO_XMLLINT !== undefined)(
    named('stays valid against both schemas for any text in ids, reasons, errors and output', NO_XMLLINT),
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(hostileResult(), { minLength: 1, maxLength: 4 }), async (results) => {
          const unique = results.map((result, i) => ({ ...result, caseId: `${i} ${result.caseId}` }))
          const dir = await renderResults(unique)
          expect(junitSchemaErrors(join(dir, 'report.junit.xml'))).toBe('')
          expect(readdirSync(dir).sort()).toEqual(['report.json', 'report.junit.xml', 'results.jsonl'])
        }),
        { numRuns: 15 },
      )
    },
    60_000,
  )

  test('is on disk, in the scratch or the report file, before the last case is read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evals-junit-'))
    const cases = 3000
    let bytesOnDiskAtEnd = 0
    const header = (await openReport(await writeJsonReport(writeRun(dir, []), { env: {} }))).header
    const source = sourceOfBatches(join(dir, 'report.json'), header, async function* () {
      for (let i = 0; i < cases; i += 100) yield Array.from({ length: 100 }, (_, j) => longOutput(i + j))
      bytesOnDiskAtEnd = bytesIn(dir)
    })
    await junitRenderer.render(source, join(dir, 'report.junit.xml'))
    const written = statSync(join(dir, 'report.junit.xml')).size
    // each failing case's 2 KB output goes in the suite's system-out, which stops at 2 M characters
    expect(written).toBeGreaterThan(2_000_000)
    expect(readFileSync(join(dir, 'report.junit.xml'), 'utf8')).toMatch(
      /… \d+ more case runs that did not pass: see report\.json/,
    )
    // all but the last pending writes (64 K characters) were on disk while the cases were still being read
    expect(bytesOnDiskAtEnd).toBeGreaterThan(written - (1 << 18))
    expect(readdirSync(dir).sort()).toEqual(['report.json', 'report.junit.xml', 'results.jsonl'])
  })

  test('names a case whose trials two batches split as one case of three trials', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evals-junit-'))
    const trials = (i: number): CaseResult[] => [0, 1, 2].map((trial) => ({ ...syntheticResult(i), trial }))
    const json = await writeJsonReport(writeRun(dir, [...trials(1), ...trials(2), syntheticResult(3)]), {
      env: {},
    })
    const whole = await openReport(json, { env: {} })
    const cases: ReportCase[] = []
    for await (const result of whole.cases()) cases.push(result)
    expect(cases).toHaveLength(7)
    // batches of 2: case-00001's trials end in the second batch, case-00002's span the second to the fourth
    const split = sourceOfBatches(whole.path, whole.header, () =>
      [0, 2, 4, 6].map((start) => cases.slice(start, start + 2)),
    )
    await junitRenderer.render(whole, join(dir, 'whole.junit.xml'))
    await junitRenderer.render(split, join(dir, 'split.junit.xml'))
    const written = readFileSync(join(dir, 'split.junit.xml'), 'utf8')
    expect(written).toBe(readFileSync(join(dir, 'whole.junit.xml'), 'utf8'))
    for (const trial of [1, 2, 3]) expect(written).toContain(`name="case-00002 [trial ${trial}/3]"`)
    expect(written).toContain('name="case-00003"')
    rmSync(dir, { recursive: true, force: true })
  })

  test('leaves neither the report nor its scratch file behind when reading the cases fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evals-junit-'))
    const header = (await openReport(await writeJsonReport(writeRun(dir, []), { env: {} }))).header
    const source = sourceOfBatches(join(dir, 'report.json'), header, async function* () {
      for (let i = 0; i < 100; i += 10) yield Array.from({ length: 10 }, (_, j) => longOutput(i + j))
      throw new Error('report.json was cut short')
    })
    await expect(junitRenderer.render(source, join(dir, 'report.junit.xml'))).rejects.toThrow('cut short')
    expect(readdirSync(dir).sort()).toEqual(['report.json', 'results.jsonl'])
  })
})

describe('XML attribute values', () => {
  test('a value with nothing to drop or escape is kept as it is; any other is escaped as before', async () => {
    const { xmlAttribute, xmlChars } = await import('../../src/reporters/xml.ts')
    const escapes: Record<string, string> = {
      '&': '&amp;',
      '<': '&lt;',
      '"': '&quot;',
      '\t': '&#x9;',
      '\n': '&#xA;',
      '\r': '&#xD;',
    }
    const escaped = (text: string): string =>
      xmlChars(text).replace(/[&<"\t\n\r]/g, (char) => escapes[char] ?? char)
    expect(xmlAttribute('case-12 [trial 1/3] > ok')).toBe('case-12 [trial 1/3] > ok')
    expect(xmlAttribute('a & "b" <c>\td\u0001\uFFFE😀')).toBe('a &amp; &quot;b&quot; &lt;c>&#x9;d😀')
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), xmlHostileString()), (text) => {
        expect(xmlAttribute(text)).toBe(escaped(text))
      }),
      { numRuns: 2000 },
    )
  })
})

describe.skipIf(NO_XMLLINT !== undefined)(named('XML text escaping', NO_XMLLINT), () => {
  test('any string survives as an attribute and as CDATA, less the characters XML 1.0 cannot hold', async () => {
    // in CDATA a parser reads `\r\n` and `\r` as `\n` (XML's end-of-line handling); attributes keep them as references
    const { cdataSection, xmlAttribute, xmlChars } = await import('../../src/reporters/xml.ts')
    fc.assert(
      fc.property(xmlHostileString(), (text) => {
        const document = `<r><a v="${xmlAttribute(text)}"/><b>${cdataSection(text)}</b></r>`
        // canonical XML (C14N) writes back what a parser read, with a fixed escaping of its own
        const canonical = spawnSync('xmllint', ['--c14n', '-'], { input: document, encoding: 'utf8' })
        expect(canonical.stderr).toBe('')
        const kept = xmlChars(text)
        expect(canonical.stdout).toBe(
          `<r><a v="${c14nAttribute(kept)}"></a><b>${c14nText(kept.replace(/\r\n?/g, '\n'))}</b></r>`,
        )
      }),
      { numRuns: 60 },
    )
  }, 60_000)
})

/** Strings rich in what XML escaping gets wrong: markup, quotes, `]]>`, control characters, surrogates. */
function xmlHostileString(): fc.Arbitrary<string> {
  const piece = fc.oneof(
    fc.string({ unit: 'binary' }),
    fc.constantFrom(
      ']]>',
      ']]',
      ']',
      '<![CDATA[',
      '&amp;',
      '"',
      "'",
      '<',
      '>',
      '&',
      '\t',
      '\r\n',
      '\r',
      '\n',
    ),
    fc.constantFrom('\u0000', '\u001b', '\u007f', '\ud800', '\udc00', '\ufffe', '\uffff', '\u{1F600}'),
  )
  return fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''))
}

function hostileResult(): fc.Arbitrary<CaseResult> {
  return fc
    .record({
      id: xmlHostileString(),
      text: xmlHostileString(),
      kind: fc.integer({ min: 0, max: 99 }),
    })
    .map(({ id, text, kind }): CaseResult => {
      const base = syntheticResult(kind)
      if (base.status === 'skipped') return { ...base, caseId: id, reason: text, tags: [text] }
      const transcript = syntheticTranscript(kind, text)
      if (base.status === 'errored')
        return { ...base, caseId: id, transcript, error: { name: text, message: text, stack: text } }
      return {
        ...base,
        caseId: id,
        transcript,
        verdicts: base.verdicts.map((verdict) => ({ ...verdict, evaluator: text, reason: text })),
      }
    })
}

/** A failing result with ~2 KB of output, so the file's size shows where its bytes are. */
function longOutput(i: number): ReportCase {
  const result = syntheticResult(7)
  if (result.status !== 'failed') throw new Error('synthetic case 7 should fail')
  return { ...result, caseId: `case-${i}`, transcript: syntheticTranscript(i, 'x'.repeat(2000)) }
}

function bytesIn(dir: string): number {
  return readdirSync(dir)
    .filter((name) => name.includes('report.junit.xml'))
    .reduce((sum, name) => sum + statSync(join(dir, name)).size, 0)
}

function c14nAttribute(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('"', '&quot;')
    .replaceAll('\t', '&#x9;')
    .replaceAll('\n', '&#xA;')
    .replaceAll('\r', '&#xD;')
}

function c14nText(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('\r', '&#xD;')
}
