import { RedisClient } from 'bun'

/** Fixed-window counters. The memory store serves one process; Redis shares limits across replicas. */
export interface RateLimitHit {
  count: number
  resetMs: number
}

export interface RateLimitStore {
  /** Adds one to `key` and returns the count in the current window and ms until it resets (the memory store at once, without a promise). */
  hit(key: string, windowSeconds: number): RateLimitHit | Promise<RateLimitHit>
  peek(key: string): Promise<{ count: number; resetMs: number }>
  reset(key: string): Promise<void>
  close(): Promise<void>
}

const MAX_KEYS = 100_000

/**
 * At MAX_KEYS windows the store makes room, without forgiving anyone near a quota: expired
 * windows go first, then the ones with the fewest hits (a flood of new keys, one hit each, makes
 * room for itself and never resets a budget somebody has spent). It frees a tenth at once, so the
 * sweep over every key is rare.
 */
export function memoryRateLimitStore(now: () => number = Date.now): RateLimitStore {
  const windows = new Map<string, { count: number; resetAt: number }>()
  const live = (key: string) => {
    const w = windows.get(key)
    if (w && w.resetAt <= now()) {
      windows.delete(key)
      return undefined
    }
    return w
  }
  const makeRoom = () => {
    const t = now()
    for (const [key, w] of windows) if (w.resetAt <= t) windows.delete(key)
    const target = Math.floor(MAX_KEYS * 0.9)
    for (let fewest = 1; windows.size > target; fewest++) {
      for (const [key, w] of windows) {
        if (w.count <= fewest) windows.delete(key)
        if (windows.size <= target) break
      }
    }
  }
  return {
    hit(key, windowSeconds) {
      let w = live(key)
      if (!w) {
        if (windows.size >= MAX_KEYS) makeRoom()
        w = { count: 0, resetAt: now() + windowSeconds * 1000 }
        windows.set(key, w)
      }
      w.count++
      return { count: w.count, resetMs: w.resetAt - now() }
    },
    async peek(key) {
      const w = live(key)
      return w ? { count: w.count, resetMs: w.resetAt - now() } : { count: 0, resetMs: 0 }
    },
    async reset(key) {
      windows.delete(key)
    },
    async close() {},
  }
}

/**
 * A hit in one round trip (every API request makes one): the count, the window's expiry set with
 * the first hit in the same atomic step (apart, a crash between them would leave a key that never
 * resets), and the milliseconds left.
 */
const HIT = "local c = redis.call('INCR', KEYS[1]) if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return {c, redis.call('PTTL', KEYS[1])}"

export function redisRateLimitStore(url: string, prefix = 'ecobase:rl:'): RateLimitStore {
  const client = new RedisClient(url)
  const ttl = async (key: string) => Math.max(0, Number(await client.send('PTTL', [key])))
  return {
    async hit(key, windowSeconds) {
      const [count, resetMs] = (await client.send('EVAL', [HIT, '1', prefix + key, String(windowSeconds * 1000)])) as [number, number]
      return { count: Number(count), resetMs: Math.max(0, Number(resetMs)) }
    },
    async peek(key) {
      const k = prefix + key
      const value = await client.send('GET', [k])
      return { count: Number(value ?? 0), resetMs: value == null ? 0 : await ttl(k) }
    },
    async reset(key) {
      await client.send('DEL', [prefix + key])
    },
    async close() {
      client.close()
    },
  }
}
