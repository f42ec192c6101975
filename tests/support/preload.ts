import { afterAll } from 'bun:test'
import { dropTemplate, warmUp } from './database'

process.env.LOG_LEVEL ??= 'silent'
// Servers the tests start as processes inherit the re-entrancy guard (platform/db/watch.ts).
process.env.DB_DEBUG = '1'

await warmUp()

afterAll(async () => {
  await dropTemplate()
})
