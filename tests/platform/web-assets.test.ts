import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import swaggerUi from 'swagger-ui-dist/package.json'
import { negotiateEncoding } from '../../src/platform/web-assets'
import { createHarness, type Harness } from '../support/harness'

// What a browser gets for the API reference page: compressed bytes that decode to the very files
// and document, validators it can revalidate with, and the service's icon.
const root = join(import.meta.dir, '..', '..')
const bundleDir = join(root, 'node_modules', 'swagger-ui-dist')
const ASSETS = [
  [`/openapi/assets/${swaggerUi.version}/swagger-ui-bundle.js`, readFileSync(join(bundleDir, 'swagger-ui-bundle.js'))],
  [`/openapi/assets/${swaggerUi.version}/swagger-ui.css`, readFileSync(join(bundleDir, 'swagger-ui.css'))],
] as const

let h: Harness
beforeAll(async () => {
  h = await createHarness()
})
afterAll(() => h.close())

const get = (path: string, headers: Record<string, string> = {}) => h.app.handle(new Request(`http://localhost${path}`, { headers }))
const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer())
const DECODE = { br: brotliDecompressSync, gzip: gunzipSync } as const

describe('the API reference is served compressed and cacheable', () => {
  test.each(ASSETS)('%s: br and gzip decode to the file, identity is the file, cached for a year', async (path, file) => {
    for (const coding of ['br', 'gzip'] as const) {
      const res = await get(path, { 'accept-encoding': coding === 'br' ? 'gzip, deflate, br' : 'gzip, deflate' })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-encoding')).toBe(coding)
      const body = await bytes(res)
      expect(body.length).toBeLessThan(file.length / 3)
      expect(DECODE[coding](body).equals(file)).toBe(true)
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      expect(res.headers.get('vary')).toBe('Accept-Encoding')
      expect(res.headers.get('etag')).toMatch(/^W\/"[\w-]+"$/)
    }
    const plain = await get(path)
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect((await bytes(plain)).equals(file)).toBe(true)
  })

  test('the document decodes to the same bytes as uncompressed, is revalidated (no-cache) and answers 304 to its ETag', async () => {
    const plain = await get('/openapi/json')
    const text = await bytes(plain)
    expect(JSON.parse(text.toString()).openapi).toStartWith('3.1')
    const br = await get('/openapi/json', { 'accept-encoding': 'br' })
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(brotliDecompressSync(await bytes(br)).equals(text)).toBe(true)
    expect(br.headers.get('cache-control')).toBe('no-cache')
    const etag = br.headers.get('etag')!
    expect(plain.headers.get('etag')).toBe(etag)
    const again = await get('/openapi/json', { 'if-none-match': etag, 'accept-encoding': 'br' })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    expect((await get('/openapi/json', { 'if-none-match': 'W/"other"' })).status).toBe(200)
  })

  test("the page and Swagger UI's view of the document are compressed too", async () => {
    for (const path of ['/openapi', '/openapi/json?for=swagger-ui']) {
      const res = await get(path, { 'accept-encoding': 'gzip' })
      expect(res.headers.get('content-encoding'), path).toBe('gzip')
      expect(gunzipSync(await bytes(res)).equals(await bytes(await get(path))), path).toBe(true)
    }
  })

  test('Accept-Encoding is negotiated: br first, then gzip; q=0 refuses a coding', () => {
    expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('br')
    expect(negotiateEncoding('gzip;q=1.0, br;q=0')).toBe('gzip')
    expect(negotiateEncoding('*')).toBe('gzip')
    expect(negotiateEncoding('identity')).toBeNull()
    expect(negotiateEncoding(null)).toBeNull()
  })
})

describe("Swagger UI's view of the document (swagger-ui-view.ts)", () => {
  test('is OpenAPI 3.0 with every operation and schema of the 3.1 document, and nothing only 3.1 can say', async () => {
    const full = await (await get('/openapi/json')).json()
    const view = await (await get('/openapi/json?for=swagger-ui')).json()
    expect(view.openapi).toBe('3.0.3')
    expect(view.webhooks).toBeUndefined()
    expect(view.info.description).toContain('[the JSON document](openapi/json)')
    const operationIds = (doc: any) => Object.values<any>(doc.paths).flatMap((ops) => Object.values<any>(ops).map((op) => op.operationId))
    expect(operationIds(view)).toEqual(operationIds(full))
    expect(Object.keys(view.components.schemas)).toEqual(Object.keys(full.components.schemas))
    const text = JSON.stringify(view)
    expect(text).not.toMatch(/"type":\[/)
    expect(text).not.toContain('"const":')
    expect(text).not.toMatch(/"examples":\[/)
    expect(text).toContain('"nullable":true')
  })
})

describe('/favicon.ico', () => {
  test('is an icon, linked from the reference page and the console', async () => {
    const res = await get('/favicon.ico')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toStartWith('image/')
    const icon = await bytes(res)
    // ICONDIR: reserved 0, type 1 (icon), then at least one image.
    expect([icon.readUInt16LE(0), icon.readUInt16LE(2)]).toEqual([0, 1])
    expect(icon.readUInt16LE(4)).toBeGreaterThan(0)
    expect(res.headers.get('cache-control')).toContain('max-age=')
    expect(await (await get('/openapi')).text()).toContain('<link rel="icon" href="favicon.ico">')
    expect(await (await get('/console')).text()).toContain('<link rel="icon" href="/favicon.ico">')
  })
})
