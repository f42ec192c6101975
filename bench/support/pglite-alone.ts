/**
 * P7's calibration (bench/embedded-boot.ts): the embedded database alone, opened as the server
 * opens it (the compiled module first, `openPglite` with its default shared_buffers) on
 * DATA_DIR's data directory, with nothing else loaded. Prints `ready`, then idles until killed.
 */
import { openPglite, pgliteDir } from '../../src/platform/db'
import { pgliteModule } from '../../src/platform/db/wasm'

await pgliteModule()
await openPglite({ dataDir: pgliteDir(process.env.DATA_DIR!) })
console.log('ready')
setInterval(() => {}, 60_000)
