import { beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { verifyBackup } from '../../src/platform/backup/restore'
import type { RegisteredUser } from '../support/harness'
import { browserMissing, confirmDialog, consoleServerForFile, SCREENSHOTS, signIn, tab } from './support'

// The Backups page, as a platform admin of an embedded instance uses it. The archive is fetched by
// the page itself (a link could not carry the bearer token).

const PASSWORD = 'backups-password-1'
const app = consoleServerForFile({ BACKUP_SCHEDULE: '0 3 * * *', BACKUP_KEEP: '4' })
let admin: RegisteredUser
let member: RegisteredUser
beforeAll(async () => {
  if (browserMissing) return
  admin = await app.h.register({ password: PASSWORD }) // the first account: the platform admin
  member = await app.h.register({ password: PASSWORD })
})

describe.skipIf(!!browserMissing)('the console’s Backups page', () => {
  test('shows the schedule, encryption and the last good backup’s age, backs up now, follows the job to complete, downloads an archive that verifies, deletes it', async () => {
    const { page, elsewhere } = await app.open()
    await signIn(page, admin.email, PASSWORD)
    await tab(page, 'Backups').click()
    // Embedded, or PostgreSQL with pg_dump on the PATH: the same page.
    expect(await page.getByTestId('backup-settings').textContent()).toBe(
      'Scheduled (0 3 * * *, BACKUP_SCHEDULE); the last 4 complete ones are kept, in DATA_DIR/backups.',
    )
    expect(await page.getByTestId('backup-encryption').textContent()).toBe(
      'Not encrypted: an archive holds the server key in clear (set BACKUP_ENCRYPTION_KEY).',
    )
    expect(await page.getByTestId('backup-last-good').textContent()).toBe('Last complete backup: none yet')
    await page.getByText('No backups yet.').waitFor()
    await page.getByRole('button', { name: 'Back up now' }).click()
    const downloadButton = page.getByRole('button', { name: /^Download the backup of / })
    await downloadButton.waitFor({ timeout: 30_000 })
    await page.getByRole('cell', { name: 'complete', exact: true }).waitFor()
    await page.getByText(/^Last complete backup: \d+ s ago/).waitFor()
    await page.screenshot({ path: join(SCREENSHOTS, 'console-backups.png') })

    const [download] = await Promise.all([page.waitForEvent('download'), downloadButton.click()])
    const saved = join(app.h.deps.config.dataDir, 'downloaded.tar.gz')
    await download.saveAs(saved)
    expect(readFileSync(saved).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b])) // gzip
    expect((await verifyBackup(saved, [])).parts.map((p) => p.name)).toContain('database')

    await page.getByRole('button', { name: /^Delete the backup of / }).click()
    await confirmDialog(page, 'Delete backup', 'Delete the backup of')
    await page.getByText('No backups yet.').waitFor()
    expect(elsewhere).toEqual([])
  }, 90_000)

  test('a member who is not a platform admin sees the refusal', async () => {
    const { page } = await app.open()
    await signIn(page, member.email, PASSWORD)
    await tab(page, 'Backups').click()
    expect(await page.getByRole('alert').textContent()).toContain('forbidden')
    expect(await page.getByRole('button', { name: 'Back up now' }).count()).toBe(0)
  }, 60_000)
})
