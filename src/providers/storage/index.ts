import { join } from 'node:path'
import type { Config } from '../../config'
import { LocalObjectStore } from './local'
import { S3ObjectStore } from './s3'
import { LOCAL_OBJECTS_PATH, type ObjectStore } from './types'

export * from './types'
export { LocalObjectStore } from './local'
export { S3ObjectStore } from './s3'

/** The configured store: `local` under DATA_DIR/objects, or an S3-compatible bucket. */
export function createObjectStore(config: Readonly<Config>, deps: { secret: string; now: () => Date }): ObjectStore {
  const s = config.storage
  if (s.driver === 's3') return new S3ObjectStore(s.s3!, deps.now)
  return new LocalObjectStore({
    root: join(config.dataDir, 'objects'),
    baseUrl: config.publicUrl + LOCAL_OBJECTS_PATH,
    secret: deps.secret,
    now: deps.now,
    maxUploadBytes: s.maxUploadBytes,
  })
}
