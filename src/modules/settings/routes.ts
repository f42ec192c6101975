import { Elysia, t } from 'elysia'
import type { Guards } from '../../platform/guards'
import { errors } from './errors'
import type { SettingsService } from './service'
import { AuthMethodSetting } from './model'

export function settingsRoutes(settings: SettingsService, guards: Guards) {
  return new Elysia({ name: 'settings', prefix: '/settings', detail: { tags: ['settings'] } })
    .use(guards.auth)
    .get('/auth-methods', () => settings.listAuthMethods(), {
      auth: true,
      response: { 200: t.Array(AuthMethodSetting, { examples: [[{ method: 'password', enabled: true }]] }), ...errors(401) },
      detail: {
        operationId: 'settingsListAuthMethods',
        summary: 'Platform sign-in methods and whether each is enabled',
        description:
          'Any signed-in account may read them (a sign-in page shows only enabled ones); platform admins switch them with PUT /settings/auth-methods/{method}. With `password` off, registration answers 403 `registration_disabled`.',
      },
    })
    .put('/auth-methods/:method', ({ params, body, principal }) => settings.setAuthMethod(params.method, body.enabled, principal), {
      admin: true,
      params: t.Object({ method: t.String({ maxLength: 50 }) }),
      body: t.Object({ enabled: t.Boolean() }, { title: 'AuthMethodSettingUpdate', examples: [{ enabled: false }] }),
      response: { 200: AuthMethodSetting, ...errors(400, 401, 403, 404) },
      detail: {
        operationId: 'settingsSetAuthMethod',
        summary: 'Enable or disable a sign-in method (admin)',
        description:
          'Known methods: `password`. Disabling `password` stops new registrations (403 `registration_disabled`); existing accounts can still sign in, so administrators cannot lock themselves out.',
      },
    })
}
