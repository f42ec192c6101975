import { Elysia, t } from 'elysia'
import { PageQuery, pageParams, paged } from '../../platform/paging'
import type { Guards } from '../../platform/guards'
import { rawQuery } from '../../platform/crud/query'
import { LIST_GRAMMAR, listQueryParams } from '../../platform/crud/routes'
import { errors } from './errors'
import { Contract, ContractCreate, ContractPatch, ContractRow, ContractRowList, ContractValues, MAX_COLUMNS, MAX_CONTRACTS, MAX_KEY_BYTES } from './model'
import type { ContractService } from './service'

const Name = t.Object({ name: t.String({ maxLength: 63 }) })
const RowId = t.Object({ name: t.String({ maxLength: 63 }), id: t.String({ format: 'uuid' }) })
const LIMITS = `At most ${MAX_CONTRACTS} contracts per ecosystem and ${MAX_COLUMNS} columns per contract; a row is at most MAX_BODY_BYTES of JSON; a value of a \`unique\` column (as JSON) or of an \`indexed\` text column at most ${MAX_KEY_BYTES} bytes (400).`
const STORAGE =
  'No table is created per contract: rows of every contract live in one table, their values in a JSONB document with a GIN index that serves `eq` filters on any column; ' +
  "`unique` columns are enforced by a constraint table written in the same transaction. A definition is read in each request's transaction, so a change reaches every replica at once; changes lock it and bump `version`."
/** Columns are defined at run time: the known parameters are declared, column filters are an open set (additionalProperties). */
const RowsQuery = t.Object(
  listQueryParams({
    select:
      'Comma-separated columns (any column, json ones too, and the system fields): rows hold only these columns, beside `id`, `customerId`, `createdAt` and `updatedAt`, which every row shows',
    includeDeleted: 'Accepted for symmetry with derived lists; contract rows have no soft delete, so it changes nothing',
  }),
  { additionalProperties: t.String({ description: 'A column filter, `?<column>=[not.]<op>.<value>`' }) },
)
const ROWS_WHO =
  "Customers act as the contract's `access` allows (`own` = rows they created; 403 where it says `none`); ecosystem admins and owners (account credentials with X-Ecosystem-Id) do everything."

/** Run-time tables of an ecosystem (tag `contract`): definitions for admins, rows for customers. */
export function contractRoutes(service: ContractService, guards: Guards) {
  return new Elysia({ name: 'contract', prefix: '/contract', detail: { tags: ['contract'] } })
    .use(guards.tenancy)
    .get('/contracts', ({ tenant, query }) => service.list(tenant, pageParams(query)), {
      tenant: 'member',
      query: PageQuery,
      response: { 200: paged(Contract, 'ContractPage') },
      detail: { operationId: 'contractList', summary: "The ecosystem's contracts", description: 'Team members of the ecosystem.' },
    })
    .post('/contracts', async ({ tenant, body, status }) => status(201, await service.define(tenant, body)), {
      tenant: 'admin',
      body: ContractCreate,
      response: { 201: Contract, ...errors({ 409: ['conflict', 'limit_reached'] }) },
      detail: {
        operationId: 'contractDefine',
        summary: 'Define a contract (a run-time table)',
        description: `Names match ^[a-z][a-z0-9_]{0,62}$ and are never an SQL reserved word or a system name (400). Column types: text, integer, number, boolean, timestamp (ISO 8601, stored in UTC), json, uuid. \`access\` defaults to \`{ read: own, create: true, update: own, delete: own }\`. 409 \`conflict\` for a taken name, \`limit_reached\` past the limit. ${LIMITS} ${STORAGE}`,
      },
    })
    .get('/contracts/:name', ({ tenant, params }) => service.get(tenant, params.name), {
      tenant: 'member',
      params: Name,
      response: { 200: Contract },
      detail: { operationId: 'contractGet', summary: 'One contract', description: 'Team members of the ecosystem.' },
    })
    .patch('/contracts/:name', ({ tenant, params, body }) => service.alter(tenant, params.name, body), {
      tenant: 'admin',
      params: Name,
      body: ContractPatch,
      response: { 200: Contract, ...errors(409) },
      detail: {
        operationId: 'contractAlter',
        summary: 'Add or drop columns, change access',
        description:
          'Added columns give existing rows their default (a non-null column needs one while rows exist). Dropped columns vanish from rows and filters at once; their values stay in the rows (`droppedColumns`) until a PATCH with `confirm: true` removes them, and a dropped name cannot be added again before that (409).',
      },
    })
    .delete(
      '/contracts/:name',
      async ({ tenant, params, status }) => {
        await service.remove(tenant, params.name)
        return status(204, undefined)
      },
      {
        tenant: 'admin',
        params: Name,
        response: { 204: t.Void({ description: 'Deleted with all its rows' }) },
        detail: { operationId: 'contractDelete', summary: 'Delete a contract and its rows' },
      },
    )
    .get('/contracts/:name/rows', ({ tenant, params, request }) => service.listRows(tenant, params.name, rawQuery(request.url)), {
      tenant: 'customer',
      params: Name,
      query: RowsQuery,
      response: { 200: ContractRowList },
      detail: {
        operationId: 'contractRowsList',
        summary: "A contract's rows",
        description: `Newest first by default. Column filters are query parameters named after the contract's columns (defined at run time, so not listed here): \`?<column>=[not.]<op>.<value>\`, e.g. \`?title=ilike.*plan*\`. Every column but json ones is filterable and sortable, and so are \`id\`, \`customerId\`, \`createdAt\`, \`updatedAt\` (json columns: \`is.null\` only). ${LIST_GRAMMAR} ${ROWS_WHO}`,
      },
    })
    .post('/contracts/:name/rows', async ({ tenant, params, body, status }) => status(201, await service.createRow(tenant, params.name, body)), {
      tenant: 'customer',
      params: Name,
      body: ContractValues,
      response: { 201: ContractRow, ...errors(409) },
      detail: {
        operationId: 'contractRowsCreate',
        summary: 'Add a row',
        description: `Values are checked against the column types and nullability (400 \`validation_failed\` naming the column); unknown columns are 400; a taken value of a \`unique\` column is 409 \`conflict\` naming it. ${ROWS_WHO}`,
      },
    })
    .get('/contracts/:name/rows/:id', ({ tenant, params }) => service.getRow(tenant, params.name, params.id), {
      tenant: 'customer',
      params: RowId,
      response: { 200: ContractRow },
      detail: { operationId: 'contractRowsGet', summary: 'One row', description: ROWS_WHO },
    })
    .patch('/contracts/:name/rows/:id', ({ tenant, params, body }) => service.updateRow(tenant, params.name, params.id, body), {
      tenant: 'customer',
      params: RowId,
      body: ContractValues,
      response: { 200: ContractRow, ...errors(409) },
      detail: { operationId: 'contractRowsUpdate', summary: 'Change values of a row', description: `Only the columns given change. ${ROWS_WHO}` },
    })
    .delete(
      '/contracts/:name/rows/:id',
      async ({ tenant, params, status }) => {
        await service.removeRow(tenant, params.name, params.id)
        return status(204, undefined)
      },
      {
        tenant: 'customer',
        params: RowId,
        response: { 204: t.Void({ description: 'Deleted' }) },
        detail: { operationId: 'contractRowsDelete', summary: 'Delete a row', description: ROWS_WHO },
      },
    )
}
