import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser } from 'playwright-core'

/** Where browser tests write a screenshot of each page they visit (named in the README). */
export const SCREENSHOTS = join(import.meta.dir, 'screenshots')

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].filter(Boolean) as string[]

/** The Chromium to drive, or null (browser tests then skip, saying why). `.ci/run` installs Debian's chromium when it is missing. */
export const chromiumPath = CANDIDATES.find((path) => existsSync(path)) ?? null
export const browserMissing = chromiumPath
  ? null
  : `browser tests skipped: no Chromium found (looked at ${CANDIDATES.join(', ')}); install Debian's \`chromium\` or set CHROMIUM_PATH`
if (browserMissing) console.warn(browserMissing)

export async function launch(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true })
  // --no-sandbox: CI runs as root, where Chromium's sandbox cannot start.
  return chromium.launch({ executablePath: chromiumPath!, args: ['--no-sandbox', '--disable-dev-shm-usage'] })
}
