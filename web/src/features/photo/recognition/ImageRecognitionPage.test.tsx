import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, mockFetch, renderWithProviders, signedOut } from '../../../test/utils';
import ImageRecognitionPage from './ImageRecognitionPage';

function renderPage() {
  return renderWithProviders(<ImageRecognitionPage />, { path: '/image-recognition', preloadedState: signedOut() });
}

const png = () => new File([new Uint8Array([137, 80, 78, 71])], 'toy.png', { type: 'image/png' });

describe('image recognition test page', () => {
  it('asks for an image, then for an image file', async () => {
    renderPage();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Analyze Image' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please select an image first');
    fireEvent.change(screen.getByLabelText('Upload an Image'), { target: { files: [new File(['x'], 'a.txt', { type: 'text/plain' })] } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Please select an image file');
  });

  it('will not generate before an analysis', async () => {
    renderPage();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Generate Wishlist Item' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please analyze an image first');
  });

  it('analyses with the custom prompt, generates the JSON entry and copies it', async () => {
    const calls = mockFetch((call) =>
      call.url === '/api/vision/analyze'
        ? json({ id: 'a', name: 'Teddy Bear', description: 'A soft brown bear.', category: 'Toys', searchQuery: 'teddy bear', approximatePrice: '$19.99', features: ['Soft'] })
        : json({ name: 'Teddy Bear', description: 'A soft bear.', price: '$19.99', estimatedPrice: '$20.00', category: 'toy', source: 'gemini' }),
    );
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    const user = userEvent.setup();
    renderPage();
    fireEvent.change(screen.getByLabelText('Upload an Image'), { target: { files: [png()] } });
    expect(await screen.findByAltText('The image to analyze')).toHaveAttribute('src', 'data:image/png;base64,iVBORw==');
    await user.type(screen.getByLabelText(/Custom prompt/), 'Only the bear');
    await user.click(screen.getByRole('button', { name: 'Analyze Image' }));
    expect(await screen.findByTestId('analysis-text')).toHaveTextContent('Name: Teddy Bear');
    expect(calls[0].body).toEqual({ image: 'data:image/png;base64,iVBORw==', prompt: 'Only the bear' });

    await user.click(screen.getByRole('button', { name: 'Generate Wishlist Item' }));
    const entry = await screen.findByLabelText('Wishlist entry (JSON)');
    expect(entry).toHaveAttribute('readonly');
    expect(JSON.parse((entry as HTMLTextAreaElement).value)).toEqual({
      name: 'Teddy Bear',
      description: 'A soft bear.',
      price: '$19.99',
      estimatedPrice: '$20.00',
      category: 'toy',
    });
    expect(calls[1]).toMatchObject({ url: '/api/vision/generate', body: { mode: 'item' } });
    expect((calls[1].body as { prompt: string }).prompt).toContain('Name: Teddy Bear');

    await user.click(screen.getByRole('button', { name: 'Copy to Clipboard' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith((entry as HTMLTextAreaElement).value));
  });

  it('reports analysis and generation failures', async () => {
    let fail = 'analyze';
    mockFetch((call) => {
      if (call.url === '/api/vision/analyze' && fail === 'analyze') return json({ error: { message: 'Gemini API error (500)' } }, 502);
      if (call.url === '/api/vision/analyze') return json({ name: 'Teddy Bear' });
      return json({ error: { message: 'No valid response from Gemini API' } }, 502);
    });
    const user = userEvent.setup();
    renderPage();
    fireEvent.change(screen.getByLabelText('Upload an Image'), { target: { files: [png()] } });
    await screen.findByAltText('The image to analyze');
    await user.click(screen.getByRole('button', { name: 'Analyze Image' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Analysis failed: Gemini API error (500)');
    fail = 'generate';
    await user.click(screen.getByRole('button', { name: 'Analyze Image' }));
    await screen.findByTestId('analysis-text');
    await user.click(screen.getByRole('button', { name: 'Generate Wishlist Item' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Generation failed: No valid response from Gemini API');
  });
});
