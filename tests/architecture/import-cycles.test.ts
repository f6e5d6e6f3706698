import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { expect, test } from 'vitest'

const SRC = resolve(import.meta.dirname, '../../src')

/** Every relative import and re-export of a file, type-only ones included, as absolute paths. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(dirname(file), name))
}

/** The strongly connected components with more than one file (Tarjan): each is an import circle. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const found: string[][] = []
  const visit = (file: string): void => {
    index.set(file, next)
    low.set(file, next++)
    stack.push(file)
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue
      if (!index.has(target)) {
        visit(target)
        low.set(file, Math.min(low.get(file)!, low.get(target)!))
      } else if (stack.includes(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!))
    }
    if (low.get(file) !== index.get(file)) return
    const component: string[] = []
    let member: string | undefined
    do {
      member = stack.pop()!
      component.push(relative(SRC, member))
    } while (member !== file)
    if (component.length > 1) found.push(component.sort())
  }
  for (const file of graph.keys()) if (!index.has(file)) visit(file)
  return found
}

test('src/ has no import circles, type imports included', () => {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(SRC, name))
  const graph = new Map(files.map((file) => [file, importsOf(file)]))
  expect(graph.size).toBeGreaterThan(200)
  expect(circles(graph)).toEqual([])
})

test('the circle finder finds a circle', () => {
  const graph = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a']],
    ['d', ['a']],
  ])
  expect(circles(graph)).toHaveLength(1)
})
