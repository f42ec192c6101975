import { afterAll, beforeAll, expect } from 'bun:test'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { consoleBuild } from '../../src/modules/console/assets'
import { chromium, type Browser, type Page } from 'playwright-core'
import { createHarness, type Harness } from '../support/harness'

/** Where browser tests write a screenshot of each page they visit (named in docs/contributing.md). */
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

export const DESKTOP = { width: 1280, height: 800 }
export const PHONE = { width: 390, height: 844 }

/** The service on a real port with a browser to drive it (see startConsoleServer). */
export interface ConsoleServer {
  h: Harness
  /** Where the service listens, e.g. http://127.0.0.1:41234 (also its PUBLIC_URL). */
  origin: string
  browser: Browser
  /**
   * A new page at `to` (a path of the service, or a whole URL; the console by default) in which
   * every request that leaves the service is refused; `elsewhere` collects those requests. `also`:
   * origins the page may reach besides (a bucket store's).
   */
  open(to?: string, viewport?: { width: number; height: number }, also?: readonly string[]): Promise<{ page: Page; elsewhere: string[] }>
  /** Stops the browser, the server and the harness. */
  close(): Promise<void>
}

/**
 * Starts the harness app on a real port (127.0.0.1, a free port) and launches the browser. `env`
 * configures the harness, as createHarness takes it (or a function of the port, for settings that name it); PUBLIC_URL is the server's own address, since
 * presigned upload URLs point at it and the browser must reach them.
 */
export async function startConsoleServer(env: Record<string, string> | ((port: number) => Record<string, string>) = {}): Promise<ConsoleServer> {
  let h: Harness | undefined
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (request) => h!.app.handle(request) })
  const origin = `http://127.0.0.1:${server.port}`
  h = await createHarness({ PUBLIC_URL: origin, ...(typeof env === 'function' ? env(server.port!) : env) })
  // Built (or found current) before any page is timed: a rebuild after the sources changed takes seconds.
  await consoleBuild()
  const browser = await launch()

  const open = async (to = '/console', viewport = DESKTOP, also: readonly string[] = []) => {
    const url = to.startsWith('/') ? `${origin}${to}` : to
    const page = await browser.newPage({ viewport })
    const elsewhere: string[] = []
    await page.route('**/*', (route) => {
      const target = new URL(route.request().url()).origin
      if (target === origin || also.includes(target)) return route.continue()
      elsewhere.push(route.request().url())
      return route.abort()
    })
    if (new URL(url).pathname === '/console') await reloadConsole(page, () => page.goto(url))
    else await page.goto(url)
    return { page, elsewhere }
  }

  const close = async () => {
    await browser.close()
    await server.stop(true)
    await h!.close()
  }
  return { h, origin, browser, open, close }
}

/**
 * The console server of a test file: started before its tests (not at all without Chromium, where
 * the browser tests skip) and closed after them. Read it only inside tests and hooks.
 */
export function consoleServerForFile(env: Parameters<typeof startConsoleServer>[0] = {}): ConsoleServer {
  let started: ConsoleServer | undefined
  beforeAll(async () => {
    if (!browserMissing) started = await startConsoleServer(env)
  }, 60_000)
  afterAll(async () => {
    await started?.close()
  })
  return new Proxy({} as ConsoleServer, {
    get: (_, key) => {
      if (!started) throw new Error('the console server is not running (no Chromium, or read outside a test)')
      return started[key as keyof ConsoleServer]
    },
  })
}

/**
 * Loads the console (by `go`, a reload by default) until it renders. The console is rebuilt when
 * its sources change, and a page that asked for the old build's script in between gets a 404: that
 * is retried, as a reload would.
 */
export async function reloadConsole(page: Page, go: () => Promise<unknown> = () => page.reload()) {
  for (let attempt = 1; ; attempt++) {
    await go()
    try {
      await page.waitForFunction(() => (document.getElementById('app')?.childElementCount ?? 0) > 0, undefined, { timeout: 5_000 })
      return
    } catch (err) {
      if (attempt >= 4) throw err
      go = () => page.reload()
    }
  }
}

/**
 * Polls `read` (what a person waits for on screen) until it gives `expected`, or a value `expected`
 * accepts when it is a test; gives that value, else fails with the last one.
 */
export async function until<T>(read: () => Promise<T> | T, expected: T | ((value: T) => boolean), timeoutMs = 15_000): Promise<T> {
  const ok = typeof expected === 'function' ? (expected as (value: T) => boolean) : (value: T) => value === expected
  const deadline = Date.now() + timeoutMs
  let last = await read()
  while (!ok(last) && Date.now() < deadline) {
    await Bun.sleep(100)
    last = await read()
  }
  if (typeof expected !== 'function') expect(last as unknown).toBe(expected)
  else if (!ok(last)) throw new Error(`still ${JSON.stringify(last)}`)
  return last
}

/**
 * Signs in on the console's sign-in form, then picks the ecosystem by its name; without one, waits
 * until signed in (an account with no ecosystem to pick).
 */
export async function signIn(page: Page, email: string, password: string, ecosystemName?: string) {
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  if (ecosystemName !== undefined) await page.getByLabel('Ecosystem').selectOption({ label: ecosystemName })
  else await page.getByRole('button', { name: 'Sign out' }).waitFor()
}

/** Answers the console's in-page confirmation: it must name `thing`; then `action` is pressed and the dialog goes. */
export async function confirmDialog(page: Page, action: string, thing: string) {
  const dialog = page.getByRole('dialog')
  await dialog.waitFor()
  expect(await dialog.textContent()).toContain(thing)
  await dialog.getByRole('button', { name: action, exact: true }).click()
  await dialog.waitFor({ state: 'detached' })
}

/**
 * A link of the console's section navigation; `click` first opens the sections with the Menu button
 * where they are behind it (phone width).
 */
export const tab = (page: Page, name: string) => ({
  async click() {
    const menu = page.getByRole('button', { name: 'Menu', exact: true })
    if ((await menu.isVisible()) && (await menu.getAttribute('aria-expanded')) === 'false') await menu.click()
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true }).click()
  },
})

/**
 * What went wrong on `page` while a test drove it: uncaught errors, errors the page logged (an invalid
 * `pattern` is one), requests that failed and answers of 500 or more. A 4xx the page shows is not
 * here: Chromium logs it as "Failed to load resource", which a form that reports a 400 expects.
 */
export function watchProblems(page: Page): string[] {
  const problems: string[] = []
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`))
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) problems.push(`console: ${msg.text()}`)
  })
  page.on('requestfailed', (request) => problems.push(`failed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`))
  page.on('response', (response) => {
    if (response.status() >= 500) problems.push(`${response.status()}: ${response.request().method()} ${response.url()}`)
  })
  return problems
}
