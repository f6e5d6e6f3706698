import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
const SRC = resolve('src')
const depth = Number(process.argv[2] ?? 1)
const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith('.ts')).map((n) => join(SRC, n))
const node = (f) => { const parts = relative(SRC, f).split('/'); return parts.length === 1 ? parts[0] : parts.slice(0, Math.min(depth, parts.length - 1)).join('/') }
const edges = new Map()
for (const f of files) {
  const { importedFiles } = ts.preProcessFile(readFileSync(f, 'utf8'), true, true)
  for (const { fileName } of importedFiles) {
    if (!fileName.startsWith('.')) continue
    const t = resolve(dirname(f), fileName)
    const a = node(f), b = node(t)
    if (a === b) continue
    const key = a + ' -> ' + b
    if (!edges.has(key)) edges.set(key, [])
    edges.get(key).push(relative(SRC, f) + ' -> ' + relative(SRC, t))
  }
}

const graph = new Map()
for (const k of edges.keys()) { const [a, b] = k.split(' -> '); if (!graph.has(a)) graph.set(a, []); graph.get(a).push(b); if (!graph.has(b)) graph.set(b, []) }
let i = 0; const idx = new Map(), low = new Map(), st = [], out = []
const visit = (v) => { idx.set(v, i); low.set(v, i++); st.push(v); for (const w of graph.get(v)) { if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))) } else if (st.includes(w)) low.set(v, Math.min(low.get(v), idx.get(w))) } if (low.get(v) === idx.get(v)) { const c = []; let m; do { m = st.pop(); c.push(m) } while (m !== v); if (c.length > 1) out.push(c) } }
for (const v of graph.keys()) if (!idx.has(v)) visit(v)
for (const c of out) { console.log('CIRCLE', c.join(', ')); for (const [k, v] of edges) { const [a, b] = k.split(' -> '); if (c.includes(a) && c.includes(b)) console.log('   ', k, ':', v.slice(0, 4).join(' | ')) } }
if (process.argv[3] === 'edges') { const m = new Map(); for (const k of edges.keys()) { const [a, b] = k.split(' -> '); if (!m.has(a)) m.set(a, []); m.get(a).push(b) } for (const [a, bs] of [...m].sort()) console.log(a.padEnd(14), '->', bs.sort().join(' ')) }
