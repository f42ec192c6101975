import { Elysia, t } from 'elysia'
import { errors } from '../errors'
import { PageQuery, pageParams, paged } from '../../../platform/paging'
import { SLUG_PATTERN } from '../../auth/model'
import { EcosystemQuery, PublicPersona, PublicPersonaSummary, PublicUserProfile } from '../model'
import type { PersonaService } from '../service'

const SlugParams = t.Object({ slug: t.String({ pattern: SLUG_PATTERN }) })
const NO_AUTH = 'No credentials. Private personas and persona services never appear here.'

/** Public persona pages and user profiles: read by anyone. */
export function publicRoutes(area: PersonaService) {
  const pub = area.public
  return new Elysia({ name: 'persona-public', prefix: '/public', detail: { tags: ['public'] } })
    .get('/personas', ({ query }) => pub.list(query, pageParams(query)), {
      query: t.Composite([PageQuery, EcosystemQuery]),
      response: { 200: paged(PublicPersonaSummary, 'PublicPersonaPage'), ...errors(400, 404) },
      detail: {
        operationId: 'publicPersonaList',
        summary: 'Public personas, newest first',
        description: `Only personas with visibility \`public\`, from every ecosystem or from the one named by \`ecosystem\` (404 when it does not exist). ${NO_AUTH}`,
      },
    })
    .get('/personas/:slug', ({ params, query }) => pub.get(params.slug, query.ecosystem), {
      params: SlugParams,
      query: EcosystemQuery,
      response: { 200: PublicPersona, ...errors(400, 404, { 409: ['ambiguous_slug'] }) },
      detail: {
        operationId: 'publicPersonaGet',
        summary: 'A public or unlisted persona by slug',
        description: `Slugs are unique per ecosystem. Without \`ecosystem\` the slug must name exactly one public or unlisted persona; when several ecosystems have one, 409 \`ambiguous_slug\` (pass \`?ecosystem=<id or rdid>\`, e.g. the \`ecosystemId\` of a listing). ${NO_AUTH}`,
      },
    })
    .get('/users/:slug', ({ params }) => pub.user(params.slug), {
      params: SlugParams,
      response: { 200: PublicUserProfile, ...errors(400, 404) },
      detail: {
        operationId: 'publicUserGet',
        summary: 'The public profile of a user, by login slug',
        description: `The account's display name, avatar and public personas; never its e-mail. 404 when no account has the slug. ${NO_AUTH}`,
      },
    })
}
