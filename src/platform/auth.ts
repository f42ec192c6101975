import { Elysia } from 'elysia'
import { AppError } from './errors'

/** Who is calling. Later areas add kinds (customer, oauth) beside `user`. */
export interface UserPrincipal {
  kind: 'user'
  userId: string
  /** The account session behind a JWT; null for API tokens. */
  sessionId: string | null
  /** The API token used; null for session JWTs. */
  apiTokenId: string | null
}
export type Principal = UserPrincipal

export interface PrincipalSource {
  /** Resolves a raw bearer credential or throws a 401 AppError. */
  resolveBearer(token: string): Promise<Principal>
  capabilities(principal: Principal): Promise<string[]>
}

export const bearerSecurity = [{ bearer: [] as string[] }]

export function bearerToken(header: string | undefined): string {
  if (!header) throw new AppError(401, 'unauthorized', 'Missing Authorization: Bearer header')
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
  if (!match) throw new AppError(401, 'unauthorized', 'Authorization header must be "Bearer <token>"')
  return match[1]!
}

/**
 * `auth: true` on a route resolves `principal` or answers 401;
 * `admin: true` additionally requires the platform `admin` capability (403 otherwise).
 */
export function authGuard(source: PrincipalSource) {
  return new Elysia({ name: 'auth-guard' }).macro({
    auth: {
      detail: { security: bearerSecurity },
      async resolve({ headers }) {
        return { principal: await source.resolveBearer(bearerToken(headers.authorization)) }
      },
    },
    admin: {
      detail: { security: bearerSecurity },
      async resolve({ headers }) {
        const principal = await source.resolveBearer(bearerToken(headers.authorization))
        if (!(await source.capabilities(principal)).includes('admin')) {
          throw new AppError(403, 'forbidden', 'This operation needs the admin capability')
        }
        return { principal }
      },
    },
  })
}
