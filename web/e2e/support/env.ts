import { fileURLToPath } from 'node:url';

export const BASE_URL = process.env.E2E_BASE_URL ?? 'http://localhost:8080';

/**
 * Where snap() saves its pictures: docs/screenshots/ at the repository root only when asked
 * (`make screenshots` sets UPDATE_SCREENSHOTS=1), so that a test run leaves the tree as it found
 * it; otherwise test-results/screenshots/, which git ignores.
 */
export const SCREENSHOT_DIR = fileURLToPath(
  new URL(process.env.UPDATE_SCREENSHOTS === '1' ? '../../../docs/screenshots/' : '../../test-results/screenshots/', import.meta.url),
);
/** The signed-in browser state written by auth.setup.ts. */
export const USER_STATE = fileURLToPath(new URL('../.auth/user.json', import.meta.url));
export const USER_FILE = fileURLToPath(new URL('../.auth/user-credentials.json', import.meta.url));

/** A fresh address per run, so runs never collide in the emulator. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}
