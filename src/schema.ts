// Every area's tables, for drizzle-kit. Areas import their own schema.ts directly.
export * from './modules/auth/schema'
export * from './modules/settings/schema'
export * from './modules/oauth/schema'
