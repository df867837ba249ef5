// The shared tokens, layout and primitives come first, so a feature's own CSS (imported by its
// components) overrides them, as it does for the screens loaded later.
import './index.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { makeStore } from './app/store';
import { startPhotoRefresh } from './app/photoRefresh';
import { FeatureBridges } from './app/FeatureBridges';
import { AppRouter } from './app/router';
import { startAuth } from './features/auth/bootstrap';
import { markStandalone } from './lib/standalone';
import { startTheme } from './lib/theme';
import { startI18n } from './lib/i18n';
import { preloadSounds } from './lib/sounds';
import { registerServiceWorker } from './lib/serviceWorker';

/** Lets the browser run what is waiting (input, painting) before the next step of the start. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The app starts in steps, each a task of its own, so that no single step holds a phone's main
 * thread for long (Lighthouse's Total Blocking Time counts every task over 50 ms): the modules,
 * then the store, then the texts, then the first render, which runs as a transition that React
 * renders in slices, yielding between them, rather than in one piece.
 */
async function start() {
  markStandalone();
  startTheme();
  await nextTask();
  const store = makeStore();
  void startAuth(store.dispatch);
  startPhotoRefresh(store.dispatch);
  await nextTask();
  // The first paint waits for the language's catalogs: English is bundled, another language is one
  // small fetch, so nobody sees English flash before their own language.
  await startI18n().catch((err: unknown) => console.error('texts did not load', err));
  const root = createRoot(document.getElementById('root')!);
  startTransition(() =>
    root.render(
      <StrictMode>
        <Provider store={store}>
          <FeatureBridges>
            <AppRouter />
          </FeatureBridges>
        </Provider>
      </StrictMode>,
    ),
  );
}

void start();

window.addEventListener('load', registerServiceWorker);
// The sounds (about 140 KB) are fetched at the first touch or key press, not with the first
// screen: by the time anything can trigger the Santa overlay they are there.
const warmSounds = () => {
  preloadSounds();
  window.removeEventListener('pointerdown', warmSounds);
  window.removeEventListener('keydown', warmSounds);
};
window.addEventListener('pointerdown', warmSounds, { passive: true });
window.addEventListener('keydown', warmSounds);
