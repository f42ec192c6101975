import { t } from 'elysia'

/** A platform sign-in method and whether it is enabled. */
export const AuthMethodSetting = t.Object(
  { method: t.String(), enabled: t.Boolean() },
  { title: 'AuthMethodSetting', examples: [{ method: 'password', enabled: false }] },
)
