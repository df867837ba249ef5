import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests against the real stack (`make dev`): the gateway at E2E_BASE_URL serving the
 * built app, and the Firebase Auth emulator. The system Chromium is used; Playwright downloads
 * no browser (PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1).
 */
const baseURL = process.env.E2E_BASE_URL ?? 'http://localhost:8080';

const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/**
 * E2E_HOST_MAP="host=ip:port[,host=ip:port]" (deploy/cluster/k8s-test.sh): the app's host names
 * (its own and the Auth emulator's) resolved to where the ingress controller listens, as DNS
 * would point them at a load balancer, for Chromium (its resolver rules) and for the tests' own
 * calls (support/hostMap.ts).
 */
const hostMap = process.env.E2E_HOST_MAP?.split(',').map((pair) => pair.split('='));
if (hostMap) chromiumArgs.push(`--host-resolver-rules=${hostMap.map(([host, to]) => `MAP ${host} ${to}`).join(', ')}`);
/**
 * E2E_BROWSER_HOME (k8s-test.sh): Chromium's home, whose NSS database (.pki/nssdb) trusts the
 * cluster's local CA, so that the app over HTTPS is a secure context with a valid certificate
 * (service workers, the camera) and not an accepted error.
 */
const browserEnv = process.env.E2E_BROWSER_HOME ? { ...process.env, HOME: process.env.E2E_BROWSER_HOME } : undefined;

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  // Room for a machine that builds the cluster's binaries beside the suite on its first run
  // (axe-core's check of a screen alone took most of a minute then); a fast run is unchanged.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 1,
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
    // Service workers would serve cached builds between tests; the offline test allows them.
    serviceWorkers: 'block',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: chromiumArgs,
      env: browserEnv,
    },
  },
  projects: [
    { name: 'setup', testMatch: /.*\.setup\.ts/ },
    { name: 'phone', testMatch: /.*\.spec\.ts/, dependencies: ['setup'] },
    // deploy/local/smoke.sh only (E2E_SMOKE=1): the dev profile that `stack.sh up` started.
    ...(process.env.E2E_SMOKE === '1' ? [{ name: 'smoke', testMatch: /.*\.smoke\.ts/ }] : []),
    // deploy/cluster/k8s-test.sh only (E2E_CLUSTER=1): the release on the local cluster, through
    // its ingress controller on the Ingress's host name.
    ...(process.env.E2E_CLUSTER === '1' ? [{ name: 'cluster', testMatch: /.*\.cluster\.ts/ }] : []),
  ],
});
