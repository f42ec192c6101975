import { join } from 'node:path'
import type { ObjectStore } from '../../providers/storage'
import { CONSOLE_BUILD_DIR, consoleBuild, type ConsoleManifest } from './assets'
import { consoleError } from './errors'

/**
 * The web console: one HTML page and its content-hashed assets, built once on first use (see
 * assets.ts; a failed build is tried again on the next request).
 */
export class ConsoleService {
  private build: Promise<ConsoleManifest> | null = null

  constructor(private readonly storage: Pick<ObjectStore, 'origin'>) {}

  /** The page that loads the console's script and styles. */
  async page(): Promise<string> {
    return page(await this.manifest())
  }

  /**
   * The page's content security policy: everything from the service itself, and, with a bucket
   * store, the bucket's origin for the images and fetches of presigned URLs (previews, uploads).
   */
  async contentPolicy(): Promise<string> {
    const bucket = this.storage.origin ? ` ${await this.storage.origin()}` : ''
    return `default-src 'self'; img-src 'self' data: blob:${bucket}; connect-src 'self'${bucket}; style-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`
  }

  /** The file of a built asset; 404 for any other name. */
  async asset(file: string): Promise<ReturnType<typeof Bun.file>> {
    const { files } = await this.manifest()
    if (!files.includes(file)) throw consoleError(404, 'not_found', 'No such console asset')
    return Bun.file(join(CONSOLE_BUILD_DIR, file))
  }

  private manifest(): Promise<ConsoleManifest> {
    this.build ??= consoleBuild().catch((err) => {
      this.build = null
      throw err
    })
    return this.build
  }
}

function page(manifest: ConsoleManifest): string {
  const styles = manifest.styles.map((s) => `<link rel="stylesheet" href="/console/assets/${s}">`).join('\n  ')
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Ecobase Console</title>
  <link rel="icon" href="/favicon.ico">
  ${styles}
</head>
<body>
  <div id="app"></div>
  <noscript>The console needs JavaScript.</noscript>
  <script type="module" src="/console/assets/${manifest.script}"></script>
</body>
</html>
`
}
