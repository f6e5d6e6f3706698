import * as core from '@actions/core'
import * as github from '@actions/github'

/** The hidden line that finds the action's comment again on the next run. */
export const COMMENT_MARKER = '<!-- evals-action:sticky-comment -->'
/** GitHub rejects comment bodies over 65,536 characters. */
export const GITHUB_COMMENT_MAX_CHARS = 65_536

/** Where the comment goes and with what token; `number` is the pull request's. */
export interface CommentTarget {
  token: string
  owner: string
  repo: string
  number: number
}

/** The pull request of the triggering event, or undefined when the event is not about one. */
export function pullRequestOf(context: typeof github.context): Omit<CommentTarget, 'token'> | undefined {
  const number = context.payload.pull_request?.number
  if (number === undefined) return undefined
  return { ...context.repo, number }
}

/** What happened to the comment: `skipped` when the token may not write (pull requests from forks). */
export type CommentResult =
  { action: 'created' | 'updated'; id: number; url: string } | { action: 'skipped'; reason: string }

/**
 * Creates the sticky comment, or updates the one carrying COMMENT_MARKER (every page of comments is searched, so
 * there is never a second one). A 403 or 404 (a read-only token, as on pull requests from forks) returns
 * `skipped`; other errors throw.
 */
export async function upsertComment(target: CommentTarget, markdown: string): Promise<CommentResult> {
  const octokit = github.getOctokit(target.token)
  const issue = { owner: target.owner, repo: target.repo, issue_number: target.number }
  const body = stickyBody(markdown)
  try {
    let existing: number | undefined
    const pages = octokit.paginate.iterator(octokit.rest.issues.listComments, { ...issue, per_page: 100 })
    for await (const page of pages) {
      existing = page.data.find((comment) => comment.body?.includes(COMMENT_MARKER))?.id
      if (existing !== undefined) break
    }
    if (existing !== undefined) {
      const { data } = await octokit.rest.issues.updateComment({ ...issue, comment_id: existing, body })
      return { action: 'updated', id: data.id, url: data.html_url }
    }
    const { data } = await octokit.rest.issues.createComment({ ...issue, body })
    return { action: 'created', id: data.id, url: data.html_url }
  } catch (error) {
    const status = (error as { status?: unknown }).status
    if (status === 403 || status === 404) {
      return {
        action: 'skipped',
        reason: `GitHub answered ${status} (${(error as Error).message}): the token cannot write to this pull request, as on pull requests from forks`,
      }
    }
    throw error
  }
}

/** The marker, then the report cut to fit a GitHub comment with a note where it was cut. */
export function stickyBody(markdown: string, maxChars = GITHUB_COMMENT_MAX_CHARS): string {
  const text = `${COMMENT_MARKER}\n${markdown}`
  if (text.length <= maxChars) return text
  const note =
    '\n\n> ✂️ This comment was cut to fit GitHub’s size limit; the whole report is in the job summary.\n'
  let cut = text.slice(0, maxChars - note.length - '\n</details>'.repeat(8).length)
  // cut at a line end, not inside a surrogate pair or a table row
  const lineEnd = cut.lastIndexOf('\n')
  if (lineEnd > COMMENT_MARKER.length) cut = cut.slice(0, lineEnd)
  const open = (cut.match(/<details>/g) ?? []).length - (cut.match(/<\/details>/g) ?? []).length
  return `${cut}${'\n</details>'.repeat(Math.min(Math.max(open, 0), 8))}${note}`
}

/** Logs the comment's fate; a skipped comment is a notice, since the job summary still has the report. */
export function logComment(result: CommentResult): void {
  if (result.action === 'skipped') {
    core.notice(`evals: PR comment not posted: ${result.reason}. The report is in the job summary.`)
  } else core.info(`evals: PR comment ${result.action}: ${result.url}`)
}
