// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.
import type { RequestOptions, Result } from '../treaty'
import type { ErrorBody } from './shared'

export interface CustomerResolve {
  /** Your own id for this customer; unique per ecosystem */
  externalId: string
  email?: string
  /** Phone number, E.164 preferred */
  phone?: string
  name?: string
  /** Picture URL (shown on leaderboards and profiles) */
  avatarUrl?: string
}

export interface CustomerResolveResult {
  /** The stable customer id for the external id */
  customerId: string
}

export interface CustomerRegister {
  /** Your own id for this customer; unique per ecosystem */
  externalId?: string
  email?: string
  /** Phone number, E.164 preferred */
  phone?: string
  name?: string
  /** Picture URL (shown on leaderboards and profiles) */
  avatarUrl?: string
}

export interface CustomerRegisterResult {
  /** The newly provisioned customer id */
  customerId: string
}

export interface CustomerToken {
  customerId: string
}

export interface CustomerAuthResult {
  /** Short-lived JWT, typ `customer`, carrying the ecosystem (`eco`) and customer (`sub`) */
  token: string
  /** Opaque, single-use, rotated on refresh */
  refreshToken: string
  customerId: string
}

export interface CustomerSupportSession {
  /** A customer JWT (`typ` `customer`) for this session only; there is no refresh token */
  token: string
  customerId: string
  /** The session, to end it early (DELETE /customer/support-sessions/{id}) */
  sessionId: string
  /** When the token and its session end (ISO 8601 UTC) */
  expiresAt: string
}

export interface CustomerRefresh {
  refreshToken: string
}

export interface Customer {
  id: string
  ecosystemId: string
  externalId: string | null
  email: string | null
  phone: string | null
  name: string | null
  avatarUrl: string | null
  createdAt: string
  updatedAt: string
}

export interface CustomerPage {
  items: Customer[]
  total: number
  page: number
  pageSize: number
}

/** The fields to change; null clears one. The customer keeps a name, an e-mail or an external id. */
export interface CustomerPatch {
  /** Your own id for this customer; unique per ecosystem */
  externalId?: string | null
  email?: string | null
  /** Phone number, E.164 preferred */
  phone?: string | null
  name?: string | null
  /** Picture URL (shown on leaderboards and profiles) */
  avatarUrl?: string | null
}

/** The routes under /customer. */
export interface CustomerRoutes {
  resolve: {
    /** The customer id for an external id, created on first use */
    post(body: CustomerResolve, options?: RequestOptions<never>): Promise<Result<{ 200: CustomerResolveResult; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
  register: {
    /** Provision a new customer */
    post(body?: CustomerRegister, options?: RequestOptions<never>): Promise<Result<{ 201: CustomerRegisterResult; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
  }
  token: {
    /** Issue tokens for a customer (from your backend) */
    post(body: CustomerToken, options?: RequestOptions<never>): Promise<Result<{ 200: CustomerAuthResult; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
  "support-sessions": ((params: { id: string | number }) => {
    /** End a support session before its time */
    delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }) & {
    /** Act as a customer for a short while (support) */
    post(body: CustomerToken, options?: RequestOptions<never>): Promise<Result<{ 200: CustomerSupportSession; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
  refresh: {
    /** Rotate a customer refresh token */
    post(body: CustomerRefresh, options?: RequestOptions<never>): Promise<Result<{ 200: CustomerAuthResult; 400: ErrorBody; 401: ErrorBody; 429: ErrorBody }>>
  }
  revoke: {
    /** Sign a customer out (unknown tokens are ignored) */
    post(body: CustomerRefresh, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 429: ErrorBody }>>
  }
  me: {
    /** The calling customer */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: Customer; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
  customers: ((params: { id: string | number }) => {
    /** One customer */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: Customer; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Change a customer */
    patch(body?: CustomerPatch, options?: RequestOptions<never>): Promise<Result<{ 200: Customer; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
    /** Delete a customer with its sessions and data */
    delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }) & {
    /** Customers of the ecosystem, newest first */
    get(options?: RequestOptions<{ page?: number; pageSize?: number; q?: string; includeServiceRecords?: boolean }>): Promise<Result<{ 200: CustomerPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
}
