/**
 * A minimal Chrome DevTools Protocol client over `--remote-debugging-pipe`: Chromium reads
 * NUL-terminated JSON commands on fd 3 and writes replies and events on fd 4. No port to find, no
 * WebSocket framing, nothing left listening if the test dies: the pipe closes with the process.
 * It records what a page must not do (console errors, uncaught exceptions, JavaScript dialogs).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

/** The Chromium binary: $CHROMIUM when set (and only it), else chromium (Debian) or another usual name on PATH. */
export function findChromium(): string {
  const named = process.env['CHROMIUM'];
  const candidates = named ? [named] : [];
  for (const dir of named ? [] : (process.env['PATH'] ?? '').split(delimiter).filter(Boolean)) {
    for (const name of ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome']) candidates.push(join(dir, name));
  }
  for (const path of candidates) {
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // try the next one
    }
  }
  throw new Error(`Chromium not found${named ? ` at CHROMIUM=${named}` : ' on PATH'}: the browser test needs it. Run scripts/install-chromium.sh (apt-get install chromium), or set CHROMIUM=/path/to/chrome.`);
}

/** The promise, or `error()` after `ms`; the timer never outlives it (jest waits for open timers). */
async function within<T>(promise: Promise<T>, ms: number, error: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(error()), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

interface Pending {
  resolve: (value: Record<string, unknown>) => void;
  reject: (error: Error) => void;
  method: string;
}

export interface PageProblem {
  kind: 'console' | 'exception' | 'log' | 'dialog';
  text: string;
}

type Listener = (params: Record<string, unknown>, sessionId?: string) => void;

export class Browser {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Listener[]>();
  private buffer = '';
  stderr = '';

  private constructor(
    private readonly child: ChildProcess,
    private readonly profile: string,
  ) {
    const output = child.stdio[4] as Readable;
    output.setEncoding('utf8');
    output.on('data', (chunk: string) => this.receive(chunk));
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      if (this.stderr.length < 20_000) this.stderr += chunk;
    });
    child.on('exit', (code) => {
      for (const { reject, method } of this.pending.values()) reject(new Error(`Chromium exited (${code}) while waiting for ${method}; stderr:\n${this.stderr.slice(-2000)}`));
      this.pending.clear();
    });
  }

  static async launch(width = 1360, height = 900): Promise<Browser> {
    const profile = mkdtempSync(join(tmpdir(), 'profile-gate-chromium-'));
    const child = spawn(
      findChromium(),
      [
        '--headless',
        '--remote-debugging-pipe',
        // The test loads only our own file:// page; CI containers and root cannot use the sandbox.
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-extensions',
        '--disable-background-networking',
        '--no-first-run',
        '--no-default-browser-check',
        '--hide-scrollbars',
        '--mute-audio',
        `--window-size=${width},${height}`,
        `--user-data-dir=${profile}`,
        'about:blank',
      ],
      { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] },
    );
    const browser = new Browser(child, profile);
    await within(browser.send('Browser.getVersion'), 20_000, () => new Error(`Chromium did not answer within 20 s; stderr:\n${browser.stderr.slice(-2000)}`));
    return browser;
  }

  private receive(chunk: string): void {
    this.buffer += chunk;
    let end;
    while ((end = this.buffer.indexOf('\0')) >= 0) {
      const message = JSON.parse(this.buffer.slice(0, end)) as { id?: number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: { message: string }; sessionId?: string };
      this.buffer = this.buffer.slice(end + 1);
      if (message.id !== undefined) {
        const waiting = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.error) waiting?.reject(new Error(`${waiting.method}: ${message.error.message}`));
        else waiting?.resolve(message.result ?? {});
      } else if (message.method) {
        for (const listener of this.listeners.get(message.method) ?? []) listener(message.params ?? {}, message.sessionId);
      }
    }
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, method });
      (this.child.stdio[3] as Writable).write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  }

  on(event: string, listener: Listener): void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
  }

  async newPage(width: number, height: number): Promise<Page> {
    const { targetId } = (await this.send('Target.createTarget', { url: 'about:blank' })) as { targetId: string };
    const { sessionId } = (await this.send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
    const page = new Page(this, sessionId);
    await Promise.all([page.send('Page.enable'), page.send('Runtime.enable'), page.send('Log.enable')]);
    await page.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
    return page;
  }

  async close(): Promise<void> {
    const exited = new Promise<void>((resolve) => (this.child.exitCode !== null ? resolve() : this.child.once('exit', () => resolve())));
    try {
      await within(this.send('Browser.close'), 3000, () => new Error('Browser.close timed out'));
    } catch {
      // it may already be gone, or stuck: killed below
    }
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
    for (const stream of this.child.stdio) stream?.destroy();
    rmSync(this.profile, { recursive: true, force: true });
  }
}

export class Page {
  readonly problems: PageProblem[] = [];

  constructor(
    private readonly browser: Browser,
    readonly sessionId: string,
  ) {
    const mine = (listener: (params: Record<string, unknown>) => void): Listener => (params, session) => {
      if (session === sessionId) listener(params);
    };
    browser.on('Runtime.consoleAPICalled', mine((p) => {
      if (p['type'] === 'error' || p['type'] === 'assert') this.problems.push({ kind: 'console', text: JSON.stringify(p['args']) });
    }));
    browser.on('Runtime.exceptionThrown', mine((p) => this.problems.push({ kind: 'exception', text: JSON.stringify(p['exceptionDetails']) })));
    browser.on('Log.entryAdded', mine((p) => {
      const entry = p['entry'] as { level: string; text: string; url?: string };
      if (entry.level === 'error') this.problems.push({ kind: 'log', text: `${entry.text} ${entry.url ?? ''}` });
    }));
    browser.on('Page.javascriptDialogOpening', mine((p) => {
      this.problems.push({ kind: 'dialog', text: `${String(p['type'])}: ${String(p['message'])}` });
      void this.send('Page.handleJavaScriptDialog', { accept: true });
    }));
  }

  send(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    return this.browser.send(method, params, this.sessionId);
  }

  async evaluate<T>(expression: string): Promise<T> {
    const reply = (await this.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true })) as { result: { value: T }; exceptionDetails?: unknown };
    if (reply.exceptionDetails) throw new Error(`evaluate ${expression}: ${JSON.stringify(reply.exceptionDetails)}`);
    return reply.result.value;
  }

  /** Navigates and waits until `ready` (an expression) is truthy; the wall time it took, in ms. */
  async load(url: string, ready: string, timeoutMs = 15_000): Promise<number> {
    const started = performance.now();
    await this.send('Page.navigate', { url });
    for (;;) {
      const value = await this.evaluate<unknown>(ready).catch(() => null);
      if (value) return performance.now() - started;
      if (performance.now() - started > timeoutMs) throw new Error(`${url}: not ready (${ready}) after ${timeoutMs} ms; problems: ${JSON.stringify(this.problems)}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** A PNG of the whole page (not only the viewport), or of its first `maxHeight` pixels. */
  async screenshot(width: number, maxHeight = 16_000): Promise<Buffer> {
    const metrics = (await this.send('Page.getLayoutMetrics')) as { cssContentSize: { height: number } };
    const full = Math.ceil(metrics.cssContentSize.height);
    await this.send('Emulation.setDeviceMetricsOverride', { width, height: Math.min(16_000, full), deviceScaleFactor: 1, mobile: false });
    const clip = { x: 0, y: 0, width, height: Math.min(maxHeight, full), scale: 1 };
    const { data } = (await this.send('Page.captureScreenshot', { format: 'png', clip })) as { data: string };
    return Buffer.from(data, 'base64');
  }
}
