import { afterAll } from 'bun:test'
import { dropTemplate } from './database'

process.env.LOG_LEVEL ??= 'silent'

afterAll(async () => {
  await dropTemplate()
})
