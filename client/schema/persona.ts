// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.
import type { RequestOptions, Result } from '../treaty'
import type { ErrorBody } from './shared'

export interface PersonaServiceTemplate {
  id: string
  providerKind: string
  name: string
  /** Default base URL; null: you must give one */
  baseUrl: string | null
  requiresApiKey: boolean
  documentationUrl: string
  statusUrl: string | null
}

export type PersonaServiceModel = string | {
  id: string
  [key: string]: unknown
}

export interface PersonaService {
  id: string
  templateId?: string | null
  /** `openai`, `ollama`, `openrouter` or `openai_compatible`; all are spoken to with the OpenAI chat-completions protocol */
  providerKind: string
  name: string
  baseUrl: string
  /** Whether an API key is stored; the key itself is never returned */
  hasApiKey: boolean
  /** `never` (not tried), `connected` or `failed` (see connectError) */
  connectStatus: string
  connectError?: string | null
  /** ISO 8601, UTC */
  lastConnectedAt?: string | null
  /** Models listed at the last successful connect */
  models: PersonaServiceModel[]
  /** ISO 8601, UTC */
  modelsFetchedAt?: string | null
  documentationUrl?: string | null
  statusUrl?: string | null
  /** ISO 8601, UTC */
  createdAt: string
  /** ISO 8601, UTC */
  updatedAt: string
}

export interface PersonaServicePage {
  items: PersonaService[]
  total: number
  page: number
  pageSize: number
}

export interface PersonaServiceCreate {
  /** A template id from GET /persona/service-templates: fills providerKind, name, baseUrl and links */
  templateId?: string
  name?: string
  /** OpenAI-compatible API root, e.g. https://api.openai.com/v1 */
  baseUrl?: string
  /** Stored encrypted; never returned */
  apiKey?: string
}

export interface PersonaServicePatch {
  name?: string
  /** OpenAI-compatible API root, e.g. https://api.openai.com/v1 */
  baseUrl?: string
  /** Stored encrypted; never returned */
  apiKey?: string | null
}

export interface Persona {
  id: string
  slug: string
  name: string
  description: string | null
  /** System prompt the model receives */
  modelPrompt: string
  voice: string | null
  character: string | null
  examples: string | null
  visibility: "private" | "unlisted" | "public"
  /** A persona service of this ecosystem; null: the default service */
  serviceId: string | null
  /** Model id; null: the service's default */
  model: string | null
  /** Chat's `search` tool may also search the ecosystem's community threads (`in: "community"`), which every customer of the ecosystem can read anyway. Default false. */
  searchCommunity: boolean
  createdBy: string | null
  /** ISO 8601, UTC */
  createdAt: string
  /** ISO 8601, UTC */
  updatedAt: string
}

export interface PersonaPage {
  items: Persona[]
  total: number
  page: number
  pageSize: number
}

export interface PersonaCreate {
  /** Unique within the ecosystem */
  slug: string
  name: string
  description?: string | null
  /** System prompt the model receives */
  modelPrompt?: string
  voice?: string | null
  character?: string | null
  examples?: string | null
  visibility?: "private" | "unlisted" | "public"
  /** A persona service of this ecosystem; null: the default service */
  serviceId?: string | null
  /** Model id; null: the service's default */
  model?: string | null
  /** Chat's `search` tool may also search the ecosystem's community threads (`in: "community"`), which every customer of the ecosystem can read anyway. Default false. */
  searchCommunity?: boolean
}

export interface PersonaPatch {
  /** Unique within the ecosystem */
  slug?: string
  name?: string
  description?: string | null
  /** System prompt the model receives */
  modelPrompt?: string
  voice?: string | null
  character?: string | null
  examples?: string | null
  visibility?: "private" | "unlisted" | "public"
  /** A persona service of this ecosystem; null: the default service */
  serviceId?: string | null
  /** Model id; null: the service's default */
  model?: string | null
  /** Chat's `search` tool may also search the ecosystem's community threads (`in: "community"`), which every customer of the ecosystem can read anyway. Default false. */
  searchCommunity?: boolean
}

/** The routes under /persona. */
export interface PersonaRoutes {
  "service-templates": {
    /** Built-in persona service templates */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: PersonaServiceTemplate[]; 400: ErrorBody; 429: ErrorBody }>>
  }
  services: ((params: { id: string | number }) => {
    /** One persona service */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: PersonaService; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Rename a persona service, or change its base URL or key */
    patch(body?: PersonaServicePatch, options?: RequestOptions<never>): Promise<Result<{ 200: PersonaService; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Delete a persona service */
    delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    connect: {
      /** Connect: list the provider's models */
      post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: PersonaService; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    }
  }) & {
    /** Persona services of the ecosystem, newest first */
    get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: PersonaServicePage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Add a persona service */
    post(body?: PersonaServiceCreate, options?: RequestOptions<never>): Promise<Result<{ 201: PersonaService; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
  personas: ((params: { id: string | number }) => {
    /** One persona */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: Persona; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Change a persona */
    patch(body?: PersonaPatch, options?: RequestOptions<never>): Promise<Result<{ 200: Persona; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
    /** Delete a persona */
    delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }) & {
    /** Personas of the ecosystem, newest first */
    get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: PersonaPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Create a persona */
    post(body: PersonaCreate, options?: RequestOptions<never>): Promise<Result<{ 201: Persona; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
  }
}
