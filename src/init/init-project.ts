import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { baselinePath } from '../baselines/baseline.ts'
import { ConfigError, toError } from '../errors.ts'
import { DEFAULT_INIT_DIR, DEFAULT_INIT_MODEL } from './defaults.ts'
import { FRAMEWORK_MODEL, FRAMEWORKS, type Framework } from './framework-agents.ts'
import { scaffoldFiles, scaffoldScripts, SUITE, type ScaffoldSettings } from './templates.ts'

/** Options of `initProject`. */
export interface InitOptions {
  /** the project folder */
  cwd: string
  /** folder of the agent, the check and the case files, relative to `cwd` @default 'evals' */
  dir?: string
  /** the case file's `model:` @default 'local' (our agent), 'openai:gpt-4.1-mini' (another framework's) */
  model?: string
  /** what the agent is built with @default 'agent-evals' */
  framework?: Framework
}

/** What `initProject` did, path by path (relative to the project). */
export interface InitResult {
  written: string[]
  /** files left as they were, with the reason */
  skipped: { path: string; reason: string }[]
  /** files that gained a line or a key (`.gitignore`, `package.json`) */
  updated: string[]
  /** the first baseline: its path, or why it was not recorded */
  baseline: { written: string } | { skipped: string }
  /**
   * `.mts` when the project's package.json makes `.ts` files CommonJS (no `"type": "module"`): the agent and the
   * check are then ES modules by their extension, loaded as in an ES-module project rather than through tsx
   */
  extension: '.ts' | '.mts'
}

/** This package's manifest: its name and version go into the project's devDependencies and imports. */
interface OwnManifest {
  name: string
  version: string
  dependencies: Record<string, string>
  /** the framework packages at the versions this package is tested with, where it installs them itself */
  devDependencies: Record<string, string>
  /** the framework versions the adapters support */
  peerDependencies: Record<string, string>
}

/**
 * Scaffolds a project: an agent with two tools, a case file, a custom check, a GitHub workflow, a tsconfig,
 * a `.gitignore` line for `reports/`, the `evals:*` npm scripts and, on the `local` model, a first baseline from
 * a real run. Never overwrites a file: an existing one is listed in `skipped`.
 */
export async function initProject(options: InitOptions): Promise<InitResult> {
  const own = JSON.parse(
    await readFile(new URL('../../package.json', import.meta.url), 'utf8'),
  ) as OwnManifest
  const extension = (await isCommonJsPackage(options.cwd)) ? '.mts' : '.ts'
  const framework = options.framework ?? 'agent-evals'
  const model = options.model ?? (framework === 'agent-evals' ? DEFAULT_INIT_MODEL : FRAMEWORK_MODEL)
  if (framework !== 'agent-evals' && !model.startsWith('openai:')) {
    throw new ConfigError(
      `--model ${model}: the ${framework} agent evals init writes talks to OpenAI; give an OpenAI model (e.g. --model ${FRAMEWORK_MODEL}) and change the agent file afterwards for another provider.`,
    )
  }
  const settings: ScaffoldSettings = {
    dir: (options.dir ?? DEFAULT_INIT_DIR).replace(/\\/g, '/').replace(/\/+$/, ''),
    model,
    packageName: own.name,
    extension,
    framework,
  }
  const result: InitResult = { written: [], skipped: [], updated: [], baseline: { skipped: '' }, extension }
  for (const [path, content] of Object.entries(scaffoldFiles(settings))) {
    const file = join(options.cwd, path)
    await mkdir(dirname(file), { recursive: true })
    try {
      await writeFile(file, content, { flag: 'wx' })
      result.written.push(path)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      result.skipped.push({ path, reason: 'exists' })
    }
  }
  await ignoreReports(options.cwd, result)
  await addScripts(options.cwd, settings, own, result)
  result.baseline = await firstBaseline(options.cwd, settings)
  return result
}

/** The project has a package.json without `"type": "module"` (one init creates is an ES-module package). */
async function isCommonJsPackage(cwd: string): Promise<boolean> {
  const text = await readFile(join(cwd, 'package.json'), 'utf8').catch(() => undefined)
  if (text === undefined) return false
  try {
    return (JSON.parse(text) as { type?: unknown }).type !== 'module'
  } catch {
    // not valid JSON: addScripts says so; Node would not read its `type` either
    return true
  }
}

async function ignoreReports(cwd: string, result: InitResult): Promise<void> {
  const file = join(cwd, '.gitignore')
  const text = await readFile(file, 'utf8').catch(() => undefined)
  if (text?.split(/\r?\n/).some((line) => /^\/?reports\/?$/.test(line.trim())) === true) {
    result.skipped.push({ path: '.gitignore', reason: 'already ignores reports/' })
    return
  }
  const separator = text === undefined || text === '' || text.endsWith('\n') ? '' : '\n'
  await writeFile(file, `${text ?? ''}${separator}reports/\n`)
  ;(text === undefined ? result.written : result.updated).push('.gitignore')
}

/** Adds the `evals:*` scripts and the two packages the scaffold imports, keeping every key the project has. */
async function addScripts(
  cwd: string,
  settings: ScaffoldSettings,
  own: OwnManifest,
  result: InitResult,
): Promise<void> {
  const file = join(cwd, 'package.json')
  const text = await readFile(file, 'utf8').catch(() => undefined)
  let manifest: Record<string, unknown>
  try {
    manifest =
      text === undefined
        ? { name: basename(cwd), private: true, type: 'module' }
        : (JSON.parse(text) as Record<string, unknown>)
  } catch (error) {
    result.skipped.push({ path: 'package.json', reason: `not valid JSON (${toError(error).message})` })
    return
  }
  const scripts = { ...(manifest.scripts as Record<string, string> | undefined) }
  const devDependencies = { ...(manifest.devDependencies as Record<string, string> | undefined) }
  const dependencies = (manifest.dependencies ?? {}) as Record<string, string>
  let changed = text === undefined
  for (const [name, command] of Object.entries(scaffoldScripts(settings))) {
    if (scripts[name] !== undefined) continue
    scripts[name] = command
    changed = true
  }
  const frameworkPackages = FRAMEWORKS[settings.framework ?? 'agent-evals'].packages
  const wanted = {
    [own.name]: `^${own.version}`,
    zod: own.dependencies.zod ?? '*',
    ...Object.fromEntries(
      frameworkPackages.map((name) => [name, own.devDependencies[name] ?? own.peerDependencies[name] ?? '*']),
    ),
  }
  for (const [name, range] of Object.entries(wanted)) {
    if (dependencies[name] !== undefined || devDependencies[name] !== undefined) continue
    devDependencies[name] = range
    changed = true
  }
  if (!changed) {
    result.skipped.push({ path: 'package.json', reason: 'has the evals:* scripts already' })
    return
  }
  const indent = /^(\s+)"/m.exec(text ?? '')?.[1] ?? '  '
  await writeFile(file, `${JSON.stringify({ ...manifest, scripts, devDependencies }, null, indent)}\n`)
  ;(text === undefined ? result.written : result.updated).push('package.json')
}

/** Runs the new suite once on the `local` model and records it as `baselines/<suite>.json`. */
async function firstBaseline(cwd: string, settings: ScaffoldSettings): Promise<InitResult['baseline']> {
  const baseline = baselinePath('baselines', SUITE)
  if (existsSync(join(cwd, baseline))) return { skipped: `${baseline} exists` }
  if (settings.model !== 'local') {
    return { skipped: `set the API key of \`${settings.model}\`, then run \`npm run evals:baseline\`` }
  }
  try {
    const [{ loadSuite }, { runSuite }] = await Promise.all([
      import('../cases/load.ts'),
      import('../runner/run-suite.ts'),
    ])
    const suite = await loadSuite(join(cwd, settings.dir, 'cases', `${SUITE}.yaml`))
    const report = await runSuite(suite, {
      outDir: join(cwd, 'reports'),
      updateBaseline: { dir: join(cwd, 'baselines') },
    })
    const failed = report.counts.failed + report.counts.errored
    if (failed > 0) return { skipped: `${String(failed)} case(s) did not pass; see ${report.dir}` }
    return { written: baseline }
  } catch (error) {
    return {
      skipped: `the suite could not run (${toError(error).message}); run \`npm install\`, then \`npm run evals:baseline\``,
    }
  }
}
