#!/usr/bin/env node
import module from 'node:module'
import { homedir } from 'node:os'
import { join } from 'node:path'

// Node >= 22.1 keeps the compiled code of the modules it loads on disk and reuses it on the next start, which
// halves our start-up; Node 20 has no such cache. NODE_COMPILE_CACHE (a folder) and NODE_DISABLE_COMPILE_CACHE
// keep their meaning: Node reads them itself.
const { enableCompileCache } = /** @type {{ enableCompileCache?: (dir: string) => unknown }} */ (module)
if (enableCompileCache && process.env.NODE_DISABLE_COMPILE_CACHE === undefined) {
  enableCompileCache(
    process.env.NODE_COMPILE_CACHE ?? join(userCacheDir(), 'agent-evals', 'node-compile-cache'),
  )
}

const { main } = await import('../dist/bundle/main.js')
process.exitCode = await main(process.argv.slice(2))

/** The user's cache folder, as the platform names it. */
function userCacheDir() {
  if (process.platform === 'win32') return process.env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local')
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches')
  return process.env.XDG_CACHE_HOME || join(homedir(), '.cache')
}
