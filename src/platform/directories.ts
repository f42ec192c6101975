import { existsSync, renameSync, rmSync } from 'node:fs'

/**
 * Puts the directory built at `staged` in place of `dir` by two renames (the old one aside, the new
 * one in), then removes the old: a reader finds the whole old directory, the whole new one, or
 * none for an instant, never half a build. Used for what install builds under node_modules/.cache
 * (the seed, the console, the server bundle).
 */
export function replaceDirectory(staged: string, dir: string): void {
  const old = `${staged}.old`
  rmSync(old, { recursive: true, force: true })
  if (existsSync(dir)) renameSync(dir, old)
  renameSync(staged, dir)
  rmSync(old, { recursive: true, force: true })
}
