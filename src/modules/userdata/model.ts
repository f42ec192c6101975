import { createInsertSchema, createSelectSchema } from 'drizzle-typebox'
import type { TObject } from '@sinclair/typebox'
import { t } from 'elysia'
import { NullableTimestamp, Timestamp } from '../../platform/crud/model'
import type { ResourceSpec } from '../../platform/crud/resource'
import { notes } from './schema'

/** Exactly the fields of the spec's SearchNoteResult. */
export const UserdataNote = t.Omit(
  createSelectSchema(notes, { occurredAt: Timestamp, createdAt: Timestamp, updatedAt: Timestamp, deletedAt: NullableTimestamp }),
  ['search'],
  {
    title: 'UserdataNote',
    examples: [
      {
        id: '6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d',
        ownerId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
        customerId: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170',
        createdAt: '2026-11-26T09:00:00.000Z',
        updatedAt: '2026-11-26T09:00:00.000Z',
        title: 'Called Grace',
        body: 'She wants the May dates moved by a week.',
        occurredAt: '2026-11-26T09:00:00.000Z',
        subjectTable: 'data.documents',
        subjectId: '4b3a2918-0f7e-4d6c-8b5a-493827160f5e',
        deletedAt: null,
      },
    ],
  },
)
const NoteWrite = t.Pick(
  createInsertSchema(notes, {
    title: () => t.String({ minLength: 1, maxLength: 500 }),
    body: () => t.String({ maxLength: 100_000 }),
    occurredAt: () => t.String({ format: 'date-time', description: 'When it happened (default: now)' }),
    subjectTable: () =>
      t.Union([t.String({ minLength: 1, maxLength: 100 }), t.Null()], { description: 'The table of the row the note is about, e.g. `data.documents`' }),
    subjectId: () => t.Union([t.String({ minLength: 1, maxLength: 200 }), t.Null()], { description: 'The id of that row' }),
  }),
  ['title', 'body', 'occurredAt', 'subjectTable', 'subjectId'],
)

export const notesResource = {
  schema: 'userdata',
  resource: 'notes',
  table: notes,
  row: UserdataNote,
  create: t.Object(NoteWrite.properties, {
    title: 'UserdataNoteCreate',
    examples: [
      {
        title: 'Called Grace',
        body: 'She wants the May dates moved by a week.',
        occurredAt: '2026-11-26T09:30:00.000Z',
        subjectTable: 'data.documents',
        subjectId: '4b3a2918-0f7e-4d6c-8b5a-493827160f5e',
      },
    ],
  }),
  patch: t.Partial(t.Object(NoteWrite.properties), {
    title: 'UserdataNotePatch',
    examples: [{ body: 'She wants the May dates moved by two weeks.' }],
    minProperties: 1,
  }),
  access: 'own',
  filterable: { subjectTable: 'text', subjectId: 'text', occurredAt: 'timestamp', createdAt: 'timestamp', title: 'text' },
  sortable: ['occurredAt', 'createdAt', 'updatedAt', 'title'],
  defaultSort: [{ column: 'occurredAt', descending: true }],
  softDelete: true,
  example: () => ({ title: 'Probe note', body: 'probe' }),
  description:
    "A customer's notes, optionally about a subject (`subjectTable` + `subjectId`); e.g. `?subjectTable=eq.data.documents&subjectId=eq.<id>`, `?occurredAt=gte.2026-01-01&occurredAt=lt.2026-02-01`.",
} as const satisfies ResourceSpec<'userdata', 'notes', typeof UserdataNote, TObject, TObject>

export const USERDATA_RESOURCES = [notesResource] as const
