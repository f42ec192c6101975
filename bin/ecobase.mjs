#!/usr/bin/env node
// `npx ecobase <command>`: runs the command line (src/cli) under the project's own Bun.
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const bun = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'bun.cmd' : 'bun')
const run = spawnSync(bun, [join(root, 'src', 'cli', 'index.ts'), ...process.argv.slice(2)], { stdio: 'inherit' })
process.exit(run.status ?? 1)
