import { resolve } from 'node:path'
import * as core from '@actions/core'
import * as github from '@actions/github'
import { envRedactor, redactWrites, type Redactor } from '../src/util/redact.ts'
import { annotateCases, annotateError } from './annotations.ts'
import { logComment, pullRequestOf, upsertComment } from './comment.ts'
import { readInputs, type ActionInputs } from './inputs.ts'
import { decideOutcome, type Outcome } from './outcome.ts'
import { couldNotRunMarkdown, outputsOf, runEvals } from './run.ts'

/** what the action prints and posts goes through: the environment's secrets until the run has its redactor */
let redactor: Redactor = envRedactor()

/** The action: run the suites, then summary, annotations and outputs, then the PR comment, then the verdict. */
async function main(): Promise<void> {
  const workspace = process.env.GITHUB_WORKSPACE ?? process.cwd()
  let inputs: ActionInputs | undefined
  let outcome: Outcome
  let markdown: string
  try {
    inputs = readInputs()
    process.chdir(resolve(workspace, inputs.workingDirectory))
    const run = await runEvals(inputs, (runRedactor) => {
      redactor = runRedactor
    })
    annotateCases(run.report, run.suites, workspace)
    if (run.nothingRecorded !== undefined) core.warning(run.nothingRecorded)
    for (const [name, value] of Object.entries(outputsOf(run))) core.setOutput(name, value)
    outcome = decideOutcome(run.report, inputs.failOn)
    markdown = run.markdown
  } catch (error) {
    annotateError(error, workspace)
    outcome = { status: 'could-not-run', fail: true, message: `evals could not run: ${String(error)}` }
    markdown = couldNotRunMarkdown(error)
  }
  core.setOutput('status', outcome.status)
  markdown = redactor(markdown)
  if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(markdown).write()
  const pullRequest = pullRequestOf(github.context)
  if (inputs?.comment && pullRequest) {
    try {
      logComment(await upsertComment({ ...pullRequest, token: inputs.token }, markdown))
    } catch (error) {
      core.warning(`evals: PR comment not posted: ${String(error)}. The report is in the job summary.`)
    }
  }
  // the verdict comes last, so a failing run still gets its summary and comment
  if (outcome.fail) core.setFailed(outcome.message)
  else core.info(outcome.message)
}

// annotations, logs and the verdict go to stdout
redactWrites(process.stdout, () => redactor)
redactWrites(process.stderr, () => redactor)
try {
  await main()
} catch (error) {
  core.setFailed(
    `evals: the action crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  )
}
// a target abandoned after a timeout may hold the event loop open; leave a moment after the work is done
setTimeout(() => process.exit(), 1000).unref()
