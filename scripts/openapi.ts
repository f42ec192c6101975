// Rewrites openapi.json from the app's own document, the client's types from it, and docs/events.md (`npm run openapi`); tests fail on drift.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../src/app'
import { buildDeps } from '../src/boot'
import { loadConfig } from '../src/config'
import { openPglite } from '../src/platform/db'
import { renderOpenApi } from '../src/platform/openapi'
import { schemaFiles } from '../client/scripts/schema-types'
import { EVENTS } from '../src/modules'
import { renderEvents } from './events-doc'

const dataDir = mkdtempSync(join(tmpdir(), 'ecobase-openapi-'))
const database = await openPglite()
const deps = buildDeps(loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir }), database)
const target = join(import.meta.dir, '..', 'openapi.json')
const document = await renderOpenApi(createApp(deps))
writeFileSync(target, document)
const types = join(import.meta.dir, '..', 'client', 'schema')
rmSync(types, { recursive: true, force: true })
mkdirSync(types)
for (const [file, text] of Object.entries(schemaFiles(JSON.parse(document)))) writeFileSync(join(types, file), text)
const events = join(import.meta.dir, '..', 'docs', 'events.md')
writeFileSync(events, renderEvents(EVENTS))
await database.close()
rmSync(dataDir, { recursive: true, force: true })
console.log(`wrote ${target}, ${types} and ${events}`)
