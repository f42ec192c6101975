import { expect, test } from 'bun:test'
import { Glob } from 'bun'
import { readFileSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'

// The shape of src/modules as code, checked: no module folder depends on itself through others.

const MODULES = join(import.meta.dir, '..', 'src', 'modules')
const IMPORT = /^\s*(?:import|export)\s[^;]*?\sfrom\s+'(\.[^']+)'/gms

/**
 * module → the modules it imports (type-only imports included: they tie the code together as
 * much), with one file that does it. An import of another module's schema.ts is left out: that is
 * a table for a foreign key (an organization's team refers to the organization), which docs/architecture.md
 * allows, and it carries no behaviour.
 */
function moduleGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>()
  for (const file of new Glob('*/**/*.{ts,tsx}').scanSync(MODULES)) {
    const from = file.split('/')[0]!
    const edges = graph.get(from) ?? new Map<string, string>()
    graph.set(from, edges)
    for (const [, spec] of readFileSync(join(MODULES, file), 'utf8').matchAll(IMPORT)) {
      const target = relative(MODULES, normalize(join(MODULES, dirname(file), spec!)))
      const to = target.split('/')[0]!
      if (target.startsWith('..') || to === from || target === `${to}/schema`) continue
      if (!edges.has(to)) edges.set(to, `${file} → ${target}`)
    }
  }
  return graph
}

/** Every cycle's modules (strongly connected components larger than one), with the imports that close it. */
function cycles(graph: Map<string, Map<string, string>>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const found: string[][] = []
  const visit = (v: string) => {
    index.set(v, index.size)
    low.set(v, index.get(v)!)
    stack.push(v)
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) !== index.get(v)) return
    const component: string[] = []
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      component.push(w)
      if (w === v) break
    }
    if (component.length > 1) found.push(component.flatMap((a) => component.filter((b) => graph.get(a)?.has(b)).map((b) => graph.get(a)!.get(b)!)))
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v)
  return found
}

test('no import cycle runs between module folders', () => {
  expect(cycles(moduleGraph())).toEqual([])
})

test('the cycle check sees a cycle when there is one', () => {
  const graph = new Map([
    ['a', new Map([['b', 'a/service.ts → b/service']])],
    ['b', new Map([['c', 'b/service.ts → c/service']])],
    ['c', new Map([['a', 'c/service.ts → a/service']])],
    ['d', new Map([['a', 'd/service.ts → a/service']])],
  ])
  expect(cycles(graph).map((c) => c.sort())).toEqual([['a/service.ts → b/service', 'b/service.ts → c/service', 'c/service.ts → a/service']])
  expect(moduleGraph().get('notifications')?.has('messaging')).toBe(true)
})

/** The files of a module that other modules may import: its manifest, its services, its tables (for foreign keys), its events and its HTTP shapes. */
const PUBLIC_FACE = /^[a-z_]+\/(index|service|schema|events|model)$/

/** Every import of another module's file that is not part of its public face: `file → target`. */
function privateImports(): string[] {
  const found: string[] = []
  for (const file of new Glob('*/**/*.{ts,tsx}').scanSync(MODULES)) {
    const from = file.split('/')[0]!
    for (const [, spec] of readFileSync(join(MODULES, file), 'utf8').matchAll(IMPORT)) {
      const target = relative(MODULES, normalize(join(MODULES, dirname(file), spec!)))
      const to = target.split('/')[0]!
      if (target.startsWith('..') || to === from || !target.includes('/')) continue
      if (!PUBLIC_FACE.test(target)) found.push(`${file} → ${target}`)
    }
  }
  return found
}

test("no module imports another module's private files", () => {
  expect(privateImports()).toEqual([])
})
