/**
 * Imports a user's TypeScript module (an agent, a function target, a `custom:` check, a reporter) without a build
 * step, doing as little work as the Node version allows:
 *
 * - Node with type stripping (`process.features.typescript`): Node imports the file itself (tsx when the file
 *   needs more than stripping: enums, JSX, extensionless imports).
 * - Otherwise (Node 20), a file in an ES-module scope (`"type": "module"`, or `.mts`) is compiled once by esbuild,
 *   one output file per source file, into a cache in the temp directory, and later runs import the cached output
 *   natively while the sources' size and modification time are unchanged; a graph reuses the outputs another
 *   graph compiled for the files they share (see typescript-cache.ts). Its relative imports point at the
 *   other cached outputs, so two entry modules that share a file share one instance of it; package imports point
 *   at the files Node would load; `import.meta.url`, `.filename` and `.dirname` keep naming the source file.
 * - Anything else (CommonJS scope, `.cts`) loads through tsx, as it would under `tsx` itself.
 *
 * Loading through tsx registers module hooks on a worker thread that every later import in the process then
 * passes through; a cache hit loads neither tsx nor esbuild (`npm run bench:startup` measures the difference).
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { dirname, extname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { BuildFailure, OnResolveResult, Plugin } from 'esbuild'
import {
  cacheDir,
  cachedOutput,
  keyOf,
  outputOf,
  recordEntry,
  reusableImports,
  saveOutput,
  sourceStamps,
} from './typescript-cache.ts'

/** The extensions this loader handles. */
export const TYPESCRIPT_EXTENSIONS: ReadonlySet<string> = new Set(['.ts', '.mts', '.cts', '.tsx'])

/**
 * The module at absolute `path`, a TypeScript file. A syntax error in it, or in a file it imports, is thrown as
 * `file:line:column: message` whichever loader met it.
 */
export async function importTypeScript(path: string): Promise<Record<string, unknown>> {
  try {
    return await importWithFastestLoader(path)
  } catch (error) {
    throw await locateSyntaxError(error)
  }
}

async function importWithFastestLoader(path: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(path).href
  if (nativeTypeScript()) {
    try {
      return (await import(url)) as Record<string, unknown>
    } catch (error) {
      // syntax only a compiler can remove (enums, namespaces, JSX) or an extensionless import: tsx handles it
      if (!isUnsupportedByStripping(error)) throw error
      return await importWithTsx(url)
    }
  }
  if (!inModuleScope(path)) return await importWithTsx(url)
  const compiled = cachedOutput(path) ?? (await compileGraph(path))
  // no esbuild to compile with (the Action's bundle keeps it out): tsx, or the workspace's, loads the module
  if (compiled === undefined) return await importWithTsx(url)
  // stack traces name the TypeScript source, through the outputs' inline source maps (as under tsx)
  process.setSourceMapsEnabled(true)
  return (await import(pathToFileURL(compiled).href)) as Record<string, unknown>
}

async function importWithTsx(url: string): Promise<Record<string, unknown>> {
  const { tsImport } = await import('tsx/esm/api')
  return (await tsImport(url, import.meta.url)) as Record<string, unknown>
}

function nativeTypeScript(): boolean {
  return Boolean((process.features as { typescript?: unknown }).typescript)
}

function isUnsupportedByStripping(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return (
    code === 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX' ||
    code === 'ERR_UNKNOWN_FILE_EXTENSION' ||
    code === 'ERR_MODULE_NOT_FOUND' ||
    code === 'ERR_UNSUPPORTED_DIR_IMPORT'
  )
}

function inModuleScope(path: string): boolean {
  const extension = extname(path)
  if (extension === '.mts') return true
  if (extension === '.cts') return false
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest))
      return (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: unknown }).type === 'module'
    if (dirname(dir) === dir || dir.endsWith('node_modules')) return false
  }
}

/**
 * Compiles `entry` and every TypeScript file it imports that has no good output yet (another graph may have
 * compiled it), one output each; returns the entry's output, or undefined without esbuild.
 */
async function compileGraph(entry: string): Promise<string | undefined> {
  const esbuild = await import('esbuild').catch(() => undefined)
  if (!esbuild) return undefined
  const { build } = esbuild
  mkdirSync(cacheDir, { recursive: true })
  const sources = new Set([entry])
  // one build per wave, every file of it an entry point: a build of its own per file cost ~30 ms of esbuild's set-up
  // (a cold src/index.ts graph of 370 files: 12 s that way, 3 s so)
  const compile = async (wave: string[]): Promise<void> => {
    const stamps = new Map(wave.map((source) => [source, sourceStamps(source)]))
    const imports = new Map(wave.map((source) => [source, new Set<string>()]))
    const result = await build({
      entryPoints: Object.fromEntries(wave.map((source) => [keyOf(source), source])),
      outdir: cacheDir,
      outExtension: { '.js': '.mjs' },
      write: false,
      bundle: true,
      format: 'esm',
      platform: 'node',
      // the files Node would load: `main` and the `node`/`import` conditions, never a bundler-only `module` build
      mainFields: ['main'],
      conditions: ['node'],
      target: `node${process.versions.node}`,
      sourcemap: 'inline',
      logLevel: 'silent',
      // each output names its own source, on the banner's line (outside the source map, so lines still match)
      banner: { js: `const ${IMPORT_META} = ${META_PLACEHOLDER};` },
      define: {
        'import.meta.url': `${IMPORT_META}.url`,
        'import.meta.filename': `${IMPORT_META}.filename`,
        'import.meta.dirname': `${IMPORT_META}.dirname`,
      },
      plugins: [
        pointImportsOutside((importer, source) => {
          imports.get(importer)?.add(source)
          sources.add(source)
        }),
      ],
    }).catch((error: unknown) => {
      throw new Error(describeFailure(error), { cause: error })
    })
    const sourceOf = new Map(wave.map((source) => [outputOf(source), source]))
    for (const output of result.outputFiles) {
      const source = sourceOf.get(output.path)
      const stamp = source === undefined ? undefined : stamps.get(source)
      if (source === undefined || stamp === undefined) continue
      const meta = { url: pathToFileURL(source).href, filename: source, dirname: dirname(source) }
      const text = output.text.replace(META_PLACEHOLDER, JSON.stringify(meta))
      saveOutput(source, text, stamp, imports.get(source) ?? [])
    }
  }
  // in waves: the files each wave imports are the next
  const seen = new Set<string>()
  while (seen.size < sources.size) {
    const wave = [...sources].filter((source) => !seen.has(source))
    for (const source of wave) seen.add(source)
    const stale = wave.filter((source) => {
      const imports = reusableImports(source)
      for (const file of imports ?? []) sources.add(file)
      return imports === undefined
    })
    if (stale.length > 0) await compile(stale)
  }
  recordEntry(entry, sources)
  return outputOf(entry)
}

/** what `import.meta.url`, `.filename` and `.dirname` become in an output: a constant its first line declares */
const IMPORT_META = '__agentEvalsImportMeta'
const META_PLACEHOLDER = '__agentEvalsImportMetaOfThisFile__'

const RESOLVING = Symbol('resolving')

/**
 * Keeps each file its own module: an import of another of the user's TypeScript files points at that file's
 * output (and is reported to `imported`, to be compiled in the next wave); any other import points at the file Node
 * would load for it.
 */
function pointImportsOutside(imported: (importer: string, source: string) => void): Plugin {
  const point = (importer: string, path: string): OnResolveResult => {
    if (!TYPESCRIPT_EXTENSIONS.has(extname(path)) || /[\\/]node_modules[\\/]/.test(path))
      return { path: pathToFileURL(path).href, external: true }
    imported(importer, path)
    return { path: `./${keyOf(path)}.mjs`, external: true }
  }
  return {
    name: 'agent-evals-imports',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind === 'entry-point' || args.pluginData === RESOLVING) return undefined
        if (args.path.startsWith('node:')) return { path: args.path, external: true }
        // a relative import of a file that exists is that file: no round trip to esbuild's resolver (most imports)
        const file = /^\.\.?\//.test(args.path)
          ? existingFile(resolve(args.resolveDir, args.path))
          : undefined
        if (file !== undefined) return point(args.importer, file)
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: RESOLVING,
        })
        if (resolved.errors.length > 0) return { errors: resolved.errors }
        if (resolved.external) return { path: resolved.path, external: true }
        return point(args.importer, resolved.path)
      })
    },
  }
}

/** the real path of the file at `path` (symlinks followed, as esbuild's resolver does); undefined if none */
function existingFile(path: string): string | undefined {
  return statSync(path, { throwIfNoEntry: false })?.isFile() ? realpathSync(path) : undefined
}

/** esbuild's errors as `file:line:column: message` lines (1-based, as editors count) */
function describeFailure(error: unknown): string {
  const { errors } = error as Partial<BuildFailure>
  if (!Array.isArray(errors)) return error instanceof Error ? error.message : String(error)
  return errors
    .map(({ location, text }) =>
      // esbuild names files relative to its working directory, the process's
      location ? `${resolve(location.file)}:${location.line}:${location.column + 1}: ${text}` : text,
    )
    .join('\n')
}

/**
 * A syntax error as `file:line:column: message` (the first line, as error summaries show it); other errors as they
 * are. tsx prints esbuild's `Transform failed with 1 error:` first; Node's type stripping names the file and line
 * only in the stack, so esbuild reads that file again for the column and a message that says what it expected.
 */
async function locateSyntaxError(error: unknown): Promise<unknown> {
  if (!(error instanceof Error)) return error
  const transform = /^Transform failed with \d+ errors?:\n([\s\S]+)$/.exec(error.message)?.[1]
  if (transform !== undefined) {
    // esbuild's text counts columns from 0; editors, and describeFailure, from 1
    const located = transform.replace(
      /^(.+):(\d+):(\d+): ERROR: /gm,
      (_, file: string, line: string, column: string) => `${file}:${line}:${String(Number(column) + 1)}: `,
    )
    return new Error(located, { cause: error })
  }
  if (error.name !== 'SyntaxError') return error
  // an ES module's stack starts `file:///…/agent.ts:3`, a CommonJS one's `/…/agent.ts:3`
  const [, where, line] = /^((?:file:\/\/)?\/\S+?):(\d+)\n/.exec(error.stack ?? '') ?? []
  if (where === undefined || line === undefined) return error
  const file = where.startsWith('file:') ? fileURLToPath(where) : where
  return new Error((await diagnose(file)) ?? `${file}:${line}: ${error.message}`, { cause: error })
}

/** esbuild's first complaint about `file`, located; undefined when it finds none or is not installed. */
async function diagnose(file: string): Promise<string | undefined> {
  const esbuild = await import('esbuild').catch(() => undefined)
  if (!esbuild) return undefined
  try {
    await esbuild.transform(readFileSync(file, 'utf8'), {
      loader: extname(file) === '.tsx' ? 'tsx' : 'ts',
      sourcefile: file,
      logLevel: 'silent',
    })
    return undefined
  } catch (error) {
    return describeFailure(error)
  }
}
