import { Elysia, type Static, type TSchema, t } from 'elysia'
import type { ErrorBody } from '../errors'
import type { Guards } from '../guards'
import { type PageParams, PageQuery, pageParams } from '../paging'
import { IdParam } from '../params'
import type { Role, Tenant } from '../tenancy'

/** One operation's OpenAPI words, and the error responses it adds to the tenancy guard's. */
export interface AdminOperation {
  operationId: string
  summary: string
  description?: string
  errors?: Record<number, typeof ErrorBody>
}

/** The service behind an admin resource: list (paged), create, get, update, remove, each scoped to the tenant. */
export interface AdminService<
  Page extends TSchema,
  Create extends TSchema,
  Item extends TSchema,
  Detail extends TSchema,
  Patch extends TSchema,
  Created extends TSchema = Item,
> {
  list(tenant: Tenant, page: PageParams): Promise<Static<Page>>
  create(tenant: Tenant, body: Static<Create>): Promise<Static<Created>>
  get(tenant: Tenant, id: string): Promise<Static<Detail>>
  update(tenant: Tenant, id: string, body: Static<Patch>): Promise<Static<Item>>
  remove(tenant: Tenant, id: string): Promise<void>
}

/**
 * The block of routes most admin areas have: `GET path` (a page), `POST path` (201), `GET path/:id`,
 * `PATCH path/:id`, `DELETE path/:id` (204), all for the tenant `role` (admin by default). The
 * tenancy guard adds their 400/401/403/404 and the role sentence; `operations` give the rest. Used
 * inside an area's routes, it takes that plugin's prefix and tag.
 */
export function adminResource<
  Page extends TSchema,
  Create extends TSchema,
  Item extends TSchema,
  Detail extends TSchema,
  Patch extends TSchema,
  Created extends TSchema = Item,
>(
  guards: Guards,
  options: {
    path: string
    role?: Role
    /** The item's path parameter: `{id}`, a UUID, unless it is keyed otherwise (`{ key: FeatureKey }`). */
    param?: { name: string; schema: TSchema }
    /** `created`: what the 201 answers, when it shows more than `item` (a secret shown once). */
    schemas: { page: Page; create: Create; item: Item; detail: Detail; patch: Patch; created?: Created }
    service: AdminService<Page, Create, Item, Detail, Patch, Created>
    operations: { list: AdminOperation; create: AdminOperation; get: AdminOperation; update: AdminOperation; remove: AdminOperation & { deleted: string } }
  },
) {
  const { path, schemas, service, operations } = options
  const tenant = options.role ?? 'admin'
  const detail = ({ operationId, summary, description }: AdminOperation) => ({ operationId, summary, ...(description ? { description } : {}) })
  const param = options.param ?? { name: 'id', schema: IdParam.properties.id }
  const item = `${path}/:${param.name}`
  const params = t.Object({ [param.name]: param.schema })
  const idOf = (p: Record<string, unknown>) => String(p[param.name])
  return new Elysia()
    .use(guards.auth)
    .use(guards.tenancy)
    .get(path, ({ tenant, query }) => service.list(tenant, pageParams(query)), {
      tenant,
      query: PageQuery,
      response: { 200: schemas.page, ...operations.list.errors },
      detail: detail(operations.list),
    })
    .post(
      path,
      async ({ tenant, body, set }) => {
        const created = await service.create(tenant, body as Static<Create>)
        set.status = 201
        return created
      },
      {
        tenant,
        body: schemas.create,
        response: { 201: schemas.created ?? schemas.item, ...operations.create.errors },
        detail: detail(operations.create),
      },
    )
    .get(item, ({ tenant, params: p }) => service.get(tenant, idOf(p)), {
      tenant,
      params,
      response: { 200: schemas.detail, ...operations.get.errors },
      detail: detail(operations.get),
    })
    .patch(item, ({ tenant, params: p, body }) => service.update(tenant, idOf(p), body as Static<Patch>), {
      tenant,
      params,
      body: schemas.patch,
      response: { 200: schemas.item, ...operations.update.errors },
      detail: detail(operations.update),
    })
    .delete(
      item,
      async ({ tenant, params: p, status }) => {
        await service.remove(tenant, idOf(p))
        return status(204, undefined)
      },
      {
        tenant,
        params,
        response: { 204: t.Void({ description: operations.remove.deleted }), ...operations.remove.errors },
        detail: detail(operations.remove),
      },
    )
}
