import type { Config } from '../../config'

/** argon2id at the configured cost (OWASP minimum by default: m=19 MiB, t=2, p=1). */
export class Passwords {
  constructor(private readonly cost: Config['password']) {}

  hash(password: string): Promise<string> {
    return Bun.password.hash(password, {
      algorithm: 'argon2id',
      memoryCost: this.cost.memoryCost,
      timeCost: this.cost.timeCost,
    })
  }

  verify(password: string, hash: string): Promise<boolean> {
    return Bun.password.verify(password, hash).catch(() => false)
  }

  /** True when `hash` was made with another algorithm or a lower cost than configured now. */
  needsRehash(hash: string): boolean {
    const match = /^\$argon2id\$v=\d+\$m=(\d+),t=(\d+),p=\d+\$/.exec(hash)
    if (!match) return true
    return Number(match[1]) < this.cost.memoryCost || Number(match[2]) < this.cost.timeCost
  }
}
