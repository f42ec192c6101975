import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A self-signed certificate for localhost valid `days` days, made by the system's openssl. */
export function selfSignedCertificate(days: number): { cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ecobase-tls-'))
  try {
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')]
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', String(days), '-subj', '/CN=localhost', '-keyout', key, '-out', cert], {
      stdio: 'ignore',
    })
    return { cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8') }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
