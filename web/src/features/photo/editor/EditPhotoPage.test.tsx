import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { useImperativeHandle } from 'react';
import { json, mockFetch, renderWithProviders, signedOut } from '../../../test/utils';
import { storeCapturedImage, storeScanResult } from '../flow';
import EditPhotoPage from './EditPhotoPage';
import type { EditorState } from './slice';

const PHOTO = 'data:image/jpeg;base64,cGhvdG8=';
const FLAT = 'data:image/jpeg;base64,ZmxhdA==';

// jsdom has no canvas: the Konva stage is replaced by a probe that shows the editor state and
// flattens to a fixed JPEG. The reducer and the Next flow are the real ones.
const toJpeg = vi.fn(() => FLAT);
vi.mock('./StickerStage', () => ({
  default: function FakeStage({ state, ref }: { state: EditorState; ref?: React.Ref<{ toJpeg(): string }> }) {
    useImperativeHandle(ref, () => ({ toJpeg }));
    return <output data-testid="stage">{state.stickers.map((s) => `${s.stickerId}@${s.x},${s.y}`).join(' ')}</output>;
  },
}));

function renderEditor(path = '/edit-photo') {
  return renderWithProviders(<EditPhotoPage />, { path: '/edit-photo', initialEntry: path, preloadedState: signedOut() });
}

describe('sticker editor page', () => {
  it('sends the visitor to the camera when no photo is stored', async () => {
    const { router } = renderEditor();
    await waitFor(() => expect(router.state.location.pathname).toBe('/camera'));
  });

  it('offers 19 stickers, the hint, Back and Next; a tapped sticker is added and selected', async () => {
    storeCapturedImage(PHOTO);
    renderEditor();
    await screen.findByTestId('stage');
    const picker = screen.getByRole('group', { name: 'Stickers' });
    expect(picker.querySelectorAll('button')).toHaveLength(19);
    expect(screen.getByText('Tap to add, drag to move, select and use the bin icon to remove.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete the selected sticker' })).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Add Santa Hat' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add Snowman' }));
    const canvas = screen.getByTestId('editor-canvas');
    expect(canvas).toHaveAttribute('data-stickers', '2');
    expect(screen.getByTestId('stage').textContent).toMatch(/^santa-hat@\d+,\d+ snowman@\d+,\d+$/);
    for (const [, x, y] of screen.getByTestId('stage').textContent!.matchAll(/@(\d+),(\d+)/g)) {
      expect(Number(x)).toBeGreaterThanOrEqual(50);
      expect(Number(y)).toBeLessThanOrEqual(250);
    }

    fireEvent.click(screen.getByRole('button', { name: 'Delete the selected sticker' }));
    expect(canvas).toHaveAttribute('data-stickers', '1');
    expect(screen.getByTestId('stage').textContent).toMatch(/^santa-hat@/);
    expect(screen.queryByRole('button', { name: 'Delete the selected sticker' })).not.toBeInTheDocument();
  });

  it('Back returns to the camera (in barcode mode after a scan)', async () => {
    storeCapturedImage(PHOTO);
    storeScanResult('036000291452');
    const { router } = renderEditor('/edit-photo?source=scan');
    expect(await screen.findByTestId('scan-notice')).toHaveTextContent('036000291452');
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/camera?mode=scan'));
  });

  it('Next flattens the canvas, asks the AI with it and opens the gift options', async () => {
    storeCapturedImage(PHOTO);
    let release!: () => void;
    const answered = new Promise<void>((r) => (release = r));
    const calls = mockFetch(async () => {
      await answered;
      return json({ name: 'Racing Car', description: 'A red toy car.', price: '$24.99', source: 'gemini' });
    });
    const { router } = renderEditor();
    await screen.findByTestId('stage');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('button', { name: /Processing\.\.\./ })).toBeDisabled();
    expect(await screen.findByTestId('toast')).toHaveTextContent('AI analysis in progressIdentifying gift details using AI...');
    await act(async () => release());
    await waitFor(() => expect(router.state.location.pathname).toBe('/gift-options'));
    expect(toJpeg).toHaveBeenCalled();
    expect(localStorage.getItem('editedImage')).toBe(FLAT);
    expect(calls[0].url).toBe('/api/vision/generate');
    expect(calls[0].body).toEqual({ prompt: '', mode: 'gift', image: FLAT });
    expect(localStorage.getItem('geminiItemName')).toBe('Racing Car');
    expect(localStorage.getItem('geminiItemPrice')).toBe('$24.99');
  });
});
