import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { replaceDirectory } from './platform/directories'

/**
 * The server (src/main.ts and the packages it imports) as one CommonJS bundle with Bun's bytecode
 * beside it, so a start loads compiled code instead of parsing about 900 files: a restart takes
 * about 200 ms less (bench/README.md, P7). Built by `npm install` (postinstall), `npm run build`
 * and the Dockerfile into node_modules/.cache/ecobase/server. `src/index.ts` runs it only while it
 * is fresh, and the sources otherwise.
 */
const ROOT = resolve(import.meta.dir, '..')
export const SERVER_BUNDLE_DIR = join(ROOT, 'node_modules', '.cache', 'ecobase', 'server')
const MANIFEST = 'manifest.json'

/**
 * Packages left out of the bundle and loaded from node_modules: PGlite, its pgvector extension
 * and argon2 find their WebAssembly, data or native files next to their own code; the others are
 * SDKs a start never loads (each is imported where it is first used).
 */
const EXTERNAL = [
  '@electric-sql/pglite',
  '@electric-sql/pglite-pgvector',
  '@node-rs/argon2',
  'openai',
  '@opentelemetry/sdk-trace',
  '@opentelemetry/exporter-trace-otlp-http',
  '@aws-sdk/client-s3',
  '@aws-sdk/s3-request-presigner',
  'stripe',
  'nodemailer',
  'twilio',
  '@simplewebauthn/server',
  'qrcode',
]

/** What a bundle was built from: a file's path under the root, its size and modification time. */
type Input = [path: string, size: number, mtimeMs: number]

export interface BundleManifest {
  /** The Bun that built it: bytecode is only valid for the Bun that made it. */
  bun: string
  /** The checkout it was built in: the bundle holds this directory's absolute paths (migrations, the seed). */
  root: string
  entry: string
  inputs: Input[]
}

/** Builds the bundle under a temporary name and renames it into `dir`, so a start never finds half a build. */
export async function buildServerBundle(dir = SERVER_BUNDLE_DIR): Promise<BundleManifest> {
  const staging = `${dir}.building-${process.pid}`
  rmSync(staging, { recursive: true, force: true })
  const started = Date.now()
  try {
    const result = await Bun.build({
      entrypoints: [join(ROOT, 'src', 'main.ts')],
      target: 'bun',
      format: 'cjs',
      // No source map: Bun reads it when the bundle loads (about 20 ms and 10 MB a start), so stack
      // traces name the bundle's lines; SERVER_BUNDLE=off runs the sources.
      bytecode: true,
      external: EXTERNAL,
      outdir: staging,
      metafile: true,
    })
    if (!result.success || !result.metafile) throw new AggregateError(result.logs, 'the server bundle failed to build')
    const entry = result.outputs.find((output) => output.kind === 'entry-point')!.path
    // A file saved while the build read it may be in the bundle as it was before: recorded so
    // that it never matches, the sources run until the next build.
    const inputs = Object.keys(result.metafile.inputs).map((path): Input => {
      const stat = statSync(resolve(path))
      return [relative(ROOT, resolve(path)), stat.size, stat.mtimeMs < started ? stat.mtimeMs : -1]
    })
    const manifest: BundleManifest = { bun: Bun.version, root: ROOT, entry: relative(staging, entry), inputs }
    writeFileSync(join(staging, MANIFEST), JSON.stringify(manifest))
    mkdirSync(join(dir, '..'), { recursive: true })
    replaceDirectory(staging, dir)
    return manifest
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}

/**
 * The bundle's entry file when the bundle in `dir` is fresh: built by this Bun, in this checkout,
 * and every file it was built from still has the size and modification time it had then (about
 * 3 ms for 900 files). Otherwise null: the sources run.
 */
export function freshServerBundle(dir = SERVER_BUNDLE_DIR): string | null {
  let manifest: BundleManifest
  try {
    manifest = JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8'))
  } catch {
    return null
  }
  if (manifest.bun !== Bun.version || manifest.root !== ROOT) return null
  for (const [path, size, mtimeMs] of manifest.inputs) {
    const stat = statSync(join(ROOT, path), { throwIfNoEntry: false })
    if (stat?.size !== size || stat.mtimeMs !== mtimeMs) return null
  }
  return join(dir, manifest.entry)
}

if (import.meta.main) {
  const started = performance.now()
  buildServerBundle().then(
    (manifest) => console.log(`ecobase: server bundle built from ${manifest.inputs.length} files in ${Math.round(performance.now() - started)} ms`),
    (err) => console.warn(`ecobase: no server bundle (${(err as Error).message}); the server runs from its sources`),
  )
}
