import { defineConfig } from 'drizzle-kit'

export default defineConfig({
  dialect: 'postgresql',
  // Each module's tables are its own schema.ts.
  schema: './src/modules/*/schema.ts',
  out: './drizzle',
})
