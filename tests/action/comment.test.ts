import { describe, expect, test } from 'vitest'
import { COMMENT_MARKER, GITHUB_COMMENT_MAX_CHARS, stickyBody } from '../../action/comment.ts'

describe('stickyBody', () => {
  test('puts the marker first and leaves a short report alone', () => {
    expect(stickyBody('## evals\n\nEvery case passed.\n')).toBe(
      `${COMMENT_MARKER}\n## evals\n\nEvery case passed.\n`,
    )
  })

  test('cuts a report over GitHub’s limit at a line end, closes open details and says so', () => {
    const rows = Array.from(
      { length: 3000 },
      (_, i) => `- ❌ suite › case-${i} — **contains**: ${'x'.repeat(20)}`,
    )
    const markdown = `## evals\n\n<details><summary>All failures</summary>\n\n${rows.join('\n')}\n\n</details>\n`
    expect(markdown.length).toBeGreaterThan(GITHUB_COMMENT_MAX_CHARS)
    const body = stickyBody(markdown)
    expect(body.length).toBeLessThanOrEqual(GITHUB_COMMENT_MAX_CHARS)
    expect(body.startsWith(`${COMMENT_MARKER}\n## evals`)).toBe(true)
    expect(body).toMatch(
      /- ❌ suite › case-\d+ — \*\*contains\*\*: x{20}\n<\/details>\n\n> ✂️ This comment was cut/,
    )
    expect(body.match(/<details>/g)).toHaveLength(1)
    expect(body.match(/<\/details>/g)).toHaveLength(1)
  })

  test('honours a smaller cap', () => {
    const body = stickyBody('line\n'.repeat(500), 1000)
    expect(body.length).toBeLessThanOrEqual(1000)
    expect(body).toContain('whole report is in the job summary')
  })
})
