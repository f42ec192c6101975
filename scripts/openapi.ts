// Rewrites openapi.json from the app's own document, the client's types from it, and docs/events.md (`npm run openapi`); tests fail on drift.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { schemaFiles } from '../client/scripts/schema-types'
import { openApiDocument } from '../src/cli/document'
import { MODULES } from '../src/modules'
import { renderEvents } from './events-doc'

const target = join(import.meta.dir, '..', 'openapi.json')
const document = await openApiDocument()
writeFileSync(target, document)
const types = join(import.meta.dir, '..', 'client', 'schema')
rmSync(types, { recursive: true, force: true })
mkdirSync(types)
for (const [file, text] of Object.entries(schemaFiles(JSON.parse(document)))) writeFileSync(join(types, file), text)
const events = join(import.meta.dir, '..', 'docs', 'events.md')
writeFileSync(events, renderEvents(MODULES))
console.log(`wrote ${target}, ${types} and ${events}`)
