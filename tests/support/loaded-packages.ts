/**
 * Builds the server as src/main.ts does (configuration from the environment, the database, the
 * app, the job queue prepared), without listening, and prints the packages loaded by then as a
 * JSON array: the SDKs a start must not load (tests/platform/lazy-packages.test.ts).
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
const packages = new Set(Object.keys(require.cache).flatMap((path) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1] ?? []))
await deps.queue.stop(1000)
await database.close()
console.log(JSON.stringify([...packages].sort()))
