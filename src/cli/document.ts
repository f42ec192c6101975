import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../app'
import { buildDeps } from '../boot'
import { loadConfig } from '../config'
import { openPglite } from '../platform/db'
import { renderOpenApi } from '../platform/openapi'

/** The OpenAPI document as the app serves it, rendered from an app on a throwaway in-memory database. */
export async function openApiDocument(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ecobase-openapi-'))
  const database = await openPglite()
  try {
    return await renderOpenApi(createApp(buildDeps(loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir }), database)))
  } finally {
    await database.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
