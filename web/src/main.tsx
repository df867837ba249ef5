// The shared tokens, layout and primitives come first, so a feature's own CSS (imported by its
// components) overrides them, as it does for the screens loaded later.
import './index.css';
import { StrictMode } from 'react';
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

const store = makeStore();

markStandalone();
startTheme();
void startAuth(store.dispatch);
startPhotoRefresh(store.dispatch);

// The first paint waits for the language's catalogs: English is bundled, another language is one
// small fetch, so nobody sees English flash before their own language.
void startI18n().finally(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Provider store={store}>
        <FeatureBridges>
          <AppRouter />
        </FeatureBridges>
      </Provider>
    </StrictMode>,
  ),
);

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
