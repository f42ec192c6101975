import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ConfigError, EnvSchema, loadConfig } from '../../src/config'

const root = join(import.meta.dir, '..', '..')

describe('loadConfig', () => {
  test('defaults fit the embedded mode', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({
      port: 3000,
      dataDir: './data',
      databaseUrl: null,
      pgliteSharedBuffers: '16MB',
      authSecret: null,
      accessTokenTtl: 900,
      password: { memoryCost: 19456, timeCost: 2 },
      loginLimits: { failuresPerEmail: 10, failureWindow: 900, attemptsPerIp: 300, ipWindow: 60 },
      jobs: true,
      personaServices: { privateAddresses: 'deny' },
      siteServices: { privateAddresses: 'deny' },
    })
    expect(Object.isFrozen(config)).toBe(true)
  })

  test('values are converted and admin e-mails normalised', () => {
    const config = loadConfig({ PORT: '8080', ADMIN_EMAILS: ' A@x.io, b@Y.io ,', JOBS: 'off' })
    expect(config.port).toBe(8080)
    expect(config.adminEmails).toEqual(['a@x.io', 'b@y.io'])
    expect(config.jobs).toBe(false)
    expect(loadConfig({ PGLITE_SHARED_BUFFERS: '256MB' }).pgliteSharedBuffers).toBe('256MB')
    expect(() => loadConfig({ PGLITE_SHARED_BUFFERS: '256' })).toThrow('invalid PGLITE_SHARED_BUFFERS')
  })

  test.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['ACCESS_TOKEN_TTL_SECONDS', '0'],
    ['PASSWORD_MEMORY_KIB', '1024'],
    ['PASSWORD_TIME_COST', '1'],
    ['AUTH_SECRET', 'too-short'],
    ['LOG_LEVEL', 'loud'],
    ['JOBS', 'maybe'],
    ['EMBEDDING_DIMENSIONS', '4'],
    ['EMBEDDING_DIMENSIONS', '4096'],
    ['EMBEDDING_BASE_URL', 'ftp://models.example.com'],
    ['PERSONA_SERVICE_PRIVATE_ADDRESSES', 'yes'],
    ['SITE_SERVICE_PRIVATE_ADDRESSES', 'yes'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318'],
    ['OTEL_TRACES_SAMPLER', 'sometimes'],
    ['OTEL_TRACES_SAMPLER_ARG', '1.5'],
  ])('%s=%s is refused with a message naming the variable', (name, value) => {
    let error: unknown
    try {
      loadConfig({ [name]: value })
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toStartWith(`invalid ${name}`)
  })

  test.each([
    ['AUTH_SECRET', 'a-secret-hunter2-too-short'],
    ['DATABASE_URL', 'mysql://admin:hunter2-password@db.internal/app'],
    ['REDIS_URL', 'http://user:hunter2-password@cache.internal'],
    ['OTEL_EXPORTER_OTLP_HEADERS', 'authorization=Bearer%20hunter2-token,broken'],
  ])('the value of %s is never echoed, though the variable is named', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(`invalid ${name} (value not shown`)
    try {
      loadConfig({ [name]: value })
    } catch (err) {
      expect((err as Error).message).not.toContain('hunter2')
    }
  })

  test('tracing is off without an OTLP endpoint; the traces endpoint is taken as given, the general one gets /v1/traces', () => {
    expect(loadConfig({}).tracing).toEqual({ url: null, headers: {}, serviceName: 'ecobase', sampler: 'parentbased_always_on', ratio: 1 })
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).tracing.url).toBe('http://collector:4318/v1/traces')
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://x.example/in' }).tracing.url).toBe(
      'https://x.example/in',
    )
    const tracing = loadConfig({
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20abc, x-team = eu ',
      OTEL_SERVICE_NAME: 'ecobase-eu',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
    }).tracing
    expect(tracing).toMatchObject({
      headers: { authorization: 'Bearer abc', 'x-team': 'eu' },
      serviceName: 'ecobase-eu',
      sampler: 'parentbased_traceidratio',
      ratio: 0.25,
    })
  })

  test('ALLOW_PRIVATE_ADDRESSES=true allows every outbound kind at once; a specific setting still wins', () => {
    const policies = (env: Record<string, string>) => {
      const c = loadConfig(env)
      return [c.webhooks, c.monitoredSites, c.siteServices, c.personaServices].map((kind) => kind.privateAddresses)
    }
    expect(policies({})).toEqual(['deny', 'deny', 'deny', 'deny'])
    expect(policies({ ALLOW_PRIVATE_ADDRESSES: 'false' })).toEqual(['deny', 'deny', 'deny', 'deny'])
    expect(policies({ ALLOW_PRIVATE_ADDRESSES: 'true' })).toEqual(['allow', 'allow', 'allow', 'allow'])
    expect(policies({ ALLOW_PRIVATE_ADDRESSES: 'true', WEBHOOK_PRIVATE_ADDRESSES: 'deny' })).toEqual(['deny', 'allow', 'allow', 'allow'])
    expect(policies({ MONITORED_SITES_PRIVATE_ADDRESSES: 'allow' })).toEqual(['deny', 'allow', 'deny', 'deny'])
    expect(loadConfig({ ALLOW_PRIVATE_ADDRESSES: 'true' }).allowPrivateAddresses).toBe(true)
    expect(() => loadConfig({ ALLOW_PRIVATE_ADDRESSES: 'yes' })).toThrow('invalid ALLOW_PRIVATE_ADDRESSES="yes": expected one of true, false')
  })

  test('settings that take one of a few words list them', () => {
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow('invalid LOG_LEVEL="loud": expected one of debug, info, warn, error, silent')
    expect(() => loadConfig({ STORAGE_DRIVER: 's4' })).toThrow('invalid STORAGE_DRIVER="s4": expected one of local, s3')
    expect(() => loadConfig({ PERSONA_SERVICE_PRIVATE_ADDRESSES: 'yes' })).toThrow('expected one of deny, allow')
  })
})

describe('documentation of the configuration', () => {
  const names = Object.keys(EnvSchema.properties).sort()

  test('.env.example lists exactly the variables the server reads', () => {
    const text = readFileSync(join(root, '.env.example'), 'utf8')
    const listed = [...text.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]).sort()
    expect([...new Set(listed)]).toEqual(names)
  })

  test('the configuration table (docs/operations/configuration.md) lists exactly the variables the server reads', () => {
    const text = readFileSync(join(root, 'docs', 'operations', 'configuration.md'), 'utf8')
    const listed = [...text.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1]).sort()
    expect(listed).toEqual(names)
  })
})
