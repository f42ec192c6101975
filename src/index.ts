/**
 * The server's entry. Embedded (no DATABASE_URL), PGlite's WebAssembly module starts compiling
 * first, on the engine's compiler threads while the server's modules load. Then the server runs
 * from its bundle when that is fresh (src/bundle.ts), or from its sources (src/main.ts);
 * SERVER_BUNDLE=off always runs the sources (`npm run dev` sets it, so that --watch sees them).
 */
import { freshServerBundle } from './bundle'
import { pgliteModule } from './platform/db/wasm'

// Its failure surfaces where the database opens.
if (!process.env.DATABASE_URL) pgliteModule().catch(() => {})
const bundle = process.env.SERVER_BUNDLE === 'off' ? null : freshServerBundle()
const { main }: typeof import('./main') = bundle ? require(bundle) : await import('./main')
await main(bundle ? 'bundle' : 'sources')
