// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.
import type { RequestOptions, Result } from '../treaty'
import type { ErrorBody } from './shared'

export interface RegistryProvision {
  /** Organization slug, unique; also its identifier organization.<slug> */
  slug: string
  name: string
  /** Namespace slug (defaults to the organization slug); the prefix is org.<namespaceSlug> */
  namespaceSlug?: string
  /** Slug of the first ecosystem (default `main`) */
  ecosystemSlug?: string
}

export interface RegistryOrganization {
  id: string
  slug: string
  name: string
  /** Members must verify a second factor (aal2) to act in its ecosystems */
  requireMfa: boolean
}

export interface RegistryNamespace {
  id: string
  ownerKind: "customer" | "organization"
  ownerId: string
  slug: string | null
  name: string | null
  /** The namespace reverse-domain prefix */
  rdid: string | null
}

/** The ecosystem’s own API rate limits. Requests each principal (account, API token, customer) may make in the ecosystem per RATE_LIMIT_WINDOW_SECONDS, by class of route: `read` (GET, HEAD), `write` (other methods), `expensive` (chat replies, upload presigns); a class left out keeps the instance default (RATE_LIMIT_READ, RATE_LIMIT_WRITE, RATE_LIMIT_EXPENSIVE). See docs/operations/rate-limits.md. */
export interface RegistryEcosystemRateLimits {
  read?: number
  write?: number
  expensive?: number
}

export interface RegistryEcosystem {
  id: string
  slug: string
  /** Defaults to the namespace prefix, a dot, then the slug */
  rdid: string
  name: string | null
  organizationId: string
  rateLimits: RegistryEcosystemRateLimits | null
}

export interface RegistryProvisionedOrganization {
  organization: RegistryOrganization
  namespace: RegistryNamespace
  /** The provisioned admin team id */
  teamId: string
  ecosystem: RegistryEcosystem
}

export interface RegistryOrganizationPage {
  items: RegistryOrganization[]
  total: number
  page: number
  pageSize: number
}

export interface RegistryOrganizationPolicy {
  requireMfa: boolean
}

export interface RegistryNamespacePage {
  items: RegistryNamespace[]
  total: number
  page: number
  pageSize: number
}

export interface RegistryNamespacePatch {
  /** Namespace slug */
  slug?: string
  name?: string
}

export interface RegistryNamespaceUpdate {
  id: string
  slug: string | null
  name: string | null
}

export interface RegistryEcosystemCreate {
  organizationId: string
  /** Unique within the organization */
  slug: string
  name?: string
  /** Defaults to <namespace prefix>.<slug>; must lie under the prefix */
  rdid?: string
}

export interface RegistryEcosystemPage {
  items: RegistryEcosystem[]
  total: number
  page: number
  pageSize: number
}

/** Replaces the ecosystem’s own API rate limits; `{}` goes back to the instance defaults. Requests each principal (account, API token, customer) may make in the ecosystem per RATE_LIMIT_WINDOW_SECONDS, by class of route: `read` (GET, HEAD), `write` (other methods), `expensive` (chat replies, upload presigns); a class left out keeps the instance default (RATE_LIMIT_READ, RATE_LIMIT_WRITE, RATE_LIMIT_EXPENSIVE). See docs/operations/rate-limits.md. */
export interface RegistryEcosystemRateLimitsUpdate {
  read?: number
  write?: number
  expensive?: number
}

export interface RegistryEcosystemPatch {
  /** New slug; an rdid in its default form follows it */
  slug?: string
  name?: string
  rateLimits?: RegistryEcosystemRateLimitsUpdate
}

export interface RegistryIdentifier {
  rdid: string
  /** e.g. namespace, ecosystem, organization */
  entityType: string
  /** The UUID the rdid resolves to */
  entityId: string
  /** The minter; null for system mappings */
  createdBy: string | null
}

export interface RegistryIdentifierCreate {
  /** Reverse-domain identifier: two or more dot-separated labels of [a-z0-9-] */
  rdid: string
  entityType: string
  entityId: string
}

export interface RegistryIdentifierPage {
  items: RegistryIdentifier[]
  total: number
  page: number
  pageSize: number
}

/** The routes under /registry. */
export interface RegistryRoutes {
  organizations: ((params: { id: string | number }) => {
    /** One organization (members only; 404 otherwise) */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: RegistryOrganization; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    policy: {
      /** Require a second factor of every member */
      patch(body: RegistryOrganizationPolicy, options?: RequestOptions<never>): Promise<Result<{ 200: RegistryOrganization; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
    }
  }) & {
    /** Create an organization with its namespace, admin team and first ecosystem */
    post(body: RegistryProvision, options?: RequestOptions<never>): Promise<Result<{ 201: RegistryProvisionedOrganization; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
    /** Organizations the caller is a member of */
    get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: RegistryOrganizationPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
  }
  namespaces: ((params: { id: string | number }) => {
    /** Rename a namespace (its rdid prefix never changes) */
    patch(body?: RegistryNamespacePatch, options?: RequestOptions<never>): Promise<Result<{ 200: RegistryNamespaceUpdate; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
  }) & {
    /** The caller's namespaces */
    get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: RegistryNamespacePage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
  }
  ecosystems: ((params: { id: string | number }) => {
    /** One ecosystem (members of its organization only) */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: RegistryEcosystem; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Rename an ecosystem (admin or owner) */
    patch(body?: RegistryEcosystemPatch, options?: RequestOptions<never>): Promise<Result<{ 200: RegistryEcosystem; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
    /** Delete an ecosystem and everything in it (owner only) */
    delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }) & {
    /** Add an ecosystem to an organization (admin or owner) */
    post(body: RegistryEcosystemCreate, options?: RequestOptions<never>): Promise<Result<{ 201: RegistryEcosystem; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
    /** Ecosystems the caller can reach */
    get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: RegistryEcosystemPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
  }
  resolve: ((params: { rdid: string | number }) => {
    /** Resolve a reverse-domain identifier (public) */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: RegistryIdentifier; 400: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  })
  identifiers: {
    /** Map an rdid to an entity */
    post(body: RegistryIdentifierCreate, options?: RequestOptions<never>): Promise<Result<{ 201: RegistryIdentifier; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
    /** Identifiers that resolve to an entity */
    get(options: RequestOptions<{ page?: number; pageSize?: number; entityId: string }> & { query: { page?: number; pageSize?: number; entityId: string } }): Promise<Result<{ 200: RegistryIdentifierPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
  }
}
