import { act, render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useNavigate, type NavigateFunction } from 'react-router';
import { useScrollRestoration } from './useScrollRestoration';

let navigate: NavigateFunction;

function Frame() {
  useScrollRestoration();
  navigate = useNavigate();
  return null;
}

function scrollTo(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
  window.dispatchEvent(new Event('scroll'));
}

describe('useScrollRestoration', () => {
  it('starts a new screen at the top and returns to where an entry was left on back and forward', async () => {
    const scroll = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    render(
      <MemoryRouter initialEntries={['/wishlist']}>
        <Routes>
          <Route path="*" element={<Frame />} />
        </Routes>
      </MemoryRouter>,
    );
    expect(scroll).toHaveBeenLastCalledWith(0, 0);
    scrollTo(640);

    await act(async () => navigate('/claims'));
    expect(scroll).toHaveBeenLastCalledWith(0, 0);
    scrollTo(120);

    await act(async () => navigate(-1));
    expect(scroll).toHaveBeenLastCalledWith(0, 640);
    await act(async () => navigate(1));
    expect(scroll).toHaveBeenLastCalledWith(0, 120);

    // A link to the same screen again is a new entry: the top, not the old position.
    await act(async () => navigate('/wishlist'));
    expect(scroll).toHaveBeenLastCalledWith(0, 0);
  });

  it('goes to the #anchor a link names', async () => {
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    const anchor = document.createElement('div');
    anchor.id = 'gift-history';
    anchor.scrollIntoView = vi.fn();
    document.body.append(anchor);
    render(
      <MemoryRouter initialEntries={['/account']}>
        <Routes>
          <Route path="*" element={<Frame />} />
        </Routes>
      </MemoryRouter>,
    );
    await act(async () => navigate('/account#gift-history'));
    expect(anchor.scrollIntoView).toHaveBeenCalled();
    anchor.remove();
  });
});
