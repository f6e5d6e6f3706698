import { spawn } from 'node:child_process'
import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { buildAction } from '../../action/build.ts'
import { oncePerRunAsync } from '../setup/shared-dir.ts'

export const OWNER = 'octo'
export const REPO = 'evals'
export const PR = 7

/** One request the mock GitHub API received. */
export interface ApiCall {
  method: string
  path: string
  body?: { body?: string }
}

interface StoredComment {
  id: number
  body: string
  user: { login: string }
  html_url: string
}

/**
 * A loopback stand-in for the GitHub REST API's issue-comment endpoints, with Link-header pagination. It records
 * every call; `forbidWrites` answers POST and PATCH with the 403 a fork's read-only token gets.
 */
export class MockGitHub {
  readonly calls: ApiCall[] = []
  readonly comments: StoredComment[] = []
  forbidWrites = false
  #nextId = 1000
  #server: Server
  url = ''

  private constructor(server: Server) {
    this.#server = server
  }

  static async start(): Promise<MockGitHub> {
    const server = createServer()
    const mock = new MockGitHub(server)
    server.on('request', (request, response) => {
      void mock.#handle(request, response)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    mock.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    return mock
  }

  /** Seeds a comment, e.g. other people's, to fill pages. */
  addComment(body: string, login = 'someone'): StoredComment {
    const id = this.#nextId++
    const comment = {
      id,
      body,
      user: { login },
      html_url: `https://github.test/${OWNER}/${REPO}/pull/${PR}#c${id}`,
    }
    this.comments.push(comment)
    return comment
  }

  writes(): ApiCall[] {
    return this.calls.filter((call) => call.method !== 'GET')
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.#server.close(() => {
        resolve()
      })
    })
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let text = ''
    for await (const chunk of request) text += String(chunk)
    const url = new URL(request.url ?? '/', this.url)
    const method = request.method ?? 'GET'
    this.calls.push({
      method,
      path: url.pathname + url.search,
      ...(text && { body: JSON.parse(text) as { body?: string } }),
    })
    const send = (status: number, data: unknown, headers: Record<string, string> = {}): void => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers })
      response.end(JSON.stringify(data))
    }
    const issueComments = `/repos/${OWNER}/${REPO}/issues/${PR}/comments`
    const forbidden = { message: 'Resource not accessible by integration', status: '403' }
    if (method === 'GET' && url.pathname === issueComments) {
      const perPage = Number(url.searchParams.get('per_page') ?? 30)
      const page = Number(url.searchParams.get('page') ?? 1)
      const slice = this.comments.slice((page - 1) * perPage, page * perPage)
      const more = page * perPage < this.comments.length
      const next = `<${this.url}${issueComments}?per_page=${perPage}&page=${page + 1}>; rel="next"`
      send(200, slice, more ? { link: next } : {})
      return
    }
    if (method === 'POST' && url.pathname === issueComments) {
      if (this.forbidWrites) send(403, forbidden)
      else send(201, this.addComment((JSON.parse(text) as { body: string }).body, 'github-actions[bot]'))
      return
    }
    const patch = new RegExp(`^/repos/${OWNER}/${REPO}/issues/comments/(\\d+)$`).exec(url.pathname)
    if (method === 'PATCH' && patch) {
      const comment = this.comments.find((entry) => entry.id === Number(patch[1]))
      if (this.forbidWrites) send(403, forbidden)
      else if (!comment) send(404, { message: 'Not Found' })
      else {
        comment.body = (JSON.parse(text) as { body: string }).body
        send(200, comment)
      }
      return
    }
    send(404, { message: `Not Found: ${method} ${url.pathname}` })
  }
}

/**
 * The action bundled from the current sources, once per test run for every file that runs it: the path of its
 * index.js, away from node_modules as on a runner. A copy of package.json sits where the bundle's
 * `../../package.json` lookup expects it.
 */
export function actionBundle(): Promise<string> {
  return oncePerRunAsync('action-bundle', async (dir) => {
    await copyFile(resolve(import.meta.dirname, '../../package.json'), join(dir, 'package.json'))
    await buildAction(join(dir, 'action', 'dist'))
    return join(dir, 'action', 'dist', 'index.js')
  })
}

/** What one run of the bundled action left behind. */
export interface ActionRun {
  code: number | null
  stdout: string
  stderr: string
  outputs: Record<string, string>
  summary: string
}

export interface RunActionOptions {
  /** the bundle's index.js */
  entry: string
  /** the repository checkout: working directory and GITHUB_WORKSPACE */
  workspace: string
  inputs: Record<string, string>
  /** GITHUB_API_URL */
  api?: string
  /** @default a pull_request event for PR #7 */
  event?: { name: string; payload: unknown }
  env?: Record<string, string>
}

/** Runs the bundle as the runner does: inputs as INPUT_*, the event as a JSON file, outputs and summary as files. */
export async function runAction(options: RunActionOptions): Promise<ActionRun> {
  const dir = await mkdtemp(join(tmpdir(), 'evals-action-'))
  const files = {
    event: join(dir, 'event.json'),
    output: join(dir, 'output.txt'),
    summary: join(dir, 'summary.md'),
  }
  const event = options.event ?? {
    name: 'pull_request',
    payload: {
      action: 'synchronize',
      number: PR,
      pull_request: { number: PR },
      repository: { name: REPO, owner: { login: OWNER } },
    },
  }
  await writeFile(files.event, JSON.stringify(event.payload))
  await writeFile(files.output, '')
  await writeFile(files.summary, '')
  // a clean environment: this process may itself run inside GitHub Actions
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(GITHUB_|INPUT_|RUNNER_|ACTIONS_)/.test(name)),
  )
  const env: Record<string, string | undefined> = {
    ...inherited,
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: event.name,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_REPOSITORY: `${OWNER}/${REPO}`,
    GITHUB_WORKSPACE: options.workspace,
    ...(options.api !== undefined && { GITHUB_API_URL: options.api }),
    ...Object.fromEntries(
      Object.entries({ 'github-token': 'test-token', ...options.inputs }).map(([name, value]) => [
        `INPUT_${name.toUpperCase()}`,
        value,
      ]),
    ),
    ...options.env,
  }
  const child = spawn(process.execPath, [options.entry], { cwd: options.workspace, env })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  return {
    code,
    stdout,
    stderr,
    outputs: parseOutputs(await readFile(files.output, 'utf8')),
    summary: await readFile(files.summary, 'utf8'),
  }
}

/** The GITHUB_OUTPUT file format: `name<<delimiter`, the value's lines, `delimiter`. */
function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {}
  const pattern = /^([\w-]+)<<(\S+)\n([\s\S]*?)\n\2$/gm
  for (const match of text.matchAll(pattern)) outputs[match[1]!] = match[3]!
  return outputs
}
