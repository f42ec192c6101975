import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

// On globalThis: the server bundle (src/bundle.ts) holds its own copy of this module, and it must
// use the compile that src/index.ts, which runs from the sources, started.
const COMPILED = Symbol.for('ecobase.pgliteModule')
const held = globalThis as { [COMPILED]?: Promise<WebAssembly.Module> }

/**
 * PGlite's WebAssembly module (9 MB), compiled once for the process: each `PGlite.create` would
 * compile it again (≈ 300 ms on the 2-core machine). The compile runs on the engine's compiler
 * threads, so a server that asks for it first (src/index.ts) has it ready as its modules finish
 * loading.
 */
export function pgliteModule(): Promise<WebAssembly.Module> {
  // Read at once (a few ms): an asynchronous read would wait for the module loading to yield.
  held[COMPILED] ??= WebAssembly.compile(readFileSync(join(dirname(Bun.resolveSync('@electric-sql/pglite', import.meta.dir)), 'pglite.wasm')))
  return held[COMPILED]
}
