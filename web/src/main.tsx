import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router';
import { makeStore } from './app/store';
import { makeRouter } from './app/router';
import { startAuth } from './features/auth/bootstrap';
import { markStandalone } from './lib/standalone';
import { preloadSounds } from './lib/sounds';
import { registerServiceWorker } from './lib/serviceWorker';
import './index.css';

const store = makeStore();
const router = makeRouter();

markStandalone();
void startAuth(store.dispatch);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>
  </StrictMode>,
);

window.addEventListener('load', () => {
  registerServiceWorker();
  // Sounds are fetched once the page is idle, so the first screen is not slowed by them.
  const idle = window.requestIdleCallback ?? ((cb: () => void) => setTimeout(cb, 2000));
  idle(() => preloadSounds());
});
