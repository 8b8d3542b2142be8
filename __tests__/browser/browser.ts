/**
 * Headless Chromium for the browser tests, driven by puppeteer-core. The browser comes from the npm
 * registry (@sparticuz/chromium ships it inside the package), so `npm ci` is the whole set-up;
 * CHROMIUM=/path/to/chrome picks another one (e.g. Debian's /usr/bin/chromium).
 * Each page records what it must not do: console errors, uncaught exceptions, JavaScript dialogs.
 */
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser as PuppeteerBrowser, type Page as PuppeteerPage } from 'puppeteer-core';

/** The Chromium binary: $CHROMIUM when set, else the one inside @sparticuz/chromium (unpacked once into the temp dir). */
export async function chromiumPath(): Promise<string> {
  return process.env['CHROMIUM'] || chromium.executablePath();
}

// The package's flags are tuned for AWS Lambda; one renderer process per page is what a test wants.
const LAMBDA_ONLY = new Set(['--single-process', '--no-zygote', '--disable-web-security', '--allow-running-insecure-content']);

export interface PageProblem {
  kind: 'console' | 'exception' | 'request' | 'dialog';
  text: string;
}

export class Browser {
  private constructor(private readonly browser: PuppeteerBrowser) {}

  static async launch(width = 1360, height = 900): Promise<Browser> {
    const args = chromium.args.filter((arg) => !LAMBDA_ONLY.has(arg) && !arg.startsWith('--headless'));
    const browser = await puppeteer.launch({
      executablePath: await chromiumPath(),
      // The tests load only our own file:// pages; CI containers and root cannot use the sandbox.
      args: [...args, '--no-sandbox', '--disable-dev-shm-usage', '--hide-scrollbars', `--window-size=${width},${height}`],
      headless: true,
      pipe: true,
      defaultViewport: { width, height },
      timeout: 30_000,
    });
    return new Browser(browser);
  }

  async newPage(width: number, height: number): Promise<Page> {
    const page = await this.browser.newPage();
    await page.setViewport({ width, height, deviceScaleFactor: 1 });
    return new Page(page);
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}

export class Page {
  readonly problems: PageProblem[] = [];

  constructor(readonly page: PuppeteerPage) {
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'assert') this.problems.push({ kind: 'console', text: message.text() });
    });
    page.on('pageerror', (error) => this.problems.push({ kind: 'exception', text: String(error) }));
    page.on('requestfailed', (request) => this.problems.push({ kind: 'request', text: `${request.url()}: ${request.failure()?.errorText ?? 'failed'}` }));
    page.on('dialog', (dialog) => {
      this.problems.push({ kind: 'dialog', text: `${dialog.type()}: ${dialog.message()}` });
      void dialog.accept();
    });
  }

  /** The value of a JavaScript expression in the page (promises awaited). */
  async evaluate<T>(expression: string): Promise<T> {
    return (await this.page.evaluate(expression)) as T;
  }

  /** Navigates and waits until `ready` (an expression) is truthy; the wall time it took, in ms. */
  async load(url: string, ready: string, timeoutMs = 15_000): Promise<number> {
    const started = performance.now();
    await this.page.goto(url);
    try {
      await this.page.waitForFunction(ready, { timeout: timeoutMs, polling: 5 });
    } catch {
      throw new Error(`${url}: not ready (${ready}) after ${timeoutMs} ms; problems: ${JSON.stringify(this.problems)}`);
    }
    return performance.now() - started;
  }

  /** A PNG of the whole page (not only the viewport), or of its first `maxHeight` pixels. */
  async screenshot(width: number, maxHeight = 16_000): Promise<Buffer> {
    const full = Math.ceil(await this.evaluate<number>('document.documentElement.scrollHeight'));
    const clip = { x: 0, y: 0, width, height: Math.min(maxHeight, full, 16_000) };
    return Buffer.from(await this.page.screenshot({ type: 'png', clip, captureBeyondViewport: true }));
  }
}
