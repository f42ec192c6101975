import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

let compiled: Promise<WebAssembly.Module> | undefined

/**
 * PGlite's WebAssembly module (9 MB), compiled once for the process: each `PGlite.create` would
 * compile it again (≈ 300 ms on the 2-core machine). The compile runs on the engine's compiler
 * threads, so a server that asks for it first (src/index.ts) has it ready as its modules finish
 * loading.
 */
export function pgliteModule(): Promise<WebAssembly.Module> {
  // Read at once (a few ms): an asynchronous read would wait for the module loading to yield.
  compiled ??= WebAssembly.compile(readFileSync(join(dirname(Bun.resolveSync('@electric-sql/pglite', import.meta.dir)), 'pglite.wasm')))
  return compiled
}
