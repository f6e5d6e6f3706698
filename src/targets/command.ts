import { spawn } from 'node:child_process'
import { TimeoutError } from '../errors.ts'
import type { Transcript } from '../types.ts'
import { recordingEnv } from '../replay/http/open-layers.ts'
import type { Target } from './target.ts'
import { toTranscript } from './to-transcript.ts'

/** A shell command under test. */
export interface CommandTargetOptions {
  /**
   * Run with `sh -c`. Stdout is the output; a JSON object with an `output` string may also carry `toolCalls`.
   * `{{input}}` in the command is replaced by the input as one safely quoted argument.
   */
  command: string
  /** `argument` appends the input as the last argument when the command has no `{{input}}` @default 'stdin' */
  input?: 'stdin' | 'argument'
  /** working directory (the case file's) */
  cwd: string
  /** kill the command after this long @default none (the runner's per-case timeout still applies) */
  timeoutMs?: number
}

/** Runs a command per case. A non-zero exit, a signal or a timeout errors the case; the process group is killed on abort. */
export function commandTarget(options: CommandTargetOptions): Target {
  const placeholder = /\{\{\s*input\s*\}\}/g
  const inline = placeholder.test(options.command)
  const viaArgument = inline || options.input === 'argument'
  const script = inline
    ? options.command.replace(placeholder, '"$EVALS_INPUT"')
    : `${options.command}${viaArgument ? ' "$EVALS_INPUT"' : ''}`
  return {
    id: `command:${options.command}`,
    async run(input, context): Promise<Transcript> {
      const text = typeof input === 'string' ? input : JSON.stringify(input)
      const started = performance.now()
      const stdout = await runCommand(script, {
        cwd: options.cwd,
        env: {
          ...process.env,
          EVALS_INPUT: text,
          EVALS_CASE_ID: context.caseId,
          EVALS_TRIAL: String(context.trial),
          // the model SDKs' base URLs through the run's recording proxy (`--record`, `--replay`)
          ...recordingEnv(),
          ...(context.trace && {
            TRACEPARENT: context.trace.traceparent,
            OTEL_EXPORTER_OTLP_ENDPOINT: context.trace.endpoint,
            OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: context.trace.tracesUrl,
            OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
          }),
        },
        stdin: viaArgument ? '' : text,
        signal: context.signal,
        timeoutMs: options.timeoutMs,
        label: options.command,
      })
      const output = stdout.replace(/\r?\n$/, '')
      return toTranscript(parseStructured(output) ?? output, input, performance.now() - started) as Transcript
    },
  }
}

function parseStructured(output: string): unknown {
  if (!output.startsWith('{')) return undefined
  try {
    const value = JSON.parse(output) as unknown
    return typeof (value as { output?: unknown }).output === 'string' ? value : undefined
  } catch {
    return undefined
  }
}

interface RunCommandOptions {
  cwd: string
  env: NodeJS.ProcessEnv
  stdin: string
  signal: AbortSignal
  timeoutMs: number | undefined
  label: string
}

function runCommand(script: string, options: RunCommandOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', script], { cwd: options.cwd, env: options.env, detached: true })
    const stdout: Buffer[] = []
    let stderr = ''
    let killedFor: Error | undefined
    const kill = (reason: Error): void => {
      killedFor ??= reason
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL')
      } catch {
        // already gone
      }
    }
    const onAbort = (): void => {
      kill(new Error(`\`${options.label}\` was aborted`))
    }
    options.signal.addEventListener('abort', onAbort, { once: true })
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            kill(
              new TimeoutError(
                `\`${options.label}\` took longer than ${options.timeoutMs}ms`,
                options.timeoutMs ?? 0,
              ),
            )
          }, options.timeoutMs)
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000)
    })
    child.stdin.on('error', () => undefined)
    child.stdin.end(options.stdin)
    child.on('error', (error) => {
      cleanup()
      reject(new Error(`\`${options.label}\` could not start: ${error.message}`, { cause: error }))
    })
    child.on('close', (code, signal) => {
      cleanup()
      if (killedFor) reject(killedFor)
      else if (code === 0) resolve(Buffer.concat(stdout).toString())
      else {
        const how = code === null ? `was killed by ${signal ?? 'a signal'}` : `exited with code ${code}`
        reject(
          new Error(
            `\`${options.label}\` ${how}${stderr ? `: ${stderr.trim().split('\n').slice(-3).join(' | ')}` : ''}`,
          ),
        )
      }
    })
    function cleanup(): void {
      if (timer) clearTimeout(timer)
      options.signal.removeEventListener('abort', onAbort)
    }
  })
}
