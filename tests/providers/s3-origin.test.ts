import { expect, test } from 'bun:test'
import { S3ObjectStore } from '../../src/providers/storage/s3'

// Where a bucket store's presigned URLs point, as the console's content security policy names it:
// worked out offline, with no credentials configured (none is looked up for it).

const store = (settings: { endpoint?: string; region?: string; bucket: string; forcePathStyle?: boolean }) =>
  new S3ObjectStore(
    {
      endpoint: settings.endpoint ?? null,
      region: settings.region ?? 'us-east-1',
      bucket: settings.bucket,
      credentials: null,
      forcePathStyle: !!settings.forcePathStyle,
    },
    () => new Date(),
  )

test.each([
  [{ bucket: 'media', region: 'eu-west-3' }, 'https://media.s3.eu-west-3.amazonaws.com'],
  [{ bucket: 'my.media', region: 'eu-west-3' }, 'https://s3.eu-west-3.amazonaws.com'],
  [{ bucket: 'media', endpoint: 'https://storage.example.com' }, 'https://media.storage.example.com'],
  [{ bucket: 'media', endpoint: 'http://127.0.0.1:9000', forcePathStyle: true }, 'http://127.0.0.1:9000'],
])('%o presigns at %s', async (settings, origin) => {
  expect(await store(settings).origin()).toBe(origin)
})
