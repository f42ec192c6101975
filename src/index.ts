/**
 * The server's entry. Embedded (no DATABASE_URL), PGlite's WebAssembly module starts compiling
 * first, on the engine's compiler threads while the server's modules load (src/main.ts).
 */
import { pgliteModule } from './platform/db/wasm'

// Its failure surfaces where the database opens.
if (!process.env.DATABASE_URL) pgliteModule().catch(() => {})
await import('./main')
