import { defineModule } from '../module'
import { SETTINGS_AUDIT } from './events'
import { SETTINGS_ERRORS } from './errors'
import { settingsRoutes } from './routes'
import { SettingsService } from './service'

declare module '../module' {
  interface Services {
    settings: SettingsService
  }
}

export default defineModule({
  name: 'settings',
  tags: {
    settings:
      'Instance settings for platform admins, such as which sign-in methods are enabled, and the audit log (GET /audit/events) of administrative changes and security events.',
  },
  errors: SETTINGS_ERRORS,
  audit: SETTINGS_AUDIT,
  setup: (ctx) => {
    const settings = new SettingsService(ctx.deps, ctx.use('audit'))
    return { services: settings, routes: () => [settingsRoutes(settings, ctx.guards)] }
  },
})
