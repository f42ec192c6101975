// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.
import type { RequestOptions, Result } from '../treaty'
import type { ErrorBody } from './shared'

export interface AuthMethodSetting {
  method: string
  enabled: boolean
}

export interface AuthMethodSettingUpdate {
  enabled: boolean
}

/** The routes under /settings. */
export interface SettingsRoutes {
  "auth-methods": ((params: { method: string | number }) => {
    /** Enable or disable a sign-in method (admin) */
    put(body: AuthMethodSettingUpdate, options?: RequestOptions<never>): Promise<Result<{ 200: AuthMethodSetting; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
  }) & {
    /** Platform sign-in methods and whether each is enabled */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: AuthMethodSetting[]; 400: ErrorBody; 401: ErrorBody }>>
  }
}
