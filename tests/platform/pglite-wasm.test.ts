import { expect, test } from 'bun:test'
import { openPglite } from '../../src/platform/db'
import { pgliteModule } from '../../src/platform/db/wasm'

// PGlite compiled its 9 MB WebAssembly module at every open (≈ 300 ms on the 2-core machine). The
// module is now compiled once for the process (src/index.ts starts it before the server's
// modules load) and each PGlite is an instance of it.

test('every PGlite of the process is an instance of the one compiled module', async () => {
  const module = await pgliteModule()
  expect(module).toBeInstanceOf(WebAssembly.Module)
  expect(await pgliteModule()).toBe(module)
  const instantiate = WebAssembly.instantiate
  const given: unknown[] = []
  WebAssembly.instantiate = ((source: unknown, imports?: WebAssembly.Imports) => {
    given.push(source)
    return instantiate(source as WebAssembly.Module, imports)
  }) as typeof WebAssembly.instantiate
  try {
    for (let i = 0; i < 2; i++) {
      const database = await openPglite()
      expect((await database.unsafe('select 1 as one', [])).rows).toEqual([{ one: 1 }])
      await database.close()
    }
  } finally {
    WebAssembly.instantiate = instantiate
  }
  // Each open instantiates it (an in-memory one more than once: it runs initdb first, a module of its own).
  expect(given.filter((source) => source === module).length).toBeGreaterThanOrEqual(2)
})
