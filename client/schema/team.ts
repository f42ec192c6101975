// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.
import type { RequestOptions, Result } from '../treaty'
import type { ErrorBody } from './shared'

export interface TeamMember {
  /** Membership id (used by PATCH/DELETE) */
  id: string
  organizationId: string
  userId: string
  email: string
  name: string
  /** The member’s account has a verified second factor (an authenticator app or a passkey): what an organization’s `requireMfa` asks of it */
  mfa: boolean
  role: "owner" | "admin" | "member"
  createdAt: string
}

export interface TeamMemberPage {
  items: TeamMember[]
  total: number
  page: number
  pageSize: number
}

export interface TeamMemberAdd {
  organizationId: string
  email: string
  role: "owner" | "admin" | "member"
}

export interface TeamMemberPatch {
  role: "owner" | "admin" | "member"
}

/** The routes under /team. */
export interface TeamRoutes {
  members: ((params: { id: string | number }) => {
    /** Change a member's role (admin or owner) */
    patch(body: TeamMemberPatch, options?: RequestOptions<never>): Promise<Result<{ 200: TeamMember; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
    /** Remove a member, or leave */
    delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
  }) & {
    /** Members of an organization's team (members only) */
    get(options: RequestOptions<{ page?: number; pageSize?: number; organizationId: string }> & { query: { page?: number; pageSize?: number; organizationId: string } }): Promise<Result<{ 200: TeamMemberPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Add an existing account to the team (admin or owner) */
    post(body: TeamMemberAdd, options?: RequestOptions<never>): Promise<Result<{ 201: TeamMember; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
  }
}
