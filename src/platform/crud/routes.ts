import type { Static, TObject, TString } from '@sinclair/typebox'
import { Elysia, t } from 'elysia'
import { AppError } from '../errors'
import type { Guards } from '../guards'
import { MAX_PAGE, paged } from '../paging'
import type { TenantLevel } from '../tenancy'
import { type ColumnKind, parseListQuery, rawQuery } from './query'
import type { TopicDefinition } from '../changes'
import { type Access, type ResourceService, type ResourceSpec, topicOf } from './resource'
import { IdParam } from '../params'

const LEVEL: Record<Access, TenantLevel> = { own: 'customer', member: 'member', admin: 'admin', shared: 'customer', 'shared-admin': 'customer' }
const WHO: Record<Access, string> = {
  own: 'Customers (and team members, as their own customer record) use their own rows; ecosystem admins and owners every row of the ecosystem.',
  member: 'Ecosystem members (any role) only, on every row.',
  admin: 'Ecosystem admins and owners only.',
  shared:
    'Everyone in the ecosystem (customers and team members) reads every row; authors change and delete their own (403 on another author’s), ecosystem admins and owners any.',
  'shared-admin': 'Everyone in the ecosystem reads every row; only ecosystem admins and owners create, change and delete (403 otherwise).',
}

/** The realtime topic of a derived resource: its list route's path, level and description. */
export function resourceTopic(
  spec: Pick<ResourceSpec<string, string, TObject, TObject, TObject>, 'schema' | 'resource' | 'access' | 'keyedBy' | 'filterable'>,
): TopicDefinition {
  const keyed = spec.keyedBy ? ` Append \`:<${spec.keyedBy}>\` for the rows of one ${spec.keyedBy.replace(/Id$/, '')}.` : ''
  return {
    topic: topicOf(spec),
    level: LEVEL[spec.access],
    keyedBy: spec.keyedBy,
    filterable: () => spec.filterable,
    description: `What \`GET /${topicOf(spec)}\` lists: ${WHO[spec.access]}${keyed} Filters: ${Object.keys(spec.filterable).join(', ')}.`,
  }
}

export const LIST_GRAMMAR =
  'Filters, PostgREST style: `?<field>=<op>.<value>` with `eq`, `neq`, `gt`, `gte`, `lt`, `lte` (numbers and timestamps), `in.(a,b)` (double-quote an item holding `,` `(` `)` or `"`, with `\\"` and `\\\\` escapes: `in.("a,b",c)`), `is.null`, `is.true`, `is.false`, ' +
  '`like.*Word*` (text, case-sensitive) and `ilike.*word*` (text, any case): `*` is any run of characters, `%` and `_` are themselves; `not.` before any operator negates it (`not.in.(a,b)`, `not.is.null`; a null value matches neither form). ' +
  'Repeat a field to combine conditions (AND); `or=(a.eq.1,b.gt.2)` and `and=(…)` combine conditions written `field.[not.]op.value` (a value may be double-quoted) and nest `and(…)`, `or(…)`, `not.and(…)`, `not.or(…)` up to 3 levels in all. ' +
  '`sort=-createdAt,title` (`-` = descending), or its alias `order=createdAt.desc.nullslast,title.asc` (`.nullsfirst` too); give one of them. `select=a,b` names readable fields. ' +
  'A filter, sort or select naming a field not listed as filterable, sortable or readable, an operator that does not fit the field, malformed syntax or a tree deeper than 3 levels is 400 `validation_failed` naming the parameter. ' +
  'Values are always sent to the database as bound parameters.'

const OPS: Record<ColumnKind, string> = {
  text: 'eq, neq, in, is.null, like, ilike',
  integer: 'eq, neq, gt, gte, lt, lte, in, is.null',
  number: 'eq, neq, gt, gte, lt, lte, in, is.null',
  timestamp: 'eq, neq, gt, gte, lt, lte, in, is.null (ISO 8601 values)',
  boolean: 'eq, neq, in, is.null, is.true, is.false',
  uuid: 'eq, neq, in, is.null',
  json: 'is.null only',
}

/** The query parameters every list (derived or contract rows) knows, beside its filters. */
export function listQueryParams(about: { select: string; includeDeleted: string }) {
  return {
    page: t.Optional(t.Integer({ minimum: 1, maximum: MAX_PAGE, description: `Page number, starting at 1 (at most ${MAX_PAGE})` })),
    pageSize: t.Optional(t.Integer({ minimum: 1, maximum: 100, description: 'Items per page (1-100, default 20)' })),
    sort: t.Optional(t.String({ description: 'Comma-separated sortable fields, `-` for descending (e.g. `-createdAt,title`)' })),
    order: t.Optional(
      t.String({
        description: 'Alias of `sort`, PostgREST form: `createdAt.desc.nullslast,title.asc` (`.asc`, `.desc`, `.nullsfirst`, `.nullslast`); not with `sort`',
      }),
    ),
    select: t.Optional(t.String({ description: about.select })),
    or: t.Optional(
      t.String({
        description:
          'Any of the conditions holds: `(title.eq.a,and(createdAt.gt.2026-01-01,title.ilike.*x*))`; `field.[not.]op.value` items, nested `and(…)`/`or(…)`/`not.and(…)`/`not.or(…)` up to 3 levels',
      }),
    ),
    and: t.Optional(t.String({ description: 'All of the conditions hold, written as for `or`' })),
    includeDeleted: t.Optional(t.Boolean({ description: about.includeDeleted })),
  }
}

/** A derived list's query: the common parameters and one optional string per filterable field. */
function listQuery(spec: Pick<ResourceSpec<string, string, TObject, TObject, TObject>, 'filterable' | 'leadingSort'>) {
  const filters: Record<string, TString> = {}
  for (const [field, kind] of Object.entries(spec.filterable)) {
    filters[field] = t.String({ description: `Filter on ${field} (${kind}): \`[not.]<op>.<value>\` with ${OPS[kind]}; repeat the parameter to AND conditions` })
  }
  const common = listQueryParams({
    select:
      'Comma-separated readable fields: items hold only `id` and these (PostgREST’s projection; a field the item schema does not have is 400). The typed client still types whole items: narrow them with `Pick<Item, …>`',
    includeDeleted: 'Soft-deleted rows too (ecosystem admins only)',
  })
  const lead = spec.leadingSort ? { [spec.leadingSort.param]: t.Optional(t.Boolean({ default: true, description: spec.leadingSort.description })) } : {}
  return t.Object({ ...common, ...lead, ...Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, t.Optional(v)])) }, { additionalProperties: true })
}

/** An item cut to `id` and the selected fields, in the order `select` names them. */
const project = (item: Record<string, unknown>, select: readonly string[]) =>
  Object.fromEntries(['id', ...select.filter((f) => f !== 'id')].map((f) => [f, item[f]]))

const pascal = (s: string) => s.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase())

/** Refuses body fields the resource does not let callers write (ownerId, customerId, ids, unknown ones) by name. */
function onlyWritable(allowed: readonly string[]) {
  return ({ body }: { body: unknown }) => {
    const extra = Object.keys((body ?? {}) as object).filter((key) => !allowed.includes(key))
    if (extra.length) throw new AppError(400, 'validation_failed', `body.${extra[0]}: not a writable field (writable: ${allowed.join(', ')})`)
  }
}

/**
 * The five routes of a derived resource at `/<schema>/<resource>`: list (paged, filtered, sorted),
 * create (201), get, update, delete (204). Request and response schemas come from the spec (derived
 * from the table); every route goes through the tenancy guard like the hand-written ones.
 */
export function resourceRoutes<S extends string, R extends string, Row extends TObject, Create extends TObject, Patch extends TObject>(
  spec: ResourceSpec<S, R, Row, Create, Patch>,
  service: ResourceService,
  guards: Pick<Guards, 'tenancy'>,
) {
  const name = `${spec.schema}${pascal(spec.resource)}`
  const title = pascal(`${spec.schema}_${spec.resource}`)
  const tenant = LEVEL[spec.access]
  const policy = {
    filterable: spec.filterable,
    sortable: spec.sortable,
    defaultSort: spec.defaultSort,
    selectable: Object.keys(spec.row.properties),
    leadingSort: spec.leadingSort,
  }
  const fields = (keys: Iterable<string>) => [...keys].map((k) => `\`${k}\``).join(', ')
  const about = `${spec.description} ${WHO[spec.access]}`
  const deletes = spec.softDelete
    ? 'Soft delete: the row gets `deletedAt` and is hidden from reads (admins list it with `includeDeleted=true`).'
    : 'The row is deleted.'
  return new Elysia({ name: `derived:${spec.schema}/${spec.resource}`, prefix: `/${spec.schema}`, detail: { tags: [spec.schema] } })
    .use(guards.tenancy)
    .get(
      `/${spec.resource}`,
      async ({ tenant, request }) => {
        const query = parseListQuery(rawQuery(request.url), policy)
        const page = await service.list(tenant, query)
        // Projected items are not the item schema (it requires every field): sent as they are, unvalidated.
        if (query.select) return Response.json({ ...page, items: page.items.map((item) => project(item, query.select!)) }) as never
        return page as never
      },
      {
        tenant,
        query: listQuery(spec),
        response: { 200: paged(spec.row, `${title}Page`) },
        detail: {
          operationId: `${name}List`,
          summary: `List ${spec.resource.replaceAll('_', ' ')}`,
          description: `${about} Filterable: ${fields(Object.keys(spec.filterable))}. Sortable: ${fields(spec.sortable)} (default \`${spec.defaultSort.map((k) => (k.descending ? '-' : '') + k.column).join(',')}\`). ${LIST_GRAMMAR}`,
        },
      },
    )
    .post(
      `/${spec.resource}`,
      async ({ tenant, body, set }) => {
        const row = await service.create(tenant, body as Record<string, unknown>)
        set.status = 201
        return row as Static<Row>
      },
      {
        tenant,
        body: spec.create,
        transform: onlyWritable(Object.keys(spec.create.properties)),
        response: { 201: spec.row, ...spec.errors?.create },
        detail: {
          operationId: `${name}Create`,
          summary: `Create one of ${spec.resource.replaceAll('_', ' ')}`,
          description: `${about} \`ownerId\` (the ecosystem) and \`customerId\` (the caller) are set by the server; a body naming them or any field not writable is 400.`,
        },
      },
    )
    .get(`/${spec.resource}/:id`, ({ tenant, params }) => service.get(tenant, params.id) as Promise<Static<Row>>, {
      tenant,
      params: IdParam,
      response: { 200: spec.row },
      detail: { operationId: `${name}Get`, summary: `One of ${spec.resource.replaceAll('_', ' ')}`, description: `${about} Unknown or foreign ids are 404.` },
    })
    .patch(`/${spec.resource}/:id`, ({ tenant, params, body }) => service.update(tenant, params.id, body as Record<string, unknown>) as Promise<Static<Row>>, {
      tenant,
      params: IdParam,
      body: spec.patch,
      transform: onlyWritable(Object.keys(spec.patch.properties)),
      response: { 200: spec.row, ...spec.errors?.update },
      detail: {
        operationId: `${name}Update`,
        summary: `Change one of ${spec.resource.replaceAll('_', ' ')}`,
        description: `${about} Only the writable fields; unknown or foreign ids are 404.`,
      },
    })
    .delete(
      `/${spec.resource}/:id`,
      async ({ tenant, params, status }) => {
        await service.remove(tenant, params.id)
        return status(204, undefined)
      },
      {
        tenant,
        params: IdParam,
        response: { 204: t.Void({ description: 'Deleted' }), ...spec.errors?.delete },
        detail: { operationId: `${name}Delete`, summary: `Delete one of ${spec.resource.replaceAll('_', ' ')}`, description: `${about} ${deletes}` },
      },
    )
}
