import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import ts from 'typescript'
import { expect, test } from 'vitest'

const SRC = resolve(import.meta.dirname, '../../src')
/** folders split into rooms: each room is a node of the folder graph of its own, and so are the files on top */
const FOLDERS_WITH_ROOMS = new Set(['runner'])

/** Every relative import and re-export of a file, type-only ones included, as absolute paths. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(dirname(file), name))
}

/** The strongly connected components with more than one node (Tarjan): each is an import circle. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const found: string[][] = []
  const visit = (node: string): void => {
    index.set(node, next)
    low.set(node, next++)
    stack.push(node)
    for (const target of graph.get(node) ?? []) {
      if (!graph.has(target)) continue
      if (!index.has(target)) {
        visit(target)
        low.set(node, Math.min(low.get(node)!, low.get(target)!))
      } else if (stack.includes(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!))
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    let member: string | undefined
    do {
      member = stack.pop()!
      component.push(member)
    } while (member !== node)
    if (component.length > 1) found.push(component.sort())
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return found
}

function fileGraph(): Map<string, string[]> {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(SRC, name))
  return new Map(files.map((file) => [relative(SRC, file), importsOf(file).map((to) => relative(SRC, to))]))
}

/** `engine/agent.ts` → `engine`; `runner/plan/shard.ts` → `runner/plan`; `runner/run-suite.ts` → `runner`. */
function folderOf(file: string): string {
  const parts = file.split(sep)
  if (parts.length === 1) return file
  const [folder = '', room] = parts
  return FOLDERS_WITH_ROOMS.has(folder) && parts.length > 2 ? `${folder}/${room ?? ''}` : folder
}

/** The folders of `src/` and the imports between them. */
function folderGraph(files: Map<string, string[]>): Map<string, string[]> {
  const graph = new Map<string, Set<string>>()
  for (const [file, imports] of files) {
    const from = folderOf(file)
    const targets = graph.get(from) ?? new Set()
    for (const to of imports) if (folderOf(to) !== from) targets.add(folderOf(to))
    graph.set(from, targets)
  }
  return new Map([...graph].map(([folder, targets]) => [folder, [...targets]]))
}

test('src/ has no import circles between files, type imports included', () => {
  const graph = fileGraph()
  expect(graph.size).toBeGreaterThan(200)
  expect(circles(graph)).toEqual([])
})

test('src/ has no import circles between folders, nor between the runner rooms, type imports included', () => {
  const graph = folderGraph(fileGraph())
  expect([...graph.keys()]).toEqual(
    expect.arrayContaining(['engine', 'tools', 'model', 'runner', 'runner/plan', 'runner/tally']),
  )
  expect(circles(graph)).toEqual([])
})

test('the circle finder finds a circle', () => {
  const graph = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a']],
    ['d', ['a']],
  ])
  expect(circles(graph)).toEqual([['a', 'b', 'c']])
})

test('the folder graph sees a circle between two folders that no two files make', () => {
  const files = new Map([
    ['model/a.ts', ['report-file/b.ts']],
    ['report-file/c.ts', ['model/d.ts']],
    ['runner/plan/e.ts', ['runner/f.ts']],
    ['runner/f.ts', ['runner/plan/g.ts']],
  ])
  expect(circles(files)).toEqual([])
  expect(circles(folderGraph(files))).toEqual([
    ['model', 'report-file'],
    ['runner', 'runner/plan'],
  ])
})
