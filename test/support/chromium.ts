import { existsSync } from "node:fs";
import { type BrowserContext, chromium } from "playwright-core";

/** Debian's chromium (`.ci/run` installs it); browser tests skip, saying so, without it. */
export const CHROMIUM = "/usr/bin/chromium";
export const chromiumPresent = existsSync(CHROMIUM);

/** A headless chromium with its own profile directory, quiet: no background networking, updates or sync. */
export function launchChromium(profile: string, viewport?: { width: number; height: number }): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    ...(viewport && { viewport }),
  });
}
