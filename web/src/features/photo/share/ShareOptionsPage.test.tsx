import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, signedOut } from '../../../test/utils';
import { storeEditedImage, storeGiftDetails } from '../flow';
import ShareOptionsPage from './ShareOptionsPage';
import { nameFromSlug, shareSlug, shareTargets } from './shareLinks';

const EDITED = 'data:image/jpeg;base64,ZWRpdGVk';

function renderPage() {
  return renderWithProviders(<ShareOptionsPage />, { path: '/share-options', preloadedState: signedOut() });
}

describe('share links', () => {
  it('makes the slug from the lower-cased, hyphenated name and back', () => {
    expect(shareSlug('Toy Racing Car')).toBe('toy-racing-car');
    expect(shareSlug('  Crème Brûlée Set (2 pcs)! ')).toBe('creme-brulee-set-2-pcs');
    expect(shareSlug('!!!')).toBe('gift');
    expect(nameFromSlug('toy-racing-car')).toBe('Toy Racing Car');
  });

  it('builds the WhatsApp, Facebook, Twitter and SMS links with the message and link', () => {
    const link = 'https://santa.example/share/toy-racing-car';
    const targets = Object.fromEntries(shareTargets('I would really love this for Christmas', 'Toy Racing Car', link).map((t) => [t.id, t.href]));
    const text = 'I would really love this for Christmas: Toy Racing Car';
    expect(targets.whatsapp).toBe(`https://wa.me/?text=${encodeURIComponent(`${text} ${link}`)}`);
    expect(targets.facebook).toBe(`https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(link)}`);
    expect(targets.twitter).toBe(`https://twitter.com/intent/tweet?text=${encodeURIComponent(text)}&url=${encodeURIComponent(link)}`);
    expect(targets.sms).toBe(`sms:?&body=${encodeURIComponent(`${text} ${link}`)}`);
  });
});

describe('share options', () => {
  it('sends the visitor back to the gift options when no edited image is stored', async () => {
    const { router } = renderPage();
    await waitFor(() => expect(router.state.location.pathname).toBe('/gift-options'));
  });

  it('shows the default name, line and message, the share links and the link', () => {
    storeEditedImage(EDITED);
    renderPage();
    expect(screen.getByTestId('share-name')).toHaveTextContent('Toy Racing Car');
    expect(screen.getByText('From my wishlist')).toBeInTheDocument();
    expect(screen.getByLabelText('Message')).toHaveValue('I would really love this for Christmas');
    const link = `${window.location.origin}/share/toy-racing-car`;
    expect(screen.getByLabelText('Shareable link')).toHaveValue(link);
    expect(screen.getByTestId('share-whatsapp')).toHaveAttribute('href', expect.stringContaining('https://wa.me/?text='));
    expect(screen.getByTestId('share-facebook')).toHaveAttribute('href', expect.stringContaining(encodeURIComponent(link)));
    expect(screen.getByTestId('share-twitter')).toHaveAttribute('href', expect.stringContaining('https://twitter.com/intent/tweet?text='));
    expect(screen.getByTestId('share-sms')).toHaveAttribute('href', expect.stringMatching(/^sms:\?&body=/));
  });

  it('uses the AI name, and an edited message goes into the links', async () => {
    storeEditedImage(EDITED);
    storeGiftDetails({ name: 'Wooden Sled', description: 'A sled for two.', price: '$80' }, true);
    renderPage();
    expect(screen.getByTestId('share-name')).toHaveTextContent('Wooden Sled');
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText('Message'));
    await user.type(screen.getByLabelText('Message'), 'Please Santa');
    expect(screen.getByTestId('share-whatsapp').getAttribute('href')).toContain(encodeURIComponent('Please Santa: Wooden Sled'));
  });

  it('copies the link and says so, or says it could not', async () => {
    storeEditedImage(EDITED);
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    renderPage();
    await user.click(screen.getByRole('button', { name: 'Copy Link' }));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/share/toy-racing-car`);
    expect(await screen.findByTestId('toast')).toHaveTextContent('Link CopiedShareable link copied to clipboard');
    writeText.mockRejectedValueOnce(new Error('denied'));
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await user.click(screen.getByRole('button', { name: 'Copy Link' }));
    expect(await screen.findByText('Copy Failed')).toBeInTheDocument();
    expect(screen.getByText('Could not copy link to clipboard')).toBeInTheDocument();
  });
});
