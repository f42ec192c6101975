import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { PutBucketCorsCommand, S3Client } from '@aws-sdk/client-s3'
import { S3_KEY, startS3, type S3Peer } from '../support/s3'
import { png, ownerAndAda, uploadAs } from '../support/storage'
import { browserMissing, consoleServerForFile, SCREENSHOTS, signIn, tab, until, watchProblems } from './support'

// The console on a bucket store (a real S3-compatible server, SigV4 checked): its presigned URLs are
// on the bucket's origin, which the console's content security policy must name, or the browser
// blocks the storage browser's previews and the page's own uploads. The bucket allows the console's
// origin by CORS, as an operator sets it up (docs/areas/storage.md).

let s3: S3Peer
let bucket: string
beforeAll(async () => {
  if (browserMissing) return
  s3 = await startS3()
  bucket = await s3.createBucket()
}, 60_000)
afterAll(() => s3?.close())

const app = consoleServerForFile(() => s3.env(bucket))
const PASSWORD = 'storage-s3-browser-password'
const PNG = png(40, 30)
const TEXT = Buffer.from('Notes kept in a bucket.\n')

describe.skipIf(!!browserMissing)('the console on a bucket store', () => {
  test('previews, text and an upload from the page reach the bucket; nothing is blocked', async () => {
    const admin = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: S3_KEY })
    await admin.send(
      new PutBucketCorsCommand({
        Bucket: bucket,
        CORSConfiguration: { CORSRules: [{ AllowedOrigins: [app.origin], AllowedMethods: ['GET', 'PUT', 'HEAD'], AllowedHeaders: ['*'] }] },
      }),
    )
    admin.destroy()
    const { owner, org, token } = await ownerAndAda(app.h, PASSWORD)
    await uploadAs(app.h, token, 'photo.png', 'image/png', PNG)
    await uploadAs(app.h, token, 'notes.txt', 'text/plain', TEXT)

    const bucketOrigin = new URL(s3.endpoint).origin
    const { page, elsewhere } = await app.open('/console', undefined, [bucketOrigin])
    const problems = watchProblems(page)
    await signIn(page, owner.email, PASSWORD, org.ecosystem.name)
    await tab(page, 'Storage').click()
    await page.getByLabel('Customer', { exact: true }).selectOption({ label: 'Ada Lovelace' })
    const image = page.getByRole('img', { name: 'Preview of photo.png' })
    await image.waitFor()
    expect(await image.getAttribute('src')).toStartWith(`${bucketOrigin}/${bucket}/`)
    await until(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), 40)
    const row = page.getByRole('table', { name: 'Customer’s files' }).getByRole('row').filter({ hasText: 'notes.txt' })
    await row.getByRole('button', { name: 'Show text' }).click()
    await until(() => page.locator('figure.text-preview pre').textContent(), TEXT.toString())

    // The page's own upload: a PUT to the bucket, then complete.
    await page.getByLabel('Upload a file').setInputFiles({ name: 'mine.txt', mimeType: 'text/plain', buffer: Buffer.from('y'.repeat(1024)) })
    await until(() => page.getByTestId('usage').textContent(), '1.0 KB')
    await page.screenshot({ path: join(SCREENSHOTS, 'console-storage-s3.png'), fullPage: true })
    expect(s3.refused).toEqual([])
    expect(problems).toEqual([])
    expect(elsewhere).toEqual([])
    await page.close()
  }, 90_000)
})
