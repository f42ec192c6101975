import { afterAll } from 'bun:test'
import { dropTemplate, warmUp } from './database'

process.env.LOG_LEVEL ??= 'silent'

await warmUp()

afterAll(async () => {
  await dropTemplate()
})
