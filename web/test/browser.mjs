// What the browser tests share: Debian's Chromium driven by playwright-core (never a downloaded
// browser), the built site on a local server, the native tool for reference figures, and a
// folder for screenshots (SYSGYM_ARTIFACTS, default build/web-artifacts).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

import { serve } from '../serve.mjs';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const root = path.resolve(web, '..');
export const nativeTool = process.env.SYSGYM_NATIVE ?? path.join(root, 'build/native-release/sysgym');
export const artifacts = process.env.SYSGYM_ARTIFACTS ?? path.join(root, 'build/web-artifacts');
const CHROMIUM = process.env.SYSGYM_CHROMIUM ?? '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// The site built over the test package (with tests/env's family): see families.test.mjs.
export const testSite = process.env.SYSGYM_TEST_SITE ?? path.join(root, 'build/web-test');

// A browser on a fresh profile and the site in `dist` on a free port; close() ends both.
export async function startBrowser(dist = path.join(web, 'dist')) {
  if (!fs.existsSync(path.join(dist, 'index.html'))) {
    throw new Error(`${dist} is not built: run node web/build.mjs${dist === testSite ? ' --package build/wasm/test-package --out build/web-test' : ''}`);
  }
  const server = await serve({ dir: dist, port: 0 });
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'sysgym-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, args: FLAGS, viewport: { width: 1280, height: 800 }, acceptDownloads: true,
  });
  fs.mkdirSync(artifacts, { recursive: true });
  return {
    url: server.url,
    context,
    async page(problems = []) {
      const page = await context.newPage();
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}${e.stack ? ` at ${e.stack.split('\n').slice(1, 4).join(' <- ')}` : ''}`));
      page.on('console', (m) => {
        if (m.type() === 'error' && !/favicon/.test(m.location().url)) problems.push(`console: ${m.text()} (${m.location().url})`);
      });
      return page;
    },
    async close() {
      await context.close();
      await server.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

// Registers before/after hooks: a browser and a playground page shared by a test file's tests;
// at the end, the page must have logged no errors.
export function sharedPlayground({ site, hash = '' } = {}) {
  const shared = { browser: null, page: null, problems: [] };
  before(async () => {
    shared.browser = await startBrowser(site);
    shared.page = await shared.browser.page(shared.problems);
    await openPlayground(shared.browser, shared.page, hash);
  });
  after(async () => {
    await shared.browser?.close();
    assert.deepEqual(shared.problems, [], 'the pages logged no errors');
  });
  return shared;
}

export async function screenshot(page, name, { fullPage = true } = {}) {
  await page.waitForTimeout(400); // charts redraw after the full-page resize
  return page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage });
}

export function native(args) {
  return JSON.parse(execFileSync(nativeTool, args, { encoding: 'utf8', cwd: root }));
}

// Opens the playground and waits until it has its catalogue and policies.
export async function openPlayground(browser, page, hash = '') {
  await page.goto(`${browser.url}index.html${hash}`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
}

const DEFAULTS = { hbm_capacity: '10%', bins: '64', migration_gbps: '1.6384', window_mode: '', seed: '0' };

// Sets trace, policy and the form's fields (the others to their defaults).
export async function fillForm(page, { trace, policy, fields = {} }) {
  if (trace) await page.selectOption('#trace', trace);
  if (policy) await page.selectOption('#policy', policy);
  for (const [id, value] of Object.entries({ ...DEFAULTS, ...fields })) {
    if (await page.locator(`#${id}`).isDisabled()) continue;
    if ((await page.locator(`#${id}`).evaluate((el) => el.tagName)) === 'SELECT') await page.selectOption(`#${id}`, value);
    else await page.fill(`#${id}`, value);
  }
}

// Runs the form's episode at full speed and waits for the end.
export async function runToEnd(page, form) {
  await fillForm(page, form);
  await page.selectOption('#speed', 'Infinity');
  await page.click('#run');
  await waitForEnd(page);
}

export async function waitForEnd(page) {
  await page.waitForFunction(() => document.body.dataset.complete === 'true' || document.querySelector('#errors p'),
    null, { timeout: 120000 });
  const errors = await page.locator('#errors p').allTextContents();
  if (errors.length) throw new Error(`the page shows errors: ${errors.join(' | ')}`);
}

export async function figure(page, id) {
  const el = page.locator(`#${id}`);
  return { text: await el.textContent(), value: Number(await el.getAttribute('data-value')) };
}
