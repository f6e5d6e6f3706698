import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { createTarget } from '../../../src/targets/index.ts'
import { describeTarget } from './target.contract.ts'
import { SLOW_MS } from './subject.ts'

const subject = join(import.meta.dirname, 'subject.ts')

/** The subject as a command: reads the input on stdin and behaves by it (see subject.ts). */
const commandSubject = [
  'let input = "";',
  'process.stdin.on("data", (chunk) => (input += chunk));',
  'process.stdin.on("end", () => {',
  '  input = input.trim();',
  '  if (input === "crash") { process.stderr.write("the subject crashed"); process.exit(1) }',
  `  setTimeout(() => process.stdout.write("answer to " + input), input === "slow" ? ${String(SLOW_MS)} : 0)`,
  '})',
].join(' ')

describeTarget('agent: our Agent', async () => ({
  target: await createTarget({ type: 'agent', module: subject }),
  reportsToolCalls: true,
}))

describeTarget('function:', async () => ({
  target: await createTarget({ type: 'function', module: subject, exportName: 'behave' }),
  reportsToolCalls: false,
}))

describeTarget('command:', async () => ({
  target: await createTarget({
    type: 'command',
    command: `node -e '${commandSubject}'`,
    input: 'stdin',
    cwd: import.meta.dirname,
  }),
  reportsToolCalls: false,
}))

describeTarget('http:', async () => {
  // the subject as a service: answers `{ "output": … }`, a 500 for `crash`, late for `slow`
  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () => {
      const { input } = JSON.parse(body) as { input: string }
      if (input === 'crash') {
        response.writeHead(500).end('the subject crashed')
        return
      }
      const answer = (): void => {
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end(JSON.stringify({ output: `answer to ${input}` }))
      }
      const timer = setTimeout(answer, input === 'slow' ? SLOW_MS : 0)
      response.on('close', () => {
        clearTimeout(timer)
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    target: await createTarget({
      type: 'http',
      url: `http://127.0.0.1:${String(port)}/`,
      method: 'POST',
      headers: {},
      body: { input: '{{input}}' },
      output: 'output',
    }),
    reportsToolCalls: false,
    close: () => {
      server.closeAllConnections()
      server.close()
    },
  }
})
