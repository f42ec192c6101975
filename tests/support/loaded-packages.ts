/**
 * Builds the server as src/main.ts does (configuration from the environment, the database, the
 * app, the job queue prepared), without listening, and prints what is loaded by then as JSON: the
 * packages (the SDKs a start must not load) and their files (tests/platform/lazy-packages.test.ts).
 */
import '../../src/jobs'
import '../../src/platform/lifecycle'
import '../../src/platform/shutdown'
import { createApp } from '../../src/app'
import { buildDeps, loadConfig, openDatabase } from '../../src/boot'

const config = loadConfig()
const database = await openDatabase(config)
const deps = buildDeps(config, database)
createApp(deps)
await deps.queue.prepare()
const files = Object.keys(require.cache).flatMap((path) => /node_modules\/(.+)$/.exec(path)?.[1] ?? [])
const packages = new Set(files.flatMap((file) => /^((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1] ?? []))
await deps.queue.stop(1000)
await database.close()
console.log(JSON.stringify({ packages: [...packages].sort(), files: files.sort() }))
