import { t } from 'elysia'
import { Timestamp } from '../../platform/crud/model'
import { SLUG_PATTERN } from '../auth/model'

const Text = (maxLength: number, description?: string) => t.String({ maxLength, ...(description ? { description } : {}) })
const NullableText = (maxLength: number) => t.Nullable(Text(maxLength))
const Visibility = t.Union([t.Literal('private'), t.Literal('unlisted'), t.Literal('public')], {
  title: 'PersonaVisibility',
  description: '`private`: only inside the ecosystem; `unlisted`: readable publicly by slug; `public`: also listed publicly',
})

export const PersonaServiceModel = t.Union(
  [
    t.String({ description: 'Model id' }),
    t.Object({ id: t.String() }, { additionalProperties: true, description: 'Model descriptor as the provider lists it' }),
  ],
  { title: 'PersonaServiceModel' },
)

export const PersonaService = t.Object(
  {
    id: t.String(),
    templateId: t.Optional(t.Nullable(t.String())),
    providerKind: t.String({
      description: '`openai`, `ollama`, `openrouter` or `openai_compatible`; all are spoken to with the OpenAI chat-completions protocol',
    }),
    name: t.String(),
    baseUrl: t.String(),
    hasApiKey: t.Boolean({ description: 'Whether an API key is stored; the key itself is never returned' }),
    connectStatus: t.String({ description: '`never` (not tried), `connected` or `failed` (see connectError)' }),
    connectError: t.Optional(t.Nullable(t.String())),
    lastConnectedAt: t.Optional(t.Nullable(Timestamp)),
    models: t.Array(PersonaServiceModel, { description: 'Models listed at the last successful connect' }),
    modelsFetchedAt: t.Optional(t.Nullable(Timestamp)),
    documentationUrl: t.Optional(t.Nullable(t.String())),
    statusUrl: t.Optional(t.Nullable(t.String())),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  {
    title: 'PersonaService',
    examples: [
      {
        id: '4d3c2b1a-0f9e-4d8c-9b7a-6f5e4d3c2b1a',
        templateId: 'openai',
        providerKind: 'openai',
        name: 'OpenAI',
        baseUrl: 'https://api.openai.com/v1',
        hasApiKey: true,
        connectStatus: 'connected',
        connectError: null,
        lastConnectedAt: '2026-11-26T09:05:00.000Z',
        models: [{ id: 'gpt-4o-mini', object: 'model', created: 1721172741, owned_by: 'system' }],
        modelsFetchedAt: '2026-11-26T09:05:00.000Z',
        documentationUrl: 'https://platform.openai.com/docs/api-reference/chat',
        statusUrl: 'https://status.openai.com',
        createdAt: '2026-11-26T09:00:00.000Z',
        updatedAt: '2026-11-26T09:05:00.000Z',
      },
    ],
  },
)

export const PersonaServiceTemplate = t.Object(
  {
    id: t.String(),
    providerKind: t.String(),
    name: t.String(),
    baseUrl: t.Nullable(t.String({ description: 'Default base URL; null: you must give one' })),
    requiresApiKey: t.Boolean(),
    documentationUrl: t.String(),
    statusUrl: t.Nullable(t.String()),
  },
  {
    title: 'PersonaServiceTemplate',
    examples: [
      {
        id: 'openai',
        providerKind: 'openai',
        name: 'OpenAI',
        baseUrl: 'https://api.openai.com/v1',
        requiresApiKey: true,
        documentationUrl: 'https://platform.openai.com/docs/api-reference/chat',
        statusUrl: 'https://status.openai.com',
      },
    ],
  },
)

const BaseUrl = t.String({ pattern: '^https?://', maxLength: 2000, description: 'OpenAI-compatible API root, e.g. https://api.openai.com/v1' })
const ApiKey = t.String({ minLength: 1, maxLength: 1000, description: 'Stored encrypted; never returned' })

export const PersonaServiceCreate = t.Object(
  {
    templateId: t.Optional(t.String({ description: 'A template id from GET /persona/service-templates: fills providerKind, name, baseUrl and links' })),
    name: t.Optional(t.String({ minLength: 1, maxLength: 100 })),
    baseUrl: t.Optional(BaseUrl),
    apiKey: t.Optional(ApiKey),
  },
  { title: 'PersonaServiceCreate', examples: [{ templateId: 'openai', apiKey: 'sk-example-team-key' }] },
)

export const PersonaServicePatch = t.Object(
  {
    name: t.Optional(t.String({ minLength: 1, maxLength: 100 })),
    baseUrl: t.Optional(BaseUrl),
    apiKey: t.Optional(t.Nullable(ApiKey, { description: 'null removes the stored key' })),
  },
  { title: 'PersonaServicePatch', examples: [{ name: 'OpenAI (team key)', apiKey: 'sk-example-team-key' }], minProperties: 1 },
)

const personaFields = {
  name: t.String({ minLength: 1, maxLength: 200 }),
  description: NullableText(2000),
  modelPrompt: Text(20000, 'System prompt the model receives'),
  voice: NullableText(2000),
  character: NullableText(5000),
  examples: NullableText(20000),
  visibility: Visibility,
  serviceId: t.Nullable(t.String({ format: 'uuid', description: 'A persona service of this ecosystem; null: the default service' })),
  model: t.Nullable(t.String({ minLength: 1, maxLength: 200, description: "Model id; null: the service's default" })),
  searchCommunity: t.Boolean({
    description:
      'Chat\'s `search` tool may also search the ecosystem\'s community threads (`in: "community"`), which every customer of the ecosystem can read anyway. Default false.',
  }),
}
const Slug = t.String({ pattern: SLUG_PATTERN, description: 'Unique within the ecosystem' })

export const Persona = t.Object(
  { id: t.String(), slug: t.String(), ...personaFields, createdBy: t.Nullable(t.String()), createdAt: Timestamp, updatedAt: Timestamp },
  {
    title: 'Persona',
    examples: [
      {
        id: '1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b',
        slug: 'concierge',
        name: 'Concierge',
        description: 'Plans trips',
        modelPrompt: 'You are a friendly travel concierge. Keep answers short.',
        voice: 'Warm and brief',
        character: null,
        examples: null,
        visibility: 'public',
        serviceId: null,
        model: null,
        searchCommunity: false,
        createdBy: '6f1c0a3e-2b7d-4c1a-9e5f-3d2b1a0c9e8f',
        createdAt: '2026-11-26T09:00:00.000Z',
        updatedAt: '2026-11-26T09:00:00.000Z',
      },
    ],
  },
)

export const PersonaCreate = t.Object(
  {
    slug: Slug,
    name: personaFields.name,
    description: t.Optional(personaFields.description),
    modelPrompt: t.Optional(personaFields.modelPrompt),
    voice: t.Optional(personaFields.voice),
    character: t.Optional(personaFields.character),
    examples: t.Optional(personaFields.examples),
    visibility: t.Optional(personaFields.visibility),
    serviceId: t.Optional(personaFields.serviceId),
    model: t.Optional(personaFields.model),
    searchCommunity: t.Optional(personaFields.searchCommunity),
  },
  {
    title: 'PersonaCreate',
    examples: [
      {
        slug: 'concierge',
        name: 'Concierge',
        description: 'Plans trips',
        modelPrompt: 'You are a friendly travel concierge. Keep answers short.',
        visibility: 'public',
      },
    ],
  },
)

export const PersonaPatch = t.Partial(t.Object({ slug: Slug, ...personaFields }), {
  title: 'PersonaPatch',
  examples: [{ name: 'Travel concierge', visibility: 'unlisted' }],
  minProperties: 1,
})

export const PublicOwner = t.Nullable(
  t.Object({ slug: t.String(), displayName: t.Nullable(t.String()), avatarUrl: t.Nullable(t.String()) }, { title: 'PublicOwner' }),
  { description: 'The account that created the persona; null when it has no public profile (no slug)' },
)

const OWNER_EXAMPLE = { slug: 'ada', displayName: 'Ada Lovelace', avatarUrl: null }
const SUMMARY_EXAMPLE = {
  slug: 'concierge',
  name: 'Concierge',
  description: 'Plans trips',
  visibility: 'public',
  createdAt: '2026-11-26T09:00:00.000Z',
  owner: OWNER_EXAMPLE,
  ecosystemId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
}

const EcosystemId = t.String({ description: 'The ecosystem the persona belongs to (pass it as ?ecosystem= when a slug is ambiguous)' })

export const PublicPersonaSummary = t.Object(
  {
    slug: t.String(),
    name: t.String(),
    description: t.Nullable(t.String()),
    visibility: t.Literal('public'),
    createdAt: Timestamp,
    owner: PublicOwner,
    ecosystemId: EcosystemId,
  },
  { title: 'PublicPersonaSummary', examples: [SUMMARY_EXAMPLE] },
)

export const PublicPersona = t.Object(
  {
    slug: t.String(),
    name: t.String(),
    description: t.Nullable(t.String()),
    modelPrompt: t.String(),
    voice: t.Nullable(t.String()),
    character: t.Nullable(t.String()),
    examples: t.Nullable(t.String()),
    visibility: t.Union([t.Literal('public'), t.Literal('unlisted')]),
    createdAt: Timestamp,
    owner: PublicOwner,
    ecosystemId: EcosystemId,
  },
  {
    title: 'PublicPersona',
    examples: [
      {
        slug: 'concierge',
        name: 'Concierge',
        description: 'Plans trips',
        modelPrompt: 'You are a friendly travel concierge. Keep answers short.',
        voice: 'Warm and brief',
        character: null,
        examples: null,
        visibility: 'public',
        createdAt: '2026-11-26T09:00:00.000Z',
        owner: OWNER_EXAMPLE,
        ecosystemId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
      },
    ],
  },
)

export const PublicUserProfile = t.Object(
  {
    slug: t.String(),
    displayName: t.Nullable(t.String()),
    avatarUrl: t.Nullable(t.String()),
    createdAt: Timestamp,
    personas: t.Array(PublicPersonaSummary, { description: 'Public personas the user created, newest first (at most 100)' }),
  },
  { title: 'PublicUserProfile', examples: [{ ...OWNER_EXAMPLE, createdAt: '2026-11-26T09:00:00.000Z', personas: [SUMMARY_EXAMPLE] }] },
)

export const EcosystemQuery = t.Object({
  ecosystem: t.Optional(t.String({ minLength: 1, maxLength: 253, description: 'Ecosystem id or rdid' })),
})
