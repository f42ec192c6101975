import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { replaceDirectory } from '../../platform/directories'

/**
 * The console's static files: console/ (Preact pages on the typed client in client/) bundled by
 * Bun into content-hashed files under node_modules/.cache/ecobase/console. Built at `npm install`
 * (postinstall) and again at first use whenever the sources changed since (their fingerprint is
 * kept beside the build), so a container installed with --ignore-scripts builds it on first start.
 */
const ROOT = resolve(import.meta.dir, '../../..')
const SOURCES = [join(ROOT, 'console'), join(ROOT, 'client')]
export const CONSOLE_BUILD_DIR = join(ROOT, 'node_modules', '.cache', 'ecobase', 'console')
const MANIFEST = join(CONSOLE_BUILD_DIR, 'manifest.json')

export interface ConsoleManifest {
  fingerprint: string
  script: string
  styles: string[]
  files: string[]
}

function fingerprint(): string {
  const hash = createHash('sha256')
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name === 'dist' || entry.name === 'node_modules') continue
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (/\.(tsx?|css)$/.test(entry.name)) hash.update(path).update(readFileSync(path))
    }
  }
  SOURCES.forEach(walk)
  return hash.digest('hex')
}

/** The current build, building it first when there is none for these sources. */
export async function consoleBuild(): Promise<ConsoleManifest> {
  const current = fingerprint()
  if (existsSync(MANIFEST)) {
    const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as ConsoleManifest
    if (manifest.fingerprint === current) return manifest
  }
  // Built beside and swapped in whole, so a server (or another test process) never serves half a build.
  const staging = `${CONSOLE_BUILD_DIR}.${process.pid}-${Date.now()}`
  const built = await Bun.build({
    entrypoints: [join(ROOT, 'console', 'main.tsx')],
    outdir: staging,
    target: 'browser',
    minify: true,
    sourcemap: 'linked',
    naming: '[name]-[hash].[ext]',
  })
  if (!built.success) {
    rmSync(staging, { recursive: true, force: true })
    throw new AggregateError(built.logs, 'building the console failed')
  }
  const names = built.outputs.map((o) => o.path.slice(staging.length + 1))
  const manifest: ConsoleManifest = {
    fingerprint: current,
    script: names.find((n) => n.endsWith('.js'))!,
    styles: names.filter((n) => n.endsWith('.css')),
    files: names,
  }
  writeFileSync(join(staging, 'manifest.json'), JSON.stringify(manifest))
  replaceDirectory(staging, CONSOLE_BUILD_DIR)
  return manifest
}

// No top-level await: the server bundle (src/bundle.ts) is CommonJS, which has none.
if (import.meta.main) void consoleBuild().then((manifest) => console.log(`ecobase: console built (${manifest.files.length} files in ${CONSOLE_BUILD_DIR})`))
