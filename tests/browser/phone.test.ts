import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Page, Request } from 'playwright-core'
import { customerOf, provision } from '../support/tenancy'
import { browserMissing, consoleServerForFile, PHONE, reloadConsole, SCREENSHOTS, signIn, until } from './support'

// The console at phone width (390 × 844): the sections wait behind the Menu button instead of
// filling the first screen of every page, every page fits the width, and a wide table scrolls
// inside the page with its first column in view. No console errors, no failed requests.

const app = consoleServerForFile()
const PASSWORD = 'phone-password-1'

/** Requests the page has open, but for streams (which stay open by design). */
function inFlight(page: Page): Set<Request> {
  const open = new Set<Request>()
  page.on('request', (r) => open.add(r))
  page.on('requestfinished', (r) => open.delete(r))
  page.on('requestfailed', (r) => open.delete(r))
  page.on('response', (r) => {
    if (r.headers()['content-type']?.includes('text/event-stream')) open.delete(r.request())
  })
  return open
}

/**
 * Console errors, uncaught exceptions, failed requests and error answers of `page`, but for the 401
 * of the refresh a signed-out console tries first (Chromium logs every error answer to the console
 * too: those are judged by their answer).
 */
function problems(page: Page): string[] {
  const seen: string[] = []
  page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && seen.push(`console: ${m.text()}`))
  page.on('pageerror', (e) => seen.push(`exception: ${e.message}`))
  page.on('requestfailed', (r) => seen.push(`failed: ${r.url()} ${r.failure()?.errorText}`))
  page.on('response', (r) => {
    const signedOutRefresh = r.status() === 401 && new URL(r.url()).pathname === '/auth/refresh'
    if (r.status() >= 400 && !signedOutRefresh) seen.push(`${r.status()}: ${r.url()}`)
  })
  return seen
}

/** The document's width against the viewport's, and the outermost elements reaching past it (for the failure message). */
const widths = (page: Page) =>
  page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    inner: innerWidth,
    past: [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > innerWidth && (e.parentElement?.getBoundingClientRect().right ?? 0) <= innerWidth)
      .map((e) => `${e.tagName.toLowerCase()}${e.className ? `.${e.className}` : ''} "${e.textContent?.slice(0, 40)}"`),
  }))

describe.skipIf(!!browserMissing)('the console at phone width', () => {
  test('the sections are behind the Menu button; every page fits 390 px; tables scroll with the first column fixed', async () => {
    const owner = await app.h.register({ password: PASSWORD })
    const org = await provision(app.h, owner)
    const ada = await customerOf(app.h, org, owner, 'ada')
    await app.h.call('PATCH', `/customer/customers/${ada.customerId}`, { ...org.as(owner), body: { name: 'Ada Lovelace', email: 'ada.lovelace@example.test' } })
    // Listening from the first request on: the console is loaded only once the listeners are there.
    const { page, elsewhere } = await app.open('about:blank', PHONE)
    const seen = problems(page)
    const open = inFlight(page)
    await reloadConsole(page, () => page.goto(`${app.origin}/console`))
    await signIn(page, owner.email, PASSWORD, org.ecosystem.name)

    const menu = page.getByRole('button', { name: 'Menu', exact: true })
    const sections = page.getByRole('navigation', { name: 'Sections' })
    // Closed on arrival: the page, not 600–830 px of links, is what the first screen shows.
    await page.locator('main h2').first().waitFor()
    expect(await menu.getAttribute('aria-expanded')).toBe('false')
    expect(await sections.isVisible()).toBe(false)
    await page.screenshot({ path: join(SCREENSHOTS, 'console-phone-menu-closed.png') })
    await menu.click()
    await sections.waitFor()
    expect(await menu.getAttribute('aria-expanded')).toBe('true')
    await page.screenshot({ path: join(SCREENSHOTS, 'console-phone-menu-open.png') })
    const links = await sections.getByRole('link').evaluateAll((as) => as.map((a) => ({ name: a.textContent!.trim(), href: a.getAttribute('href')! })))
    expect(links.length).toBeGreaterThan(20)

    for (const link of links) {
      if (!(await sections.isVisible())) await menu.click()
      await sections.getByRole('link', { name: link.name, exact: true }).click()
      // Moving to a page closes the sections again.
      await sections.waitFor({ state: 'hidden' })
      expect(await menu.getAttribute('aria-expanded'), link.name).toBe('false')
      await page.locator('main h2').first().waitFor()
      await until(() => open.size, 0)
      const { scroll, inner, past } = await widths(page)
      expect(scroll, `${link.name}: ${scroll} px wide in ${inner}: ${past.join(', ')}`).toBeLessThanOrEqual(inner)
      await page.screenshot({ path: join(SCREENSHOTS, `console-phone-${link.href.replace(/\W+/g, '-').replace(/^-|-$/g, '')}.png`), fullPage: true })
    }

    // The customers' table is wider than the phone: it scrolls inside its section, the name staying in view.
    await menu.click()
    await sections.getByRole('link', { name: 'Customers', exact: true }).click()
    const name = page.getByRole('cell', { name: 'Ada Lovelace' })
    await name.waitFor()
    const scroller = page.locator('section', { has: name })
    const scrollTo = (share: number) =>
      scroller.evaluate((s, share) => {
        s.scrollLeft = (s.scrollWidth - s.clientWidth) * share
        return { left: s.scrollLeft, overflow: s.scrollWidth - s.clientWidth, edge: s.getBoundingClientRect().left + s.clientLeft }
      }, share)
    const full = await scrollTo(1)
    expect(full.overflow).toBeGreaterThan(40)
    expect(full.left).toBeGreaterThan(40)
    // Held at the section's inner edge, wherever the table is scrolled to.
    const cellAt = async () => (await page.getByRole('cell', { name: 'Ada Lovelace' }).boundingBox())!.x
    expect(await cellAt()).toBeCloseTo(full.edge, 0)
    await scrollTo(0.6)
    expect(await cellAt()).toBeCloseTo(full.edge, 0)
    expect((await widths(page)).scroll).toBeLessThanOrEqual(PHONE.width)
    await page.screenshot({ path: join(SCREENSHOTS, 'console-phone-table-scrolled.png') })

    expect(seen).toEqual([])
    expect(elsewhere).toEqual([])
    await page.close()
  }, 120_000)
})
