import type { AnyElysia } from 'elysia'
import type { Config } from '../../../config'
import type { Guards } from '../../../platform/guards'
import type { AuthService } from '../service'
import { accountEmailRoutes } from './account-emails'
import { accountRoutes } from './accounts'
import { adminRoutes } from './admin'
import { mfaRoutes, passkeyRoutes } from './mfa'

/** Every route of the accounts area, in mount order. */
export function authRoutes(auth: AuthService, guards: Guards, config: Config): AnyElysia[] {
  return [
    accountRoutes(auth, guards, { config }),
    mfaRoutes(auth, guards, config),
    passkeyRoutes(auth, guards, config),
    adminRoutes(auth, guards),
    accountEmailRoutes(auth.emails, guards, config.trustProxy),
  ]
}
