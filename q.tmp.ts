const { createApp } = await import('./src/app')
const { buildDeps, loadConfig, openDatabase } = await import('./src/boot')
const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', DATA_DIR: process.argv[2]!, PORT: '0' })
const database = await openDatabase(config)
const deps = buildDeps(config, database)
createApp(deps)
const boss = (deps.queue as any).boss
const orig = database.unsafe
let n = 0, ms = 0
;(database as any).unsafe = async (t: string, v: unknown[]) => { const s = performance.now(); n++; try { return await orig(t, v) } finally { const d = performance.now() - s; ms += d; if (process.env.SHOW) console.log(d.toFixed(1).padStart(6), t.replace(/\s+/g, ' ').slice(0, 110)) } }
const t = performance.now()
await boss.start()
console.log('boss.start', (performance.now() - t).toFixed(0), 'ms', n, 'statements', ms.toFixed(0), 'ms in db')
const defs = (deps.queue as any).definitions.size
n = 0; ms = 0
const t2 = performance.now()
await deps.queue.start()
console.log('queue.start (again)', (performance.now() - t2).toFixed(0), 'ms', n, 'statements', ms.toFixed(0), 'ms in db', defs, 'kinds')
process.exit(0)
