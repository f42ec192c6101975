import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Config } from '../config'
import { randomToken } from './crypto'

/**
 * The server key signs access tokens (and, later, local storage URLs and encrypts secrets at rest).
 * AUTH_SECRET wins; otherwise one is generated on first start and kept in DATA_DIR so restarts
 * keep sessions valid.
 */
export function resolveAuthSecret(config: Config): string {
  if (config.authSecret) return config.authSecret
  const file = join(config.dataDir, 'auth-secret')
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  mkdirSync(config.dataDir, { recursive: true })
  const secret = randomToken(48)
  writeFileSync(file, `${secret}\n`, { mode: 0o600 })
  chmodSync(file, 0o600)
  return secret
}
