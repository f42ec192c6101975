// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.
import type { RequestOptions, Result } from '../treaty'
import type { ErrorBody } from './shared'

export interface AuthFirstRun {
  /** No account exists yet: the next registration is the instance’s first (it gets the `admin` capability when ADMIN_EMAILS is empty) */
  firstAccount: boolean
  /** Registration with e-mail and password is enabled */
  registration: boolean
}

export interface AuthRegister {
  /** E-mail address; unique regardless of case */
  email: string
  /** At least 8 characters */
  password: string
  name: string
}

export interface User {
  id: string
  email: string
  name: string
  avatarUrl: string
  slug: string | null
  /** `admin` for platform administrators */
  capabilities: string[]
}

export interface AuthResult {
  /** JWT access token (bearer credential) */
  token: string
  /** Opaque refresh token, single use, rotated on refresh */
  refreshToken: string
  user: User
}

export interface AuthLogin {
  email: string
  password: string
}

export interface AuthRefresh {
  /** The refresh token; browsers may omit it and send the ecobase_refresh cookie */
  refreshToken?: string
}

export interface RefreshResult {
  token: string
  refreshToken: string
}

export interface MfaFactor {
  id: string
  type: "totp" | "passkey"
  name: string
  createdAt: string
  lastUsedAt: string | null
}

export interface MfaStatus {
  /** The account has a verified second factor */
  enabled: boolean
  factors: MfaFactor[]
}

export interface UserSelf {
  id: string
  email: string
  name: string
  avatarUrl: string
  slug: string | null
  /** `admin` for platform administrators */
  capabilities: string[]
  /** The owner of the address proved it (verification or password reset) */
  emailVerified: boolean
  aal: "aal1" | "aal2"
  mfa: MfaStatus
}

export interface AuthProfilePatch {
  name?: string
  /** Public login slug */
  slug?: string
}

export interface AuthSlugAvailability {
  available: boolean
  reason?: "format" | "taken"
}

export interface AuthChangePassword {
  currentPassword: string
  /** At least 8 characters */
  newPassword: string
}

export interface ApiToken {
  id: string
  name: string
  /** Non-secret leading characters of the token, for display */
  prefix: string
  createdAt: string
  expiresAt: string | null
  lastUsedAt: string | null
}

export interface ApiTokenPage {
  items: ApiToken[]
  total: number
  page: number
  pageSize: number
}

export interface AuthCreateApiToken {
  name: string
  /** ISO 8601; must be in the future */
  expiresAt?: string
}

export interface ApiTokenCreated {
  id: string
  name: string
  /** Non-secret leading characters of the token, for display */
  prefix: string
  createdAt: string
  expiresAt: string | null
  lastUsedAt: string | null
  /** The raw token; returned exactly once */
  token: string
}

export interface AuthUserMethod {
  id: string
  userId: string
  provider: string
  providerId: string | null
  hasCredential: boolean
  createdAt: string
  updatedAt: string
}

export interface TotpEnroll {
  /** What the user calls the device */
  name: string
}

export interface TotpEnrollment {
  factorId: string
  /** Base32, for typing into an authenticator app (shown only now) */
  secret: string
  /** otpauth://totp/… (SHA-1, 6 digits, 30 s) */
  otpauthUrl: string
  /** The otpauth URL as a QR code, an SVG document */
  qrSvg: string
}

export interface TotpConfirm {
  code: string
}

export interface TotpConfirmed {
  factor: MfaFactor
  /** With the account’s first factor only: ten single-use codes, shown only now */
  recoveryCodes?: string[]
}

/** What the browser’s WebAuthn call answered, as JSON (base64url buffers) */
export interface WebAuthnCredentialResponse {
  id: string
  rawId: string
  type: "public-key"
  response: {
    [key: string]: unknown
  }
  [key: string]: unknown
}

export type MfaVerify = {
  /** From an authenticator app */
  code: string
} | {
  /** One of the ten recovery codes (each works once) */
  recoveryCode: string
} | {
  passkey: WebAuthnCredentialResponse
}

export interface RecoveryCodes {
  /** Ten single-use codes (`abcd-efgh`), shown only now */
  recoveryCodes: string[]
}

export interface PasskeyRegister {
  response: WebAuthnCredentialResponse
  name: string
}

export interface PasskeyRegistered {
  factor: MfaFactor
  /** With the account’s first factor only: ten single-use codes, shown only now */
  recoveryCodes?: string[]
}

export interface PasskeyLoginStart {
  /** Accepted and not used: the answer is the same for every address */
  email?: string
}

export interface PasskeyLogin {
  response: WebAuthnCredentialResponse
}

export interface AdminUserSecondFactor {
  /** The account has a verified second factor: a password sign-in must verify it */
  verified: boolean
  /** The kinds of its verified factors: `totp` (an authenticator app), `passkey` */
  methods: ("totp" | "passkey")[]
  /** Recovery codes not used yet (0–10; none without a factor) */
  recoveryCodesLeft: number
}

export interface AdminUser {
  id: string
  email: string
  name: string
  createdAt: string
  /** The account holds the `admin` capability (marked admin, or named in ADMIN_EMAILS) */
  platformAdmin: boolean
  secondFactor: AdminUserSecondFactor
  /** When its newest session on record began (sign-in by password, second factor or passkey); null: none on record */
  lastSignInAt: string | null
}

export interface AdminUserPage {
  items: AdminUser[]
  total: number
  page: number
  pageSize: number
}

export interface AuthPasswordResetRequest {
  /** E-mail address; unique regardless of case */
  email: string
}

/** Accepted; an e-mail follows if there is someone to send it to */
export type AuthAccepted = Record<string, never>

export interface AuthPasswordResetConfirm {
  token: string
  /** At least 8 characters */
  newPassword: string
}

export interface AuthVerifyEmailConfirm {
  token: string
}

export interface AuthEmailVerified {
  emailVerified: true
}

/** The routes under /auth. */
export interface AuthRoutes {
  "first-run": {
    /** Whether this instance has an account yet (public) */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: AuthFirstRun; 400: ErrorBody; 429: ErrorBody }>>
  }
  register: {
    /** Create an account and sign in */
    post(body: AuthRegister, options?: RequestOptions<never>): Promise<Result<{ 201: AuthResult; 400: ErrorBody; 403: ErrorBody; 409: ErrorBody; 413: ErrorBody; 429: ErrorBody }>>
  }
  login: {
    /** Sign in with e-mail and password */
    post(body: AuthLogin, options?: RequestOptions<never>): Promise<Result<{ 200: AuthResult; 400: ErrorBody; 401: ErrorBody; 429: ErrorBody }>>
  }
  refresh: {
    /** Rotate the refresh token */
    post(body?: AuthRefresh, options?: RequestOptions<never>): Promise<Result<{ 200: RefreshResult; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
  }
  revoke: {
    /** Sign out (revoke the session of a refresh token) */
    post(body?: AuthRefresh, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
  }
  me: {
    /** The signed-in user */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: UserSelf; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
    /** Update name and/or slug */
    patch(body?: AuthProfilePatch, options?: RequestOptions<never>): Promise<Result<{ 200: User; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
  }
  "slug-available": ((params: { slug: string | number }) => {
    /** Whether a slug is free and well-formed */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: AuthSlugAvailability; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
  })
  "revoke-all": {
    /** Sign out everywhere (revoke every session) */
    post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
  }
  "change-password": {
    /** Change the password */
    post(body: AuthChangePassword, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
  }
  tokens: ((params: { id: string | number }) => {
    /** Delete an API token */
    delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }) & {
    /** List API tokens (newest first; never the secret) */
    get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: ApiTokenPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
    /** Create an API token */
    post(body: AuthCreateApiToken, options?: RequestOptions<never>): Promise<Result<{ 201: ApiTokenCreated; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
  }
  methods: {
    /** The caller's sign-in methods */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: AuthUserMethod[]; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
  }
  mfa: {
    totp: ((params: { id: string | number }) => {
      confirm: {
        /** Confirm a TOTP factor with a code from it */
        post(body: TotpConfirm, options?: RequestOptions<never>): Promise<Result<{ 200: TotpConfirmed; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
      }
    }) & {
      /** Start a TOTP factor: its secret and QR code */
      post(body: TotpEnroll, options?: RequestOptions<never>): Promise<Result<{ 200: TotpEnrollment; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
    }
    verify: {
      /** Step up to aal2 with a code, a recovery code or a passkey */
      post(body?: MfaVerify, options?: RequestOptions<never>): Promise<Result<{ 200: AuthResult; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
      options: {
        /** Request options for verifying with a passkey */
        post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: {
  [key: string]: unknown
}; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
      }
    }
    "recovery-codes": {
      /** Replace the ten recovery codes */
      post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: RecoveryCodes; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
    }
    factors: ((params: { id: string | number }) => {
      /** Remove a second factor */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    })
  }
  passkeys: ((params: { id: string | number }) => {
    /** Remove a passkey */
    delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }) & {
    /** Your passkeys */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: MfaFactor[]; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
    register: {
      options: {
        /** Creation options for a new passkey */
        post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: {
  [key: string]: unknown
}; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
      }
      verify: {
        /** Keep the new passkey */
        post(body: PasskeyRegister, options?: RequestOptions<never>): Promise<Result<{ 200: PasskeyRegistered; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
      }
    }
    login: {
      options: {
        /** Request options for signing in with a passkey */
        post(body?: PasskeyLoginStart, options?: RequestOptions<never>): Promise<Result<{ 200: {
  [key: string]: unknown
}; 400: ErrorBody; 429: ErrorBody }>>
      }
      verify: {
        /** Sign in with a passkey */
        post(body: PasskeyLogin, options?: RequestOptions<never>): Promise<Result<{ 200: AuthResult; 400: ErrorBody; 401: ErrorBody; 429: ErrorBody }>>
      }
    }
  }
  admin: {
    users: ((params: { id: string | number }) => {
      factors: {
        /** Reset an account’s second factors (platform admins) */
        delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
      }
    }) & {
      /** Accounts and their second factors (platform admins) */
      get(options?: RequestOptions<{ page?: number; pageSize?: number; q?: string }>): Promise<Result<{ 200: AdminUserPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
    }
  }
  "password-reset": {
    request: {
      /** E-mail a password-reset token */
      post(body: AuthPasswordResetRequest, options?: RequestOptions<never>): Promise<Result<{ 202: AuthAccepted; 400: ErrorBody; 429: ErrorBody }>>
    }
    confirm: {
      /** Set a new password with a reset token */
      post(body: AuthPasswordResetConfirm, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 429: ErrorBody }>>
    }
  }
  "verify-email": {
    request: {
      /** E-mail a verification token to the signed-in account */
      post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 202: AuthAccepted; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    }
    confirm: {
      /** Confirm the address with a verification token */
      post(body: AuthVerifyEmailConfirm, options?: RequestOptions<never>): Promise<Result<{ 200: AuthEmailVerified; 400: ErrorBody; 429: ErrorBody }>>
    }
  }
}
