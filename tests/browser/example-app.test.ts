import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { browserMissing, type ConsoleServer, startConsoleServer, until } from './support'

// examples/vite-react as a front-end engineer gets it: the client packed with npm, installed from
// its tarball, the app type-checked and built with Vite against the service, served from an origin
// of its own (allowed by CORS_ORIGINS, as docs/api/client.md says), and driven in Chromium through every
// step of the quick start. Every request to anywhere else is refused.

const repo = join(import.meta.dir, '..', '..')
const example = join(repo, 'examples', 'vite-react')
// Inside the repository, so Vite and React resolve from its node_modules (the example is a workspace).
const project = join(repo, 'node_modules', '.cache', `ecobase-example-${process.pid}`)

let app: ConsoleServer
let site: ReturnType<typeof Bun.serve>
const run = (command: string, args: string[], env: Record<string, string> = {}) => {
  const done = spawnSync(command, args, { cwd: project, encoding: 'utf8', env: { ...process.env, ...env } })
  if (done.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${done.stdout}${done.stderr}`)
  return `${done.stdout}${done.stderr}`
}

beforeAll(async () => {
  if (browserMissing) return
  rmSync(project, { recursive: true, force: true })
  mkdirSync(project, { recursive: true })
  for (const part of ['index.html', 'vite.config.ts', 'tsconfig.json', 'src']) cpSync(join(example, part), join(project, part), { recursive: true })
  const pack = spawnSync('npm', ['pack', '--pack-destination', project, '--silent'], { cwd: join(repo, 'client'), encoding: 'utf8' })
  if (pack.status !== 0) throw new Error(`npm pack failed:\n${pack.stdout}${pack.stderr}`)
  const tarball = readdirSync(project).find((f) => f.endsWith('.tgz'))!
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'front-end', private: true, type: 'module' }))
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', `./${tarball}`])

  // The app's own origin, then the service allowing it; the build points the app at the service.
  const dist = join(project, 'dist')
  site = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (request) => {
      const path = new URL(request.url).pathname
      const file = join(dist, path === '/' ? 'index.html' : path)
      return existsSync(file) && file.startsWith(dist) ? new Response(Bun.file(file)) : new Response('not found', { status: 404 })
    },
  })
  app = await startConsoleServer({ CORS_ORIGINS: `http://127.0.0.1:${site.port}` })
  run('node', [join(repo, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], { VITE_ECOBASE_URL: app.origin })
}, 240_000)
afterAll(async () => {
  if (browserMissing) return
  await app?.close()
  site?.stop(true)
  rmSync(project, { recursive: true, force: true })
})

describe.skipIf(!!browserMissing)('examples/vite-react on the packed client', () => {
  test('type-checks with a stock Vite tsconfig', () => {
    expect(run(process.execPath, [join(repo, 'node_modules', '.bin', 'tsc'), '-p', project])).toBe('')
  }, 120_000)

  test('in Chromium: sign up, create the organization, a customer, a streamed chat reply, an upload with progress, a live change', async () => {
    const origin = `http://127.0.0.1:${site.port}`
    const page = await app.browser.newPage()
    const elsewhere: string[] = []
    await page.route('**/*', (route) => {
      const url = route.request().url()
      if (url.startsWith(origin) || url.startsWith(app.origin)) return route.continue()
      elsewhere.push(url)
      return route.abort()
    })
    await page.goto(origin)
    const log = page.getByRole('list', { name: 'Log' })
    const logged = (text: string) => log.getByText(text).first().waitFor()

    await page.getByLabel('E-mail').fill(`vite-${crypto.randomUUID().slice(0, 8)}@example.test`)
    await page.getByLabel('Password').fill('example-password-1')
    await page.getByRole('button', { name: '1. Sign up' }).click()
    await logged('signed up as vite-')
    await page.getByLabel('Slug').fill(`acme-${crypto.randomUUID().slice(0, 6)}`)
    await page.getByRole('button', { name: '2. Create the organization' }).click()
    await logged('working in ecosystem org.acme-')
    await page.getByRole('button', { name: '3. Create a customer' }).click()
    await logged('customer ')
    await page.getByRole('button', { name: '4. Chat' }).click()
    await logged('reply complete')
    expect((await page.getByRole('status', { name: 'Reply' }).textContent())!.length).toBeGreaterThan(0)

    await page.getByLabel('File').setInputFiles({ name: 'hello.txt', mimeType: 'text/plain', buffer: Buffer.from('hello from the example app\n'.repeat(2000)) })
    await logged('uploaded hello.txt')
    expect(await page.getByRole('progressbar', { name: 'Upload progress' }).getAttribute('value')).toBe('100')

    await page.getByRole('button', { name: '5. Watch documents' }).click()
    // The subscription is open once the stream has answered; a document made after it arrives.
    await until(
      async () => {
        await page.getByRole('button', { name: '6. Create a document' }).click()
        return page.getByRole('list', { name: 'Changes' }).getByText('insert: Trip plan').count()
      },
      (n) => n > 0,
    )
    expect(await page.getByRole('alert').count()).toBe(0)
    expect(elsewhere).toEqual([])
    await page.close()
  }, 60_000)
})

describe('the quick start in docs/api/client.md', () => {
  test('is the example app’s code, in the same order', () => {
    const readme = readFileSync(join(repo, 'docs', 'api', 'client.md'), 'utf8')
    const code = readFileSync(join(example, 'src', 'ecobase.ts'), 'utf8').trim()
    expect(readme).toContain(code)
  })
})
