import { apiError, createClient, EcobaseError } from '../client/index'

const PICKED = 'ecobase.console.ecosystem'

/**
 * The console's one client: same origin, the refresh token in the httpOnly cookie, the picked
 * ecosystem on every call. The pick is remembered across tabs and restarts (an id, no secret);
 * signing out forgets it.
 */
let ecosystem: string | null = localStorage.getItem(PICKED)

export const client = createClient({ baseUrl: '', refreshCookie: true, ecosystem: () => ecosystem })

export function pickEcosystem(id: string | null): void {
  ecosystem = id
  if (id) localStorage.setItem(PICKED, id)
  else localStorage.removeItem(PICKED)
}

export const currentEcosystem = (): string | null => ecosystem

/** The data of a typed call, or throws its EcobaseError (pages show the API's message). */
export async function data<T>(call: Promise<{ data: T; error: null } | { data: null; error: { status: unknown; value: unknown } }>): Promise<NonNullable<T>> {
  const res = await call
  const error = apiError(res as { error: { status: unknown; value: unknown } | null })
  if (error) throw error
  return res.data as NonNullable<T>
}

export function message(err: unknown): string {
  return err instanceof EcobaseError ? `${err.message} (${err.code})` : String(err)
}

export function bytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB']
  let i = 0
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024
    i++
  }
  return `${n.toFixed(i === 0 ? 0 : 1)} ${units[i]}`
}
